/**
 * The whole pipeline on real speech, without network: a loopback server serves a real recording
 * (pocketsphinx-testdata's "go forward ten meters" as MP4), and an in-process worker runs the real
 * yt-dlp (generic extractor) + ffmpeg + pocketsphinx path and the heuristic analysis, through every
 * state, with the credits captured once.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { startWorkers, type RunningWorkers } from "../../src/jobs/worker.js";
import { analysisJobs } from "../helpers/jobs.js";
import { createContentAnalysisProvider, createMediaProvider, createTranscriptionProvider } from "../../src/main/providers.js";
import { getBalance } from "../../src/domain/credits/service.js";
import { subscribeEvents } from "../../src/domain/shared/events.js";
import { subscribed } from "../../src/infra/events.js";
import type { RunningApi } from "../../src/main/server.js";
import { GOFORWARD_TEXT, makeGoforwardMp4, makeGoforwardWav, serveDirectory, type MediaServer } from "../fixtures/media/server.js";
import { analysisCharges, trackedVideo, waitForStatus } from "./fixtures.js";

let root: string;
let server: MediaServer;
let api: RunningApi;
let workers: RunningWorkers;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "analysis-speech-"));
  const files = join(root, "files");
  await mkdir(files);
  makeGoforwardWav(join(files, "clip.wav"));
  makeGoforwardMp4(join(files, "clip.wav"), join(files, "clip.mp4"));
  server = await serveDirectory(files);
  api = await startTestApi();
  workers = await startWorkers([
    analysisJobs({
      media: createMediaProvider("ytdlp"),
      transcription: createTranscriptionProvider("pocketsphinx"),
      content: createContentAnalysisProvider("heuristic"),
    }),
  ]);
});

afterAll(async () => {
  await stopAll(api, workers, server);
  await rm(root, { recursive: true, force: true });
});

describe("analysis of real speech (yt-dlp + ffmpeg + pocketsphinx)", () => {
  it("transcribes the recording through every state and completes, charged once", async () => {
    const ws = await newWorkspace();
    // A real (non-simulated) video whose media URL is the loopback server's.
    const videoId = await trackedVideo(ws.workspaceId, {
      dataSource: "ytdlp",
      url: `${server.baseUrl}/clip.mp4`,
      description: "",
      hashtags: [],
    });
    const events = subscribeEvents("analysisStatusChanged", `${ws.workspaceId}:${videoId}`)[Symbol.asyncIterator]();
    const statuses: string[] = [];
    const collected = (async () => {
      for (let e = await events.next(); !e.done; e = await events.next()) {
        statuses.push(e.value.status);
        if (e.value.status === "completed" || e.value.status === "failed") return;
      }
    })();
    await subscribed();
    const c = client(api.url, ws.key);
    const r = await c.post(`/api/v1/video-analysis/${videoId}/analyze`);
    expect(r.status).toBe(202);
    await waitForStatus(ws.workspaceId, videoId, ["completed", "failed"], 120_000);
    await collected;
    await events.return?.();
    expect(statuses).toEqual(["pending", "downloading", "transcribed", "analyzing", "completed"]);
    const a = (await c.get(`/api/v1/video-analysis/${videoId}`)).body.data;
    expect(a).toMatchObject({
      status: "completed",
      transcriptSource: "pocketsphinx",
      transcript: GOFORWARD_TEXT,
      analysisProvider: "heuristic",
      transcriptLanguage: "en",
      transcriptUsed: true,
      transcriptNote: null,
    });
    expect(a.transcriptConfidence).toBeGreaterThan(0.5);
    expect(a.segments.length).toBeGreaterThanOrEqual(1);
    expect(a.segments.map((s: { text: string }) => s.text).join(" ")).toBe(GOFORWARD_TEXT);
    for (const s of a.segments) {
      expect(s.start).toBeGreaterThanOrEqual(0);
      expect(s.end).toBeGreaterThan(s.start);
      expect(s.end).toBeLessThan(5);
    }
    expect(server.requests).toContain("/clip.mp4");
    expect(await analysisCharges(ws.workspaceId)).toEqual([-5]);
    expect((await getBalance(ws.workspaceId)).reserved).toBe(0);
  });
});
