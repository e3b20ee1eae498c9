/**
 * Which script and language a line of on-screen text is in, from its letters: the script by Unicode property,
 * the language within a script by franc (trigram statistics, `franc-min`), limited to the languages of that
 * script. A short line says little: franc needs a few words, and below that a Latin or Cyrillic line's
 * language is null unless its letters settle it (Vietnamese's own vowels). A Latin line mostly of English words
 * (./words.ts) is English unless franc clearly says otherwise and the line is not all English words: franc alone
 * gave short English subtitles Portuguese or nothing. BCP 47 tags.
 */
import { francAll } from "franc-min";
import { knownLetterShare } from "./words.ts";

export type Script = "han" | "japanese" | "hangul" | "latin" | "cyrillic" | "arabic" | "devanagari" | "other";

const SCRIPT_TESTS: [Script, RegExp][] = [
  ["japanese", /[\p{Script=Hiragana}\p{Script=Katakana}]/gu],
  ["hangul", /\p{Script=Hangul}/gu],
  ["han", /\p{Script=Han}/gu],
  ["cyrillic", /\p{Script=Cyrillic}/gu],
  ["arabic", /\p{Script=Arabic}/gu],
  ["devanagari", /\p{Script=Devanagari}/gu],
  ["latin", /\p{Script=Latin}/gu],
];

/** The script most of the line's letters are in (kana anywhere makes Han text Japanese). */
export function scriptOf(text: string): Script {
  const counts = SCRIPT_TESTS.map(([script, re]) => [script, text.match(re)?.length ?? 0] as const);
  const kana = counts.find(([s]) => s === "japanese")![1];
  const han = counts.find(([s]) => s === "han")![1];
  if (kana > 0 && kana + han >= Math.max(...counts.map(([, n]) => n))) return "japanese";
  const [script, n] = counts.reduce((best, c) => (c[1] > best[1] ? c : best));
  return n > 0 ? script : "other";
}

/** franc's ISO 639-3 codes of each script's languages, and their BCP 47 tags. */
const LANGUAGES: Partial<Record<Script, Record<string, string>>> = {
  latin: { eng: "en", vie: "vi", spa: "es", por: "pt", fra: "fr", deu: "de", tur: "tr", ita: "it", nld: "nl", ind: "id", pol: "pl" },
  // Cyrillic by its letters (below): franc told Russian captions of two or three words from Bulgarian at random.
  arabic: { arb: "ar", pes: "fa", urd: "ur" },
  devanagari: { hin: "hi", mar: "mr", nep: "ne" },
};
/** A script's language when franc cannot tell (too few letters): the one most posted in it, or null for Latin. */
const USUAL: Record<Script, string | null> = {
  han: "zh",
  japanese: "ja",
  hangul: "ko",
  cyrillic: "ru",
  arabic: "ar",
  devanagari: "hi",
  latin: null,
  other: null,
};
/** How far ahead of the second language franc's first must score (scores are relative, the first 1). */
const CLEAR_MARGIN = 0.12;
/** Letters of Ukrainian's alphabet that Russian's lacks. */
const UKRAINIAN = /[іїєґ]/iu;
/** Letters only Vietnamese writes (ơ, ư, đ, the vowels with a dot below or a hook above). */
const VIETNAMESE = /[ơưđạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]/iu;

/** The line's language as BCP 47, or null when its letters do not settle it. */
export function languageOf(text: string, script = scriptOf(text)): string | null {
  if (script === "latin" && VIETNAMESE.test(text)) return "vi";
  if (script === "cyrillic") return UKRAINIAN.test(text) ? "uk" : "ru";
  const candidates = LANGUAGES[script];
  if (!candidates) return USUAL[script];
  const [best, second] = francAll(text, { only: Object.keys(candidates), minLength: 10 });
  // A short line scores several languages alike: only a clear first is an answer.
  const franc = !best || best[0] === "und" || (second && second[1] > 1 - CLEAR_MARGIN) ? null : (candidates[best[0]] ?? null);
  if (script !== "latin") return franc ?? USUAL[script];
  const english = knownLetterShare(text) ?? 0;
  if (franc && franc !== "en" && !(english >= ALL_ENGLISH && !OTHER_LATIN.test(text))) return franc;
  return english >= MOSTLY_ENGLISH ? "en" : franc;
}

/** Shares of a Latin line's letters in English words (./words.ts) that make it English: mostly, and all but a name. */
const MOSTLY_ENGLISH = 0.6;
const ALL_ENGLISH = 0.9;
/** Letters English does not write and the other Latin languages here do: a line with them is not all English. */
const OTHER_LATIN = /[àáâãäåçèéêëìíîïñòóôõöøùúûüýÿğışœß]/iu;
