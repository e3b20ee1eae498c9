/**
 * The analyzing stage's visual part, `visualEvidenceFor`: the video rendition the downloading stage kept (or
 * fetched again), looked at (./look.ts, `lookAtVideo`, which takes the worker's bound), stored with the
 * analysis at once (./part.ts) and handed to the content analyser without the text below the confidence floor.
 *
 * It never fails the analysis: no visual provider, no rendition, or a visual stage that fails leaves
 * a transcript-only visual part with the reason (decisions.md, "analysis, visual part"). It throws only
 * when the run is aborted, or for a failure a retry may mend (a timeout) while attempts remain: the last
 * attempt degrades instead. A resumed run whose visual part is stored reads it back, not looking again.
 */
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Video, VideoAnalysis } from "../../../generated/prisma/client.ts";
import { logger } from "../../../infra/logger.ts";
import { ProviderError } from "../../shared/provider-error.ts";
import type { ContentAnalysis, MediaInput, MediaProvider, VisualEvidence, VisualProviders } from "../ports.ts";
import { lookAtVideo } from "./look.ts";
import {
  storedThumbnails,
  storeVisualPart,
  transcriptOnly,
  visualPartOf,
  visualPartOfAnalysis,
  type VisualPart,
  type VisualPartToStore,
} from "./part.ts";
import { evidenceForJudgement, setAsideText } from "./text.ts";
import { keepVideo, keptVideo, scratchDir } from "../workdir.ts";

export const mediaInput = (video: Video): MediaInput => ({
  platform: video.platform,
  platformVideoId: video.platformVideoId,
  url: video.url,
  description: video.description,
  dataSource: video.dataSource,
});

/** What the visual part uses: the media (to fetch the rendition again) and the visual providers (absent: visual analysis is off). */
export interface LookingProviders {
  media: MediaProvider;
  visual?: VisualProviders;
}

/** The run as the visual part sees it: its signal, and whether a failure may still be retried. */
interface VisualRun {
  signal: AbortSignal;
  lastAttempt: boolean;
}

/**
 * The visual part of the analyzing stage: what the video shows, stored with the analysis at once
 * (so a retried content analysis does not look again), handed to the content analyser with only the
 * evidence it may judge from; null when nothing was seen (transcript-only, the reason stored). Throws
 * only when the run is aborted, or for a failure a retry may mend (a timeout) while attempts remain:
 * the last attempt degrades instead.
 */
export async function visualEvidenceFor(
  a: VideoAnalysis,
  video: Video,
  providers: LookingProviders,
  run: VisualRun,
): Promise<VisualEvidence | null> {
  const stored = visualPartOfAnalysis(a);
  if (stored) return forJudgement(await evidenceOfStored(a.id, stored)); // a resumed run: the video was seen already
  const seen = await see(a.id, video, providers, run);
  // False when the analysis moved on meanwhile (failed elsewhere): completing it will find that too.
  await storeVisualPart(a.id, seen.stored);
  return forJudgement(seen.evidence);
}

const forJudgement = (e: VisualEvidence | null) => (e ? evidenceForJudgement(e) : null);

/** The content analysis's result with the reasons why visual evidence was set aside, when some was. */
export function withSetAside(result: ContentAnalysis, visual: VisualEvidence | null): ContentAnalysis {
  if (!visual?.setAside.length) return result;
  return { ...result, reasons: [...(result.reasons ?? []), ...visual.setAside] };
}

function sawNothing(reasons: string[]): { evidence: null; stored: VisualPartToStore } {
  return { evidence: null, stored: transcriptOnly(reasons) };
}

async function see(
  analysisId: string,
  video: Video,
  providers: LookingProviders,
  { signal, lastAttempt }: VisualRun,
): Promise<{ evidence: VisualEvidence | null; stored: VisualPartToStore }> {
  const visual = providers.visual;
  if (!visual) return sawNothing(["Visual analysis is off in this deployment (VISUAL_ANALYSIS): the video was not looked at."]);
  if (!visual.keyframes) return sawNothing(visual.missing.length > 0 ? visual.missing : ["No keyframe provider is configured."]);
  try {
    const rendition = await videoRendition(analysisId, video, providers.media, signal);
    if ("unavailable" in rendition) return sawNothing([`No video to look at: ${rendition.unavailable}`]);
    const workDir = await scratchDir(analysisId, "visual");
    const evidence = await lookAtVideo(rendition.path, visual, { workDir, signal });
    return { evidence: evidence.providers.keyframes ? evidence : null, stored: visualPartOf(evidence) };
  } catch (e) {
    if (signal.aborted || (e instanceof ProviderError && e.retryable && !lastAttempt)) throw e;
    const why = e instanceof ProviderError ? e.message : "an internal error (logged)";
    if (!(e instanceof ProviderError)) logger.error({ err: e, analysisId }, "the visual stage failed unexpectedly");
    return sawNothing([`The visual stage failed, so the analysis used the transcript alone: ${why}`]);
  }
}

/**
 * The rendition the downloading stage kept (or why there is none); fetched again when this machine
 * has none: the run resumed on another worker, or the directory was swept.
 */
async function videoRendition(analysisId: string, video: Video, media: MediaProvider, signal: AbortSignal) {
  const kept = await keptVideo(analysisId);
  if (kept) return kept;
  const workDir = await scratchDir(analysisId, "media");
  try {
    await keepVideo(analysisId, await media.fetch(mediaInput(video), { workDir, signal, withVideo: true }));
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
  return (await keptVideo(analysisId)) ?? { unavailable: "The video rendition could not be kept." };
}

/**
 * The stored visual part as the content analyser reads it, for a resumed run: the keyframes whose
 * thumbnail is stored, each thumbnail doubling as the frame's image (the readable-size frames of the
 * first run are gone); the on-screen text, hook, pacing and faces as they were seen.
 */
async function evidenceOfStored(analysisId: string, part: VisualPart): Promise<VisualEvidence | null> {
  if (part.status === "transcript_only") return null;
  const thumbnails = await storedThumbnails(analysisId, part.keyframes.length);
  const dir = await scratchDir(analysisId, "stored");
  const keyframes = await Promise.all(
    part.keyframes.flatMap((k, i) => {
      const thumbnail = thumbnails[i];
      if (!thumbnail) return [];
      const imagePath = join(dir, `${i}.jpg`);
      return [
        writeFile(imagePath, thumbnail).then(() => ({
          seconds: k.seconds,
          reason: k.reason,
          text: k.text,
          lines: [],
          face: k.face,
          thumbnail,
          imagePath,
        })),
      ];
    }),
  );
  return {
    durationSeconds: part.durationSeconds ?? 0,
    keyframes,
    onScreenText: part.onScreenText,
    textHook: part.textHook,
    cutCount: part.cutCount ?? 0,
    cutTimes: [],
    cutsPerMinute: part.cutsPerMinute ?? 0,
    firstCutSeconds: part.firstCutSeconds,
    faceShare: part.faceShare,
    providers: part.providers,
    skipped: part.skipped,
    setAside: setAsideText(part.onScreenText),
  };
}
