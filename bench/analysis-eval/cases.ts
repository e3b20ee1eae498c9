/**
 * The analysis evaluation set: labelled cases, each either a short video rendered from
 * its description here (coloured scenes with hard cuts, text overlays, a face still, a voice spoken by
 * espeak-ng, or silence) or a transcript alone. The labels are what a person watching would say: the hook
 * style and phrase, the call to action and where it points, the UGC fit; for videos also the on-screen
 * text (the overlays as rendered) and the cut count (scenes − 1, every scene change being a hard cut
 * between colours chosen far apart).
 *
 * Read by bench/analysis-eval.ts (`npm run bench -- analysis-eval`), rendered by ./render.ts.
 */
import type { OverlaySpec, SceneSpec } from "../../src/providers/media/render-video.js";
import type { CtaType, HookStyle, UgcFit } from "../../src/domain/analysis/vocabulary.js";

export interface Expected {
  hookStyle: HookStyle;
  /** "" when there is no hook. */
  hookPhrase: string;
  ctaType: CtaType;
  ctaDestinationUrl: string | null;
  ugcFit: UgcFit;
}

export interface VideoCase {
  id: string;
  kind: "video";
  scenes: SceneSpec[];
  overlays: OverlaySpec[];
  /** Said by espeak-ng over the video; the transcript is this text as captions timed over the speech. */
  voice?: string;
  description: string;
  expect: Expected & { onScreenText: string[]; cutCount: number };
}

export interface TranscriptCase {
  id: string;
  kind: "transcript";
  transcript: string;
  description: string;
  expect: Expected;
}

export type EvalCase = VideoCase | TranscriptCase;

/** Alternating dark and light colours: any two neighbours differ enough to be a cut. */
const COLOURS = ["0x1f3a5f", "0xf2c14e", "0x7a1f3d", "0x9fe3f0", "0x1e5631", "0xf7b7c3", "0x2b2b2b", "0xe8e8e8"];

/** `n` scenes of `seconds` each; `faces` lists the scenes (0-based) showing a face. */
function scenes(n: number, seconds: number, faces: number[] = [], start = 0): SceneSpec[] {
  return Array.from({ length: n }, (_, i) => ({ seconds, colour: COLOURS[(i + start) % COLOURS.length]!, face: faces.includes(i) }));
}

const hook = (text: string, to = 3): OverlaySpec => ({ text, from: 0, to, position: "top" });
const later = (text: string, from: number, to: number): OverlaySpec => ({ text, from, to, position: "bottom" });

type VideoInput = Omit<VideoCase, "kind" | "expect"> & { expect: Expected };

/** A video case; its on-screen text and cut count are what is rendered. */
function video(c: VideoInput): VideoCase {
  return { ...c, kind: "video", expect: { ...c.expect, onScreenText: c.overlays.map((o) => o.text), cutCount: c.scenes.length - 1 } };
}

function transcript(id: string, text: string, expect: Expected, description = ""): TranscriptCase {
  return { id, kind: "transcript", transcript: text, description, expect };
}

const none = { ctaType: "none" as const, ctaDestinationUrl: null };

export const CASES: EvalCase[] = [
  // --- Silent videos whose hook is only on screen ---------------------------------------------
  video({
    id: "silent-pov",
    scenes: scenes(3, 2.5),
    overlays: [hook("POV: you finally found the perfect morning routine")],
    description: "morning routine ☀️",
    expect: { hookStyle: "direct_address", hookPhrase: "POV: you finally found the perfect morning routine", ...none, ugcFit: "medium" },
  }),
  video({
    id: "silent-mistakes",
    scenes: scenes(4, 2),
    overlays: [hook("3 mistakes every new runner makes")],
    description: "",
    expect: { hookStyle: "how_to", hookPhrase: "3 mistakes every new runner makes", ...none, ugcFit: "medium" },
  }),
  video({
    id: "silent-nobody",
    scenes: scenes(2, 3),
    overlays: [hook("Nobody talks about this skincare step")],
    description: "",
    expect: { hookStyle: "curiosity_gap", hookPhrase: "Nobody talks about this skincare step", ...none, ugcFit: "medium" },
  }),
  video({
    id: "silent-question",
    scenes: scenes(3, 2),
    overlays: [hook("Why is nobody talking about this?")],
    description: "",
    expect: { hookStyle: "question", hookPhrase: "Why is nobody talking about this?", ...none, ugcFit: "medium" },
  }),
  video({
    id: "silent-story",
    scenes: scenes(3, 2.5, [1]),
    overlays: [hook("I quit my job to sell candles")],
    description: "year one 🕯️",
    expect: { hookStyle: "story", hookPhrase: "I quit my job to sell candles", ...none, ugcFit: "high" },
  }),
  video({
    id: "silent-statistic",
    scenes: scenes(2, 3),
    overlays: [hook("90% of people wash their face wrong")],
    description: "",
    expect: { hookStyle: "statistic", hookPhrase: "90% of people wash their face wrong", ...none, ugcFit: "medium" },
  }),
  video({
    id: "silent-bold",
    scenes: scenes(3, 2),
    overlays: [hook("Stop using olive oil for frying")],
    description: "",
    expect: { hookStyle: "bold_claim", hookPhrase: "Stop using olive oil for frying", ...none, ugcFit: "medium" },
  }),
  video({
    id: "silent-wait",
    scenes: scenes(4, 1.5),
    overlays: [hook("Wait for the end")],
    description: "",
    expect: { hookStyle: "curiosity_gap", hookPhrase: "Wait for the end", ...none, ugcFit: "medium" },
  }),
  video({
    id: "silent-nurse",
    scenes: scenes(2, 3),
    overlays: [hook("If you're a nurse, watch this")],
    description: "",
    expect: { hookStyle: "direct_address", hookPhrase: "If you're a nurse, watch this", ...none, ugcFit: "medium" },
  }),
  video({
    id: "silent-howi",
    scenes: scenes(5, 1.5),
    overlays: [hook("How I paid off $30k in 2 years")],
    description: "",
    expect: { hookStyle: "how_to", hookPhrase: "How I paid off $30k in 2 years", ...none, ugcFit: "medium" },
  }),
  video({
    id: "silent-easiest",
    scenes: scenes(3, 2),
    overlays: [hook("The easiest way to clean your oven")],
    description: "",
    expect: { hookStyle: "how_to", hookPhrase: "The easiest way to clean your oven", ...none, ugcFit: "medium" },
  }),
  video({
    id: "silent-dont-buy",
    scenes: scenes(2, 3),
    overlays: [hook("Don't buy a robot vacuum before watching this")],
    description: "",
    expect: { hookStyle: "bold_claim", hookPhrase: "Don't buy a robot vacuum before watching this", ...none, ugcFit: "medium" },
  }),
  video({
    id: "silent-what-i-eat",
    scenes: scenes(4, 2, [0, 2]),
    overlays: [hook("What I eat in a day as a nurse")],
    description: "",
    expect: { hookStyle: "story", hookPhrase: "What I eat in a day as a nurse", ...none, ugcFit: "high" },
  }),
  video({
    id: "silent-wont-believe",
    scenes: scenes(3, 2),
    overlays: [hook("You won't believe what this cost")],
    description: "",
    expect: { hookStyle: "curiosity_gap", hookPhrase: "You won't believe what this cost", ...none, ugcFit: "medium" },
  }),
  video({
    id: "silent-unpopular",
    scenes: scenes(2, 3),
    overlays: [{ text: "Unpopular opinion: brunch is overrated", from: 0, to: 3, position: "middle" }],
    description: "",
    expect: { hookStyle: "bold_claim", hookPhrase: "Unpopular opinion: brunch is overrated", ...none, ugcFit: "medium" },
  }),
  video({
    id: "silent-ever-wondered",
    scenes: scenes(3, 2),
    overlays: [hook("Ever wondered why planes are white?")],
    description: "",
    expect: { hookStyle: "question", hookPhrase: "Ever wondered why planes are white?", ...none, ugcFit: "medium" },
  }),
  video({
    id: "silent-hacks",
    scenes: scenes(8, 0.8),
    overlays: [hook("5 kitchen hacks under $20")],
    description: "",
    expect: { hookStyle: "how_to", hookPhrase: "5 kitchen hacks under $20", ...none, ugcFit: "medium" },
  }),
  video({
    id: "silent-pullup",
    scenes: scenes(4, 1.8),
    overlays: [hook("How to do your first pull-up in 4 weeks")],
    description: "",
    expect: { hookStyle: "how_to", hookPhrase: "How to do your first pull-up in 4 weeks", ...none, ugcFit: "medium" },
  }),

  // --- No hook, or text only after the first seconds -----------------------------------------------
  video({
    id: "silent-blank",
    scenes: scenes(3, 2),
    overlays: [],
    description: "",
    expect: { hookStyle: "none", hookPhrase: "", ...none, ugcFit: "medium" },
  }),
  video({
    id: "one-scene-blank",
    scenes: scenes(1, 5),
    overlays: [],
    description: "",
    expect: { hookStyle: "none", hookPhrase: "", ...none, ugcFit: "medium" },
  }),
  video({
    id: "late-follow",
    scenes: scenes(3, 2),
    overlays: [later("Follow for part 2", 4, 6)],
    description: "",
    expect: { hookStyle: "none", hookPhrase: "", ctaType: "follow", ctaDestinationUrl: null, ugcFit: "medium" },
  }),
  video({
    id: "late-link-only",
    scenes: scenes(2, 3),
    overlays: [later("Link in bio", 3.5, 6)],
    description: "",
    expect: { hookStyle: "none", hookPhrase: "", ctaType: "link_in_bio", ctaDestinationUrl: null, ugcFit: "medium" },
  }),
  video({
    id: "face-silent",
    scenes: scenes(3, 2, [0, 1, 2]),
    overlays: [],
    description: "",
    expect: { hookStyle: "none", hookPhrase: "", ...none, ugcFit: "high" },
  }),

  // --- On-screen calls to action ------------------------------------------------------------------
  video({
    id: "hook-and-bio",
    scenes: scenes(3, 2.5),
    overlays: [hook("POV: your skin finally cleared up"), later("Link in bio", 4, 7.5)],
    description: "",
    expect: {
      hookStyle: "direct_address",
      hookPhrase: "POV: your skin finally cleared up",
      ctaType: "link_in_bio",
      ctaDestinationUrl: null,
      ugcFit: "medium",
    },
  }),
  video({
    id: "code-on-screen",
    scenes: scenes(3, 2),
    overlays: [hook("3 tips for glowing skin"), later("Use code GLOW15 for 15% off", 3.5, 6)],
    description: "",
    expect: { hookStyle: "how_to", hookPhrase: "3 tips for glowing skin", ctaType: "shop", ctaDestinationUrl: null, ugcFit: "medium" },
  }),
  video({
    id: "comment-keyword-screen",
    scenes: scenes(3, 2),
    overlays: [hook("My high protein breakfast"), later("Comment RECIPE and I'll send it to you", 3.5, 6)],
    description: "",
    expect: { hookStyle: "none", hookPhrase: "", ctaType: "comment", ctaDestinationUrl: null, ugcFit: "medium" },
  }),
  video({
    id: "save-this-screen",
    scenes: scenes(4, 1.5),
    overlays: [hook("Lisbon in 3 days"), later("Save this for your next trip", 3.5, 6)],
    description: "",
    expect: { hookStyle: "none", hookPhrase: "", ctaType: "share", ctaDestinationUrl: null, ugcFit: "medium" },
  }),
  video({
    id: "send-this-screen",
    scenes: scenes(2, 3),
    overlays: [hook("Leg day but make it fun"), later("Send this to your gym buddy", 3.5, 6)],
    description: "",
    expect: { hookStyle: "none", hookPhrase: "", ctaType: "share", ctaDestinationUrl: null, ugcFit: "medium" },
  }),
  video({
    id: "url-on-screen",
    scenes: scenes(3, 2),
    overlays: [hook("The lamp everyone asks about"), later("shop.glowlab.com", 3.5, 6)],
    description: "",
    expect: { hookStyle: "none", hookPhrase: "", ctaType: "visit_url", ctaDestinationUrl: "https://shop.glowlab.com", ugcFit: "medium" },
  }),
  video({
    id: "follow-handle-screen",
    scenes: scenes(3, 2),
    overlays: [hook("Pasta night, but faster"), later("Follow @chefmaria for more", 3.5, 6)],
    description: "",
    expect: { hookStyle: "none", hookPhrase: "", ctaType: "follow", ctaDestinationUrl: null, ugcFit: "medium" },
  }),
  video({
    id: "double-tap-screen",
    scenes: scenes(2, 3),
    overlays: [hook("Sunday at the farm"), later("Double tap if you agree", 3.5, 6)],
    description: "",
    expect: { hookStyle: "none", hookPhrase: "", ctaType: "like", ctaDestinationUrl: null, ugcFit: "medium" },
  }),
  video({
    id: "subscribe-screen",
    scenes: scenes(3, 2),
    overlays: [hook("Part 1: building a tiny house"), later("Subscribe for part 2", 3.5, 6)],
    description: "",
    expect: { hookStyle: "none", hookPhrase: "", ctaType: "subscribe", ctaDestinationUrl: null, ugcFit: "medium" },
  }),

  // --- Voice, with and without overlays -------------------------------------------------------------
  video({
    id: "voice-question",
    scenes: scenes(2, 2.5),
    overlays: [],
    voice: "Have you ever tried cooking pasta in the microwave? It actually works.",
    description: "",
    expect: { hookStyle: "question", hookPhrase: "Have you ever tried cooking pasta in the microwave?", ...none, ugcFit: "medium" },
  }),
  video({
    id: "voice-howto-overlay-plain",
    scenes: scenes(3, 2),
    overlays: [hook("shirt hack")],
    voice: "Here's how to fold a shirt in two seconds.",
    description: "",
    expect: { hookStyle: "how_to", hookPhrase: "Here's how to fold a shirt in two seconds.", ...none, ugcFit: "medium" },
  }),
  video({
    id: "voice-and-pov",
    scenes: scenes(3, 2),
    overlays: [hook("POV: your cat learns to open doors")],
    voice: "So this happened last night.",
    description: "",
    expect: { hookStyle: "direct_address", hookPhrase: "POV: your cat learns to open doors", ...none, ugcFit: "medium" },
  }),
  video({
    id: "voice-storytime-face",
    scenes: scenes(3, 2.5, [0, 1, 2]),
    overlays: [hook("Storytime: my landlord tried to scam me")],
    voice: "Okay so my landlord texted me at midnight. I was so mad.",
    description: "",
    expect: { hookStyle: "story", hookPhrase: "Storytime: my landlord tried to scam me", ...none, ugcFit: "high" },
  }),
  video({
    id: "voice-stop-scrolling",
    scenes: scenes(2, 2.5, [0, 1]),
    overlays: [],
    voice: "Stop scrolling if you have oily skin. I found the fix.",
    description: "",
    expect: { hookStyle: "curiosity_gap", hookPhrase: "Stop scrolling if you have oily skin.", ...none, ugcFit: "high" },
  }),
  video({
    id: "voice-comment-plan",
    scenes: scenes(3, 2.5),
    overlays: [hook("How to do your first pull-up")],
    voice: "Comment PLAN and I'll send you the free four week plan.",
    description: "",
    expect: {
      hookStyle: "how_to",
      hookPhrase: "How to do your first pull-up",
      ctaType: "comment",
      ctaDestinationUrl: null,
      ugcFit: "medium",
    },
  }),
  video({
    id: "voice-brand",
    scenes: scenes(4, 2),
    overlays: [hook("Introducing the all-new Aura blender")],
    voice: "Our new blender is now available. Shop now at aurahome.com.",
    description: "Meet the all-new Aura. Free shipping today.",
    expect: { hookStyle: "none", hookPhrase: "", ctaType: "shop", ctaDestinationUrl: "https://aurahome.com", ugcFit: "low" },
  }),
  video({
    id: "voice-silent-face-hook",
    scenes: scenes(2, 3, [0, 1]),
    overlays: [hook("I tried the 5am routine for a week")],
    voice: "Honestly it was rough. Follow for day eight.",
    description: "",
    expect: {
      hookStyle: "story",
      hookPhrase: "I tried the 5am routine for a week",
      ctaType: "follow",
      ctaDestinationUrl: null,
      ugcFit: "high",
    },
  }),

  // --- Transcripts alone (captions): the current forms of calls to action -----------------------------------
  transcript("comment-plan", "I lost ten kilos without giving up bread. Comment PLAN and I'll send you the free 4-week plan.", {
    hookStyle: "story",
    hookPhrase: "I lost ten kilos without giving up bread.",
    ctaType: "comment",
    ctaDestinationUrl: null,
    ugcFit: "high",
  }),
  transcript("comment-quoted-for", "Three things I'd never buy again. Comment 'guide' for the link.", {
    hookStyle: "how_to",
    hookPhrase: "Three things I'd never buy again.",
    ctaType: "comment",
    ctaDestinationUrl: null,
    ugcFit: "medium",
  }),
  transcript("comment-dm", "This template saved my whole week. Comment GUIDE and I'll DM you the link.", {
    hookStyle: "none",
    hookPhrase: "",
    ctaType: "comment",
    ctaDestinationUrl: null,
    ugcFit: "medium",
  }),
  transcript("comment-send-it", "You need to see this budgeting sheet. Comment 'link' and I'll send it to you.", {
    hookStyle: "curiosity_gap",
    hookPhrase: "You need to see this budgeting sheet.",
    ctaType: "comment",
    ctaDestinationUrl: null,
    ugcFit: "medium",
  }),
  transcript("type-yes", "Want the same meal plan I use? Type YES in the comments and I'll share it.", {
    hookStyle: "question",
    hookPhrase: "Want the same meal plan I use?",
    ctaType: "comment",
    ctaDestinationUrl: null,
    ugcFit: "medium",
  }),
  transcript("save-grocery", "5 pantry hacks that save me money. Save this for your next grocery run.", {
    hookStyle: "how_to",
    hookPhrase: "5 pantry hacks that save me money.",
    ctaType: "share",
    ctaDestinationUrl: null,
    ugcFit: "medium",
  }),
  transcript("save-tonight", "The easiest way to make crispy tofu. Save this post and try it tonight.", {
    hookStyle: "how_to",
    hookPhrase: "The easiest way to make crispy tofu.",
    ctaType: "share",
    ctaDestinationUrl: null,
    ugcFit: "medium",
  }),
  transcript("send-someone", "If you're burnt out, listen. Send this to someone who needs to hear it.", {
    hookStyle: "direct_address",
    hookPhrase: "If you're burnt out, listen.",
    ctaType: "share",
    ctaDestinationUrl: null,
    ugcFit: "medium",
  }),
  transcript("tag-friend", "POV: your best friend plans the road trip. Tag a friend who needs this.", {
    hookStyle: "direct_address",
    hookPhrase: "POV: your best friend plans the road trip.",
    ctaType: "share",
    ctaDestinationUrl: null,
    ugcFit: "medium",
  }),
  transcript("repost", "Hot take: meal prep is a waste of time. Repost this if you agree.", {
    hookStyle: "bold_claim",
    hookPhrase: "Hot take: meal prep is a waste of time.",
    ctaType: "share",
    ctaDestinationUrl: null,
    ugcFit: "medium",
  }),
  transcript("use-code", "I've been using this serum for a month. Use code MAYA10 at checkout for 10% off.", {
    hookStyle: "story",
    hookPhrase: "I've been using this serum for a month.",
    ctaType: "shop",
    ctaDestinationUrl: null,
    ugcFit: "high",
  }),
  transcript("use-my-code", "This app changed my life as a student. Use my code ALEX for a free month.", {
    hookStyle: "bold_claim",
    hookPhrase: "This app changed my life as a student.",
    ctaType: "shop",
    ctaDestinationUrl: null,
    ugcFit: "high",
  }),
  transcript("shop-store", "Introducing our new autumn collection. Shop the collection at lumen.store.", {
    hookStyle: "none",
    hookPhrase: "",
    ctaType: "shop",
    ctaDestinationUrl: "https://lumen.store",
    ugcFit: "low",
  }),
  transcript("link-in-bio", "Here's how I make cold brew at home. Link in bio for the full recipe.", {
    hookStyle: "how_to",
    hookPhrase: "Here's how I make cold brew at home.",
    ctaType: "link_in_bio",
    ctaDestinationUrl: null,
    ugcFit: "medium",
  }),
  transcript("linked-in-bio", "Everything I wore this week. It's all linked in my bio.", {
    hookStyle: "story",
    hookPhrase: "Everything I wore this week.",
    ctaType: "link_in_bio",
    ctaDestinationUrl: null,
    ugcFit: "medium",
  }),
  transcript(
    "bio-with-url",
    "My desk setup tour. Everything is in my bio.",
    { hookStyle: "none", hookPhrase: "", ctaType: "link_in_bio", ctaDestinationUrl: "https://deskco.com/setup", ugcFit: "medium" },
    "Desk setup 2026 — deskco.com/setup",
  ),
  transcript("visit-url", "Check out bakery.com for the full menu. We open at seven.", {
    hookStyle: "none",
    hookPhrase: "",
    ctaType: "visit_url",
    ctaDestinationUrl: "https://bakery.com",
    ugcFit: "medium",
  }),
  transcript("url-no-cue", "Grab it at glowlab.com/serum before it sells out.", {
    hookStyle: "none",
    hookPhrase: "",
    ctaType: "visit_url",
    ctaDestinationUrl: "https://glowlab.com/serum",
    ugcFit: "medium",
  }),
  transcript("follow-part-2", "Did you know octopuses have three hearts? Follow for part 2.", {
    hookStyle: "question",
    hookPhrase: "Did you know octopuses have three hearts?",
    ctaType: "follow",
    ctaDestinationUrl: null,
    ugcFit: "medium",
  }),
  transcript("hit-follow", "When I moved to Tokyo I knew nobody. Hit follow so you don't miss part three.", {
    hookStyle: "story",
    hookPhrase: "When I moved to Tokyo I knew nobody.",
    ctaType: "follow",
    ctaDestinationUrl: null,
    ugcFit: "high",
  }),
  transcript("subscribe", "Ninety percent of beginners skip this step. Subscribe so you don't miss the next one.", {
    hookStyle: "statistic",
    hookPhrase: "Ninety percent of beginners skip this step.",
    ctaType: "subscribe",
    ctaDestinationUrl: null,
    ugcFit: "medium",
  }),
  transcript("like-if", "You're doing squats wrong. Like this if you learned something.", {
    hookStyle: "bold_claim",
    hookPhrase: "You're doing squats wrong.",
    ctaType: "like",
    ctaDestinationUrl: null,
    ugcFit: "medium",
  }),
  transcript("drop-emoji", "Wait for it. Drop a fire emoji in the comments if you want part two.", {
    hookStyle: "curiosity_gap",
    hookPhrase: "Wait for it.",
    ctaType: "comment",
    ctaDestinationUrl: null,
    ugcFit: "medium",
  }),
  transcript("let-me-know", "Storytime: my first date was a disaster. Let me know in the comments what I should do.", {
    hookStyle: "story",
    hookPhrase: "Storytime: my first date was a disaster.",
    ctaType: "comment",
    ctaDestinationUrl: null,
    ugcFit: "high",
  }),
  transcript("no-cta", "I spent the whole day at the beach. The sunset was unreal.", {
    hookStyle: "story",
    hookPhrase: "I spent the whole day at the beach.",
    ...none,
    ugcFit: "high",
  }),
  transcript("no-hook-no-cta", "The weather here is mild. We walked along the river.", {
    hookStyle: "none",
    hookPhrase: "",
    ...none,
    ugcFit: "medium",
  }),
  transcript("this-is-for", "This is for the girls who hate the gym. Save this workout.", {
    hookStyle: "direct_address",
    hookPhrase: "This is for the girls who hate the gym.",
    ctaType: "share",
    ctaDestinationUrl: null,
    ugcFit: "medium",
  }),
];
