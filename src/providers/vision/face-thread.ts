/**
 * The face detector's own thread (a Piscina worker, started by ./face-api.ts): `@vladmandic/face-api`'s
 * tiny face detector, whose model ships inside the npm package (`model/tiny_face_detector_model.bin`,
 * read from disk: nothing is downloaded), on TensorFlow.js's WebAssembly backend
 * (`@tensorflow/tfjs-backend-wasm`, which carries its .wasm files; the native `tfjs-node` would download
 * libtensorflow at install). It reads the keyframe provider's grayscale PGM (faces are found in grayscale
 * as well) or a JPEG (decoded by jpeg-js), a larger image taken down to about 1280 px.
 *
 * The backend and the model are loaded once per thread, on its first detection (about half a second).
 * Detection takes tens to a few hundred milliseconds a frame of CPU: here, not on the worker process's
 * event loop, which keeps renewing its jobs' locks and running scrapes meanwhile.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { ProviderError } from "../../domain/shared/provider-error.ts";
import { readPixels, type Pixels } from "./images.ts";

const PROVIDER = "vision:face-api";
const require = createRequire(import.meta.url);

type FaceApi = typeof import("@vladmandic/face-api");

/** The detector's input size (a multiple of 32): 416 found faces a fifth of the frame wide in 720×1280 frames. */
const INPUT_SIZE = 416;
const SCORE_THRESHOLD = 0.5;
/** The detector sees INPUT_SIZE pixels anyway: a frame is first taken down to about this on its long side (keyframes already are: a smaller input missed faces the full frame showed). */
const LONG_SIDE = 1280;

/**
 * The pixels as one channel (a grayscale image) or three (RGB from RGBA), each the average of an n×n block so the long
 * side is about LONG_SIDE (picking every n-th pixel instead aliased enough to hide a face).
 */
function shrunk(image: Pixels): { width: number; height: number; channels: 1 | 3; values: Int32Array } {
  const step = Math.max(1, Math.round(Math.max(image.width, image.height) / LONG_SIDE));
  const width = Math.floor(image.width / step);
  const height = Math.floor(image.height / step);
  const { channels, data } = image;
  const out = channels === 1 ? 1 : 3;
  const values = new Int32Array(width * height * out);
  const area = step * step;
  for (let y = 0, o = 0; y < height; y++) {
    for (let x = 0; x < width; x++, o += out) {
      for (let c = 0; c < out; c++) {
        let sum = 0;
        for (let dy = 0; dy < step; dy++) {
          for (let dx = 0, p = ((y * step + dy) * image.width + x * step) * channels + c; dx < step; dx++, p += channels) sum += data[p]!;
        }
        values[o + c] = Math.round(sum / area);
      }
    }
  }
  return { width, height, channels: out, values };
}

/**
 * The detector's input as face-api makes it (zeros right or below to a square, in floats, resized bilinearly to
 * INPUT_SIZE), made here so a grayscale frame goes through it as one channel, repeated into three only at INPUT_SIZE:
 * the same numbers, without padding, casting and resizing three copies of a 720×1280 frame (most of a detection's time).
 */
function detectorInput(tf: FaceApi["tf"], image: ReturnType<typeof shrunk>): ReturnType<FaceApi["tf"]["tensor4d"]> {
  return tf.tidy(() => {
    const side = Math.max(image.width, image.height);
    const pixels = tf.cast(tf.tensor4d(image.values, [1, image.height, image.width, image.channels], "int32"), "float32");
    const square = tf.pad(pixels, [
      [0, 0],
      [0, side - image.height],
      [0, side - image.width],
      [0, 0],
    ]);
    const sized = tf.image.resizeBilinear(square as never, [INPUT_SIZE, INPUT_SIZE], false, false);
    return (image.channels === 1 ? tf.concat([sized, sized, sized], 3) : sized) as ReturnType<FaceApi["tf"]["tensor4d"]>;
  });
}

/** Where the package keeps its models. */
export function faceModelDir(): string {
  return join(dirname(require.resolve("@vladmandic/face-api/package.json")), "model");
}

let loading: Promise<FaceApi> | null = null;

/** face-api on the WebAssembly backend with the tiny face detector's weights, loaded once per process. */
function loadFaceApi(): Promise<FaceApi> {
  loading ??= (async () => {
    const faceapi = require("@vladmandic/face-api/dist/face-api.node-wasm.js") as FaceApi;
    // The same module instance face-api's build requires: the backend set here is the one it runs on.
    const tf = require("@tensorflow/tfjs") as typeof import("@tensorflow/tfjs");
    const wasm = require("@tensorflow/tfjs-backend-wasm") as typeof import("@tensorflow/tfjs-backend-wasm");
    wasm.setWasmPaths(`${dirname(require.resolve("@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm"))}/`);
    await tf.setBackend("wasm");
    await tf.ready();
    await faceapi.nets.tinyFaceDetector.loadFromDisk(faceModelDir());
    return faceapi;
  })().catch((e: unknown) => {
    loading = null;
    throw new ProviderError(
      PROVIDER,
      `the face detector could not be loaded (${(e as Error).message}); reinstall the npm packages @vladmandic/face-api and @tensorflow/tfjs-backend-wasm`,
      false,
      { cause: e },
    );
  });
  return loading;
}

/** A failure as it crosses the thread boundary (an Error's class does not): the provider error's message and whether a retry may mend it. */
export type FaceAnswer = { faces: number; largestFaceShare: number } | { error: string; retryable: boolean };

/** Piscina's task: the faces of one image. */
export default async function detectFaces({ imagePath }: { imagePath: string }): Promise<FaceAnswer> {
  try {
    const faceapi = await loadFaceApi();
    const image = shrunk(await readPixels(imagePath, PROVIDER));
    const tensor = detectorInput(faceapi.tf, image);
    try {
      const found = await faceapi.detectAllFaces(
        tensor as never,
        new faceapi.TinyFaceDetectorOptions({ inputSize: INPUT_SIZE, scoreThreshold: SCORE_THRESHOLD }),
      );
      // Boxes come relative to the square: the frame's share of a box is scaled back by the square's side.
      const side = Math.max(image.width, image.height);
      const largest = Math.max(0, ...found.map((f) => f.relativeBox.width * f.relativeBox.height * side * side));
      return { faces: found.length, largestFaceShare: Math.round((largest / (image.width * image.height)) * 1000) / 1000 };
    } finally {
      tensor.dispose();
    }
  } catch (e) {
    return { error: (e as Error).message, retryable: e instanceof ProviderError ? e.retryable : false };
  }
}
