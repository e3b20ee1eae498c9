/**
 * Looking at a video: the visual stage of an analysis, `lookAtVideo`, the one verb for it. What is on screen,
 * composed from the three visual providers (../ports.ts, "Seeing the video") into the `VisualEvidence` the
 * content analyser reads beside the transcript and the analysis record keeps (./part.ts).
 *
 *   keyframes and cuts (first frame, cuts, evenly spaced; cuts on the part of the frame that moves) → on-screen
 *   text per keyframe and per text moment (where part of the frame changed without a cut: read for text only),
 *   line by line with confidence and language (./text.ts: tidied, gated by the confidence floor, de-duplicated
 *   across frames) → the text hook (what is on screen and used in the first 3 s) → cut
 *   count, cuts per minute, first cut → face share
 *
 * A provider that is absent, or that fails for good (a non-retryable ProviderError: a missing program
 * or model, a file it cannot read), is skipped and the reason kept in `skipped`: the evidence is then
 * partial, never a failure. A retryable failure is thrown (the job may be retried), and so is an abort
 * (a cancelled or handed-back run stops at once). A very short or very dark video gives what can be read.
 *
 * Every call takes a turn of one process-wide bound (VISUAL_CONCURRENCY): OCR and face detection are
 * CPU-bound, so a worker runs at most that many visual stages at once, whatever its job concurrency.
 * The caller must not take the bound itself.
 *
 * ./stage.ts runs it for an analysis (the rendition, the stored part, degrading to transcript-only).
 */
import { readFile } from "node:fs/promises";
import pLimit from "p-limit";
import { config } from "../../../config.ts";
import { ProviderError } from "../../shared/provider-error.ts";
import type { Keyframe, ReadTextLine, SeenKeyframe, TextRecognizer, VisualEvidence, VisualProviders } from "../ports.ts";
import { collectOnScreenText, setAsideText, textHook, tidyLines, usableText } from "./text.ts";

let limit: ReturnType<typeof pLimit> | null = null;
/** The process-wide bound on visual stages (VISUAL_CONCURRENCY), made on first use. */
function visualLimit(): ReturnType<typeof pLimit> {
  return (limit ??= pLimit(config.visual.concurrency));
}

export async function lookAtVideo(
  videoPath: string,
  providers: VisualProviders,
  opts: { workDir: string; signal?: AbortSignal; maxKeyframes?: number },
): Promise<VisualEvidence> {
  return visualLimit()(() => {
    opts.signal?.throwIfAborted();
    return see(videoPath, providers, opts);
  });
}

async function see(
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
  let read: { lines: ReadTextLine[] } | null = null;
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
              () => text!.read({ imagePath: frame.imagePath, grayPath: frame.grayPath }, { signal: opts.signal }),
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
    const lines = read ? tidyLines(read.lines) : [];
    seen.push({
      seconds: frame.seconds,
      reason: frame.reason,
      text: usableText(lines),
      lines,
      face: found ? found.faces > 0 : null,
      thumbnail: await readFile(frame.thumbnailPath),
      imagePath: frame.imagePath,
    });
  }
  const moments = text ? await readMoments(set.textMoments ?? [], text, skipped, opts.signal) : null;
  if (!moments) text = null;
  // A provider dropped midway answered for some frames only: its part is left out rather than half-counted.
  if (text) used.text = text.name;
  if (faces) used.faces = faces.name;
  for (const frame of seen) {
    if (!text) Object.assign(frame, { text: "", lines: [] });
    if (!faces) frame.face = null;
  }
  const frames = [...seen, ...(moments ?? [])].sort((a, b) => a.seconds - b.seconds);
  const onScreenText = text ? collectOnScreenText(frames) : [];
  const cuts = set.cuts.filter((c) => c > 0 && c < set.durationSeconds);
  return {
    durationSeconds: set.durationSeconds,
    keyframes: seen,
    onScreenText,
    textHook: textHook(onScreenText),
    cutCount: cuts.length,
    cutTimes: cuts,
    cutsPerMinute: set.durationSeconds > 0 ? Math.round((cuts.length / set.durationSeconds) * 600) / 10 : 0,
    firstCutSeconds: cuts[0] ?? null,
    faceShare: faces && seen.length > 0 ? Math.round((seen.filter((f) => f.face).length / seen.length) * 100) / 100 : null,
    providers: used,
    skipped,
    setAside: setAsideText(onScreenText),
  };
}

/** The on-screen text at each text moment (not keyframes: no faces, no thumbnail), or null when the recogniser failed for good. */
async function readMoments(
  moments: Keyframe[],
  text: TextRecognizer,
  skipped: string[],
  signal?: AbortSignal,
): Promise<Pick<SeenKeyframe, "seconds" | "lines">[] | null> {
  const read: Pick<SeenKeyframe, "seconds" | "lines">[] = [];
  for (const moment of moments) {
    const r = await skipOnFailure(
      skipped,
      "on-screen text",
      () => text.read({ imagePath: moment.imagePath, grayPath: moment.grayPath }, { signal }),
      signal,
    );
    if (!r) return null;
    read.push({ seconds: moment.seconds, lines: tidyLines(r.lines) });
  }
  return read;
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
    cutTimes: [],
    cutsPerMinute: 0,
    firstCutSeconds: null,
    faceShare: null,
    providers: { keyframes: null, text: null, faces: null },
    skipped: [...skipped, ...more],
    setAside: [],
  };
}
