/** How the analysis benches compare a phrase the analyser gave with the labelled one (one possibly read by OCR). */
import { normaliseWords } from "../wer.js";

/** Lower-cased words without punctuation. */
export function words(text: string | null | undefined): string {
  return normaliseWords(text ?? "").join(" ");
}

/** Equal as words, up to one misread character in ten. */
export function samePhrase(expected: string, got: string): boolean {
  const a = words(expected);
  const b = words(got);
  if (a === b) return true;
  return a.length > 0 && levenshtein(a, b) <= Math.floor(a.length / 10);
}

function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
