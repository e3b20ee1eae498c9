/**
 * Reading the keyframes' pixels in-process: the grayscale PGM the keyframe provider writes beside each
 * keyframe (read as it is), or a JPEG (decoded by jpeg-js, pure JavaScript), so the OCR provider can hand
 * tesseract a grayscale image and the face detector can hand TensorFlow.js pixels, with no program spawned.
 */
import { readFile } from "node:fs/promises";
import jpeg from "jpeg-js";
import { ProviderError } from "../../domain/shared/provider-error.ts";

/** A keyframe is at most 1280 px on its long side: this bounds what a corrupt or unexpected file may allocate. */
const MAX_DECODE_MB = 64;

export interface Pixels {
  width: number;
  height: number;
  /** 1: luminance (PGM); 4: RGBA (JPEG). */
  channels: 1 | 4;
  data: Uint8Array;
}

/** A binary PGM (`P5`, 8 bits) is what it looks like: its pixels follow a short text header. */
export function isPgm(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x35;
}

/** The pixels of a PGM or JPEG file; a file that is neither fails for good. */
export async function readPixels(path: string, provider: string): Promise<Pixels> {
  const bytes = await readFile(path);
  try {
    if (isPgm(bytes)) return parsePgm(bytes);
    const image = jpeg.decode(bytes, { useTArray: true, maxMemoryUsageInMB: MAX_DECODE_MB, formatAsRGBA: true });
    return { width: image.width, height: image.height, channels: 4, data: image.data };
  } catch (e) {
    throw new ProviderError(provider, `${path} is not a JPEG or PGM image it can read (${(e as Error).message})`, false, { cause: e });
  }
}

/** `P5 <width> <height> <maxval>` (white space between, comments after `#`), one byte per pixel. */
function parsePgm(bytes: Buffer): Pixels {
  const header = /^P5\s+(?:#[^\n]*\n\s*)*(\d+)\s+(?:#[^\n]*\n\s*)*(\d+)\s+(?:#[^\n]*\n\s*)*(\d+)\s/.exec(
    bytes.subarray(0, 200).toString("latin1"),
  );
  if (!header || Number(header[3]) > 255) throw new Error("not an 8-bit binary PGM");
  const width = Number(header[1]);
  const height = Number(header[2]);
  const data = bytes.subarray(header[0].length, header[0].length + width * height);
  if (data.length !== width * height) throw new Error("the PGM is shorter than its size says");
  return { width, height, channels: 1, data };
}
