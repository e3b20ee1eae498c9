/**
 * The analysis pipeline's behaviour under provider trouble, with stand-in providers wrapped around
 * the real simulated/heuristic ones: retryable errors retried with backoff, the last attempt failing
 * the analysis, the transcript readable while the content analysis runs, and the sweeper.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Fast retries, so the backoff between attempts fits in a test (the settings are read at import).
vi.hoisted(() => {
  process.env.ANALYSIS_ATTEMPTS = "5";
  process.env.ANALYSIS_RETRY_DELAY_MS = "100";
});
import { newWorkspace, stopAll } from "../helpers/api.js";
import { startWorkers, type RunningWorkers } from "../../src/jobs/worker.js";
import { runAnalysis, sweepAnalyses, type AnalysisProviders } from "../../src/domain/analysis/pipeline.js";
import { analysisProviders } from "../../src/main/providers.js";
import { analysisJobs } from "../helpers/jobs.js";
import { analyze, getAnalysis } from "../../src/domain/analysis/service.js";
import { getBalance } from "../../src/domain/credits/service.js";
import { ProviderError } from "../../src/domain/shared/provider-error.js";
import { prisma } from "../../src/infra/db.js";
import { analysisCharges, analyzeWithoutJob, trackedVideo, waitFor, waitForStatus } from "./fixtures.js";

const real = analysisProviders();
/** Per-video behaviour of the stand-in media provider: how many calls fail, and how. */
const mediaFailures = new Map<string, { left: number; retryable: boolean }>();
const mediaCalls = new Map<string, number>();
/** Videos whose content analysis waits until released. */
const blocked = new Map<string, Promise<void>>();

const providers: AnalysisProviders = {
  transcription: real.transcription,
  media: {
    name: "simulated",
    async fetch(input, opts) {
      mediaCalls.set(input.platformVideoId, (mediaCalls.get(input.platformVideoId) ?? 0) + 1);
      const f = mediaFailures.get(input.platformVideoId);
      if (f && f.left > 0) {
        f.left--;
        throw new ProviderError("media:stand-in", f.retryable ? "source timed out" : "video removed at its source", f.retryable);
      }
      return real.media.fetch(input, opts);
    },
  },
  content: {
    name: "heuristic",
    async analyze(input, opts) {
      await blocked.get(input.description);
      return real.content.analyze(input, opts);
    },
  },
};

let workers: RunningWorkers;
beforeAll(async () => {
  workers = await startWorkers([analysisJobs(providers)]);
});
afterAll(() => stopAll(undefined, workers));

async function platformIdOf(videoId: string) {
  return (await prisma.video.findUniqueOrThrow({ where: { id: videoId } })).platformVideoId;
}

describe("analysis pipeline", () => {
  it("a retryable provider error is retried and the analysis completes, charged once", async () => {
    const ws = await newWorkspace();
    const videoId = await trackedVideo(ws.workspaceId);
    const pid = await platformIdOf(videoId);
    mediaFailures.set(pid, { left: 2, retryable: true });
    await analyze(ws.workspaceId, videoId, {});
    const a = await waitForStatus(ws.workspaceId, videoId, ["completed", "failed"]);
    expect(a.status).toBe("completed");
    expect(mediaCalls.get(pid)).toBe(3);
    expect(await analysisCharges(ws.workspaceId)).toEqual([-5]);
    expect(await getBalance(ws.workspaceId)).toMatchObject({ totalRemaining: 195, reserved: 0 });
  });

  it("on the last attempt a retryable error fails the analysis and releases the credits", async () => {
    const ws = await newWorkspace();
    const videoId = await trackedVideo(ws.workspaceId);
    const pid = await platformIdOf(videoId);
    mediaFailures.set(pid, { left: 99, retryable: true });
    await analyze(ws.workspaceId, videoId, {});
    const a = await waitForStatus(ws.workspaceId, videoId, ["completed", "failed"]);
    expect(a).toMatchObject({ status: "failed", error: "media:stand-in: source timed out", transcript: null });
    expect(mediaCalls.get(pid)).toBe(5);
    expect(await getBalance(ws.workspaceId)).toMatchObject({ totalRemaining: 200, reserved: 0 });
    expect(await analysisCharges(ws.workspaceId)).toEqual([]);
  });

  it("a non-retryable provider error fails the analysis at once", async () => {
    const ws = await newWorkspace();
    const videoId = await trackedVideo(ws.workspaceId);
    const pid = await platformIdOf(videoId);
    mediaFailures.set(pid, { left: 1, retryable: false });
    await analyze(ws.workspaceId, videoId, {});
    const a = await waitForStatus(ws.workspaceId, videoId, ["completed", "failed"]);
    expect(a).toMatchObject({ status: "failed", error: "media:stand-in: video removed at its source" });
    expect(mediaCalls.get(pid)).toBe(1);
    expect((await prisma.creditReservation.findFirstOrThrow({ where: { workspaceId: ws.workspaceId } })).status).toBe("released");
  });

  it("the transcript and segments are readable from `transcribed` on, while the content analysis runs", async () => {
    const ws = await newWorkspace();
    const description = "What if I told you this one habit saved me hours? Try it today.";
    const videoId = await trackedVideo(ws.workspaceId, { description });
    let release!: () => void;
    blocked.set(description, new Promise<void>((r) => (release = r)));
    await analyze(ws.workspaceId, videoId, {});
    await waitForStatus(ws.workspaceId, videoId, ["analyzing"]);
    const during = await getAnalysis(ws.workspaceId, videoId);
    expect(during).toMatchObject({
      status: "analyzing",
      transcript: description,
      transcriptSource: "captions",
      hookStyle: null,
      completedAt: null,
    });
    expect((during!.segments as unknown[]).length).toBe(2);
    expect((await getBalance(ws.workspaceId)).reserved).toBe(5);
    release();
    const done = await waitForStatus(ws.workspaceId, videoId, ["completed"]);
    expect(done.hookStyle).not.toBeNull();
  });

  it("the sweeper fails an analysis stuck past the deadline (releasing its credits) and re-queues one whose job is gone", async () => {
    const ws = await newWorkspace();
    const stuckVideo = await trackedVideo(ws.workspaceId);
    const orphanVideo = await trackedVideo(ws.workspaceId);
    const stuck = await analyzeWithoutJob(ws.workspaceId, stuckVideo);
    const orphan = await analyzeWithoutJob(ws.workspaceId, orphanVideo);
    expect((await getBalance(ws.workspaceId)).reserved).toBe(10);
    const hoursAgo = new Date(Date.now() - 2 * 3600_000);
    await prisma.videoAnalysis.update({ where: { id: stuck.analysisId }, data: { status: "downloading", updatedAt: hoursAgo } });
    await prisma.videoAnalysis.update({ where: { id: orphan.analysisId }, data: { updatedAt: new Date(Date.now() - 5 * 60_000) } });

    const swept = await sweepAnalyses();
    expect(swept.failed).toBeGreaterThanOrEqual(1);
    expect(swept.requeued).toBeGreaterThanOrEqual(1);
    const failed = await prisma.videoAnalysis.findUniqueOrThrow({ where: { id: stuck.analysisId } });
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/no progress for 900 seconds \(stuck in downloading\)/);
    await waitForStatus(ws.workspaceId, orphanVideo, ["completed"]);
    await waitFor("credits settled", async () => (await getBalance(ws.workspaceId)).reserved === 0);
    expect(await getBalance(ws.workspaceId)).toMatchObject({ totalRemaining: 195, reserved: 0 });
    expect(await analysisCharges(ws.workspaceId)).toEqual([-5]);
    // A second sweep changes nothing.
    const again = await sweepAnalyses();
    expect(await prisma.videoAnalysis.findUniqueOrThrow({ where: { id: stuck.analysisId } })).toMatchObject({ status: "failed" });
    expect(again.requeued).toBe(0);
  });

  it("a duplicated or retried job never moves an analysis twice", async () => {
    const ws = await newWorkspace();
    const videoId = await trackedVideo(ws.workspaceId);
    const r = await analyzeWithoutJob(ws.workspaceId, videoId);
    // Two runs of the same analysis at once (as when a stalled job is picked up while the first run still lives).
    const results = await Promise.all([runAnalysis(r.analysisId, providers), runAnalysis(r.analysisId, providers)]);
    expect(results.map((x) => x.status)).toEqual(["completed", "completed"]);
    expect(await analysisCharges(ws.workspaceId)).toEqual([-5]);
    expect(await getBalance(ws.workspaceId)).toMatchObject({ totalRemaining: 195, reserved: 0 });
  });
});
