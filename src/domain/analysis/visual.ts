/**
 * The visual stage of an analysis: what is on screen, composed from the three visual
 * providers (ports.ts, "Seeing the video") into the `VisualEvidence` the content analyser reads
 * beside the transcript and the analysis record keeps.
 *
 *   keyframes (first frame, cuts, evenly spaced) → on-screen text per keyframe (OCR) → text tidied and
 *   de-duplicated across frames, each piece with the first and last time it is seen → the text hook
 *   (what is on screen in the first 3 s) → cut count, cuts per minute, first cut → face share
 *
 * A provider that is absent, or that fails for good (a non-retryable ProviderError: a missing program
 * or model, a file it cannot read), is skipped and the reason kept in `skipped`: the evidence is then
 * partial, never a failure. A retryable failure is thrown (the job may be retried), and so is an abort
 * (a cancelled or handed-back run stops at once).
 *
 * Every call takes a turn of one process-wide bound (VISUAL_CONCURRENCY): OCR and face detection are
 * CPU-bound, so a worker runs at most that many visual stages at once, whatever its job concurrency.
 * The caller must not take the bound itself.
 */
import { readFile } from "node:fs/promises";
import pLimit from "p-limit";
import { config } from "../../config.ts";
import { ProviderError } from "../shared/provider-error.ts";
import type { OnScreenText, SeenKeyframe, VisualEvidence, VisualProviders } from "./ports.ts";

/** On-screen text shown in these first seconds is the text hook. */
export const TEXT_HOOK_SECONDS = 3;

let limit: ReturnType<typeof pLimit> | null = null;
/** The process-wide bound on visual stages (VISUAL_CONCURRENCY), made on first use. */
function visualLimit(): ReturnType<typeof pLimit> {
  return (limit ??= pLimit(config.visual.concurrency));
}

export async function seeVideo(
  videoPath: string,
  providers: VisualProviders,
  opts: { workDir: string; signal?: AbortSignal; maxKeyframes?: number },
): Promise<VisualEvidence> {
  return visualLimit()(() => {
    opts.signal?.throwIfAborted();
    return look(videoPath, providers, opts);
  });
}

async function look(
  videoPath: string,
  providers: VisualProviders,
  opts: { workDir: string; signal?: AbortSignal; maxKeyframes?: number },
): Promise<VisualEvidence> {
  const skipped = [...providers.missing];
  const used: VisualEvidence["providers"] = { keyframes: null, text: null, faces: null };
  const { keyframes: extractor } = providers;
  const set = extractor
    ? await skipOnFailure(
        skipped,
        "keyframes",
        () =>
          extractor.extract(videoPath, {
            workDir: opts.workDir,
            maxKeyframes: opts.maxKeyframes ?? config.visual.maxKeyframes,
            signal: opts.signal,
          }),
        opts.signal,
      )
    : null;
  if (!set)
    return emptyEvidence(
      skipped,
      extractor || skipped.some((r) => r.startsWith("keyframes:")) ? [] : ["keyframes: no keyframe provider, so nothing was looked at"],
    );
  used.keyframes = extractor!.name;

  let text = providers.text;
  let faces = providers.faces;
  const seen: SeenKeyframe[] = [];
  let read: { text: string } | null = null;
  let found: { faces: number } | null = null;
  for (const frame of set.keyframes) {
    // A frame that shows what the previous one showed (the keyframe provider saw no change) is not read again.
    const again = !frame.sameAsPrevious || seen.length === 0;
    if (again) {
      // OCR (a program) and face detection (this process) use different cores: both at once.
      const [r, f] = await Promise.all([
        text
          ? skipOnFailure(
              skipped,
              "on-screen text",
              () => text!.read(frame.grayPath ?? frame.imagePath, { signal: opts.signal }),
              opts.signal,
            )
          : null,
        faces
          ? skipOnFailure(skipped, "faces", () => faces!.detect(frame.grayPath ?? frame.imagePath, { signal: opts.signal }), opts.signal)
          : null,
      ]);
      if (text && !r) text = null; // failed for good: not asked again for the next frames
      if (faces && !f) faces = null;
      [read, found] = [r, f];
    }
    seen.push({
      seconds: frame.seconds,
      reason: frame.reason,
      text: read ? tidyText(read.text) : "",
      face: found ? found.faces > 0 : null,
      thumbnail: await readFile(frame.thumbnailPath),
      imagePath: frame.imagePath,
    });
  }
  // A provider dropped midway answered for some frames only: its part is left out rather than half-counted.
  if (text) used.text = text.name;
  if (faces) used.faces = faces.name;
  for (const frame of seen) {
    if (!text) frame.text = "";
    if (!faces) frame.face = null;
  }
  const onScreenText = text ? collectOnScreenText(seen) : [];
  const cuts = set.cuts.filter((c) => c > 0 && c < set.durationSeconds);
  return {
    durationSeconds: set.durationSeconds,
    keyframes: seen,
    onScreenText,
    textHook: textHook(onScreenText),
    cutCount: cuts.length,
    cutsPerMinute: set.durationSeconds > 0 ? Math.round((cuts.length / set.durationSeconds) * 600) / 10 : 0,
    firstCutSeconds: cuts[0] ?? null,
    faceShare: faces && seen.length > 0 ? Math.round((seen.filter((f) => f.face).length / seen.length) * 100) / 100 : null,
    providers: used,
    skipped,
  };
}

/** The provider's answer, or null (the reason added to `skipped`) when it failed for good; aborts and retryable failures are thrown. */
async function skipOnFailure<T>(skipped: string[], part: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T | null> {
  try {
    return await work();
  } catch (e) {
    if (signal?.aborted) throw e;
    if (e instanceof ProviderError && !e.retryable) {
      skipped.push(`${part}: ${e.message}`);
      return null;
    }
    throw e;
  }
}

function emptyEvidence(skipped: string[], more: string[]): VisualEvidence {
  return {
    durationSeconds: 0,
    keyframes: [],
    onScreenText: [],
    textHook: null,
    cutCount: 0,
    cutsPerMinute: 0,
    firstCutSeconds: null,
    faceShare: null,
    providers: { keyframes: null, text: null, faces: null },
    skipped: [...skipped, ...more],
  };
}

/**
 * One piece of text per line, each with its spacing collapsed and a lone "|" read as the "I" it nearly
 * always is in overlay text; lines with fewer than two letters or digits dropped.
 */
export function tidyText(text: string): string {
  return text
    .split("\n")
    .map((line) =>
      line
        .replace(/\s+/g, " ")
        .trim()
        .replace(/(^| )\|(?= |$)/g, "$1I"),
    )
    .filter((line) => (line.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= 2)
    .join("\n");
}

/** Lower-case letters and digits only: two readings of one overlay compare equal despite OCR's stray punctuation. */
function comparable(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

/**
 * The pieces of on-screen text across keyframes (keyframes ascending by time), each once: a piece read
 * again in a later frame (the same letters, or nearly: OCR may misread a character or two between frames)
 * extends the first one's `lastSeconds`; the longer reading is kept.
 */
export function collectOnScreenText(frames: Pick<SeenKeyframe, "seconds" | "text">[]): OnScreenText[] {
  const pieces: (OnScreenText & { key: string })[] = [];
  for (const frame of frames) {
    for (const text of frame.text.split("\n").filter(Boolean)) {
      const key = comparable(text);
      const same = pieces.find((p) => similar(p.key, key));
      if (same) {
        same.lastSeconds = frame.seconds;
        if (key.length > same.key.length) Object.assign(same, { text, key });
      } else {
        pieces.push({ text, key, firstSeconds: frame.seconds, lastSeconds: frame.seconds });
      }
    }
  }
  return pieces.map(({ key: _key, ...piece }) => piece);
}

/**
 * The same overlay read twice: the shorter reading is found inside the longer one with at most one
 * edit per 8 characters (OCR misreads a letter, or misses a line of a wrapped overlay in one frame).
 */
function similar(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short === long) return true;
  if (short.length < 6) return false;
  return editDistanceWithin(long, short) <= Math.floor(short.length / 8);
}

/** The least edit distance between `short` and any stretch of `long` (approximate substring match, Sellers' algorithm). */
function editDistanceWithin(long: string, short: string): number {
  // Rows over `short`, columns over `long`; a match may start anywhere in `long` (row 0 is all zeros).
  let previous = new Array<number>(long.length + 1).fill(0);
  for (let i = 1; i <= short.length; i++) {
    const current = [i];
    for (let j = 1; j <= long.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (short[i - 1] === long[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return Math.min(...previous);
}

/** What is on screen in the first TEXT_HOOK_SECONDS, one piece per line in order of appearance; null when nothing is. */
export function textHook(pieces: OnScreenText[]): string | null {
  const early = pieces.filter((p) => p.firstSeconds < TEXT_HOOK_SECONDS).map((p) => p.text);
  return early.length ? early.join("\n") : null;
}
