/**
 * Debian's tesseract (`tesseract-ocr` and its language packs: `-eng`, `-rus`, `-vie`, `-kor`, `-jpn`, `-ara`,
 * `-hin` …), run like every program through ../process.ts, reading the single lines ./ocr.ts cut out of a
 * keyframe (PaddleOCR's detector found them): on a line, tesseract's LSTM models read Cyrillic, Latin with its
 * diacritics and the other scripts its packs cover, where whole-frame page segmentation of a busy video frame
 * lost letters and read patterns of the picture as words.
 * `OMP_THREAD_LIMIT=1`: tesseract's own threads only contend with the other work on a small machine.
 */
import { writeFile } from "node:fs/promises";
import { config } from "../../config.ts";
import { ProviderError } from "../../domain/shared/provider-error.ts";
import { runProgram } from "../process.ts";

const PROVIDER = "vision:tesseract";

export interface TesseractOptions {
  tesseractPath: string;
  timeoutMs: number;
}

function defaults(): TesseractOptions {
  return { tesseractPath: config.programs.tesseract, timeoutMs: 30_000 };
}

export interface TesseractReading {
  text: string;
  /** The line's words' mean confidence, 0-1. */
  confidence: number;
}

/**
 * Single lines cut out of a frame (./ocr.ts), read in one tesseract run: the crops are listed in a file that
 * tesseract reads as a document of one page per crop (`--psm 7`: each page is one line of text), so the
 * language models load once per frame, not once per line.
 */
export class TesseractLines {
  private readonly opts: TesseractOptions;

  constructor(options: Partial<TesseractOptions> = {}) {
    this.opts = { ...defaults(), ...options };
  }

  /** Each crop's reading, in order (undefined where tesseract found no word). */
  async readLines(cropPaths: string[], languages: string, signal?: AbortSignal): Promise<(TesseractReading | undefined)[]> {
    if (cropPaths.length === 0) return [];
    const list = `${cropPaths[0]}.${languages.replace(/\W/g, "_")}.list.txt`;
    await writeFile(list, `${cropPaths.join("\n")}\n`);
    const stdout = await this.run([list, "stdout", "-l", languages, "--psm", "7", "tsv"], languages, signal);
    return linesFromTsv(stdout, cropPaths.length);
  }

  private async run(args: string[], languages: string, signal?: AbortSignal): Promise<string> {
    try {
      const { stdout } = await runProgram(PROVIDER, this.opts.tesseractPath, args, {
        timeoutMs: this.opts.timeoutMs,
        signal,
        maxStdoutBytes: 4 * 1024 * 1024,
        env: { ...process.env, OMP_THREAD_LIMIT: "1" },
      });
      return stdout;
    } catch (e) {
      // Missing language data is an installation problem: no retry will find it.
      if (e instanceof ProviderError && /Failed loading language|Error opening data file/i.test(e.message)) {
        const packages = languagePackages(languages).join(" ");
        throw new ProviderError(
          PROVIDER,
          `tesseract lacks language data of "${languages}": install it (Debian/Ubuntu: sudo apt-get install -y ${packages})`,
          false,
          { cause: e },
        );
      }
      throw e;
    }
  }
}

/** The Debian packages of tesseract's language data for `languages` ("ces+eng" → tesseract-ocr-ces, tesseract-ocr-eng). */
export function languagePackages(languages: string): string[] {
  return languages.split("+").map((l) => `tesseract-ocr-${l.replace(/_/g, "-")}`);
}

/** tesseract's TSV of a list of one-line pages → each page's words joined, with their mean confidence. */
export function linesFromTsv(tsv: string, pages: number): (TesseractReading | undefined)[] {
  const words: { text: string; confidence: number }[][] = Array.from({ length: pages }, () => []);
  for (const row of tsv.split("\n").slice(1)) {
    const cells = row.split("\t");
    if (cells[0] !== "5" || cells.length < 12) continue;
    const text = cells.slice(11).join("\t").trim();
    const confidence = Number(cells[10]);
    const page = Number(cells[1]) - 1;
    if (text && confidence >= 0 && words[page]) words[page].push({ text, confidence });
  }
  return words.map((w) =>
    w.length ? { text: w.map((x) => x.text).join(" "), confidence: w.reduce((s, x) => s + x.confidence, 0) / w.length / 100 } : undefined,
  );
}
