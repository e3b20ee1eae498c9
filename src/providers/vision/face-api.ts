/**
 * Faces, found on a thread of their own (./face-thread.ts: face-api's tiny face detector on TensorFlow.js's
 * WebAssembly backend, its model from the npm package). Detection is CPU work of tens to hundreds of
 * milliseconds a frame; on the worker process's own thread it held up everything else the process does
 * (BullMQ's lock renewals, scrapes, the health answer) for that long, frame after frame. Piscina (a
 * well-kept pool of worker threads) runs it on one thread, started on the first detection and ended after
 * a minute without work; the visual stage's bound (VISUAL_CONCURRENCY) decides how many frames wait for it.
 */
import { Piscina } from "piscina";
import { ProviderError } from "../../domain/shared/provider-error.ts";
import type { FaceDetector } from "../../domain/analysis/ports.ts";
import type { FaceAnswer } from "./face-thread.ts";

export { faceModelDir } from "./face-thread.ts";

const PROVIDER = "vision:face-api";
/** A thread that has had no detection for this long ends (its model is loaded again, in about half a second, when needed). */
const IDLE_MS = 60_000;

let pool: Piscina | null = null;
const facePool = () =>
  (pool ??= new Piscina({
    filename: new URL("./face-thread.ts", import.meta.url).href,
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: IDLE_MS,
  }));

export class FaceApiDetector implements FaceDetector {
  readonly name = "face-api" as const;

  async detect(imagePath: string, { signal }: { signal?: AbortSignal } = {}): Promise<{ faces: number; largestFaceShare: number }> {
    signal?.throwIfAborted();
    const answer = (await facePool().run({ imagePath }, { signal })) as FaceAnswer;
    if ("error" in answer) throw new ProviderError(PROVIDER, answer.error, answer.retryable);
    return answer;
  }
}

/** Ends the detector's thread (a process that is shutting down need not wait for its idle minute). */
export async function closeFaceDetector(): Promise<void> {
  const p = pool;
  pool = null;
  await p?.destroy();
}
