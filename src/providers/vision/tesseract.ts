/**
 * On-screen text by Debian's tesseract (`tesseract-ocr` with `tesseract-ocr-eng`), run like every
 * program through ../process.ts.
 *
 * What makes video frames readable, found on rendered frames (overlays in white with a black
 * outline, black on a white box, yellow over a photograph):
 * - the frame is handed over in grayscale (the keyframe provider's PGM, or a JPEG decoded here and
 *   written as one): given the colour JPEG, tesseract's page layout found nothing on a blue frame with
 *   white text;
 * - page segmentation mode 11 (sparse text): overlays are scattered blocks, not a page of text, and
 *   mode 3 missed text over a busy background entirely;
 * - its TSV output, so that each line's word confidences decide whether the line is text or a pattern
 *   of the picture read as letters (a line is kept when its words average at least 60, or one reaches
 *   85: single words of real overlays are sometimes scored low);
 * - lines stacked close together (a wrapped overlay) are joined into one piece of text: one line of
 *   the answer per overlay.
 * `OMP_THREAD_LIMIT=1`: tesseract's own threads only contend with the other work on a small machine.
 */
import { readFile, writeFile } from "node:fs/promises";
import { config } from "../../config.ts";
import { ProviderError } from "../../domain/shared/provider-error.ts";
import type { TextRecognizer } from "../../domain/analysis/ports.ts";
import { runProgram } from "../process.ts";
import { isPgm, readPixels, type Pixels } from "./images.ts";

const PROVIDER = "vision:tesseract";
const LINE_MEAN_CONFIDENCE = 60;
const LINE_BEST_CONFIDENCE = 85;

export interface TesseractOptions {
  tesseractPath: string;
  timeoutMs: number;
  /** tesseract's language data (`eng`: Debian's tesseract-ocr-eng). */
  language: string;
}

function defaults(): TesseractOptions {
  return { tesseractPath: config.programs.tesseract, timeoutMs: 30_000, language: "eng" };
}

export class TesseractRecognizer implements TextRecognizer {
  readonly name = "tesseract" as const;
  private readonly opts: TesseractOptions;

  constructor(options: Partial<TesseractOptions> = {}) {
    this.opts = { ...defaults(), ...options };
  }

  async read(imagePath: string, { signal }: { signal?: AbortSignal } = {}): Promise<{ text: string }> {
    const grayPath = await this.grayscale(imagePath);
    const args = [grayPath, "stdout", "-l", this.opts.language, "--psm", "11", "tsv"];
    let stdout: string;
    try {
      ({ stdout } = await runProgram(PROVIDER, this.opts.tesseractPath, args, {
        timeoutMs: this.opts.timeoutMs,
        signal,
        maxStdoutBytes: 4 * 1024 * 1024,
        env: { ...process.env, OMP_THREAD_LIMIT: "1" },
      }));
    } catch (e) {
      // Missing language data is an installation problem: no retry will find it.
      if (e instanceof ProviderError && /Failed loading language|Error opening data file/i.test(e.message)) {
        throw new ProviderError(
          PROVIDER,
          `tesseract has no "${this.opts.language}" language data: install it (Debian/Ubuntu: sudo apt-get install -y tesseract-ocr-${this.opts.language})`,
          false,
          { cause: e },
        );
      }
      throw e;
    }
    return { text: overlaysFromTsv(stdout).join("\n") };
  }

  /** The image as grayscale PGM: the keyframe provider's PGM as it is, a JPEG decoded and written beside it. */
  private async grayscale(imagePath: string): Promise<string> {
    const head = await readFile(imagePath).then((b) => b.subarray(0, 2));
    if (isPgm(head)) return imagePath;
    const grayPath = imagePath.replace(/(\.jpe?g)?$/i, ".pgm");
    await writeFile(grayPath, toPgm(await readPixels(imagePath, PROVIDER)));
    return grayPath;
  }
}

/** A binary PGM (P5) of an RGBA image's luminance (BT.601 weights, as tesseract itself would use). */
function toPgm(image: Pixels): Buffer {
  const { width, height, data } = image;
  const header = Buffer.from(`P5\n${width} ${height}\n255\n`, "ascii");
  const gray = Buffer.alloc(width * height);
  for (let i = 0, p = 0; i < gray.length; i++, p += 4) {
    gray[i] = Math.round(0.299 * data[p]! + 0.587 * data[p + 1]! + 0.114 * data[p + 2]!);
  }
  return Buffer.concat([header, gray]);
}

interface Line {
  words: string[];
  confidences: number[];
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** tesseract's TSV (level 5 rows are words) → the confident lines → the overlays, top to bottom, one string each. */
export function overlaysFromTsv(tsv: string): string[] {
  const lines = new Map<string, Line>();
  for (const row of tsv.split("\n").slice(1)) {
    const cells = row.split("\t");
    if (cells[0] !== "5" || cells.length < 12) continue;
    const word = cells.slice(11).join("\t").trim();
    if (!word) continue;
    const [left, top, width, height, confidence] = cells.slice(6, 11).map(Number) as [number, number, number, number, number];
    const key = `${cells[2]}/${cells[3]}/${cells[4]}`; // block / paragraph / line
    const line = lines.get(key) ?? { words: [], confidences: [], left, top, right: left + width, bottom: top + height };
    line.words.push(word);
    line.confidences.push(confidence);
    Object.assign(line, {
      left: Math.min(line.left, left),
      top: Math.min(line.top, top),
      right: Math.max(line.right, left + width),
      bottom: Math.max(line.bottom, top + height),
    });
    lines.set(key, line);
  }
  const kept = [...lines.values()].filter(isConfident).sort((a, b) => a.top - b.top);
  return groupLines(kept).map((group) => group.map((l) => l.words.join(" ")).join(" "));
}

/** Confident enough (see the header), and a word of three letters or more: short scraps ("KK", "On") are patterns of the picture. */
function isConfident(line: Line): boolean {
  if (!line.words.some((w) => (w.match(/\p{L}/gu)?.length ?? 0) >= 3)) return false;
  const mean = line.confidences.reduce((a, b) => a + b, 0) / line.confidences.length;
  return mean >= LINE_MEAN_CONFIDENCE || Math.max(...line.confidences) >= LINE_BEST_CONFIDENCE;
}

/**
 * Lines (sorted by top) that touch, or stack with a gap under one line's height, and overlap or nearly
 * meet horizontally, are one overlay (sparse-text mode may split one row into several lines); within
 * it, rows top to bottom and each row left to right.
 */
function groupLines(lines: Line[]): Line[][] {
  const groups: Line[][] = [];
  for (const line of lines) {
    const height = line.bottom - line.top;
    const group = groups.find((g) =>
      g.some((other) => line.top - other.bottom < height && line.left < other.right + 2 * height && other.left < line.right + 2 * height),
    );
    if (group) group.push(line);
    else groups.push([line]);
  }
  return groups.map(readingOrder);
}

/** Lines whose vertical centres are within half a line of each other are one row, read left to right. */
function readingOrder(group: Line[]): Line[] {
  const centre = (l: Line) => (l.top + l.bottom) / 2;
  return [...group].sort((a, b) => {
    const sameRow = Math.abs(centre(a) - centre(b)) < Math.min(a.bottom - a.top, b.bottom - b.top) / 2;
    return sameRow ? a.left - b.left : a.top - b.top;
  });
}
