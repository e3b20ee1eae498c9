/**
 * Decoding the keyframes' JPEGs in-process (jpeg-js, pure JavaScript): the OCR provider hands tesseract
 * their luminance and the face detector hands TensorFlow.js their pixels, with no program spawned for it.
 */
import { readFile } from "node:fs/promises";
import jpeg from "jpeg-js";
import { ProviderError } from "../../domain/shared/provider-error.ts";

/** A keyframe is at most 1280 px on its long side: this bounds what a corrupt or unexpected file may allocate. */
const MAX_DECODE_MB = 64;

/** RGBA pixels of a JPEG file; a file that is not a decodable JPEG fails for good. */
export async function readJpeg(path: string, provider: string): Promise<jpeg.UintArrRet> {
  const bytes = await readFile(path);
  try {
    return jpeg.decode(bytes, { useTArray: true, maxMemoryUsageInMB: MAX_DECODE_MB, formatAsRGBA: true });
  } catch (e) {
    throw new ProviderError(provider, `${path} is not a JPEG image it can decode (${(e as Error).message})`, false, { cause: e });
  }
}
