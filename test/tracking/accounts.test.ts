/**
 * REST /accounts: tracking by URL, the scrape that tracks the account's newest videos within
 * min(video_limit, additions_remaining), the tracking limit (`failed`), list/get/untrack, the
 * account's videos with pagination and date filters, and tenant isolation. Simulated provider,
 * in-process worker.
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

type Client = ReturnType<typeof client>;

/** Tracks the account and waits until its scrape (and the tracking of its videos) is done. */
async function trackReady(c: Client, url: string, videoLimit?: number) {
  const r = await c.post("/api/v1/accounts", videoLimit === undefined ? { url } : { url, video_limit: videoLimit });
  expect(r.status).toBe(201);
  const list = await c.get("/api/v1/accounts?limit=100");
  const username = r.body.data.added[0] ?? r.body.data.alreadyTracked[0];
  const item = list.body.data.find((a: any) => a.username === username);
  const ready = await waitUntil(
    "the account's scrape",
    () => c.get(`/api/v1/accounts/${item.id}`),
    (x) => x.body.data.scrapeStatus === "ready",
  );
  return { response: r, account: ready.body.data };
}

describe("POST /accounts", () => {
  it("201 {added, alreadyTracked, failed}; the scrape fills the account and tracks its newest video_limit videos", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    const { response, account } = await trackReady(c, "https://www.tiktok.com/@Dance.Crew?lang=en", 7);
    expect(response.body).toEqual({
      data: { added: ["dance.crew"], alreadyTracked: [], failed: [] },
      message: expect.stringMatching(/queued/i),
    });
    expect(account).toEqual({
      id: expect.stringMatching(UUID),
      trackedAccountId: expect.stringMatching(UUID),
      type: "platformA",
      username: "dance.crew",
      url: "https://www.tiktok.com/@dance.crew",
      displayName: expect.stringContaining("(simulated)"),
      avatarUrl: expect.any(String),
      followerCount: expect.any(Number),
      videoCount: expect.any(Number),
      totalViews: expect.any(Number),
      videoLimit: 7,
      scrapeStatus: "ready",
      scrapeError: null,
      lastScrapedAt: expect.stringMatching(ISO),
      dataSource: "simulated",
      createdAt: expect.stringMatching(ISO),
      // Adaptive refresh: the next scrape is scheduled in the future.
      nextRefreshAt: expect.stringMatching(ISO),
      // Additive fields: no rule until the workspace sets some, and not paused.
      rules: { includeHashtags: [], excludeHashtags: [], includeWords: [], excludeWords: [], minDurationSeconds: null, postedAfter: null },
      pausedAt: null,
    });
    expect(Date.parse(account.nextRefreshAt)).toBeGreaterThan(Date.parse(account.lastScrapedAt));
    expect(Number.isInteger(account.followerCount) && Number.isInteger(account.totalViews)).toBe(true);

    const videos = await c.get(`/api/v1/accounts/${account.id}/videos?limit=100`);
    expect(videos.status).toBe(200);
    expect(videos.body.pagination).toEqual({ total: 7, limit: 100, offset: 0, has_more: false });
    const posted = videos.body.data.map((v: any) => Date.parse(v.postedAt));
    expect(posted).toEqual([...posted].sort((a, b) => b - a));
    for (const v of videos.body.data) {
      expect(v).toMatchObject({
        type: "platformA",
        username: "dance.crew",
        canonicalAccountId: account.id,
        scrapeStatus: "ready",
        dataSource: "simulated",
      });
      expect(v.url).toBe(`https://www.tiktok.com/@dance.crew/video/${v.platformVideoId}`);
      for (const k of [
        "id",
        "platformVideoId",
        "url",
        "description",
        "viewCount",
        "likeCount",
        "commentCount",
        "engagementRate",
        "postedAt",
        "type",
      ])
        expect(v).toHaveProperty(k);
    }
    // They are the newest of the account's videos, and count toward the tracking limit.
    const all = (
      await prisma.video.findMany({ where: { accountId: account.id }, orderBy: { postedAt: "desc" }, select: { id: true } })
    ).map((v) => v.id);
    expect(videos.body.data.map((v: any) => v.id)).toEqual(all.slice(0, 7));
    expect((await c.get("/api/v1/workspace")).body.data.limits.video_slots_used).toBe(7);
    expect((await c.get("/api/v1/videos")).body.pagination.total).toBe(7);
    const snaps = await prisma.accountSnapshot.findMany({ where: { accountId: account.id } });
    expect(snaps).toHaveLength(1);
    expect(snaps[0]).toMatchObject({ source: "simulated", followerCount: BigInt(account.followerCount) });

    const again = await c.post("/api/v1/accounts", { url: "https://tiktok.com/@dance.crew/" });
    expect(again.status).toBe(201);
    expect(again.body.data).toEqual({ added: [], alreadyTracked: ["dance.crew"], failed: [] });
  });

  it("video_limit defaults to 50 and must be an integer from 1 to 500; url errors are INVALID_URL or VALIDATION_ERROR", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    const r = await c.post("/api/v1/accounts", { url: "https://www.youtube.com/@DefaultLimit" });
    expect(r.body.data.added).toEqual(["defaultlimit"]);
    expect((await c.get("/api/v1/accounts")).body.data[0].videoLimit).toBe(50);
    for (const video_limit of [0, 501, 2.5, "5", null]) {
      const bad = await c.post("/api/v1/accounts", { url: "https://www.youtube.com/@other", video_limit });
      expect(bad.status, String(video_limit)).toBe(400);
      expect(bad.body.code).toBe("VALIDATION_ERROR");
    }
    for (const url of [
      "",
      "https://www.youtube.com/watch?v=abcdefghijk",
      "https://www.instagram.com/reel/Cabcdef/",
      "http://www.tiktok.com/@x",
      "https://evil.example/@x",
    ]) {
      const bad = await c.post("/api/v1/accounts", { url });
      expect(bad.status, url).toBe(400);
      expect(bad.body.code).toBe("INVALID_URL");
      expect(bad.body.message).toContain("https://www.instagram.com/user/");
    }
    for (const body of [{}, { url: 1 }, { video_limit: 5 }]) {
      const bad = await c.post("/api/v1/accounts", body);
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe("VALIDATION_ERROR");
    }
  });

  it("tracking limit: the scrape tracks at most additions_remaining videos; with 0 remaining the username goes to failed", async () => {
    const ws = await newWorkspace("tiny");
    const c = client(api.url, ws.key);
    const { account } = await trackReady(c, "https://www.instagram.com/limited.creator/", 50);
    const videos = await c.get(`/api/v1/accounts/${account.id}/videos`);
    expect(videos.body.pagination.total).toBe(3);
    expect((await c.get("/api/v1/workspace")).body.data.limits).toEqual({ video_limit: 3, video_slots_used: 3, additions_remaining: 0 });
    const full = await c.post("/api/v1/accounts", { url: "https://www.instagram.com/second.creator" });
    expect(full.status).toBe(201);
    expect(full.body.data).toEqual({ added: [], alreadyTracked: [], failed: ["second.creator"] });
    expect(full.body.message).toMatch(/limit/);
    expect((await c.get("/api/v1/accounts")).body.pagination.total).toBe(1);
    const direct = await c.post("/api/v1/videos", { url: "https://youtu.be/abcdefghijk" });
    expect(direct.status).toBe(403);
  });

  it("two workspaces tracking one account share one Account row; each gets its own video_limit of videos", async () => {
    const [a, b] = [await newWorkspace(), await newWorkspace()];
    const ra = await trackReady(client(api.url, a.key), "https://www.youtube.com/@shared.channel", 4);
    const rb = await trackReady(client(api.url, b.key), "https://youtube.com/@Shared.Channel", 9);
    expect(rb.account.id).toBe(ra.account.id);
    expect(rb.account.trackedAccountId).not.toBe(ra.account.trackedAccountId);
    expect(await prisma.account.count({ where: { username: "shared.channel" } })).toBe(1);
    expect((await client(api.url, a.key).get(`/api/v1/accounts/${ra.account.id}/videos`)).body.pagination.total).toBe(4);
    // The account was ready already (A's scrape); B's own scrape job tracks B's videos shortly after.
    const bVideos = await waitUntil(
      "the account's scrape",
      () => client(api.url, b.key).get(`/api/v1/accounts/${ra.account.id}/videos`),
      (x) => x.body.pagination.total > 0,
    );
    expect(bVideos.body.pagination.total).toBe(9);
    expect(await prisma.video.count({ where: { accountId: ra.account.id } })).toBeGreaterThanOrEqual(9);
  });
});

describe("GET /accounts/{id}/videos", () => {
  it("paginates (has_more at the edges) and filters by inclusive UTC posting days", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    const { account } = await trackReady(c, "https://www.tiktok.com/@date.filters", 12);
    const all = (await c.get(`/api/v1/accounts/${account.id}/videos?limit=100`)).body.data;
    expect(all).toHaveLength(12);

    const p1 = await c.get(`/api/v1/accounts/${account.id}/videos?limit=5`);
    expect(p1.body.pagination).toEqual({ total: 12, limit: 5, offset: 0, has_more: true });
    const p3 = await c.get(`/api/v1/accounts/${account.id}/videos?limit=5&offset=10`);
    expect(p3.body.pagination).toEqual({ total: 12, limit: 5, offset: 10, has_more: false });
    expect(p3.body.data.map((v: any) => v.id)).toEqual(all.slice(10).map((v: any) => v.id));
    expect((await c.get(`/api/v1/accounts/${account.id}/videos`)).body.pagination.limit).toBe(20);

    const pick = all[5];
    const day = pick.postedAt.slice(0, 10);
    const next = new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
    const prev = new Date(Date.parse(`${day}T00:00:00.000Z`) - 86_400_000).toISOString().slice(0, 10);
    const sameDay = all.filter((v: any) => v.postedAt.startsWith(day)).map((v: any) => v.id);
    const onDay = await c.get(`/api/v1/accounts/${account.id}/videos?limit=100&start_date=${day}&end_date=${day}`);
    expect(onDay.body.data.map((v: any) => v.id)).toEqual(sameDay);
    const fromDay = await c.get(`/api/v1/accounts/${account.id}/videos?limit=100&start_date=${day}`);
    expect(fromDay.body.data.map((v: any) => v.id)).toEqual(all.filter((v: any) => v.postedAt >= `${day}T`).map((v: any) => v.id));
    const untilPrev = await c.get(`/api/v1/accounts/${account.id}/videos?limit=100&end_date=${prev}`);
    expect(untilPrev.body.data.map((v: any) => v.id)).toEqual(all.filter((v: any) => v.postedAt < `${day}T`).map((v: any) => v.id));
    const fromNext = await c.get(`/api/v1/accounts/${account.id}/videos?limit=100&start_date=${next}`);
    expect(fromNext.body.pagination.total).toBe(all.filter((v: any) => v.postedAt >= `${next}T`).length);

    for (const q of ["start_date=2026-02-30", "end_date=20260101", "start_date=2026-05-02&end_date=2026-05-01", "limit=101"]) {
      const bad = await c.get(`/api/v1/accounts/${account.id}/videos?${q}`);
      expect(bad.status, q).toBe(400);
      expect(bad.body.code).toBe("VALIDATION_ERROR");
    }
  });
});

describe("GET and DELETE /accounts", () => {
  it("lists newest tracked first with pagination; DELETE untracks the account and keeps its videos tracked", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    const first = await trackReady(c, "https://www.instagram.com/first.account", 3);
    await trackReady(c, "https://www.instagram.com/second.account", 2);
    const list = await c.get("/api/v1/accounts?limit=1");
    expect(list.body.pagination).toEqual({ total: 2, limit: 1, offset: 0, has_more: true });
    expect(list.body.data[0].username).toBe("second.account");
    const page2 = await c.get("/api/v1/accounts?limit=1&offset=1");
    expect(page2.body.data[0].username).toBe("first.account");
    expect(page2.body.pagination.has_more).toBe(false);

    const before = (await c.get("/api/v1/videos")).body.pagination.total;
    const del = await c.delete(`/api/v1/accounts/${first.account.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ data: { id: first.account.id }, message: expect.stringMatching(/untracked/i) });
    expect((await c.get(`/api/v1/accounts/${first.account.id}`)).status).toBe(404);
    expect((await c.get(`/api/v1/accounts/${first.account.id}/videos`)).status).toBe(404);
    expect((await c.delete(`/api/v1/accounts/${first.account.id}`)).status).toBe(404);
    expect((await c.get("/api/v1/videos")).body.pagination.total).toBe(before);
    expect(before).toBe(5);
  });
});

describe("tenant isolation", () => {
  it("another workspace's account ids are 404 NOT_FOUND on every account route", async () => {
    const owner = await newWorkspace();
    const { account } = await trackReady(client(api.url, owner.key), "https://www.youtube.com/@private.channel", 2);
    const other = client(api.url, (await newWorkspace()).key);
    for (const r of [
      await other.get(`/api/v1/accounts/${account.id}`),
      await other.get(`/api/v1/accounts/${account.id}/videos`),
      await other.delete(`/api/v1/accounts/${account.id}`),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body.code).toBe("NOT_FOUND");
    }
    expect((await other.get("/api/v1/accounts")).body).toEqual({
      data: [],
      pagination: { total: 0, limit: 20, offset: 0, has_more: false },
    });
    expect((await client(api.url, owner.key).get(`/api/v1/accounts/${account.id}`)).status).toBe(200);
    const none = client(api.url, null);
    expect((await none.get("/api/v1/accounts")).status).toBe(401);
    expect((await none.post("/api/v1/accounts", { url: "https://www.youtube.com/@x" })).status).toBe(401);
  });
});
