/**
 * Offline content analysis by plain rules over the transcript and the description. Deterministic
 * and explainable: `analyzeContent` returns, with the result, the reason for every decision (the
 * rule and the words that matched it).
 *
 * - Hook: the opening (segments starting in the first 3 seconds, at least a few words, at most a
 *   dozen, cut at the first sentence end) is matched against cues per style, in a fixed priority
 *   order. The cues read the opening's structure where they can: a contrarian reversal ("nobody …
 *   tells you", "everyone says") is a bold claim; a caption's subject "trying to …", "when your …",
 *   "<people> who …" addresses the viewer; a first-person past tense ("I tried", "we tested") or
 *   "day N of" tells a story; a count at the start of a list ("five apps …") is a how-to. When the
 *   speech has no recognisable hook, the description's first sentence (the written hook) is tried.
 * - UGC fit: personal signals (first-person voice, personal experience, casual language) against
 *   brand signals (ad disclosure, brand voice, sales and polished marketing language); the balance
 *   gives the fit, the amount and agreement of the evidence the confidence.
 * - CTA: cue phrases per type, in a fixed priority order (the most specific destination first); the
 *   destination is a URL in the sentence of the cue, else, for calls that send the viewer somewhere
 *   (shop, link in bio, visit), the first URL in the description, else in the transcript (spoken
 *   "brand dot com" included). A URL without any cue phrase is a visit_url CTA.
 *
 * What was seen (`input.visual`) counts beside the text:
 * - the text on screen in the first 3 seconds (the text hook) is tried first: a written overlay is the
 *   hook the creator chose, and OCR reads it more reliably than speech recognition hears a voice; then
 *   the speech, then the description (`hookSource` says which);
 * - every piece of on-screen text is a sentence for the CTA rules ("link in bio", "use code X" shown on
 *   screen), named in the reason with its time and keyframe;
 * - a face on camera in many keyframes is a personal (UGC) signal; very fast cutting an edited one.
 */
import type { CtaType, HookSource, HookStyle, UgcFit } from "../../domain/analysis/vocabulary.ts";
import { collapseWhitespace, splitSentences } from "../transcription/segments.ts";
import type { Segment } from "../../domain/analysis/ports.ts";
import type { ContentAnalysis, ContentAnalysisProvider, ContentInput, VisualEvidence } from "../../domain/analysis/ports.ts";

export interface ExplainedAnalysis {
  analysis: ContentAnalysis;
  /** One line per decision, e.g. `hookStyle question: matched "do you"`. */
  reasons: string[];
}

export class HeuristicAnalysisProvider implements ContentAnalysisProvider {
  readonly name = "heuristic" as const;

  async analyze(input: ContentInput): Promise<ContentAnalysis> {
    const { analysis, reasons } = analyzeContent(input);
    return { ...analysis, reasons };
  }
}

export function analyzeContent(input: ContentInput): ExplainedAnalysis {
  const reasons: string[] = [];
  const hook = detectHook(input, reasons);
  const ugc = assessUgc(input, reasons);
  const cta = detectCta(input, reasons);
  return {
    analysis: {
      hookStyle: hook.style,
      hookPhrase: hook.phrase,
      hookSource: hook.source,
      ugcFit: ugc.fit,
      ugcConfidence: ugc.confidence,
      ctaType: cta.type,
      ctaDestinationUrl: cta.url,
    },
    reasons,
  };
}

// ---------------------------------------------------------------------------------------------
// Text helpers

/** Lower case, typographic apostrophes made plain, so one set of patterns fits captions and ASR. */
function normalise(text: string): string {
  return collapseWhitespace(text.toLowerCase().replace(/[\u2018\u2019\u02bc]/g, "'"));
}

function wordsOf(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

function firstMatch(text: string, pattern: RegExp): string | null {
  return pattern.exec(text)?.[0]?.trim() ?? null;
}

// ---------------------------------------------------------------------------------------------
// Hook

/** The hook is what is said in roughly the first three seconds. */
const HOOK_SECONDS = 3;
const MIN_HOOK_WORDS = 3;
/** About four seconds of speech: an untimed or unpunctuated opening is cut here. */
const MAX_HOOK_WORDS = 12;

/** A greeting or filler word before the hook proper ("so", "okay guys,"). */
const LEAD = String.raw`^(?:(?:so|okay|ok|alright|hey|hi|um|uh|guys|well)[,!.]?\s+)*`;

/** A number at the start of a list: a digit or a number word. */
const COUNT = String.raw`(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty)`;
/** Past tenses of a first-person account ("I tried", "we tested", "I said yes"): regular ones by their ending, common irregular ones by name. */
const DID = String.raw`(?:\w+ed|said|ran|made|built|spent|ate|went|took|gave|bought|did|got|quit|lost|found|let|paid|drove|sold|left|wore|kept|met|told|threw|wrote|swam|flew|slept|sat|drank|woke|came|saw|became|began|broke|caught|chose|felt|fought|forgot|grew|heard|held|knew|rode|sang|sent|spoke|stood|taught|thought|won|fed|fell|dug|hung)`;

/**
 * Cue phrases per style, in priority order: the first style whose pattern matches wins. The rules read the
 * structure of an opening rather than fixed phrases: who it addresses, whether it starts with a count, a
 * first-person past tense, a "nobody … tells you" reversal; the anchored ones (`LEAD`) only at the start.
 */
const HOOK_RULES: [HookStyle, RegExp][] = [
  [
    // Contrarian openings: a reversal of what "nobody"/"everyone" says, or an announced opinion. "Nobody talks about
    // this step" withholds what it is: a curiosity gap, below.
    "bold_claim",
    new RegExp(
      LEAD +
        String.raw`((nobody|no one)\b[^.?!]{0,40}?\b(tells?|told|says?|said|talks?|talking|warns?|warned|admits?|mentions?)\b(?! (you )?(about )?(this|these)\b)|(nobody|no one) (is|was)? ?(going|gonna) to\b|everyone (says|thinks|tells you|is wrong)\b|unpopular opinion|hot take|hear me out|controversial( opinion)?\b|you'?re not \w+,? you'?re \w+)`,
    ),
  ],
  [
    "curiosity_gap",
    /\b(you won'?t believe|you'?ll never guess|wait (for it|for the end|till|until)|watch (until|till|to) the end|keep watching|(watch|see) what happens|(nobody|no one) (talks|is talking|tells you) about (this|these)|the secret (to|of|behind)|what happened next|here'?s what happened|you need to see|i can'?t believe|stop scrolling|don'?t scroll|don'?t skip|this changes everything|guess what|plot twist|not what you think|until you see)\b/,
  ],
  [
    // A viewer called out, or a relatable caption: "POV:", "if you're…", "me trying to…", "when your mom…", "girls who…".
    "direct_address",
    new RegExp(
      LEAD +
        String.raw`(pov\b|if you'?re\b|if you are\b|if you (have|had|ever|struggle|want|love|hate|need|own|work)\b|this (one )?is for\b|this is your sign\b|calling all\b|attention\b|to (all )?(the|my) \w+|for (anyone|everyone|those|all of you) who\b|dear \w+|(?!(i|i'm|we|we're)\b)(\S+ ){1,3}trying to\b|when (your|you|ur)\b(?![^?]*\?)|(\w+ )?\w+s who\b)`,
    ),
  ],
  [
    // A first-person account of something done: a story or a challenge ("I tried X for a week", "day 12 of …").
    "story",
    new RegExp(LEAD + String.raw`((i|we) (just |finally |actually )?${DID}\b|day \d+ of\b|my \w+( \w+)? (just|finally|literally) \w+)`),
  ],
  [
    "how_to",
    new RegExp(
      String.raw`\b(how to|here'?s how|how i\b|let me show you|i'?ll show you|i'?m (going to|gonna) show you|step by step|tutorial|the (\w+est|best|right|only) way to|learn (how|to)\b|recipe|diy\b|${COUNT} ([a-z]+ )?(ways|tips|steps|hacks|tricks|things|mistakes|reasons|habits|ideas|lessons|signs)\b)|` +
        LEAD +
        String.raw`((top )?${COUNT} (\S+ ){0,2}?[a-z]+s\b(?! (ago|old|later)\b)|(the )?things (that|i|you|we|to|nobody|no one)\b|(do|try) this (before|when|if|after|instead|every)\b)`,
    ),
  ],
  [
    "statistic",
    /(\d[\d,.]*\s?(%|percent\b|k\b|million\b|billion\b|thousand\b|x\b))|([$€£]\s?\d)|\b(?!(?:19|20)\d\d\b)\d{2,}[\d,.]*\b|\b(one|1) (in|out of) (\d+|two|three|four|five|six|seven|eight|nine|ten|a hundred)\b|\b(percent|million|billion|thousand|hundred) (of|dollars|people|views|followers|times)\b|\b\w+ percent\b/,
  ],
  [
    "question",
    new RegExp(
      LEAD +
        String.raw`((what|why|who|where|when|which|whose)\b(?! (i|we|my)\b)|how (do|does|did|can|could|would|many|much|long|often|is|are)\b|(do|does|did|have|has|are|is|was|were|can|could|would|will|should|isn'?t|aren'?t|don'?t|doesn'?t|didn'?t|won'?t) (you|your|we|they|it|this|that|anyone|anybody|everyone|there)\b|ever (wonder|wondered|notice|noticed)\b)|\?\s*$`,
    ),
  ],
  [
    "story",
    /\b(storytime|story time|when i\b|the day (i|my|we)\b|so (i|my|we)\b|(yesterday|last (week|night|month|year)|this morning|today) (i|my|we)\b|i remember\b|once upon|(i|we) (was|were|had|got|went|tried|bought|quit|found|made|decided|started|moved|lost|spent|ate|eat|used|wore)\b|my (mom|dad|boyfriend|girlfriend|husband|wife|friend|boss|sister|brother|kids?|son|daughter)\b|what (i|we) (eat|ate|bought|got|wore|did|spent|earn|earned))/,
  ],
  [
    "bold_claim",
    /\b(stop\b|never\b|always\b|the (best|worst|only|biggest|most|number one)\b|unpopular opinion|hot take|is dead\b|is a scam|is a lie|overrated|underrated|everyone is wrong|you'?re doing (it|this|\w+) wrong|(you'?ve|you have) been \w+ing (it |this |\w+ )?wrong|nobody needs|don'?t (buy|use|do)\b|you (must|need to|have to)\b|the truth\b|changed my life|game ?changer|will change your|i guarantee|trust me|best \w+ ever)\b/,
  ],
];

interface Hook {
  style: HookStyle;
  phrase: string;
  source: HookSource | null;
}

function detectHook(input: ContentInput, reasons: string[]): Hook {
  const screen = screenHook(input.visual);
  const spoken = hookPhrase(openingText(input.segments, input.transcript));
  const written = hookPhrase(input.description);
  const candidates: [HookSource, string, string][] = [
    ...(screen ? [["screen", screen.phrase, `the on-screen text at ${screen.where}`] as [HookSource, string, string]] : []),
    ["speech", spoken, "the speech's opening"],
    ["description", written, "the description's opening"],
  ];
  for (const [source, phrase, what] of candidates) {
    if (!phrase) continue;
    const style = classifyHook(phrase);
    if (style) {
      reasons.push(`hookStyle ${style.style}: ${what} "${phrase}" matched "${style.cue}"`);
      return { style: style.style, phrase, source };
    }
  }
  const phrase = candidates.find(([, p]) => p)?.[1];
  reasons.push(
    phrase
      ? `hookStyle none: no hook cue in the opening "${phrase}"`
      : "hookStyle none: no transcript, no on-screen text and no description",
  );
  return { style: "none", phrase: "", source: null };
}

/** The text hook as a hook phrase, with where it was seen: the time and keyframe it first appears in. */
function screenHook(visual: VisualEvidence | null | undefined): { phrase: string; where: string } | null {
  if (!visual?.textHook) return null;
  const first = visual.onScreenText.find((t) => visual.textHook!.startsWith(t.text));
  return { phrase: hookPhrase(visual.textHook), where: first ? seenAt(visual, first.firstSeconds) : "the first seconds" };
}

/** "0.0 s (keyframe 1)": a time and the keyframe shown there, as reasons name what was seen. */
function seenAt(visual: VisualEvidence, seconds: number): string {
  const index = visual.keyframes.findIndex((k) => k.seconds === seconds);
  return `${seconds.toFixed(1)} s${index >= 0 ? ` (keyframe ${index + 1})` : ""}`;
}

/** The text of the segments that start in the first seconds (at least the first segment, at least a few words). */
export function openingText(segments: Segment[], transcript: string): string {
  if (segments.length === 0) return transcript;
  const picked: string[] = [];
  for (const segment of segments) {
    const enough = segment.start >= HOOK_SECONDS && wordsOf(picked.join(" ")).length >= MIN_HOOK_WORDS;
    if (picked.length > 0 && enough) break;
    picked.push(segment.text);
  }
  return picked.join(" ");
}

/** The first sentence of the opening (joined with the next while too short to be a hook), at most a dozen words. */
export function hookPhrase(opening: string): string {
  let phrase = "";
  for (const sentence of splitSentences(opening)) {
    phrase = phrase ? `${phrase} ${sentence}` : sentence;
    if (wordsOf(phrase).length >= MIN_HOOK_WORDS) break;
  }
  const words = wordsOf(phrase);
  return words.length > MAX_HOOK_WORDS ? words.slice(0, MAX_HOOK_WORDS).join(" ") : phrase;
}

function classifyHook(phrase: string): { style: HookStyle; cue: string } | null {
  const text = normalise(phrase);
  for (const [style, pattern] of HOOK_RULES) {
    const cue = firstMatch(text, pattern);
    if (cue !== null) return { style, cue: cue || "?" };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// UGC fit

interface Signal {
  label: string;
  pattern: RegExp;
  /** Points per distinct matching phrase. */
  weight: number;
  /** At most this many points from this signal, so one long list of adjectives does not decide alone. */
  cap: number;
}

const FIRST_PERSON = /\b(i|i'm|i've|i'd|i'll|me|my|mine|myself)\b/g;

const PERSONAL_SIGNALS: Signal[] = [
  {
    label: "personal experience",
    pattern:
      /\b(i (tried|bought|used|tested|switched|found|love|hate|swear|needed|got|made|wish)|i'?ve been (using|trying|wearing|doing)|my (experience|skin|hair|routine|honest|favou?rite|go-to|morning|kids?|apartment|room|closet|collection|first)|honest(ly)? review|not sponsored|(day|week) in (my|the) life|get ready with me|grwm|storytime|story time|haul|unboxing|what i (eat|ate|bought|got|wore)|real talk|obsessed)\b/g,
    weight: 1,
    cap: 2,
  },
  {
    // Telling what one did ("I tried", "I built", "I spent"): an account of one's own experience, not a brand's.
    label: "first-person account",
    pattern: new RegExp(String.raw`\bi (just |finally |actually )?${DID}\b|\bday \d+ of\b`, "g"),
    weight: 1,
    cap: 1,
  },
  {
    label: "casual language",
    pattern:
      /\b(gonna|wanna|gotta|kinda|sorta|y'?all|lol|lmao|omg|ngl|tbh|lowkey|highkey|literally|guys|haha+|ugh|bestie|vibes?|no cap|bruh|dude|honestly|okay so|so yeah)\b|(?![©®™])\p{Extended_Pictographic}/gu,
    weight: 1,
    cap: 2,
  },
];

const BRAND_SIGNALS: Signal[] = [
  {
    label: "ad disclosure",
    pattern:
      /#(ad|ads|sponsored|partner|paidpartnership|advertisement)\b|(?<!\bnot (?:a |an )?|non-)\b(sponsored( by)?|paid partnership|in partnership with|brought to you by|advertisement)\b/g,
    weight: 3,
    cap: 3,
  },
  {
    label: "brand voice",
    pattern:
      /\b(our (new|products?|brand|team|customers|collection|formula|mission|store|shop|app|service|community|range)|we'?re (proud|excited|thrilled|delighted)|introducing|meet the (new|all-new)|all-new|now available|available (now|today|in stores|online)|official|limited (time|edition)|new collection)\b|[™®]/g,
    weight: 1,
    cap: 2,
  },
  {
    label: "sales language",
    pattern:
      /\b(shop now|buy now|order now|get yours|free shipping|\d+ ?% off|percent off|discount|promo code|coupon|sale ends|while supplies last|add to cart|money-back)\b/g,
    weight: 1,
    cap: 2,
  },
  {
    label: "polished marketing language",
    pattern:
      /\b(innovative|revolutionary|premium|world-class|best-in-class|cutting-edge|state-of-the-art|award-winning|guaranteed|clinically (proven|tested)|dermatologist[- ]tested|seamless(ly)?|elevate|unleash|unlock your|discover the|experience the|designed (to|for)|crafted|engineered|effortless(ly)?|next-level|game-changing|ultimate|transform your|formulated)\b/g,
    weight: 1,
    cap: 3,
  },
];

const DISCLOSURE_TAGS = new Set(["ad", "ads", "sponsored", "partner", "paidpartnership", "advertisement"]);

interface Ugc {
  fit: UgcFit;
  confidence: number;
}

/** Points from one signal: distinct matching phrases times the weight, capped. */
function score(text: string, signal: Signal): { points: number; matches: string[] } {
  const matches = [...new Set([...text.matchAll(signal.pattern)].map((m) => m[0].trim()))];
  return { points: Math.min(signal.cap, matches.length * signal.weight), matches };
}

function sumSignals(text: string, signals: Signal[], reasons: string[], side: string): number {
  let total = 0;
  for (const signal of signals) {
    const { points, matches } = score(text, signal);
    if (points === 0) continue;
    total += points;
    reasons.push(
      `ugc ${side} +${points} (${signal.label}): ${matches
        .slice(0, 4)
        .map((m) => `"${m}"`)
        .join(", ")}`,
    );
  }
  return total;
}

function assessUgc(input: ContentInput, reasons: string[]): Ugc {
  // Captions taken from the description (simulated media) would otherwise count every signal twice.
  const transcript = normalise(input.transcript);
  const description = normalise(input.description);
  const text = transcript === description ? transcript : collapseWhitespace(`${transcript} ${description}`);
  if (!text && input.visual?.faceShare == null) {
    reasons.push("ugcFit medium, confidence 0: no transcript and no description to judge");
    return { fit: "medium", confidence: 0 };
  }
  let personal = sumSignals(text, PERSONAL_SIGNALS, reasons, "personal");
  const firstPerson = text.match(FIRST_PERSON)?.length ?? 0;
  if (firstPerson > 0) {
    const points = firstPerson >= 3 ? 2 : 1;
    personal += points;
    reasons.push(`ugc personal +${points} (first-person voice): ${firstPerson} first-person words`);
  }
  personal += faceOnCamera(input.visual, reasons);
  let brand = sumSignals(text, BRAND_SIGNALS, reasons, "brand");
  brand += editedPacing(input.visual, reasons);
  const tags = input.hashtags.map((t) => t.toLowerCase().replace(/^#/, "")).filter((t) => DISCLOSURE_TAGS.has(t));
  if (tags.length > 0 && !/#(ad|ads|sponsored|partner|paidpartnership|advertisement)\b/.test(text)) {
    brand += 3;
    reasons.push(`ugc brand +3 (ad disclosure): hashtag #${tags[0]}`);
  }
  const ugc = judgeUgc(personal, brand);
  reasons.push(`ugcFit ${ugc.fit}, confidence ${ugc.confidence}: personal ${personal} vs brand ${brand}`);
  return ugc;
}

/** A person on camera in most keyframes (talking to camera: the strongest UGC signal) +2; in some +1. */
function faceOnCamera(visual: VisualEvidence | null | undefined, reasons: string[]): number {
  const share = visual?.faceShare;
  if (share == null || share < 0.25) return 0;
  const points = share >= 0.5 ? 2 : 1;
  const frames = visual!.keyframes.filter((k) => k.face).map((k) => seenAt(visual!, k.seconds));
  reasons.push(
    `ugc personal +${points} (face on camera): a face in ${Math.round(share * 100)} % of keyframes, at ${frames.slice(0, 4).join(", ")}`,
  );
  return points;
}

/** Cutting faster than every two seconds reads as edited, produced content. */
const EDITED_CUTS_PER_MINUTE = 30;

function editedPacing(visual: VisualEvidence | null | undefined, reasons: string[]): number {
  if (!visual || visual.cutsPerMinute < EDITED_CUTS_PER_MINUTE || visual.cutCount < 4) return 0;
  reasons.push(
    `ugc brand +1 (edited pacing): ${visual.cutCount} cuts, ${visual.cutsPerMinute} per minute, the first at ${visual.firstCutSeconds} s`,
  );
  return 1;
}

/**
 * The balance of points decides the fit (a lead of 2 either way); the confidence grows with how
 * far the balance leans and falls when both sides have evidence. A "medium" is more certain when
 * there is plenty of evidence on both sides than when there is hardly any.
 */
export function judgeUgc(personal: number, brand: number): Ugc {
  const lead = personal - brand;
  const total = personal + brand;
  const clamp = (n: number) => Math.max(0, Math.min(95, Math.round(n)));
  if (lead >= 2 || lead <= -2) {
    return { fit: lead > 0 ? "high" : "low", confidence: clamp(50 + 10 * Math.abs(lead) - 5 * Math.min(personal, brand)) };
  }
  if (total === 0) return { fit: "medium", confidence: 25 };
  return { fit: "medium", confidence: clamp(40 + 5 * Math.min(total, 6) - 10 * Math.abs(lead)) };
}

// ---------------------------------------------------------------------------------------------
// Call to action

/** A comment keyword as creators write it: one word, maybe quoted. */
const KEYWORD = String.raw`["'“‘]?[\w-]+["'”’]?`;

/** Cue phrases per CTA type, in priority order: the most specific destination wins over a generic ask. */
const CTA_RULES: [CtaType, RegExp][] = [
  [
    "shop",
    /\b(use (my |our |the )?(code|coupon)|promo code|discount code|(\d+ ?%|\w+ percent) off|shop (now|the|my|it|here|at|our)|buy (now|it|yours|here|one)|order (now|yours|today|here)|get yours|add to cart|grab (yours|one))\b/,
  ],
  ["link_in_bio", /\b(link (is )?in (my |the |our )?(bio|profile)|in (my|the|our) bio|bio link)\b/],
  [
    "visit_url",
    // A URL or website named; or the rest of the video elsewhere: "full video on YouTube", "the full tutorial is on my channel".
    /\b((visit|go to|head (over )?to|check out) (\S+\.(com|net|org|io|co|shop|store|app)|\S+ dot com|our website|the website|my website|the site)|links? (is |are )?(below|down below|in the description|in the comments)|click (the |this )?link|(full|whole|entire|long|longer|extended|uncut) (\w+ )?(video|review|tutorial|version|story|episode|vlog|recipe|interview|breakdown)( is| is up| is live)? (on|over on|at) (my |our |the )?(youtube|channel|patreon|podcast|blog|website|twitch|\w+ (channel|page)))\b/,
  ],
  ["subscribe", /\b(subscribe|hit the bell|turn on (post )?notifications|notification bell)\b/],
  ["follow", /\b(follow (me|us|for|along|my|@)|hit (that |the )?follow|give (me|us) a follow)\b/],
  [
    "comment",
    // "Comment PLAN and I'll send you the plan", "comment 'recipe' for the link", "Comment OWN or RENT and …": the keyword
    // form, with one keyword or several joined by "or", "and" or commas.
    new RegExp(
      String.raw`\b(comment (below|down|if|with|your|what|and)|(comment|type|drop|write|reply|say) ${KEYWORD}((,| or| and|, or) ${KEYWORD}){0,3},? (and|for|to get|to receive|if|below|in the comments)\b|comments below|let me know (in the comments|below|what you think)|drop (a |an |your )?(\S+ ){1,2}(below|in the comments)|tell me (in the comments|below)|in the comments\b)`,
    ),
  ],
  ["share", /\b(share (this|it|with)|send (this|it) to|tag (a|your|someone)|save (this|it)( for later)?|repost)\b/],
  [
    "like",
    /\b(like (this|the|my|it)( video| post)? if|like (this video|the video|if)|hit (the |that )?like|smash (that|the) like|double tap|leave a like|give (it|this) a like)\b/,
  ],
];

const TLDS = "com|net|org|io|co|shop|store|app|ly|me|tv|gg|link|bio|ee|to|us|uk|de|fr|ca|au";
/** Written URLs: with a scheme, starting with www., or a bare domain with a common top-level domain. */
const URL_PATTERN = new RegExp(
  String.raw`\bhttps?:\/\/[^\s<>"'\])]+|\bwww\.[^\s<>"'\])]+|(?<![@\w.-])[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9-]+)*\.(?:${TLDS})\b(?:\/[^\s<>"'\])]*)?`,
  "gi",
);
/** Spoken URLs as speech recognition writes them: "brand dot com". */
const SPOKEN_URL = /\b([a-z0-9]+) dot (com|net|org|io|co|shop|store|app)\b/gi;

/** URLs in order of appearance, with a scheme added where missing. */
export function findUrls(text: string): string[] {
  const found: { at: number; url: string }[] = [];
  for (const m of text.matchAll(URL_PATTERN)) found.push({ at: m.index, url: m[0] });
  for (const m of text.matchAll(SPOKEN_URL)) found.push({ at: m.index, url: `${m[1]}.${m[2]}`.toLowerCase() });
  return found
    .sort((a, b) => a.at - b.at)
    .map(({ url }) => url.replace(/[.,;:!?…]+$/, ""))
    .map((url) => (/^https?:\/\//i.test(url) ? url : `https://${url}`));
}

interface Cta {
  type: CtaType;
  url: string | null;
}

/** Calls that send the viewer somewhere: a URL elsewhere in the text is taken as where they point. */
const POINTING_CTAS = new Set<CtaType>(["shop", "link_in_bio", "visit_url"]);

/** A sentence the CTA rules read: said or written in the description, or shown on screen (with where). */
interface CtaSentence {
  text: string;
  /** For on-screen text: "on screen at 8.2 s (keyframe 7)". */
  where?: string;
}

function detectCta(input: ContentInput, reasons: string[]): Cta {
  const visual = input.visual;
  const sentences: CtaSentence[] = [
    ...[...splitSentences(input.transcript), ...splitSentences(input.description)].map((text) => ({ text })),
    ...(visual?.onScreenText ?? []).map((t) => ({ text: t.text, where: `on screen at ${seenAt(visual!, t.firstSeconds)}` })),
  ];
  const screenText = (visual?.onScreenText ?? []).map((t) => t.text).join(" ");
  const fallbackUrl = findUrls(input.description)[0] ?? findUrls(input.transcript)[0] ?? findUrls(screenText)[0] ?? null;
  for (const [type, pattern] of CTA_RULES) {
    const sentence = sentences.find((s) => pattern.test(normalise(s.text)));
    if (!sentence) continue;
    // "Subscribe!" does not point at the shop link two lines down; only a URL in its own sentence counts.
    const url = findUrls(sentence.text)[0] ?? (POINTING_CTAS.has(type) ? fallbackUrl : null);
    const where = sentence.where ? ` ${sentence.where}` : "";
    reasons.push(
      `ctaType ${type}: "${firstMatch(normalise(sentence.text), pattern)}" in "${sentence.text}"${where}${url ? `, destination ${url}` : ""}`,
    );
    return { type, url };
  }
  if (fallbackUrl) {
    reasons.push(`ctaType visit_url: no cue phrase, but the text points to ${fallbackUrl}`);
    return { type: "visit_url", url: fallbackUrl };
  }
  reasons.push("ctaType none: no call-to-action phrase and no URL");
  return { type: "none", url: null };
}
