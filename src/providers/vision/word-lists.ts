/**
 * Word lists of the Latin languages other than English, from tesseract's own language data: each pack's
 * `<lang>.traineddata` (Debian's tesseract-ocr-deu …, which the README's install line brings) holds the words its
 * model prefers as a DAWG, and the tesseract-ocr package's own programs write it out as a list
 * (`combine_tessdata -u`, then `dawg2wordlist`): 74,000 French to 480,000 Dutch words, forms included (German's
 * "Größere", "Straßen"). Why these: English has its list (./words.ts); franc names another Latin language from
 * letter statistics alone, and a pattern of the picture read in German letters is no German words. Written out once per
 * process and language, when a line in it or near it is first seen (0.2 s for German, 4 s for all eight at once on two
 * cores), kept in memory for the process's life: all eight hold about 70 MiB. A list that cannot be written (no
 * tesseract, no pack) is logged as a warning and left out: the line is judged as without lists (by its language
 * alone), as when tesseract is not installed; a timeout is tried again at the next frame.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { config } from "../../config.ts";
import { logger } from "../../infra/logger.ts";
import { ProviderError } from "../../domain/shared/provider-error.ts";
import { runProgram } from "../process.ts";
import { WESTERN_MODELS, westernLanguage } from "./languages.ts";

const PROVIDER = "vision:word-lists";

/** The languages (BCP 47) with a list, and their tesseract pack: the western models' (./languages.ts). */
const PACKS: Record<string, string> = Object.fromEntries(WESTERN_MODELS.map((model) => [westernLanguage(model)!, model]));

const lists = new Map<string, Promise<ReadonlySet<string> | null>>();

/** The word lists (lower case) of those of `languages` that have one, by language; each written out once per process. */
export async function wordListsOf(languages: Iterable<string | null>): Promise<ReadonlyMap<string, ReadonlySet<string>>> {
  const wanted = [...new Set(languages)].filter((l): l is string => l !== null && l in PACKS);
  const found = await Promise.all(wanted.map((l) => listOf(l)));
  return new Map(wanted.flatMap((l, i) => (found[i] ? [[l, found[i]!] as const] : [])));
}

function listOf(language: string): Promise<ReadonlySet<string> | null> {
  let list = lists.get(language);
  if (!list) {
    list = writeOut(PACKS[language]!).catch((e: unknown) => {
      logger.warn({ err: e, language }, `no ${language} word list from tesseract's data: its lines are judged by their language alone`);
      // A timeout on a busy machine is tried again for a later frame; a missing program or pack is not.
      if (!(e instanceof ProviderError) || e.retryable) {
        lists.delete(language);
        tessdata = null;
      }
      return null;
    });
    lists.set(language, list);
  }
  return list;
}

/** A program of the tesseract-ocr package, beside the configured tesseract when that is a path. */
const sibling = (program: string) =>
  config.programs.tesseract.includes("/") ? join(dirname(config.programs.tesseract), program) : program;

/** The folder tesseract reads its language data from, as `tesseract --list-langs` names it. */
let tessdata: Promise<string> | null = null;
function tessdataDir(): Promise<string> {
  tessdata ??= runProgram(PROVIDER, config.programs.tesseract, ["--list-langs"], { timeoutMs: 10_000 }).then(({ stdout }) => {
    const dir = /"([^"]+)"/.exec(stdout)?.[1];
    if (!dir) throw new Error(`tesseract --list-langs named no folder: ${stdout.slice(0, 200)}`);
    return dir;
  });
  return tessdata;
}

async function writeOut(pack: string): Promise<ReadonlySet<string>> {
  const dir = await tessdataDir();
  const work = await mkdtemp(join(tmpdir(), `word-list-${pack}-`));
  try {
    const prefix = join(work, `${pack}.`);
    await runProgram(PROVIDER, sibling("combine_tessdata"), ["-u", join(dir, `${pack}.traineddata`), prefix], { timeoutMs: 30_000 });
    const words = join(work, "words.txt");
    await runProgram(PROVIDER, sibling("dawg2wordlist"), [`${prefix}lstm-unicharset`, `${prefix}lstm-word-dawg`, words], {
      timeoutMs: 30_000,
    });
    return new Set((await readFile(words, "utf8")).split("\n").flatMap((w) => (w ? [w.toLowerCase()] : [])));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
