/**
 * Text and segment helpers shared by the media providers (captions), the transcription providers
 * and the heuristic analysis.
 */
import type { Segment } from "../../domain/analysis/ports.ts";

/** Abbreviations whose trailing dot does not end a sentence. */
const ABBREVIATIONS = new Set(["mr", "mrs", "ms", "dr", "st", "vs", "etc", "e.g", "i.e", "no", "jr", "sr", "approx"]);

export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Splits text into sentences at `.`, `!`, `?` or `…` followed by white space, and at line breaks
 * (descriptions often put one thought per line without a full stop). URLs and decimals have no
 * space after their dots, so they stay whole.
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const line of text.split(/\n+/)) {
    let current = "";
    for (const token of line.split(/(\s+)/)) {
      current += token;
      if (/\s/.test(token) || !/[.!?…]+["')\]]*$/.test(token)) continue;
      const bare = token.toLowerCase().replace(/[.!?…"')\]]+$/, "");
      if (token.endsWith(".") && !/[!?…]/.test(token) && ABBREVIATIONS.has(bare)) continue;
      pushSentence(sentences, current);
      current = "";
    }
    pushSentence(sentences, current);
  }
  return sentences;
}

function pushSentence(sentences: string[], text: string): void {
  const clean = collapseWhitespace(text);
  if (clean) sentences.push(clean);
}

export function joinSegments(segments: Segment[]): string {
  return collapseWhitespace(segments.map((s) => s.text).join(" "));
}

/** Rounds to milliseconds so stored timings do not carry floating-point noise. */
export function roundSeconds(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
