/**
 * Which script and language a line of on-screen text is in, from its letters: the script by Unicode property,
 * the language within a script by franc (trigram statistics, `franc-min`), limited to the languages of that
 * script. A short line says little: franc needs a few words, and below that a Latin or Cyrillic line's
 * language is null unless its letters settle it (Vietnamese's own vowels, Czech's ě ů ř, Spanish's ¿ ¡). A Latin line mostly of English words
 * (./words.ts) is English unless franc clearly says otherwise and the line is not all English words: franc alone
 * gave short English subtitles Portuguese or nothing. Arabic script's languages by their own letters first (Urdu's,
 * Persian's), then franc. BCP 47 tags.
 */
import { francAll } from "franc-min";
import { knownLetterShare } from "./words.ts";

export type Script = "han" | "japanese" | "hangul" | "latin" | "cyrillic" | "arabic" | "devanagari" | "tamil" | "other";

const SCRIPT_TESTS: [Script, RegExp][] = [
  ["japanese", /[\p{Script=Hiragana}\p{Script=Katakana}]/gu],
  ["hangul", /\p{Script=Hangul}/gu],
  ["han", /\p{Script=Han}/gu],
  ["cyrillic", /\p{Script=Cyrillic}/gu],
  ["arabic", /\p{Script=Arabic}/gu],
  ["devanagari", /\p{Script=Devanagari}/gu],
  ["tamil", /\p{Script=Tamil}/gu],
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
  latin: {
    eng: "en",
    vie: "vi",
    spa: "es",
    por: "pt",
    fra: "fr",
    deu: "de",
    tur: "tr",
    ita: "it",
    nld: "nl",
    ind: "id",
    pol: "pl",
    ces: "cs",
  },
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
  tamil: "ta",
  latin: null,
  other: null,
};
/** How far ahead of the second language franc's first must score (scores are relative, the first 1). */
const CLEAR_MARGIN = 0.12;
/** Letters of Ukrainian's alphabet that Russian's lacks. */
const UKRAINIAN = /[іїєґ]/iu;
/** Letters Urdu writes and Persian and Arabic do not; letters Persian writes and Arabic does not (with its own kaf and yeh, ک ی). */
const URDU = /[ٹڈڑںے]/u;
const PERSIAN = /[پچژگکی]/u;
/** Kaf and yeh as Arabic writes them (ك, and ي ى) and as Persian does: tesseract's Arabic model writes a Persian line's so. */
const ARABIC_KAF_YEH: [RegExp, string][] = [
  [/ك/gu, "ک"],
  [/[يى]/gu, "ی"],
];

/**
 * A line in Arabic script: Urdu or Persian by their own letters, else by franc (kaf and yeh in Arabic's forms, as
 * tesseract's Arabic model reads both languages), else Arabic.
 */
function arabicLanguage(text: string): string {
  if (URDU.test(text)) return "ur";
  if (PERSIAN.test(text)) return "fa";
  const [best, second] = francAll(text, { only: ["arb", "pes", "urd"], minLength: 10 });
  if (!best || best[0] === "und" || (second && second[1] > 1 - CLEAR_MARGIN)) return "ar";
  return LANGUAGES.arabic![best[0]] ?? "ar";
}

/** A Persian line read with Arabic's kaf and yeh, written with Persian's (the same shapes, other letters to a search). */
export const persianLetters = (text: string) => ARABIC_KAF_YEH.reduce((t, [arabic, persian]) => t.replace(arabic, persian), text);

/** Letters only Vietnamese writes (ơ, ư, đ, the vowels with a dot below or a hook above). */
const VIETNAMESE = /[ơưđạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]/iu;

/** Letters only Czech writes (ě, ů, ř), and the marks only Spanish opens a question or an exclamation with (¿, ¡). */
const CZECH = /[ěůř]/iu;
const SPANISH = /[¿¡]/u;

/** A Latin line's language when letters only one language writes settle it: Vietnamese, Czech, Spanish; else null. */
export function latinByLetters(text: string): string | null {
  if (VIETNAMESE.test(text)) return "vi";
  if (CZECH.test(text)) return "cs";
  return SPANISH.test(text) ? "es" : null;
}

/** The line's language as BCP 47, or null when its letters do not settle it. */
export function languageOf(text: string, script = scriptOf(text)): string | null {
  const settled = script === "latin" ? latinByLetters(text) : null;
  if (settled) return settled;
  if (script === "cyrillic") return UKRAINIAN.test(text) ? "uk" : "ru";
  if (script === "arabic") return arabicLanguage(text);
  const candidates = LANGUAGES[script];
  if (!candidates) return USUAL[script];
  const [best, second] = francAll(text, { only: Object.keys(candidates), minLength: 10 });
  // A short line scores several languages alike: only a clear first is an answer.
  const franc = !best || best[0] === "und" || (second && second[1] > 1 - CLEAR_MARGIN) ? null : (candidates[best[0]] ?? null);
  if (script !== "latin") return franc ?? USUAL[script];
  const english = knownLetterShare(text) ?? 0;
  if (franc && franc !== "en" && !(english >= ALL_ENGLISH && !OTHER_LATIN.test(text))) return franc;
  if (english >= MOSTLY_ENGLISH) return "en";
  // franc's English for a line of no English words and letters English does not write ("František Novák") is a guess.
  return franc === "en" && OTHER_LATIN.test(text) ? null : franc;
}

/**
 * tesseract's models of the Latin languages the central run (ces+eng+vie) does not write: German's ß and ä, French's ç,
 * Portuguese's ã, Spanish's ñ, Turkish's ğ and ş, Polish's ł and ż come out of it without their marks or as other
 * letters ("Strafen" for "Straßen", "nino" for "niño"). Their ISO 639-3 codes are franc's and tesseract's alike.
 */
export const WESTERN_MODELS = ["deu", "fra", "por", "spa", "tur", "ita", "nld", "pol"] as const;
/** A western model's language as BCP 47 ("deu" → "de"). */
export const westernLanguage = (model: string): string | null => LANGUAGES.latin![model] ?? null;
/** The languages the central run reads as they are written. */
const CENTRAL_MODELS = ["eng", "ces", "vie"];
/** Letters, below which a frame's lines say too little for franc to name a model. */
const FEW_LETTERS = 8;

/**
 * The models (one, or the two franc ranks alike) to read again a frame's Latin lines in a language the central run does
 * not write (the texts as the central run read them, without their marks): franc on their joined text, whose first
 * answer is one of WESTERN_MODELS, clearly ahead of English and Vietnamese (and first, ahead of Czech). Two models when
 * the second is western too and about as likely (Spanish and Portuguese read without their marks are alike): the surer
 * reading is kept. `near`: the western languages franc ranks within twice that margin, whose word lists judge the lines
 * (a German title read by the Dutch model is German words). Empty when franc cannot tell.
 */
export function westernModels(texts: string[]): { models: string[]; near: string[] } {
  const none = { models: [], near: [] };
  const text = texts.join(" ");
  if ((text.match(/\p{L}/gu)?.length ?? 0) < FEW_LETTERS) return none;
  const ranked = francAll(text, { only: [...WESTERN_MODELS, ...CENTRAL_MODELS], minLength: FEW_LETTERS });
  const western = ranked.filter(([code]) => (WESTERN_MODELS as readonly string[]).includes(code));
  if (!ranked[0] || western[0] !== ranked[0]) return none;
  // Czech is let be close: Polish read by the Czech model keeps Czech's look (ó, é) and franc ranks the two alike.
  const central = ranked.find(([code]) => CENTRAL_MODELS.includes(code) && code !== "ces");
  if (central && central[1] > 1 - CLEAR_MARGIN) return none;
  const second = ranked[1];
  const close = second !== undefined && western[1] === second && second[1] > 1 - CLEAR_MARGIN;
  return {
    models: close ? [ranked[0][0], second[0]] : [ranked[0][0]],
    near: western.filter(([, score]) => score > 1 - 2 * CLEAR_MARGIN).map(([code]) => code),
  };
}

/** Shares of a Latin line's letters in English words (./words.ts) that make it English: mostly, and all but a name. */
export const MOSTLY_ENGLISH = 0.6;
const ALL_ENGLISH = 0.9;
/** Letters English does not write and the other Latin languages here do: a line with them is not all English. */
const OTHER_LATIN = /[àáâãäåçèéêëìíîïñòóôõöøùúûüýÿğışœßčďěňřšťůžąęłńśźżő]/iu;
