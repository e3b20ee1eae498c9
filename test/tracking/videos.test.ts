/**
 * REST /videos: tracking by URL, the global-video rule, the plan's tracking limit (also under
 * concurrency), listing and pagination, bulk untrack, and tenant isolation. Scrapes run in an
 * in-process worker with the simulated provider.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { prisma } from "../../src/infra/db.js";
import { startWorkers, type RunningWorkers } from "../../src/jobs/worker.js";
import { trackingJobs } from "../helpers/jobs.js";
import type { RunningApi } from "../../src/main/server.js";
import { waitUntil } from "../helpers/wait.js";

let api: RunningApi;
let workers: RunningWorkers;

beforeAll(async () => {
  api = await startTestApi();
  workers = await startWorkers([{ ...trackingJobs(), schedules: [] }]);
  await prisma.plan.create({ data: { name: "tiny", videoLimit: 3, monthlyCredits: 0 } });
});
afterAll(() => stopAll(api, workers));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
let seq = 0;
/** A fresh platform B video link (11-character id), unique in this file. */
const ytUrl = () => `https://www.youtube.com/watch?v=${`vid${String(++seq).padStart(8, "0")}`}`;
const ttUrl = (user = "creator.one") => `https://www.tiktok.com/@${user}/video/${7_300_000_000_000_000_000n + BigInt(++seq)}`;

function expectFullVideo(v: any) {
  expect(v.id).toMatch(UUID);
  for (const k of [
    "platformVideoId",
    "url",
    "description",
    "thumbnailUrl",
    "username",
    "displayName",
    "musicName",
    "musicAuthor",
    "musicCoverUrl",
  ]) {
    expect(typeof v[k], k).toBe("string");
  }
  expect(Array.isArray(v.hashtags)).toBe(true);
  expect(["platformA", "platformB", "platformC"]).toContain(v.type);
  expect(["queued", "scraping", "ready", "failed"]).toContain(v.scrapeStatus);
  expect(typeof v.engagementRate).toBe("number");
  for (const k of ["viewCount", "likeCount", "commentCount", "shareCount", "bookmarkCount"]) {
    expect(v[k] === null || Number.isInteger(v[k]), k).toBe(true);
  }
  expect(v.trackedVideoId).toMatch(UUID);
  expect(v.trackedAt).toMatch(ISO);
}

describe("POST /videos", () => {
  it("tracks a video: 201 {trackedVideoId, videoId, isNew} with a message, then the scrape makes it ready with metrics", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    const r = await c.post("/api/v1/videos", { url: ttUrl("Some.Creator") });
    expect(r.status).toBe(201);
    expect(r.body.data).toEqual({ trackedVideoId: expect.stringMatching(UUID), videoId: expect.stringMatching(UUID), isNew: true });
    expect(r.body.message).toMatch(/queued/i);

    const v = await waitUntil(
      "the video's scrape",
      () => c.get(`/api/v1/videos/${r.body.data.videoId}`),
      (x) => x.body.data.scrapeStatus === "ready",
    );
    expect(v.status).toBe(200);
    const d = v.body.data;
    expectFullVideo(d);
    expect(d.type).toBe("platformA");
    expect(d.url).toBe(`https://www.tiktok.com/@some.creator/video/${d.platformVideoId}`);
    expect(d.username).toBe("some.creator");
    expect(d.dataSource).toBe("simulated");
    expect(d.lastScrapedAt).toMatch(ISO);
    expect(d.postedAt).toMatch(ISO);
    expect(Number.isInteger(d.viewCount)).toBe(true);
    expect(d.trackedVideoId).toBe(r.body.data.trackedVideoId);
    // Engagement rate: (likes + comments + shares + bookmarks) / views × 100, nulls as 0.
    const interactions = (d.likeCount ?? 0) + (d.commentCount ?? 0) + (d.shareCount ?? 0) + (d.bookmarkCount ?? 0);
    expect(d.engagementRate).toBeCloseTo(d.viewCount > 0 ? (interactions / d.viewCount) * 100 : 0, 3);
    // The day's snapshot records the provider and the time.
    const snaps = await prisma.videoSnapshot.findMany({ where: { videoId: d.id } });
    expect(snaps).toHaveLength(1);
    expect(snaps[0]!.source).toBe("simulated");
    expect(Number(snaps[0]!.viewCount)).toBe(d.viewCount);
  });

  it("a string that is not an accepted video link is 400 INVALID_URL naming the accepted links; a missing or non-string url is VALIDATION_ERROR", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    for (const url of [
      "",
      "not a url",
      "http://www.youtube.com/watch?v=abcdefghijk",
      "https://www.tiktok.com/@someone",
      "https://www.tiktok.com.evil.example/@a/video/1",
    ]) {
      const r = await c.post("/api/v1/videos", { url });
      expect(r.status, url).toBe(400);
      expect(r.body.code).toBe("INVALID_URL");
      expect(r.body.message).toContain("https://www.youtube.com/watch?v=");
      expect(r.body.message).toContain("https://www.tiktok.com/@user/video/");
    }
    for (const body of [{}, { url: 42 }, { url: null }, { url: ["https://youtu.be/abcdefghijk"] }]) {
      const r = await c.post("/api/v1/videos", body);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
    }
  });

  it("409 ALREADY_TRACKED when the workspace tracks the video, whatever link shape names it", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    expect((await c.post("/api/v1/videos", { url: "https://www.youtube.com/watch?v=dup00000001" })).status).toBe(201);
    for (const url of [
      "https://youtu.be/dup00000001",
      "https://www.youtube.com/shorts/dup00000001",
      "https://m.youtube.com/watch?v=dup00000001&t=3",
    ]) {
      const r = await c.post("/api/v1/videos", { url });
      expect(r.status).toBe(409);
      expect(r.body).toEqual({ code: "ALREADY_TRACKED", message: expect.stringMatching(/already tracked/i) });
    }
  });

  it("global-video rule: two workspaces tracking one video share one Video row, scraped once; isNew is false the second time", async () => {
    const [a, b] = [await newWorkspace(), await newWorkspace()];
    const url = "https://www.instagram.com/reel/Cshared0001/";
    const ra = await client(api.url, a.key).post("/api/v1/videos", { url });
    await waitUntil(
      "the video's scrape",
      () => client(api.url, a.key).get(`/api/v1/videos/${ra.body.data.videoId}`),
      (x) => x.body.data.scrapeStatus === "ready",
    );
    const rb = await client(api.url, b.key).post("/api/v1/videos", { url: "https://instagram.com/reels/Cshared0001?igsh=x" });
    expect(rb.status).toBe(201);
    expect(rb.body.data.isNew).toBe(false);
    expect(rb.body.data.videoId).toBe(ra.body.data.videoId);
    expect(rb.body.data.trackedVideoId).not.toBe(ra.body.data.trackedVideoId);
    expect(await prisma.video.count({ where: { platform: "platformC", platformVideoId: "Cshared0001" } })).toBe(1);
    // B sees the metrics at once: no second scrape was queued.
    const vb = await client(api.url, b.key).get(`/api/v1/videos/${rb.body.data.videoId}`);
    expect(vb.body.data.scrapeStatus).toBe("ready");
    const video = await prisma.video.findUniqueOrThrow({ where: { id: ra.body.data.videoId } });
    expect(video.scrapeAttempts).toBe(0); // reset by the one successful scrape, not incremented again
    const jobs = await (await import("../../src/infra/queues.js")).queue("scrape").getJobs(["waiting", "active", "completed", "delayed"]);
    expect(jobs.filter((j) => j.data.videoId === video.id)).toHaveLength(1);
  });
});

describe("tracking limit", () => {
  it("403 VIDEO_LIMIT_REACHED when additions_remaining is 0; untracking frees a slot", async () => {
    const ws = await newWorkspace("tiny");
    const c = client(api.url, ws.key);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await c.post("/api/v1/videos", { url: ytUrl() });
      expect(r.status).toBe(201);
      ids.push(r.body.data.videoId);
    }
    const info = await c.get("/api/v1/workspace");
    expect(info.body.data.limits).toEqual({ video_limit: 3, video_slots_used: 3, additions_remaining: 0 });
    const over = await c.post("/api/v1/videos", { url: ytUrl() });
    expect(over.status).toBe(403);
    expect(over.body).toEqual({ code: "VIDEO_LIMIT_REACHED", message: expect.stringMatching(/limit/) });
    // Already tracked wins over the limit: the more precise answer.
    const again = await c.post("/api/v1/videos", {
      url: "https://www.youtube.com/watch?v=" + (await prisma.video.findUniqueOrThrow({ where: { id: ids[0] } })).platformVideoId,
    });
    expect(again.status).toBe(409);
    await c.post("/api/v1/videos/bulk-untrack", { ids: [ids[0]] });
    expect((await c.post("/api/v1/videos", { url: ytUrl() })).status).toBe(201);
  });

  it("concurrent additions at the limit: exactly the remaining slots succeed, the rest get 403", async () => {
    const ws = await newWorkspace("tiny");
    const c = client(api.url, ws.key);
    expect((await c.post("/api/v1/videos", { url: ytUrl() })).status).toBe(201);
    expect((await c.post("/api/v1/videos", { url: ytUrl() })).status).toBe(201);
    const results = await Promise.all(Array.from({ length: 8 }, () => c.post("/api/v1/videos", { url: ytUrl() })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 403, 403, 403, 403, 403, 403, 403]);
    expect(await prisma.trackedVideo.count({ where: { workspaceId: ws.workspaceId } })).toBe(3);
    const w = await prisma.workspace.findUniqueOrThrow({ where: { id: ws.workspaceId } });
    expect(w.trackedVideoCount).toBe(3);
  });
});

describe("GET /videos", () => {
  it("paginates newest tracked first with {data, pagination}; has_more at the edges; default limit 20", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    const tracked: string[] = [];
    for (let i = 0; i < 23; i++) tracked.push((await c.post("/api/v1/videos", { url: ytUrl() })).body.data.videoId);
    const newestFirst = [...tracked].reverse();

    const first = await c.get("/api/v1/videos");
    expect(first.status).toBe(200);
    expect(first.body.pagination).toEqual({ total: 23, limit: 20, offset: 0, has_more: true });
    expect(first.body.data.map((v: any) => v.id)).toEqual(newestFirst.slice(0, 20));
    first.body.data.forEach(expectFullVideo);

    const last = await c.get("/api/v1/videos?limit=3&offset=20");
    expect(last.body.pagination).toEqual({ total: 23, limit: 3, offset: 20, has_more: false });
    expect(last.body.data.map((v: any) => v.id)).toEqual(newestFirst.slice(20));

    const mid = await c.get("/api/v1/videos?limit=2&offset=20");
    expect(mid.body.pagination.has_more).toBe(true);
    const beyond = await c.get("/api/v1/videos?offset=50");
    expect(beyond.body).toEqual({ data: [], pagination: { total: 23, limit: 20, offset: 50, has_more: false } });

    for (const q of ["limit=0", "limit=101", "limit=abc", "offset=-1", "limit=2.5"]) {
      const bad = await c.get(`/api/v1/videos?${q}`);
      expect(bad.status, q).toBe(400);
      expect(bad.body.code).toBe("VALIDATION_ERROR");
    }
  });

  it("before the first scrape: counts are null, strings are strings, status queued", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    // Insert the tracking directly so no worker can scrape it first.
    const video = await prisma.video.create({
      data: { platform: "platformB", platformVideoId: "unscraped01", url: "https://www.youtube.com/watch?v=unscraped01" },
    });
    await prisma.trackedVideo.create({ data: { workspaceId: ws.workspaceId, videoId: video.id } });
    const r = await c.get(`/api/v1/videos/${video.id}`);
    expectFullVideo(r.body.data);
    expect(r.body.data).toMatchObject({
      viewCount: null,
      likeCount: null,
      commentCount: null,
      shareCount: null,
      bookmarkCount: null,
      engagementRate: 0,
      postedAt: null,
      lastScrapedAt: null,
      dataSource: null,
      scrapeStatus: "queued",
      description: "",
      musicName: "",
      canonicalAccountId: null,
    });
  });
});

describe("POST /videos/bulk-untrack", () => {
  it("per-item results in order: success, unknown id, duplicate; the HTTP status stays 200", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    const a = (await c.post("/api/v1/videos", { url: ytUrl() })).body.data.videoId;
    const b = (await c.post("/api/v1/videos", { url: ytUrl() })).body.data.videoId;
    const unknown = "0f0e0d0c-0b0a-4909-8807-060504030201";
    const r = await c.post("/api/v1/videos/bulk-untrack", { ids: [a, unknown, a, b.toUpperCase()] });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([
      { id: a, success: true },
      { id: unknown, success: false, error: "Video not found." },
      { id: a, success: false, error: expect.stringMatching(/duplicate/i) },
      { id: b.toUpperCase(), success: true },
    ]);
    expect((await c.get("/api/v1/videos")).body.pagination.total).toBe(0);
    expect((await c.get(`/api/v1/videos/${a}`)).status).toBe(404);
    // The global record stays.
    expect(await prisma.video.count({ where: { id: { in: [a, b] } } })).toBe(2);
    const again = await c.post("/api/v1/videos/bulk-untrack", { ids: [a] });
    expect(again.body.data).toEqual([{ id: a, success: false, error: "Video not found." }]);
  });

  it("51 ids, a non-UUID id or a missing ids array is 400 VALIDATION_ERROR; 50 ids are accepted", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    const id = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
    const r51 = await c.post("/api/v1/videos/bulk-untrack", { ids: Array.from({ length: 51 }, (_, i) => id(i)) });
    expect(r51.status).toBe(400);
    expect(r51.body.code).toBe("VALIDATION_ERROR");
    const r50 = await c.post("/api/v1/videos/bulk-untrack", { ids: Array.from({ length: 50 }, (_, i) => id(i)) });
    expect(r50.status).toBe(200);
    expect(r50.body.data).toHaveLength(50);
    expect(r50.body.data.every((x: any) => x.success === false && x.error === "Video not found.")).toBe(true);
    for (const body of [{ ids: ["nope"] }, {}, { ids: "x" }, { ids: [id(1)], extra: 1 }]) {
      const r = await c.post("/api/v1/videos/bulk-untrack", body);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
    }
  });
});

describe("tenant isolation", () => {
  it("another workspace's video ids are 404 NOT_FOUND on read and fail per item on untrack; lists never show them", async () => {
    const owner = await newWorkspace();
    const other = await newWorkspace();
    const videoId = (await client(api.url, owner.key).post("/api/v1/videos", { url: ytUrl() })).body.data.videoId;
    const c = client(api.url, other.key);
    const r = await c.get(`/api/v1/videos/${videoId}`);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: "NOT_FOUND", message: expect.stringMatching(/video not found/i) });
    expect((await c.get("/api/v1/videos")).body).toEqual({ data: [], pagination: { total: 0, limit: 20, offset: 0, has_more: false } });
    const u = await c.post("/api/v1/videos/bulk-untrack", { ids: [videoId] });
    expect(u.body.data).toEqual([{ id: videoId, success: false, error: "Video not found." }]);
    expect((await client(api.url, owner.key).get(`/api/v1/videos/${videoId}`)).status).toBe(200);
    expect((await c.get("/api/v1/videos/not-a-uuid")).body.code).toBe("VALIDATION_ERROR");
  });

  it("every route refuses a request without a valid key", async () => {
    const c = client(api.url, null);
    for (const [method, path] of [
      ["GET", "/api/v1/videos"],
      ["POST", "/api/v1/videos"],
      ["GET", `/api/v1/videos/${"0".repeat(8)}-0000-4000-8000-000000000000`],
      ["POST", "/api/v1/videos/bulk-untrack"],
    ] as const) {
      const r = method === "GET" ? await c.get(path) : await c.post(path, {});
      expect(r.status, path).toBe(401);
      expect(r.body.code).toBe("UNAUTHORIZED");
    }
  });
});
