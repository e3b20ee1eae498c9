/** The heuristic content analysis, on transcripts and descriptions as text. */
import "../setup/visual-on.js"; // first: the visual stage on, as deployed, before the configuration is read
import { describe, expect, it } from "vitest";
import { CTA_TYPE_VALUES, HOOK_STYLE_VALUES, UGC_FIT_VALUES } from "../../src/domain/analysis/vocabulary.js";
import { analyzeContent, findUrls, HeuristicAnalysisProvider, judgeUgc, openingText } from "../../src/providers/analysis/heuristic.js";
import type { ContentInput } from "../../src/domain/analysis/ports.js";
import { createContentAnalysisProvider } from "../../src/main/providers.js";
import type { Segment, VisualEvidence } from "../../src/domain/analysis/ports.js";

function input(transcript: string, extra: Partial<ContentInput> = {}): ContentInput {
  return { platform: "platformA", transcript, segments: [], description: "", hashtags: [], ...extra };
}

const analyse = (transcript: string, extra: Partial<ContentInput> = {}) => analyzeContent(input(transcript, extra)).analysis;

describe("hook style and phrase", () => {
  it.each([
    [
      "question",
      "Have you ever wondered why your sourdough is flat? Here is the fix.",
      "Have you ever wondered why your sourdough is flat?",
    ],
    ["question", "what is the one thing every beginner forgets", "what is the one thing every beginner forgets"],
    ["bold_claim", "Stop buying expensive serums. They do nothing for your skin.", "Stop buying expensive serums."],
    ["bold_claim", "Unpopular opinion: brunch is overrated.", "Unpopular opinion: brunch is overrated."],
    ["statistic", "93% of people brush their teeth wrong. Let me explain.", "93% of people brush their teeth wrong."],
    ["statistic", "ninety percent of startups fail in the first year", "ninety percent of startups fail in the first year"],
    ["story", "So yesterday my boss called me into his office. I was terrified.", "So yesterday my boss called me into his office."],
    ["story", "When I moved to Berlin I had nothing. Now look at this.", "When I moved to Berlin I had nothing."],
    ["how_to", "Here's how to fold a fitted sheet in ten seconds.", "Here's how to fold a fitted sheet in ten seconds."],
    ["how_to", "3 easy tips for better phone photos.", "3 easy tips for better phone photos."],
    ["curiosity_gap", "You won't believe what I found in this thrift store.", "You won't believe what I found in this thrift store."],
    ["curiosity_gap", "Wait for it... the ending gets me every time.", "Wait for it..."],
    ["direct_address", "POV: you finally cleaned your room. Ten minutes later.", "POV: you finally cleaned your room."],
    [
      "direct_address",
      "If you're a nurse working night shifts, this is for you.",
      "If you're a nurse working night shifts, this is for you.",
    ],
  ] as const)("%s: %j", (style, transcript, phrase) => {
    const result = analyse(transcript);
    expect(result.hookStyle).toBe(style);
    expect(result.hookPhrase).toBe(phrase);
  });

  // The families read by structure (none of these sentences is in bench/analysis-eval/transcripts.ts).
  it.each([
    // A count at the start of a list.
    ["how_to", "Four podcasts that made me smarter this year. The first is about history."],
    ["how_to", "Top 5 snacks for a long drive."],
    ["how_to", "Things nobody warns you about when you adopt a puppy."],
    ["how_to", "Try this before you repaint the whole room."],
    ["how_to", "The quickest way to clean a cast iron pan."],
    // A relatable caption.
    ["direct_address", "Me trying to stay awake in a two hour meeting."],
    ["direct_address", "Cats trying to catch a laser dot."],
    ["direct_address", "When your friend says she's five minutes away."],
    ["direct_address", "This is your sign to book the trip."],
    ["direct_address", "Students who study the night before, this one's for you."],
    // A challenge or first-person account.
    ["story", "I drank a gallon of water a day for a month."],
    ["story", "We lived in a van for 100 days."],
    ["story", "Day 47 of building my own cabin."],
    // A contrarian opening.
    ["bold_claim", "Nobody tells you how expensive dogs really are."],
    ["bold_claim", "No one is going to tell you this, but your landlord can't do that."],
    ["bold_claim", "Everyone says cardio burns fat. It mostly doesn't."],
    ["bold_claim", "You're not broke, you're disorganised."],
    // ... but withholding what "this" is remains a tease, and "nobody" later in a sentence changes nothing.
    ["curiosity_gap", "Nobody talks about this part of moving abroad."],
    ["question", "Why is nobody talking about the new tax rule?"],
    ["story", "When I started my job I knew nobody."],
  ] as const)("%s by structure: %j", (style, transcript) => {
    expect(analyse(transcript).hookStyle).toBe(style);
  });

  it("finds no hook in a plain opening and then leaves the phrase empty", () => {
    expect(analyse("The weather here is mild. We walked along the river.")).toMatchObject({ hookStyle: "none", hookPhrase: "" });
  });

  it("uses only what is said in the first seconds when segments are timed", () => {
    const segments: Segment[] = [
      { start: 0.2, end: 1.4, text: "Okay guys," },
      { start: 1.4, end: 2.9, text: "did you know this trick?" },
      { start: 6.0, end: 8.0, text: "Here's how to do it step by step." },
    ];
    const result = analyse(segments.map((s) => s.text).join(" "), { segments });
    expect(result).toMatchObject({ hookStyle: "question", hookPhrase: "Okay guys, did you know this trick?" });
    expect(openingText(segments, "")).toBe("Okay guys, did you know this trick?");
  });

  it("reads a later first segment when nothing is said in the first three seconds", () => {
    const segments: Segment[] = [{ start: 4.2, end: 6, text: "why is nobody talking about this" }];
    expect(openingText(segments, "ignored")).toBe("why is nobody talking about this");
  });

  it("cuts an unpunctuated speech-recognition opening to about four seconds of words", () => {
    const asr = "have you ever tried to make bread at home without any yeast because i did it last week and it worked";
    expect(analyse(asr).hookPhrase.split(" ")).toHaveLength(12);
    expect(analyse(asr).hookStyle).toBe("question");
  });

  it("falls back to the description's first sentence, the written hook, when the speech has none", () => {
    const result = analyse("la la la la la", { description: "POV: your cat discovers the printer\n#cats" });
    expect(result).toMatchObject({ hookStyle: "direct_address", hookPhrase: "POV: your cat discovers the printer" });
  });
});

describe("call to action", () => {
  it.each([
    ["follow", "Follow for more easy dinners.", null],
    ["like", "Smash that like button if this helped.", null],
    ["comment", "Comment below which one you'd pick.", null],
    ["share", "Send this to a friend who needs it.", null],
    ["subscribe", "Subscribe and hit the bell for part two.", null],
    ["link_in_bio", "The full recipe is linked, link in my bio!", null],
    ["shop", "Use code SAVE20 for twenty percent off.", null],
  ] as const)("%s without a URL: %j", (type, transcript, url) => {
    expect(analyse(transcript)).toMatchObject({ ctaType: type, ctaDestinationUrl: url });
  });

  it("takes the URL from the sentence of the call to action", () => {
    const result = analyse("I love these shoes.", {
      description: "My blog: https://blog.example.org\nShop the shoes at https://shoes.example.com/summer?utm=tt. Use code SUMMER.",
    });
    expect(result).toMatchObject({ ctaType: "shop", ctaDestinationUrl: "https://shoes.example.com/summer?utm=tt" });
  });

  it("pairs a link-in-bio call with the link the description gives", () => {
    const result = analyse("Everything I used is linked, link in bio.", { description: "All links: linktr.ee/janedoe" });
    expect(result).toMatchObject({ ctaType: "link_in_bio", ctaDestinationUrl: "https://linktr.ee/janedoe" });
  });

  it("recognises a spoken URL in a speech-recognition transcript", () => {
    const result = analyse("so if you want to try it head over to brightmug dot com and check it out");
    expect(result).toMatchObject({ ctaType: "visit_url", ctaDestinationUrl: "https://brightmug.com" });
  });

  it("treats a bare URL without a cue phrase as a visit_url call", () => {
    const result = analyse("Morning routine.", { description: "Music by someone → www.example.net/music." });
    expect(result).toMatchObject({ ctaType: "visit_url", ctaDestinationUrl: "https://www.example.net/music" });
  });

  it("gives a non-pointing call only a URL from its own sentence", () => {
    expect(analyse("Subscribe for weekly videos!", { description: "Merch: https://merch.example.com" })).toMatchObject({
      ctaType: "subscribe",
      ctaDestinationUrl: null,
    });
    expect(analyse("Follow me at https://example.social/@ana for more.")).toMatchObject({
      ctaType: "follow",
      ctaDestinationUrl: "https://example.social/@ana",
    });
  });

  it("prefers the more specific destination when several calls are made", () => {
    expect(analyse("Follow me for more and comment your favourite. Link in bio for the full list.").ctaType).toBe("link_in_bio");
  });

  it("finds none when nothing is asked", () => {
    expect(analyse("We spent the afternoon by the lake.")).toMatchObject({ ctaType: "none", ctaDestinationUrl: null });
  });

  it("does not take an e-mail address for a website", () => {
    expect(findUrls("write to hello@brand.com or visit https://brand.com.")).toEqual(["https://brand.com"]);
  });
});

describe("UGC fit", () => {
  it("rates a casual first-person experience as high UGC fit", () => {
    const result = analyse(
      "Okay so I've been using this cheap moisturiser for a month and honestly my skin has never been better. Not sponsored, I just love it lol.",
    );
    expect(result.ugcFit).toBe("high");
    expect(result.ugcConfidence).toBeGreaterThanOrEqual(70);
  });

  it("rates polished, disclosed advertising as low UGC fit", () => {
    const result = analyse("Introducing the all-new AquaPure bottle. Innovative, premium design, engineered to elevate your day.", {
      description: "Shop now, free shipping worldwide. #ad",
      hashtags: ["ad"],
    });
    expect(result.ugcFit).toBe("low");
    expect(result.ugcConfidence).toBeGreaterThanOrEqual(80);
  });

  it("counts a #sponsored hashtag as disclosure even when the text does not repeat it", () => {
    const withTag = analyse("This lamp is nice.", { hashtags: ["sponsored", "home"] });
    const withoutTag = analyse("This lamp is nice.", { hashtags: ["home"] });
    expect(withTag.ugcFit).toBe("low");
    expect(withoutTag.ugcFit).toBe("medium");
  });

  it("rates a creator's personal ad read as medium", () => {
    const result = analyse(
      "I've been using this app every morning and honestly I'm obsessed. This video is sponsored by Calmly, use my code ANNA for a discount.",
    );
    expect(result.ugcFit).toBe("medium");
  });

  it("does not take a creator's denial for a disclosure, nor a trademark sign for an emoji", () => {
    expect(analyse("This is not a sponsored video, I just really like it.").ugcFit).not.toBe("low");
    expect(analyzeContent(input("Our new collection™ is here.")).reasons.join("\n")).not.toMatch(/casual/);
  });

  it("is unsure (medium, low confidence) on neutral text", () => {
    const result = analyse("The museum opens at nine. Tickets cost twelve euros.");
    expect(result).toMatchObject({ ugcFit: "medium", ugcConfidence: 25 });
  });

  it("grows more confident with more one-sided evidence, and less when evidence is mixed", () => {
    expect(judgeUgc(2, 0)).toEqual({ fit: "high", confidence: 70 });
    expect(judgeUgc(5, 0)).toEqual({ fit: "high", confidence: 95 });
    expect(judgeUgc(5, 3)).toEqual({ fit: "high", confidence: 55 });
    expect(judgeUgc(0, 4)).toEqual({ fit: "low", confidence: 90 });
    expect(judgeUgc(3, 3)).toEqual({ fit: "medium", confidence: 70 });
    expect(judgeUgc(1, 0)).toEqual({ fit: "medium", confidence: 35 });
  });
});

describe("edge cases and contract", () => {
  it("handles an empty transcript and description", async () => {
    const result = await new HeuristicAnalysisProvider().analyze(input(""));
    expect(result).toEqual({
      hookStyle: "none",
      hookPhrase: "",
      hookSource: null,
      ugcFit: "medium",
      ugcConfidence: 0,
      ctaType: "none",
      ctaDestinationUrl: null,
      reasons: [
        "hookStyle none: no transcript, no on-screen text and no description",
        "ugcFit medium, confidence 0: no transcript and no description to judge",
        "ctaType none: no call-to-action phrase and no URL",
      ],
    });
  });

  it("analyses the description alone when nothing was transcribed", () => {
    const result = analyse("", { description: "Did you know octopuses have three hearts? Follow for more ocean facts." });
    expect(result).toMatchObject({ hookStyle: "question", ctaType: "follow" });
  });

  it("explains every decision", () => {
    const { reasons } = analyzeContent(input("Stop scrolling. I tried this hack, link in bio."));
    expect(reasons).toEqual([
      'hookStyle curiosity_gap: the speech\'s opening "Stop scrolling. I tried this hack, link in bio." matched "stop scrolling"',
      'ugc personal +1 (personal experience): "i tried"',
      'ugc personal +1 (first-person account): "i tried"',
      "ugc personal +1 (first-person voice): 1 first-person words",
      "ugcFit high, confidence 80: personal 3 vs brand 0",
      'ctaType link_in_bio: "link in bio" in "I tried this hack, link in bio."',
    ]);
  });

  it("is deterministic and answers only allowed values", async () => {
    const provider = createContentAnalysisProvider("heuristic");
    const sample = input("POV: you found the best taco in town! Follow me for part 2 #ad", { description: "tacos.example.com" });
    const first = await provider.analyze(sample);
    expect(await provider.analyze(sample)).toEqual(first);
    expect(HOOK_STYLE_VALUES).toContain(first.hookStyle);
    expect(UGC_FIT_VALUES).toContain(first.ugcFit);
    expect(CTA_TYPE_VALUES).toContain(first.ctaType);
    expect(Number.isInteger(first.ugcConfidence)).toBe(true);
  });
});

describe("the current forms of calls to action", () => {
  it.each([
    ["comment", '… Comment "PLAN" and I\'ll send you the free 4-week plan.'],
    ["comment", "Comment GUIDE and I'll DM you the link."],
    ["comment", "Comment 'recipe' for the full list."],
    ["comment", "Type YES in the comments if you want the template."],
    ["comment", "Drop a fire emoji in the comments for part two."],
    ["comment", "Comment OWN or RENT and I'll send you my calculator."],
    ["comment", "Comment TEA, COFFEE or WATER below."],
    ["comment", "Type SPICY or MILD and I'll send the recipe."],
    ["visit_url", "Full video on YouTube!"],
    ["visit_url", "The whole recipe is on my blog."],
    ["follow", "Follow for part 2."],
    ["share", "Save this for your next grocery run."],
    ["share", "Send this to someone who needs it."],
    ["shop", "Use code MAYA10 at checkout."],
    ["link_in_bio", "Everything is linked in my bio."],
    ["like", "Like this if you learned something."],
  ] as const)("%s: %j", (type, transcript) => {
    expect(analyse(transcript).ctaType).toBe(type);
  });

  it("does not take a year for a statistic", () => {
    expect(analyse("", { description: "Desk setup 2026" }).hookStyle).toBe("none");
  });
});

/** What the visual stage saw, with keyframes at the given times (their text as given, a face where marked). */
function seen(frames: { seconds: number; text?: string; face?: boolean }[], extra: Partial<VisualEvidence> = {}): VisualEvidence {
  const keyframes = frames.map((f, i) => ({
    seconds: f.seconds,
    reason: i ? ("interval" as const) : ("first" as const),
    text: f.text ?? "",
    face: f.face ?? false,
    thumbnail: Buffer.alloc(0),
    imagePath: "",
  }));
  const onScreenText = frames
    .filter((f) => f.text)
    .map((f) => ({ text: f.text!, firstSeconds: f.seconds, lastSeconds: f.seconds, language: "en", confidence: 0.9, used: true }));
  const early = onScreenText.filter((t) => t.firstSeconds < 3).map((t) => t.text);
  return {
    durationSeconds: 10,
    keyframes,
    onScreenText,
    textHook: early.length ? early.join("\n") : null,
    cutCount: 2,
    cutsPerMinute: 12,
    firstCutSeconds: 3.5,
    faceShare: keyframes.filter((k) => k.face).length / keyframes.length,
    providers: { keyframes: "ffmpeg", text: "tesseract", faces: "face-api" },
    skipped: [],
    setAside: [],
    cutTimes: [],
    ...extra,
  };
}

describe("what was seen", () => {
  it("takes a silent video's hook from the screen, naming the frame and its time", () => {
    const visual = seen([{ seconds: 0, text: "POV: you finally found the perfect morning routine" }, { seconds: 4 }, { seconds: 8 }]);
    const { analysis, reasons } = analyzeContent(input("", { visual }));
    expect(analysis).toMatchObject({
      hookStyle: "direct_address",
      hookPhrase: "POV: you finally found the perfect morning routine",
      hookSource: "screen",
    });
    expect(reasons[0]).toBe(
      'hookStyle direct_address: the on-screen text at 0.0 s (keyframe 1) "POV: you finally found the perfect morning routine" matched "pov"',
    );
  });

  it("prefers a written hook to a spoken one, and falls back to the speech when the screen has no hook", () => {
    const segments: Segment[] = [{ start: 0, end: 2, text: "Have you ever tried this?" }];
    const written = seen([{ seconds: 0, text: "3 mistakes every new runner makes" }]);
    expect(analyse("Have you ever tried this?", { segments, visual: written })).toMatchObject({
      hookStyle: "how_to",
      hookSource: "screen",
    });
    const plain = seen([{ seconds: 0, text: "shirt hack" }]);
    expect(analyse("Have you ever tried this?", { segments, visual: plain })).toMatchObject({
      hookStyle: "question",
      hookPhrase: "Have you ever tried this?",
      hookSource: "speech",
    });
    expect(analyse("", { description: "Did you know this? #tips", visual: plain })).toMatchObject({
      hookStyle: "question",
      hookSource: "description",
    });
  });

  it("reads calls to action shown on screen, with where they were seen", () => {
    const visual = seen([{ seconds: 0 }, { seconds: 6.5, text: "Use code GLOW15 at glowlab.com" }]);
    const { analysis, reasons } = analyzeContent(input("", { visual }));
    expect(analysis).toMatchObject({ ctaType: "shop", ctaDestinationUrl: "https://glowlab.com" });
    expect(reasons.at(-1)).toBe(
      'ctaType shop: "use code" in "Use code GLOW15 at glowlab.com" on screen at 6.5 s (keyframe 2), destination https://glowlab.com',
    );
  });

  it("counts a face on camera as personal, and very fast cutting as edited", () => {
    const talking = analyzeContent(input("", { visual: seen([{ seconds: 0, face: true }, { seconds: 4, face: true }, { seconds: 8 }]) }));
    expect(talking.analysis.ugcFit).toBe("high");
    expect(talking.reasons).toContain(
      "ugc personal +2 (face on camera): a face in 67 % of keyframes, at 0.0 s (keyframe 1), 4.0 s (keyframe 2)",
    );
    const edited = analyzeContent(
      input("Our new collection is here.", { visual: seen([{ seconds: 0 }], { cutCount: 20, cutsPerMinute: 120, firstCutSeconds: 0.5 }) }),
    );
    expect(edited.reasons).toContain("ugc brand +1 (edited pacing): 20 cuts, 120 per minute, the first at 0.5 s");
  });
});
