/**
 * The rules of on-screen text, after the recogniser has read each keyframe line by line (with its confidence
 * and language): what is tidied, what is confident enough to use, how readings across keyframes become one
 * piece of text with when it is shown, and what the text hook is.
 *
 * The confidence floor (VISUAL_TEXT_CONFIDENCE_FLOOR, 0.8 by default): a line read with less confidence is
 * kept in the record, marked `used: false`, and is no evidence for any judgement (the text hook, the content
 * analysis); the analysis's reasons say how much was set aside. On the real clips of the evaluation set,
 * noise lines (Cyrillic read as Latin look-alikes, a patterned background read as letters) were mostly read below
 * 0.8 and the subtitles above it (bench/RESULTS.md, "Analysis evaluation set: real clips"). Noise read with high
 * confidence is caught by the recogniser's word check (`readsAsWords: false`): such a line is set aside too.
 */
import { config } from "../../../config.ts";
import type { OnScreenText, ReadTextLine, SeenKeyframe, VisualEvidence } from "../ports.ts";

/** On-screen text shown in these first seconds is the text hook. */
export const TEXT_HOOK_SECONDS = 3;

/** The floor in force (VISUAL_TEXT_CONFIDENCE_FLOOR). */
export const textConfidenceFloor = () => config.visual.textConfidenceFloor;

/**
 * A line's spacing collapsed, a zero-width joiner or non-joiner at a word's edge dropped (they join letters inside a
 * Persian or Indic word; tesseract leaves one after a Tamil word's last letter, where a search for the word misses it),
 * and a lone "|" read as the "I" it nearly always is in overlay text.
 */
export function tidyLine(text: string): string {
  return text
    .replace(/[\u200c\u200d]+(?=\s|$)|(?<=^|\s)[\u200c\u200d]+/gu, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/(^| )\|(?= |$)/g, "$1I");
}

/** The recogniser's lines, tidied; those with fewer than two letters or digits dropped. */
export function tidyLines(lines: ReadTextLine[]): ReadTextLine[] {
  return lines.map((l) => ({ ...l, text: tidyLine(l.text) })).filter((l) => (l.text.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= 2);
}

/** A line is used when it is read at or above the floor and reads as words (the recogniser's word check, when it made one). */
export const usable = (line: Pick<ReadTextLine, "confidence" | "readsAsWords">, floor = textConfidenceFloor()) =>
  line.confidence >= floor && line.readsAsWords !== false;

/** A keyframe's text as the analysis reads it: its lines confident enough to use, one per line. */
export function usableText(lines: ReadTextLine[], floor = textConfidenceFloor()): string {
  return lines
    .filter((l) => usable(l, floor))
    .map((l) => l.text)
    .join("\n");
}

/**
 * Lower-case letters (with their marks: a Tamil or Hindi word's vowel signs and viramas are part of it) and digits only:
 * two readings of one overlay compare equal despite OCR's stray punctuation.
 */
function comparable(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}]+/gu, "");
}

/** A piece absent from this many frames read in a row has left the screen: read again later, it is shown again, a piece of its own. */
export const GONE_AFTER_FRAMES = 2;

/**
 * The pieces of on-screen text across keyframes (keyframes ascending by time): a piece read again
 * in a later frame (the same letters, or nearly: OCR may misread a character or two between frames) extends
 * the first one's `lastSeconds`; the fullest usable reading is kept (else the most confident), with its language and
 * confidence, and the piece is used when that reading reaches the floor and reads as words. A piece that left the
 * screen (absent from GONE_AFTER_FRAMES frames read in a row) and comes back is shown again: a new piece, with its own
 * times (a desktop's top bar before and after a title card, a name on each of three pop-ups). One frame without it is
 * not enough: OCR misses a line in a frame now and then.
 */
export function collectOnScreenText(frames: Pick<SeenKeyframe, "seconds" | "lines">[], floor = textConfidenceFloor()): OnScreenText[] {
  const pieces: (OnScreenText & { key: string; best: number; missed: number })[] = [];
  for (const frame of frames) {
    // Two lines of one frame are two pieces, even when one reads inside the other (a meme's "YOU GET …" above "AND YOU
    // GET …"); a line is matched with the piece it is closest to in length.
    const matched = new Set<(typeof pieces)[number]>();
    for (const line of frame.lines ?? []) {
      const key = comparable(line.text);
      if (!key) continue;
      const same = pieces
        .filter((p) => !matched.has(p) && p.missed < GONE_AFTER_FRAMES && similar(p.key, key))
        .sort((x, y) => Math.abs(x.key.length - key.length) - Math.abs(y.key.length - key.length))[0];
      if (!same) {
        const created = { ...piece(line, frame.seconds, floor), key, best: line.confidence, missed: 0 };
        pieces.push(created);
        matched.add(created);
        continue;
      }
      matched.add(same);
      same.lastSeconds = frame.seconds;
      if (better(line, key, same, floor))
        Object.assign(same, piece(line, same.firstSeconds, floor), { key, best: line.confidence, lastSeconds: frame.seconds });
    }
    for (const p of pieces) p.missed = matched.has(p) ? 0 : p.missed + 1;
  }
  return pieces.map(({ key: _key, best: _best, missed: _missed, ...p }) => p);
}

/**
 * Whether a new reading of a piece replaces the one kept. A usable reading with more letters than a misread could
 * add wins: text that builds up on screen (a caption that adds a word at a time, a terminal, a line of a wrapped
 * overlay missed in one frame) is read whole in its later frames, often a little less confidently than its start.
 * Otherwise the more confident reading wins.
 */
function better(line: ReadTextLine, key: string, kept: OnScreenText & { key: string; best: number }, floor: number): boolean {
  // The same letters with more of their marks (a Tamil word read whole after a reading that lost its vowel signs) is fuller.
  const sameLetters = unmarked(key) === unmarked(kept.key);
  const fuller =
    (sameLetters && key.length > kept.key.length) || key.length > kept.key.length + Math.max(2, Math.floor(kept.key.length / 8));
  if (fuller && usable(line, floor)) return true;
  const shorter = (sameLetters && kept.key.length > key.length) || kept.key.length > key.length + Math.max(2, Math.floor(key.length / 8));
  if (shorter && kept.used) return false;
  return line.confidence > kept.best;
}

function piece(line: ReadTextLine, seconds: number, floor: number): OnScreenText {
  return {
    text: line.text,
    firstSeconds: seconds,
    lastSeconds: seconds,
    language: line.language,
    confidence: Math.round(line.confidence * 100) / 100,
    used: usable(line, floor),
  };
}

/** Without marks (vowel signs, viramas, diacritics written apart): what OCR most often loses of a word. */
const unmarked = (key: string) => key.replace(/\p{M}/gu, "");

/**
 * The same overlay read twice: the shorter reading is found inside the longer one with at most one
 * edit per 8 characters (OCR misreads a letter, or misses a line of a wrapped overlay in one frame).
 */
function similar(marked: string, other: string): boolean {
  const [a, b] = [unmarked(marked), unmarked(other)];
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short === long) return true;
  if (short.length < 6) return false;
  return editDistanceWithin(long, short) <= Math.floor(short.length / 8);
}

/** The least edit distance between `short` and any stretch of `long` (approximate substring match, Sellers' algorithm). */
function editDistanceWithin(long: string, short: string): number {
  // Rows over `short`, columns over `long`; a match may start anywhere in `long` (row 0 is all zeros).
  let previous = new Array<number>(long.length + 1).fill(0);
  for (let i = 1; i <= short.length; i++) {
    const current = [i];
    for (let j = 1; j <= long.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (short[i - 1] === long[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return Math.min(...previous);
}

/** What is on screen in the first TEXT_HOOK_SECONDS and used, one piece per line in order of appearance; null when nothing is. */
export function textHook(pieces: OnScreenText[]): string | null {
  const early = pieces.filter((p) => p.used && p.firstSeconds < TEXT_HOOK_SECONDS).map((p) => p.text);
  return early.length ? early.join("\n") : null;
}

/** Why on-screen text was set aside, in words (none: nothing was). */
export function setAsideText(pieces: OnScreenText[], floor = textConfidenceFloor()): string[] {
  const aside = pieces.filter((p) => !p.used);
  if (aside.length === 0) return [];
  const shown = aside
    .slice(0, 3)
    .map((p) => `"${p.text.slice(0, 40)}" (${p.confidence}) at ${p.firstSeconds.toFixed(1)} s`)
    .join(", ");
  const more = aside.length > 3 ? ` and ${aside.length - 3} more` : "";
  return [
    `on-screen text set aside: ${aside.length} line${aside.length === 1 ? "" : "s"} read below the confidence floor ${floor} or not as words (${shown}${more}) ` +
      "are kept in the record but were not used for any judgement",
  ];
}

/** The evidence as the content analysis may use it: on-screen text below the floor left out. */
export function evidenceForJudgement(evidence: VisualEvidence): VisualEvidence {
  return { ...evidence, onScreenText: evidence.onScreenText.filter((t) => t.used) };
}
