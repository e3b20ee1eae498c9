/**
 * How the visual stage's answer on a real clip compares with the clip's labels (./real/manifest.json): pure
 * functions, used by bench/analysis-eval-real.ts and its test.
 *
 * - Text: the labelled lines' tokens (words; each character for Chinese, Japanese and Korean, which have no spaces)
 *   found among the tokens of the lines the stage used (above the confidence floor), each counted as often as it is
 *   labelled; watermarks are left out (they are read, but nobody posts them). Apostrophes are dropped on both sides
 *   ("Ive" is a reading of "I've").
 * - Noise: a used line that is no reading of any labelled line (watermarks included): fewer than 60 % of its letters
 *   appear, in order, in one labelled line, or in up to four labelled lines in a row shown at the same time (a wrapped
 *   caption the stage joined). Cyrillic read as Latin look-alikes ("MCMEX" for "И СМЕХ") is noise.
 * - Cuts: the count within ±1 of the labelled count; the found times matched one to one with the labelled ones
 *   within ±0.5 s (precision, recall and F1 over all the clips of a part).
 */
import { normaliseWords } from "../wer.js";

export interface LabelledLine {
  text: string;
  language: string;
  fromSeconds: number;
  toSeconds: number;
  role: "caption" | "subtitle" | "title" | "ui" | "watermark";
}

export interface RealClip {
  id: string;
  file: string;
  heldOut: boolean;
  /** The date a clip joined the held-out part after the first tuning; its labels were committed before anything ran on it. */
  addedToHeldOut?: string;
  labels: { onScreenText: LabelledLine[]; cutSeconds: number[]; face: boolean; speechLanguage: string | null };
}

/**
 * The held-out additions no one has read the misses of: every addition (`addedToHeldOut`) not in the manifest's
 * `readParts`, oldest first. Their misses stay unprinted, so the next change is measured on clips nobody tuned toward;
 * whoever prints and reads them adds the part to `readParts`.
 */
export function unreadParts(clips: Pick<RealClip, "heldOut" | "addedToHeldOut">[], readParts: string[] = []): string[] {
  const added = clips.flatMap((c) => (c.heldOut && c.addedToHeldOut ? [c.addedToHeldOut] : []));
  return [...new Set(added.filter((part) => !readParts.includes(part)))].sort();
}

/** The unread parts whose misses are not printed: all of them, unless they are asked for (BENCH_SHOW_FRESH=1). */
export const hiddenParts = (unread: string[], showFresh: boolean): string[] => (showFresh ? [] : unread);

/** Whether a clip's misses may be printed: it is in no hidden part. */
export const printable = (clip: Pick<RealClip, "addedToHeldOut">, hidden: string[]): boolean => !hidden.includes(clip.addedToHeldOut ?? "");

/** A line the stage read, as the bench sees it. */
export interface ReadLine {
  text: string;
  language: string | null;
  used: boolean;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Words, or each CJK character on its own; lower case, without apostrophes. */
export function tokens(text: string): string[] {
  return normaliseWords(text.replace(/['\u2018\u2019]/g, "")).flatMap((w) =>
    CJK.test(w) ? [...w].filter((c) => /\p{L}|\p{N}/u.test(c)) : [w],
  );
}

export interface Recall {
  found: number;
  total: number;
  missing: string[];
}

/** The labelled (non-watermark) lines' tokens found among the used lines' tokens, split by English and the other languages. */
export function textRecall(labels: LabelledLine[], read: ReadLine[]): { english: Recall; other: Recall } {
  const pool = new Map<string, number>();
  for (const t of read.filter((r) => r.used).flatMap((r) => tokens(r.text))) pool.set(t, (pool.get(t) ?? 0) + 1);
  const english: Recall = { found: 0, total: 0, missing: [] };
  const other: Recall = { found: 0, total: 0, missing: [] };
  for (const line of labels.filter((l) => l.role !== "watermark")) {
    const into = line.language === "en" ? english : other;
    for (const t of tokens(line.text)) {
      into.total++;
      const left = pool.get(t) ?? 0;
      if (left > 0) {
        into.found++;
        pool.set(t, left - 1);
      } else into.missing.push(t);
    }
  }
  return { english, other };
}

const letters = (s: string) => [...s.toLowerCase().replace(/[^\p{L}\p{M}\p{N}]/gu, "")];

function lcs(a: string[], b: string[]): number {
  let previous = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const current = [0];
    for (let j = 1; j <= b.length; j++) current[j] = a[i - 1] === b[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, current[j - 1]!);
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * Labelled text a used line may be a reading of: each labelled line, and each run of up to four labelled lines in a
 * row, each on screen together with the one before it (the stage joins the lines of a wrapped caption into one, where
 * the labels list each line as it is shown).
 */
function readable(labels: LabelledLine[]): string[][] {
  const texts: string[][] = [];
  for (let i = 0; i < labels.length; i++) {
    let joined = letters(labels[i]!.text);
    texts.push(joined);
    for (let j = i + 1; j < Math.min(labels.length, i + 4); j++) {
      const [a, b] = [labels[j - 1]!, labels[j]!];
      if (b.fromSeconds >= a.toSeconds || a.fromSeconds >= b.toSeconds) break;
      joined = [...joined, ...letters(b.text)];
      texts.push(joined);
    }
  }
  return texts;
}

/** The used lines that read no labelled line (nor labelled lines shown together, in a row). */
export function noiseLines(labels: LabelledLine[], read: ReadLine[]): string[] {
  const texts = readable(labels);
  return read
    .filter((r) => r.used)
    .filter((r) => {
      const mine = letters(r.text);
      if (mine.length === 0) return false;
      return !texts.some((t) => lcs(mine, t) >= 0.6 * mine.length);
    })
    .map((r) => r.text);
}

/** For each labelled line read (its tokens mostly found in one used line), whether that line's language is the label's. */
export function languageHits(labels: LabelledLine[], read: ReadLine[]): { right: number; total: number; wrong: string[] } {
  let right = 0;
  let total = 0;
  const wrong: string[] = [];
  for (const line of labels.filter((l) => l.role !== "watermark")) {
    const want = letters(line.text);
    const match = read.filter((r) => r.used).find((r) => lcs(want, letters(r.text)) >= 0.6 * want.length);
    if (!match) continue;
    total++;
    if ((match.language ?? "").split("-")[0] === line.language) right++;
    else wrong.push(`${line.text} → ${match.language}`);
  }
  return { right, total, wrong };
}

export interface CutScore {
  countWithinOne: boolean;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
}

/** Found cut times matched one to one with the labelled ones within `tolerance` seconds (nearest first). */
export function scoreCuts(labelled: number[], found: number[], tolerance = 0.5): CutScore {
  const left = [...labelled];
  let truePositives = 0;
  for (const f of found) {
    let best = -1;
    for (let i = 0; i < left.length; i++)
      if (Math.abs(left[i]! - f) <= tolerance && (best < 0 || Math.abs(left[i]! - f) < Math.abs(left[best]! - f))) best = i;
    if (best >= 0) {
      truePositives++;
      left.splice(best, 1);
    }
  }
  return {
    countWithinOne: Math.abs(found.length - labelled.length) <= 1,
    truePositives,
    falsePositives: found.length - truePositives,
    falseNegatives: labelled.length - truePositives,
  };
}

/** F1 over summed counts (clips without cuts count through their false positives). */
export function f1(scores: CutScore[]): { precision: number; recall: number; f1: number } {
  const tp = scores.reduce((s, c) => s + c.truePositives, 0);
  const fp = scores.reduce((s, c) => s + c.falsePositives, 0);
  const fn = scores.reduce((s, c) => s + c.falseNegatives, 0);
  const precision = tp + fp ? tp / (tp + fp) : 1;
  const recall = tp + fn ? tp / (tp + fn) : 1;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}
