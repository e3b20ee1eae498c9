/**
 * English words in a line of on-screen text, from the word list of the npm package `wordsninja` (126,000 words of
 * English Wikipedia, most frequent first; MIT): how much of a Latin line reads as words, and words a recogniser
 * glued together ("Enterkeyforconfirm" → "Enter key for confirm"), split where the list's word costs say.
 *
 * Why a word list: PaddleOCR reads English screen text without its spaces, and reads a patterned background, a
 * logo or Cyrillic capitals as Latin letters ("NAZA", "OHA HEOCABAEMA") with high confidence. Real text of a Latin
 * line is mostly words of a list; that noise is not.
 */
import { createRequire } from "node:module";

interface Ninja {
  loadDictionary(): Promise<unknown>;
  splitSentence(text: string): string[];
}

const require = createRequire(import.meta.url);
const list = require("wordsninja/words-en.json") as string[];
/**
 * The words a line of English is made of: the list's 50,000 most frequent. The whole list also holds the common words
 * of Spanish, French or German (Wikipedia's names and titles): a Spanish sentence was 60 % "English" by it, 50 % by these.
 */
const WORDS = new Set(list.slice(0, 50_000));
/** The list's most frequent words: the parts a glued run may be split into (rarer words are as often parts of a name). */
const COMMON = new Set(list.slice(0, 25_000));
/** The words that glue English together (the, of, to, for …): glued English text has some; a name cut in pieces rarely. */
const GLUE = new Set(list.slice(0, 500));
const EVERYDAY = new Set(list.slice(0, 5_000));
/** The list's 15,000 most frequent words: a glued run's parts are these but one at most (see `wordsOfGluedText`). */
const FREQUENT = new Set(list.slice(0, 15_000));
let ninja: Ninja | null = null;
/** The splitter, its costs made from the list once (synchronously: its loadDictionary does no I/O). */
function splitter(): Ninja {
  if (ninja) return ninja;
  const WordsNinja = require("wordsninja") as new () => Ninja;
  ninja = new WordsNinja();
  void ninja.loadDictionary();
  return ninja;
}

/** A word of the list, in any case; a contraction by its first part ("I've" → "i", "don't" → "don"). */
const listed = (word: string) => WORDS.has(word.toLowerCase().split(/['\u2019]/)[0]!);

/** Runs of Latin letters (with apostrophes inside) in a line. */
const LETTER_RUNS = /\p{Script=Latin}+(?:['\u2019]\p{Script=Latin}+)*/gu;

/**
 * The share of a line's Latin letters that are in words of the list, or of `also` (0-1), each run of letters a word; null when the
 * line has no Latin letters. Weighted by letters: a long unknown word (noise) weighs more than a short known one. A name in
 * camel case counts by its pieces: "testFolder" is two words a line of code or a path is made of.
 */
export function knownLetterShare(text: string, also?: ReadonlySet<string>): number | null {
  const runs = text.match(LETTER_RUNS) ?? [];
  const letters = runs.reduce((n, r) => n + r.length, 0);
  if (letters === 0) return null;
  const known = runs.reduce((n, r) => n + knownLetters(r, also), 0);
  return known / letters;
}

/**
 * A run's letters in words of the list (or of `also`, another language's list in lower case: ./word-lists.ts): all of
 * them when it is one, else those of its pieces in camel case ("testFolder").
 */
function knownLetters(run: string, also?: ReadonlySet<string>): number {
  if (listed(run) || also?.has(run.toLowerCase())) return run.length;
  const pieces = casePieces(run);
  return pieces.length > 1 ? pieces.filter((p) => p.length > 1 && listed(p)).reduce((n, p) => n + p.length, 0) : 0;
}

/** A contraction's ending run into the next word ("Don'tbuy", "won'tbelieve", "it'sthe"): the next word is split off when it is a word. */
const CONTRACTION_GLUED = /(\p{L}['\u2019](?:t|s|re|ve|ll|d|m))(\p{L}{2,})/giu;

/** A word run into the pronoun after it ("HowI", "WhatI"): too short for the word list's split, and common in captions. */
const I_GLUED = /\b(\p{Lu}?\p{Ll}+)I\b/gu;

/**
 * A word run into the short number after it ("Pixel9", "Top10", "Part2"): PaddleOCR drops a narrow space before a digit.
 * Not in a handle, a hashtag, an address or a name with digits of its own ("@travel22", "site2.com", "jc32d0604"), nor
 * a word in capitals (a promo code, "SAVE20"; an acronym, "HTML5") or a technical name (NUMBERED_NAMES: "IPv6",
 * "float32"), whose number is part of it. "Pixel9Pro" stays as it is.
 */
const NUMBER_GLUED = /(?<![@#\p{L}\p{N}._/-])(\p{L}{3,})(\d{1,3})(?![\p{L}\p{N}_/@-]|\.[\p{L}\p{N}])/gu;
/** Words of the list that name things with their number: the number is no word of its own after them. */
const NUMBERED_NAMES = new Set(["ipv", "float", "int", "uint", "arm", "amd", "base", "win", "utf", "sha", "ios", "mac", "web"]);
const spacedNumber = (word: string) =>
  COMMON.has(word.toLowerCase()) && word !== word.toUpperCase() && !NUMBERED_NAMES.has(word.toLowerCase());

/** A glued run is at least this long: shorter unknown words are names and misreadings, not words run together. */
const MIN_GLUED = 7;

/**
 * The line with words a recogniser ran together spaced: a run of letters not in the list is split at a change from
 * lower to upper case when its pieces are such words (below; else it is one piece), then by the list's word costs, when every part is one of the list's 25,000 most frequent
 * words (single letters only "a" and "I"), the parts average at least 2.5 letters (a split into many tiny words is a guess,
 * not a reading), and one of them is among the 500 most frequent or all among the 5,000 most frequent (glued English has
 * its small words: "thebest", "keyfor"; a name cut in pieces, "Ku berne tes", has not).
 * A sentence sign glued to the next word gets its space ("selection.Enter" → "selection. Enter"), and so do a
 * contraction's ending ("Don'tbuy" → "Don't buy"), a capital I after a word ("HowI" → "How I"), a price after a
 * word ("off$30k" → "off $30k") and a short number after a word ("Pixel9" → "Pixel 9"). A run that is a word of
 * `keep` (the line's language's list, ./word-lists.ts: German "starten") is left whole.
 */
export function spaceGluedWords(text: string, keep?: ReadonlySet<string>): string {
  const spaced = text
    .replace(/(\p{Ll}{2})([,;!?]|\.(?=\p{Lu}))(?=\p{L})/gu, "$1$2 ")
    .replace(CONTRACTION_GLUED, (whole, contraction: string, next: string) =>
      COMMON.has(next.toLowerCase()) ? `${contraction} ${next}` : whole,
    )
    .replace(I_GLUED, (whole, word: string) => (COMMON.has(word.toLowerCase()) ? `${word} I` : whole))
    .replace(/(\p{Ll})(\$\d)/gu, "$1 $2")
    .replace(NUMBER_GLUED, (whole, word: string, number: string) => (spacedNumber(word) ? `${word} ${number}` : whole));
  const whole = (run: string) => run.length < MIN_GLUED || listed(run) || keep?.has(run.toLowerCase());
  return spaced.replace(LETTER_RUNS, (run) => (whole(run) ? run : splitRun(run)));
}

/** A run of letters cut where a lower-case letter meets an upper-case one ("testFolder" → test, Folder). */
const casePieces = (run: string) => run.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2").split(" ");

function splitRun(run: string): string {
  const pieces = casePieces(run);
  // A run in Pascal case whose pieces are words or short is a name (as many a brand is written: "TexText", "TikTok",
  // "GitHub") unless its pieces are English run together, as the list's costs split ("PressEnter" is two). A run that
  // starts in lower case is a word glued to a capitalised one ("mitGemini", "selectionEnter"), and pieces that are runs of
  // their own ("SelectaROIandthenpress") are each split as below.
  const name = /^\p{Lu}/u.test(run) && pieces.every((p) => p.length < MIN_GLUED || listed(p));
  if (pieces.length > 1 && name && !wordsOfGluedText(pieces)) return splitPiece(run);
  return pieces.map((p) => (p.length < MIN_GLUED || listed(p) ? p : splitPiece(p))).join(" ");
}

/**
 * Whether the parts a glued run was split into read as English run together: each one of the list's 25,000 most frequent
 * words (single letters only "a" and "I"), and one among the 500 most frequent or all among the 5,000 (see `spaceGluedWords`).
 */
function wordsOfGluedText(parts: string[]): boolean {
  const lower = parts.map((p) => p.toLowerCase());
  // A lone letter is "a" or the pronoun "I", in capitals: "At i vida des" and "Press i one" are Portuguese, cut up.
  const words = lower.every((p, k) => COMMON.has(p) && (p.length > 1 || p === "a" || parts[k] === "I"));
  // Two or more of the list's rarer words are another language's word cut into English-looking pieces ("An wen dung en
  // star ten" for "Anwendungen starten"); glued English has one at most ("Select a ROI and then press").
  if (!words || lower.filter((p) => !FREQUENT.has(p)).length > 1) return false;
  return lower.some((p) => GLUE.has(p)) || lower.every((p) => EVERYDAY.has(p));
}

/** One unknown piece split into words of the list, keeping its letters' case; unchanged when the split is no good. */
function splitPiece(piece: string): string {
  if (/['\u2019]/.test(piece)) return piece;
  const parts = splitter().splitSentence(piece);
  if (parts.join("").length !== piece.length || parts.length < 2) return piece;
  if (piece.length / parts.length < 2.5 || !wordsOfGluedText(parts)) return piece;
  let at = 0;
  return parts
    .map((p) => {
      const original = piece.slice(at, at + p.length);
      at += p.length;
      return original;
    })
    .join(" ");
}
