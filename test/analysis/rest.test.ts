/**
 * REST video analysis: every row of the spec's state table, the exact answers, credits held,
 * captured once and released, concurrency, tenant isolation, and the simulated media path end to
 * end through an in-process worker (the description serves as the captions).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { startWorkers, type RunningWorkers } from "../../src/jobs/worker.js";
import { analysisJobs } from "../helpers/jobs.js";
import { getBalance } from "../../src/domain/credits/service.js";
import { prisma } from "../../src/infra/db.js";
import type { RunningApi } from "../../src/main/server.js";
import { CTA_TYPE_VALUES, HOOK_STYLE_VALUES, UGC_FIT_VALUES } from "../../src/domain/analysis/vocabulary.js";
import { request } from "../helpers/api.js";
import { DEMO_DESCRIPTION, analysisCharges, leaveCredits, trackExisting, trackedVideo, waitForStatus } from "./fixtures.js";

let api: RunningApi;
let workers: RunningWorkers;
beforeAll(async () => {
  api = await startTestApi();
  workers = await startWorkers([analysisJobs()]);
});
afterAll(() => stopAll(api, workers));

const analyzePath = (videoId: string, force?: string) =>
  `/api/v1/video-analysis/${videoId}/analyze${force === undefined ? "" : `?force=${force}`}`;

describe("POST /video-analysis/{videoId}/analyze and GET /video-analysis/{videoId}", () => {
  it("walks the whole state table: none → pending → … → completed; already completed; force; credits charged once per analysis", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    const videoId = await trackedVideo(ws.workspaceId);

    const none = await c.get(`/api/v1/video-analysis/${videoId}`);
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ data: null });

    const queued = await c.post(analyzePath(videoId));
    expect(queued.status).toBe(202);
    expect(queued.body.data).toEqual({ analysisId: expect.any(String), videoId, status: "pending" });
    expect(queued.body.message).toMatch(/queued/i);
    // Reserved, not charged: the balance shown changes only at completion.
    const held = await getBalance(ws.workspaceId);
    expect(held.totalRemaining).toBe(200);

    const done = await waitForStatus(ws.workspaceId, videoId, ["completed", "failed"]);
    expect(done.status).toBe("completed");
    const read = await c.get(`/api/v1/video-analysis/${videoId}`);
    expect(read.status).toBe(200);
    const a = read.body.data;
    expect(a).toMatchObject({
      analysisId: queued.body.data.analysisId,
      videoId,
      status: "completed",
      transcriptSource: "captions",
      hookStyle: "question",
      ugcFit: expect.stringMatching(/^(high|medium|low)$/),
      ctaType: expect.stringMatching(/^(follow|link_in_bio)$/),
      analysisProvider: "heuristic",
    });
    expect(a.error).toBeUndefined();
    expect(a.transcript).toBe(DEMO_DESCRIPTION);
    expect(a.segments.length).toBeGreaterThanOrEqual(3);
    expect(a.segments[0]).toEqual({ start: 0, end: expect.any(Number), text: "Do you know why your sourdough never rises?" });
    expect(a.hookPhrase).toMatch(/do you know why your sourdough never rises/i);
    expect(a.ugcConfidence).toBeGreaterThanOrEqual(0);
    expect(a.ugcConfidence).toBeLessThanOrEqual(100);
    expect(a.completedAt).toMatch(/Z$/);
    let b = await getBalance(ws.workspaceId);
    expect(b).toMatchObject({ totalRemaining: 195, reserved: 0, monthlyUsed: 5 });

    // Already completed, no force: same analysis, nothing restarted or charged.
    const again = await c.post(analyzePath(videoId, "false"));
    expect(again.status).toBe(202);
    expect(again.body.data).toEqual({ analysisId: a.analysisId, videoId, status: "completed" });
    expect(again.body.message).toMatch(/already completed/i);
    b = await getBalance(ws.workspaceId);
    expect(b).toMatchObject({ totalRemaining: 195, reserved: 0 });

    // force=true: the previous result is deleted and a fresh analysis starts (and is charged again).
    const forced = await c.post(analyzePath(videoId, "true"));
    expect(forced.status).toBe(202);
    expect(forced.body.data.status).toBe("pending");
    expect(forced.body.data.analysisId).not.toBe(a.analysisId);
    expect(await prisma.videoAnalysis.count({ where: { id: a.analysisId } })).toBe(0);
    await waitForStatus(ws.workspaceId, videoId, ["completed", "failed"]);
    expect(await analysisCharges(ws.workspaceId)).toEqual([-5, -5]);
    b = await getBalance(ws.workspaceId);
    expect(b).toMatchObject({ totalRemaining: 190, reserved: 0 });
  });

  it("answers 'in progress' with the current status while an analysis runs, with or without force, and starts nothing else", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    // The workers pick jobs up at once; pausing the queue keeps the analysis running (pending) here.
    await workers.workers[0]!.pause();
    try {
      const videoId = await trackedVideo(ws.workspaceId);
      const first = await c.post(analyzePath(videoId));
      expect(first.body.data.status).toBe("pending");
      for (const force of [undefined, "true", "1"]) {
        const r = await c.post(analyzePath(videoId, force));
        expect(r.status).toBe(202);
        expect(r.body.data).toEqual({ analysisId: first.body.data.analysisId, videoId, status: "pending" });
        expect(r.body.message).toMatch(/in progress/i);
      }
      expect(await prisma.videoAnalysis.count({ where: { videoId } })).toBe(1);
      expect((await getBalance(ws.workspaceId)).reserved).toBe(5);
      // Every running state answers the same way.
      for (const status of ["downloading", "transcribed", "analyzing"] as const) {
        await prisma.videoAnalysis.update({ where: { id: first.body.data.analysisId }, data: { status } });
        const r = await c.post(analyzePath(videoId, "true"));
        expect(r.body.data.status).toBe(status);
        expect(r.body.message).toMatch(/in progress/i);
      }
      await prisma.videoAnalysis.update({ where: { id: first.body.data.analysisId }, data: { status: "pending" } });
    } finally {
      workers.workers[0]!.resume();
    }
  });

  it("ten simultaneous analyze calls start one analysis and reserve 5 credits once", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    await workers.workers[0]!.pause();
    try {
      const videoId = await trackedVideo(ws.workspaceId);
      const answers = await Promise.all(Array.from({ length: 10 }, () => c.post(analyzePath(videoId))));
      expect(answers.map((r) => r.status)).toEqual(Array(10).fill(202));
      const ids = new Set(answers.map((r) => r.body.data.analysisId));
      expect(ids.size).toBe(1);
      expect(answers.filter((r) => /queued/i.test(r.body.message))).toHaveLength(1);
      expect(answers.filter((r) => /in progress/i.test(r.body.message))).toHaveLength(9);
      expect(await prisma.videoAnalysis.count({ where: { videoId } })).toBe(1);
      expect(await prisma.creditReservation.count({ where: { workspaceId: ws.workspaceId } })).toBe(1);
      expect((await getBalance(ws.workspaceId)).reserved).toBe(5);
    } finally {
      workers.workers[0]!.resume();
    }
  });

  it("the database refuses a second running analysis of one video for one workspace", async () => {
    const ws = await newWorkspace();
    const videoId = await trackedVideo(ws.workspaceId);
    await prisma.videoAnalysis.create({ data: { workspaceId: ws.workspaceId, videoId, status: "transcribed" } });
    await expect(prisma.videoAnalysis.create({ data: { workspaceId: ws.workspaceId, videoId, status: "pending" } })).rejects.toThrow();
    // Ended analyses are not limited.
    await prisma.videoAnalysis.create({ data: { workspaceId: ws.workspaceId, videoId, status: "failed" } });
    await prisma.videoAnalysis.create({ data: { workspaceId: ws.workspaceId, videoId, status: "completed" } });
  });

  it("insufficient credits: 400 with exactly {statusCode: 400, message} naming the cost and the balance; nothing is created", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    const videoId = await trackedVideo(ws.workspaceId);
    await leaveCredits(ws.workspaceId, 4);
    const r = await c.post(analyzePath(videoId));
    expect(r.status).toBe(400);
    expect(Object.keys(r.body).sort()).toEqual(["message", "statusCode"]);
    expect(r.body.statusCode).toBe(400);
    expect(r.body.message).toMatch(/\b5 credits\b/);
    expect(r.body.message).toMatch(/\b4 credits\b/);
    expect(await prisma.videoAnalysis.count({ where: { videoId } })).toBe(0);
    expect((await getBalance(ws.workspaceId)).reserved).toBe(0);
    const read = await c.get(`/api/v1/video-analysis/${videoId}`);
    expect(read.body).toEqual({ data: null });
  });

  it("404 NOT_FOUND for a video the workspace does not track (another workspace's included); 400 for bad input", async () => {
    const owner = await newWorkspace();
    const other = await newWorkspace();
    const videoId = await trackedVideo(owner.workspaceId);
    await client(api.url, owner.key).post(analyzePath(videoId));
    const c = client(api.url, other.key);
    for (const r of [
      await c.post(analyzePath(videoId)),
      await c.get(`/api/v1/video-analysis/${videoId}`),
      await c.post(analyzePath("4f9a3a5e-0000-4000-8000-000000000000")),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ code: "NOT_FOUND", message: expect.stringMatching(/video not found/i) });
    }
    expect((await getBalance(other.workspaceId)).reserved).toBe(0);
    const bad = await c.post(analyzePath("not-a-uuid"));
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("VALIDATION_ERROR");
    const badForce = await client(api.url, owner.key).post(analyzePath(videoId, "yes"));
    expect(badForce.status).toBe(400);
    expect(badForce.body.code).toBe("VALIDATION_ERROR");
    // The same video tracked by the other workspace too: each workspace has its own analysis.
    await trackExisting(other.workspaceId, videoId);
    const mine = await c.post(analyzePath(videoId));
    expect(mine.status).toBe(202);
    expect(mine.body.message).toMatch(/queued/i);
    await waitForStatus(other.workspaceId, videoId, ["completed"]);
    await waitForStatus(owner.workspaceId, videoId, ["completed"]);
    expect(await analysisCharges(other.workspaceId)).toEqual([-5]);
    expect(await analysisCharges(owner.workspaceId)).toEqual([-5]);
  });

  it("a provider failure that retrying cannot fix ends in failed with an error, releases the credits; analyze then starts afresh", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    // A real (non-simulated) video: the simulated media provider refuses to invent its media.
    const videoId = await trackedVideo(ws.workspaceId, { dataSource: "ytdlp" });
    const r = await c.post(analyzePath(videoId));
    expect(r.status).toBe(202);
    await waitForStatus(ws.workspaceId, videoId, ["failed", "completed"]);
    const read = await c.get(`/api/v1/video-analysis/${videoId}`);
    expect(read.body.data).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/simulated|MEDIA_PROVIDER/),
      transcript: null,
      hookStyle: null,
    });
    expect(await getBalance(ws.workspaceId)).toMatchObject({ totalRemaining: 200, reserved: 0 });
    expect(await prisma.creditReservation.findMany({ where: { workspaceId: ws.workspaceId } })).toMatchObject([{ status: "released" }]);
    expect(await analysisCharges(ws.workspaceId)).toEqual([]);

    // After a failure, analyze (no force) starts a fresh analysis, replacing the failed one.
    const retry = await c.post(analyzePath(videoId));
    expect(retry.body.data.status).toBe("pending");
    expect(retry.body.message).toMatch(/queued/i);
    expect(retry.body.data.analysisId).not.toBe(r.body.data.analysisId);
    await waitForStatus(ws.workspaceId, videoId, ["failed"]);
    expect(await prisma.videoAnalysis.count({ where: { videoId } })).toBe(1);
  });

  it("the OpenAPI document lists every allowed hookStyle, ugcFit and ctaType with its meaning, and both 400 shapes of analyze", async () => {
    const doc = (await request(api.url, "GET", "/api/v1/openapi.json")).body;
    const schema = doc.components.schemas.VideoAnalysis;
    const values = (p: string) => (schema.properties[p].enum ?? schema.properties[p].anyOf?.find((x: any) => x.enum)?.enum) as string[];
    expect(values("hookStyle")).toEqual(expect.arrayContaining(HOOK_STYLE_VALUES));
    expect(values("ugcFit")).toEqual(expect.arrayContaining(UGC_FIT_VALUES));
    expect(values("ctaType")).toEqual(expect.arrayContaining(CTA_TYPE_VALUES));
    for (const v of [...HOOK_STYLE_VALUES, ...CTA_TYPE_VALUES]) expect(JSON.stringify(schema)).toContain(`\`${v}\` (`);
    const op = doc.paths["/api/v1/video-analysis/{videoId}/analyze"].post;
    expect(op.responses["202"]).toBeDefined();
    expect(JSON.stringify(op.responses["400"])).toContain("statusCode");
    expect(op.responses["404"].description).toContain("NOT_FOUND");
  });
});
