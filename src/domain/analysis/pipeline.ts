/**
 * The analysis pipeline: the bodies of the `analysis` queue's jobs (run by src/jobs/). The job
 * carries only the analysis id; every run reads the stored state and resumes from it:
 *
 *   pending ─► downloading   (mark, then fetch media and transcript)
 *   downloading ─► transcribed  (transcript and segments stored: readable while analysis runs; the
 *                               small video rendition kept in the analysis's work directory, ./workdir.ts)
 *   transcribed ─► analyzing    (mark; then the visual part: lookAtVideo under the worker's bound, stored
 *                               at once (./visual/part.ts); then the content analysis reads both)
 *   analyzing ─► completed      (results stored and the reservation captured, one transaction)
 *   any running ─► failed       (error stored and the reservation released, one transaction)
 *
 * A worker killed at any point leaves the analysis in a stored state and the job's lock expires;
 * another worker retries the job, which redoes only the unfinished stage (a stage's work is
 * committed with the move out of it). Provider errors marked retryable are retried with BullMQ's
 * backoff; non-retryable ones, and any error on the last attempt, fail the analysis.
 *
 * The `sweep` job (job scheduler) fails analyses that have not moved for the deadline and re-queues
 * running analyses whose job is gone (e.g. the API stopped between committing and queueing).
 *
 * The visual part (./visual/stage.ts) never fails an analysis: no visual provider, no rendition, or a visual
 * stage that fails leaves a transcript-only analysis whose visual part says why (decisions.md,
 * "analysis, visual part"); a failure a retry may mend is retried within the job's attempts first.
 *
 * A run stops its outside programs (yt-dlp, ffmpeg, pocketsphinx, espeak-ng, model calls) as soon as
 * its analysis is failed by someone else, typically the sweeper in another process: it listens for
 * its own `failed` event and, should that be lost, re-reads its status every FAILURE_CHECK_MS; the
 * providers get the run's AbortSignal, which kills their process groups. The same signal carries
 * the job runner's cancellation (a shutdown handing the job back).
 */
import { rm } from "node:fs/promises";
import type { Video, VideoAnalysis } from "../../generated/prisma/client.ts";
import { config } from "../../config.ts";
import { logger } from "../../infra/logger.ts";
import { prisma } from "../../infra/db.ts";
import { isLastAttempt, SINGLE_RUN, type JobRun } from "../shared/jobs.ts";
import { subscribeEvents } from "../shared/events.ts";
import { ProviderError } from "../shared/provider-error.ts";
import { announce } from "./events.ts";
import {
  advance,
  complete,
  fail,
  failStuckAnalyses,
  idleRunningAnalyses,
  loadAnalysis,
  runningAmong,
  storeTranscript,
  type TranscriptData,
} from "./service.ts";
import { analysisJobState, enqueueAnalysis } from "./jobs.ts";
import type { ContentAnalysisProvider, MediaProvider, Segment, TranscriptionProvider, VisualProviders } from "./ports.ts";
import { mediaInput, visualEvidenceFor, withSetAside } from "./visual/stage.ts";
import { captionsEvidence, recognisedEvidence, silentEvidence, transcriptForJudgement } from "./speech.ts";
import { keepVideo, removeAnalysisDir, removeEndedAnalysisDirs, scratchDir } from "./workdir.ts";

export interface AnalysisProviders {
  media: MediaProvider;
  transcription: TranscriptionProvider;
  content: ContentAnalysisProvider;
  /** What sees the video (keyframes, on-screen text, faces); absent, the analysis is transcript-only. */
  visual?: VisualProviders;
}

/** Runs the stages still to do for one analysis. */
export async function runAnalysis(analysisId: string, providers: AnalysisProviders, run: JobRun = SINGLE_RUN): Promise<{ status: string }> {
  const loaded = await prisma.videoAnalysis.findUnique({ where: { id: analysisId }, include: { video: true } });
  if (!loaded) return ended(analysisId, "deleted"); // replaced by a forced re-analysis: nothing to do
  const { video, ...stored } = loaded;
  let a: VideoAnalysis = stored;
  if (a.status === "completed" || a.status === "failed") return ended(a.id, a.status);
  // Re-announce the stored state: if a killed run committed a move but died before publishing it,
  // subscribers still learn of it (they drop what they already saw).
  if (run.starts > 1 || a.status !== "pending") await announce(a);

  const failure = watchForFailure(a);
  const signal = run.signal ? AbortSignal.any([failure.signal, run.signal]) : failure.signal;
  try {
    if (a.status === "pending") a = (await advance(a.id, "pending", "downloading")) ?? (await reload(a.id));
    if (a.status === "downloading") {
      const transcript = await fetchTranscript(a.id, video, providers, signal);
      a = (await storeTranscript(a.id, transcript)) ?? (await reload(a.id));
    }
    if (a.status === "transcribed") a = (await advance(a.id, "transcribed", "analyzing")) ?? (await reload(a.id));
    if (a.status === "analyzing") {
      const visual = await visualEvidenceFor(a, video, providers, { signal, lastAttempt: isLastAttempt(run) });
      const speech = transcriptForJudgement(a);
      const analysed = await providers.content.analyze(
        {
          platform: video.platform,
          transcript: speech.transcript,
          segments: (speech.segments as unknown as Segment[] | null) ?? [],
          description: video.description,
          hashtags: video.hashtags,
          visual,
        },
        { signal },
      );
      const noted = a.transcriptNote ? { ...analysed, reasons: [...(analysed.reasons ?? []), a.transcriptNote] } : analysed;
      const result = withSetAside(noted, visual);
      a = (await complete(a, result, providers.content.name)) ?? (await reload(a.id));
    }
    return await ended(a.id, a.status);
  } catch (e) {
    // Failed meanwhile by someone else (the sweeper): its programs are stopped, nothing is left to do.
    if (failure.signal.aborted) return ended(analysisId, "failed");
    const lastAttempt = isLastAttempt(run);
    const retryable = e instanceof ProviderError ? e.retryable : !(e instanceof AnalysisInputError);
    // BullMQ retries with backoff; the retry resumes here (the work directory is kept for it).
    if (retryable && !lastAttempt) throw e;
    if (!(e instanceof ProviderError) && !(e instanceof AnalysisInputError)) {
      logger.error({ err: e, analysisId }, "analysis failed unexpectedly");
    }
    const failed = await fail(a, failureMessage(e));
    return ended(analysisId, failed?.status ?? (await reload(analysisId)).status);
  } finally {
    failure.stop();
  }
}

/** The run's answer; once the analysis has ended (or is gone) its work directory goes too. */
async function ended(analysisId: string, status: string): Promise<{ status: string }> {
  if (status === "completed" || status === "failed" || status === "deleted") await removeAnalysisDir(analysisId);
  return { status };
}

/** How often a running analysis re-reads its own status, in case its `failed` event was lost. */
const FAILURE_CHECK_MS = 5000;

/**
 * A signal aborted once the analysis is failed (or deleted) by anyone else: on its `failed` event,
 * or when a periodic re-read finds it so. `stop()` ends the listening and the re-reads.
 */
function watchForFailure(a: Pick<VideoAnalysis, "id" | "workspaceId" | "videoId">): { signal: AbortSignal; stop(): void } {
  const controller = new AbortController();
  const abort = () => {
    if (!controller.signal.aborted) {
      logger.info({ analysisId: a.id }, "analysis failed elsewhere: stopping its programs");
      controller.abort(new Error("The analysis was failed while it ran."));
    }
  };
  const events = subscribeEvents("analysisStatusChanged", `${a.workspaceId}:${a.videoId}`)[Symbol.asyncIterator]();
  void (async () => {
    for (;;) {
      const r = await events.next();
      if (r.done) return;
      if (r.value.analysisId === a.id && r.value.status === "failed") return abort();
    }
  })().catch(() => undefined);
  const timer = setInterval(() => {
    void prisma.videoAnalysis
      .findUnique({ where: { id: a.id }, select: { status: true } })
      .then((row) => {
        if (!row || row.status === "failed") abort();
      })
      .catch(() => undefined); // the database is away: the next check (or the event) decides
  }, FAILURE_CHECK_MS);
  timer.unref();
  return {
    signal: controller.signal,
    stop: () => {
      clearInterval(timer);
      void events.return?.();
    },
  };
}

/** A problem with the video itself (no media at all): retrying cannot help. */
class AnalysisInputError extends Error {}

function failureMessage(e: unknown): string {
  if (e instanceof ProviderError || e instanceof AnalysisInputError) return e.message;
  return "The analysis failed because of an internal error; no credits were charged. Try again later.";
}

async function reload(id: string) {
  const a = await loadAnalysis(id);
  if (!a) throw new AnalysisInputError("The analysis was deleted while it ran.");
  return a;
}

/** A video rendition is worth fetching only when something will take keyframes from it. */
const seesVideo = (providers: AnalysisProviders) => Boolean(providers.visual?.keyframes);

/**
 * The `downloading` stage: media from the provider (with the video rendition when the visual stage
 * will look at it, kept in the analysis's work directory for the analyzing stage), then the platform's
 * captions as the transcript when there are any, else speech recognition of the audio, gated by ./speech.ts
 * (below the confidence floor or doubted: kept, not used); no audio stream: an empty transcript with the reason.
 */
async function fetchTranscript(
  analysisId: string,
  video: Video,
  providers: AnalysisProviders,
  signal: AbortSignal,
): Promise<TranscriptData> {
  const withVideo = seesVideo(providers);
  const workDir = await scratchDir(analysisId, "media");
  try {
    const media = await providers.media.fetch(mediaInput(video), { workDir, signal, withVideo });
    if (withVideo) await keepVideo(analysisId, media);
    if (media.captions) return captionsEvidence(media.captions);
    // No sound: the analysis goes on from what the video shows (and its description), the transcript empty with the reason.
    if (!media.wavPath && media.audioUnavailable && (!withVideo || media.videoPath)) return silentEvidence(media.audioUnavailable);
    if (!media.wavPath)
      throw new AnalysisInputError(`The video has neither sound nor picture to analyse (${media.audioUnavailable ?? "no audio"}).`);
    const t = await providers.transcription.transcribe(media.wavPath, { signal });
    return recognisedEvidence(t, providers.transcription.name);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/**
 * Fails stuck analyses (releasing their credits), re-queues running ones whose job is gone, and
 * fails at once those whose job BullMQ gave up on (stalled too often) instead of waiting for the deadline.
 * Also removes this machine's work directories of analyses no longer running (a run that died kept
 * its own; the other machines' are removed when the sweep runs there, or by their next run's end).
 */
export async function sweepAnalyses(): Promise<{ failed: number; requeued: number }> {
  let failed = await failStuckAnalyses(config.analysisDeadlineMs);
  let requeued = 0;
  const idleMs = Math.max(config.analysisJobs.lockMs * 2, 10_000);
  for (const id of await idleRunningAnalyses(idleMs)) {
    const { state, failedReason } = await analysisJobState(id);
    if (state === "unknown") {
      await enqueueAnalysis(id);
      requeued++;
    } else if (state === "failed") {
      const reason = failedReason ? ` (${failedReason})` : "";
      if (await fail(id, `The analysis job was abandoned by the workers${reason}; no credits were charged.`)) failed++;
    }
  }
  const removedDirs = await removeEndedAnalysisDirs(runningAmong);
  if (failed || requeued || removedDirs) logger.info({ failed, requeued, removedDirs }, "analysis sweep");
  return { failed, requeued };
}
