/**
 * Adaptive refresh: the cadence function (pure), the spread of due times, the scheduler that takes
 * only due items through the partial index, backoff and `failed` after consecutive failures, only
 * tracked items scheduled, duplicated jobs served once, and the refresh endpoints (202, 429
 * REFRESH_TOO_SOON with Retry-After, 404, tenant isolation) on REST and GraphQL.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, gql, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { jobRun, trackingJobs } from "../helpers/jobs.js";
import { loadConfig, parseCadence, type CadenceTier } from "../../src/config.js";
import { prisma, pgPool } from "../../src/infra/db.js";
import { queue } from "../../src/infra/queues.js";
import { startWorkers, type RunningWorkers } from "../../src/jobs/worker.js";
import {
  afterFailure,
  isAccelerating,
  nextOnGrid,
  phaseOf,
  refreshInterval,
  viewsPerHour,
  MIN_REFRESH_INTERVAL_MS,
  type CadenceSettings,
} from "../../src/domain/tracking/cadence.js";
import { refreshDue, scrapeVideo } from "../../src/domain/tracking/scrape-jobs.js";
import { ProviderError } from "../../src/domain/shared/provider-error.js";
import { SimulatedScrapeProvider } from "../../src/providers/scrape/simulated.js";
import type { ScrapeProvider } from "../../src/domain/tracking/ports.js";
import type { RunningApi } from "../../src/main/server.js";
import { waitUntil } from "../helpers/wait.js";

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const TIERS = parseCadence("2d=1h,7d=4h,30d=1d,*=7d") as CadenceTier[];
const S: CadenceSettings = {
  tiers: TIERS,
  hotViewsPerHour: 1000,
  hotDailyGrowth: 0.25,
  backoffBaseMs: 30 * MIN,
  backoffMaxMs: DAY,
  maxFailures: 6,
};

let api: RunningApi;
let workers: RunningWorkers | undefined;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => stopAll(api, ...(workers ? [workers] : [])));

let seq = 0;
/** A platform B video (not scraped), tracked by the workspace when given. */
async function video(workspaceId?: string, data: Record<string, unknown> = {}) {
  const id = `rs${String(++seq).padStart(9, "0")}`;
  const v = await prisma.video.create({
    data: { platform: "platformB", platformVideoId: id, url: `https://www.youtube.com/watch?v=${id}`, ...data },
  });
  if (workspaceId) await prisma.trackedVideo.create({ data: { workspaceId, videoId: v.id } });
  return v;
}

const failing = (retryable: boolean, message = "source answered 503"): ScrapeProvider => ({
  name: "simulated",
  scrapeVideo: async () => {
    throw new ProviderError("simulated", message, retryable);
  },
  scrapeAccount: async () => {
    throw new ProviderError("simulated", message, retryable);
  },
});

describe("the cadence (pure)", () => {
  const at = (ageMs: number | null, extra: Partial<Parameters<typeof refreshInterval>[0]> = {}) =>
    refreshInterval({ ageMs, viewsPerHour: null, viewCount: null, planFactor: 1, ...extra }, S);

  it("is hourly under 2 days, 4-hourly in the first week, daily in the first month, weekly after; unknown age is daily", () => {
    expect(at(0)).toBe(HOUR);
    expect(at(47 * HOUR)).toBe(HOUR);
    expect(at(2 * DAY)).toBe(4 * HOUR);
    expect(at(6 * DAY)).toBe(4 * HOUR);
    expect(at(10 * DAY)).toBe(DAY);
    expect(at(60 * DAY)).toBe(7 * DAY);
    expect(at(null)).toBe(DAY);
    expect(at(-HOUR)).toBe(HOUR); // posted "in the future" (clock skew): young
  });

  it("an accelerating item is hourly whatever its age: by absolute views per hour, or by a day's growth against its views so far", () => {
    expect(at(400 * DAY, { viewsPerHour: 1000, viewCount: 10_000_000 })).toBe(HOUR);
    expect(at(400 * DAY, { viewsPerHour: 999, viewCount: 10_000_000 })).toBe(7 * DAY);
    // 10 views/h = 240 a day, 30 % of 800 views: accelerating.
    expect(at(400 * DAY, { viewsPerHour: 10, viewCount: 800 })).toBe(HOUR);
    // 3 views/h = 72 a day: too few to be a trend, even on a 100-view video.
    expect(isAccelerating({ viewsPerHour: 3, viewCount: 100 }, S)).toBe(false);
    expect(isAccelerating({ viewsPerHour: -50, viewCount: 100 }, S)).toBe(false);
    expect(isAccelerating({ viewsPerHour: null, viewCount: 100 }, S)).toBe(false);
  });

  it("plans shorten it (the smallest factor of the plans tracking the item), never below 5 minutes", () => {
    expect(at(60 * DAY, { planFactor: 0.5 })).toBe(3.5 * DAY);
    expect(at(60 * DAY, { planFactor: 0.25 })).toBe(42 * HOUR);
    expect(at(0, { planFactor: 0.01 })).toBe(MIN_REFRESH_INTERVAL_MS);
    expect(at(60 * DAY, { planFactor: null })).toBe(7 * DAY);
  });

  it("velocity is views per hour between the previous scrape and this one", () => {
    const t0 = new Date("2026-11-20T00:00:00Z");
    expect(viewsPerHour({ count: 100, at: t0 }, { count: 400, at: new Date(t0.getTime() + 3 * HOUR) })).toBe(100);
    expect(viewsPerHour({ count: null, at: t0 }, { count: 400, at: new Date(t0.getTime() + HOUR) })).toBeNull();
    expect(viewsPerHour({ count: 100, at: null }, { count: 400, at: t0 })).toBeNull();
    expect(viewsPerHour({ count: 100, at: t0 }, { count: 400, at: t0 })).toBeNull();
  });

  it("due times lie on the item's own grid: at least half an interval ahead, and a steady rhythm after", () => {
    const now = new Date("2026-11-24T10:17:00Z");
    for (let i = 0; i < 200; i++) {
      const id = randomUUID();
      const next = nextOnGrid(id, now, HOUR);
      expect(next.getTime()).toBeGreaterThanOrEqual(now.getTime() + HOUR / 2);
      expect(next.getTime()).toBeLessThan(now.getTime() + 1.5 * HOUR);
      // Scraped at its due time (plus a queue delay), the next one is one interval later.
      expect(nextOnGrid(id, new Date(next.getTime() + 20_000), HOUR).getTime()).toBe(next.getTime() + HOUR);
      // The phase comes from the id: the same offset within every interval.
      expect((next.getTime() % HOUR) / HOUR).toBeCloseTo(phaseOf(id), 6);
    }
  });

  it("spreads items added at the same moment evenly: 100,000 weekly items fall due at about 10 a minute, never in a burst", () => {
    const now = new Date("2026-11-24T10:00:00Z");
    const perMinute = new Map<number, number>();
    for (let i = 0; i < 100_000; i++) {
      const t = nextOnGrid(randomUUID(), now, 7 * DAY).getTime();
      perMinute.set(Math.floor(t / MIN), (perMinute.get(Math.floor(t / MIN)) ?? 0) + 1);
    }
    const counts = [...perMinute.values()];
    // 10,080 minutes in a week: about 9.9 a minute on average.
    expect(perMinute.size).toBeGreaterThan(10_000);
    expect(Math.max(...counts)).toBeLessThan(35);
    // Hourly items: 10,000 of them, about 167 a minute, at most a few times that.
    const hourly = new Map<number, number>();
    for (let i = 0; i < 10_000; i++) {
      const m = Math.floor(nextOnGrid(randomUUID(), now, HOUR).getTime() / MIN);
      hourly.set(m, (hourly.get(m) ?? 0) + 1);
    }
    expect(hourly.size).toBe(60);
    expect(Math.max(...hourly.values())).toBeLessThan(260);
  });

  it("backs off exponentially after failed refreshes (30 min, doubling, at most a day, ±10 %), and gives up after the last", () => {
    const now = new Date("2026-11-24T10:00:00Z");
    const id = randomUUID();
    const delays = [1, 2, 3, 4, 5].map((n) => {
      const r = afterFailure(id, now, n, S);
      expect(r.givesUp).toBe(false);
      return ((r as { retryAt: Date }).retryAt.getTime() - now.getTime()) / MIN;
    });
    [30, 60, 120, 240, 480].forEach((expected, i) => {
      expect(delays[i]).toBeGreaterThanOrEqual(expected * 0.9);
      expect(delays[i]).toBeLessThanOrEqual(expected * 1.1);
    });
    expect(afterFailure(id, now, 6, S)).toEqual({ givesUp: true });
    const capped = afterFailure(id, now, 5, { ...S, backoffBaseMs: 10 * HOUR, maxFailures: 10 }) as { retryAt: Date };
    expect(capped.retryAt.getTime() - now.getTime()).toBeLessThanOrEqual(1.1 * DAY);
  });

  it("REFRESH_CADENCE is read and checked at start", () => {
    expect(loadConfig({ SCRAPE_PROVIDER: "simulated" }).refresh.cadence).toEqual(TIERS);
    expect(loadConfig({ SCRAPE_PROVIDER: "simulated", REFRESH_CADENCE: "12h=15m, *=2d" }).refresh.cadence).toEqual([
      { maxAgeMs: 12 * HOUR, intervalMs: 15 * MIN },
      { maxAgeMs: Infinity, intervalMs: 2 * DAY },
    ]);
    for (const bad of ["2d=1h", "*=1h,2d=1h", "2d=1h,1d=2h,*=1d", "abc", "2d=0h,*=1d", ""]) {
      expect(() => loadConfig({ SCRAPE_PROVIDER: "simulated", REFRESH_CADENCE: bad }), bad).toThrow(/REFRESH_CADENCE/);
    }
  });
});

describe("the scheduler", () => {
  it("takes only the due items, earliest first, through the partial index (no scan of the table), and enqueues one job per item and due time", async () => {
    // A realistic table: many videos nobody schedules (untracked, never refreshed).
    await pgPool.query(`INSERT INTO videos (platform, platform_video_id, url)
      SELECT 'platformC', 'Bulk' || lpad(i::text, 8, '0'), 'https://www.instagram.com/reel/Bulk' || lpad(i::text, 8, '0') || '/'
        FROM generate_series(1, 20000) AS i`);
    const ws = await newWorkspace();
    const now = new Date();
    const due = [await video(ws.workspaceId), await video(ws.workspaceId), await video(ws.workspaceId)];
    const later = await video(ws.workspaceId);
    const untracked = await video();
    await prisma.video.update({ where: { id: due[0]!.id }, data: { nextRefreshAt: new Date(now.getTime() - 3 * MIN) } });
    await prisma.video.update({ where: { id: due[1]!.id }, data: { nextRefreshAt: new Date(now.getTime() - 2 * MIN) } });
    await prisma.video.update({ where: { id: due[2]!.id }, data: { nextRefreshAt: new Date(now.getTime() - 1 * MIN) } });
    await prisma.video.update({ where: { id: later.id }, data: { nextRefreshAt: new Date(now.getTime() + 5 * MIN) } });
    await pgPool.query("ANALYZE videos");
    expect((await prisma.video.findUniqueOrThrow({ where: { id: untracked.id } })).nextRefreshAt).toBeNull();

    const plan = (
      await pgPool.query(
        `EXPLAIN SELECT id, next_refresh_at FROM videos WHERE next_refresh_at <= $1
      ORDER BY next_refresh_at LIMIT 1000 FOR UPDATE SKIP LOCKED`,
        [now],
      )
    ).rows
      .map((r) => r["QUERY PLAN"])
      .join("\n");
    expect(plan).toContain("videos_next_refresh_idx");
    expect(plan).not.toMatch(/Seq Scan/);

    const everyDue = (await pgPool.query(`SELECT id FROM videos WHERE next_refresh_at <= $1`, [now])).rows.map((r) => r.id);
    const r1 = await refreshDue(now, { batchSize: 2, maxPerRun: 1000, leaseMs: HOUR });
    expect(r1.videos).toBe(everyDue.length);
    expect(r1.statements).toBeGreaterThanOrEqual(Math.ceil(everyDue.length / 2));
    const jobs = await queue("scrape").getJobs(["waiting", "delayed", "active", "completed", "failed", "prioritized"]);
    const ids = new Set(jobs.map((j) => j.id));
    due.forEach((v, i) => expect(ids.has(`video-${v.id}-due-${now.getTime() - (3 - i) * MIN}`)).toBe(true));
    expect([...ids].some((id) => id?.includes(later.id) || id?.includes(untracked.id))).toBe(false);
    // Claimed: a lease ahead, so the next run does not take them again (a lost job is retried after it).
    for (const v of due) {
      expect((await prisma.video.findUniqueOrThrow({ where: { id: v.id } })).nextRefreshAt).toEqual(new Date(now.getTime() + HOUR));
    }
    expect((await refreshDue(now, { batchSize: 2, maxPerRun: 1000, leaseMs: HOUR })).videos).toBe(0);
    // REFRESH_MAX_PER_RUN bounds one run; the next run goes on.
    const more = await Promise.all([1, 2, 3].map(() => video(ws.workspaceId, { nextRefreshAt: new Date(now.getTime() - MIN) })));
    expect(more).toHaveLength(3);
    const bounded = await refreshDue(now, { batchSize: 10, maxPerRun: 2, leaseMs: HOUR });
    expect(bounded.videos).toBe(2);
    expect((await refreshDue(now, { batchSize: 10, maxPerRun: 2, leaseMs: HOUR })).videos).toBe(1);
  });

  it("schedules only tracked items: the last untracking unschedules, tracking again reschedules; a scrape of an untracked video schedules nothing", async () => {
    const a = await newWorkspace();
    const b = await newWorkspace();
    const v = await video(a.workspaceId);
    const scheduled = (await prisma.video.findUniqueOrThrow({ where: { id: v.id } })).nextRefreshAt;
    // Never scraped: a safety net 10 minutes out (tracking it enqueued its first scrape).
    expect(scheduled!.getTime()).toBeGreaterThan(Date.now() + 9 * MIN);
    await prisma.trackedVideo.create({ data: { workspaceId: b.workspaceId, videoId: v.id } });
    await prisma.trackedVideo.deleteMany({ where: { workspaceId: a.workspaceId, videoId: v.id } });
    expect((await prisma.video.findUniqueOrThrow({ where: { id: v.id } })).nextRefreshAt).toEqual(scheduled);
    // Workspace b deleted: its trackings cascade and the video leaves the schedule.
    await prisma.workspace.delete({ where: { id: b.workspaceId } });
    expect((await prisma.video.findUniqueOrThrow({ where: { id: v.id } })).nextRefreshAt).toBeNull();

    const t = new Date("2026-11-21T08:00:00Z");
    await scrapeVideo(v.id, jobRun(0, 3), new SimulatedScrapeProvider({ now: () => t }), () => t, S);
    expect(await prisma.video.findUniqueOrThrow({ where: { id: v.id } })).toMatchObject({ scrapeStatus: "ready", nextRefreshAt: null });
    // Tracked again: a scraped video is due at once (its last scrape is more than an hour old).
    await prisma.trackedVideo.create({ data: { workspaceId: a.workspaceId, videoId: v.id } });
    expect((await prisma.video.findUniqueOrThrow({ where: { id: v.id } })).nextRefreshAt!.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    // A scrape of a tracked video sets the cadence's next time (the simulated video is over a month old: about a week).
    const now = new Date("2026-11-22T08:00:00Z");
    await scrapeVideo(v.id, jobRun(0, 3), new SimulatedScrapeProvider({ now: () => now }), () => now, S);
    const next = (await prisma.video.findUniqueOrThrow({ where: { id: v.id } })).nextRefreshAt!;
    expect(next.getTime()).toBeGreaterThanOrEqual(now.getTime() + 3.5 * DAY);
    expect(next.getTime()).toBeLessThan(now.getTime() + 10.5 * DAY);
  });

  it("a refresh that keeps failing backs off, stays ready with its numbers, and ends failed with the reason, off the schedule", async () => {
    const ws = await newWorkspace();
    const v = await video(ws.workspaceId);
    const settings = { ...S, maxFailures: 3 };
    const t0 = new Date();
    await scrapeVideo(v.id, jobRun(0, 3), new SimulatedScrapeProvider({ now: () => t0 }), () => t0, settings);
    const ready = await prisma.video.findUniqueOrThrow({ where: { id: v.id } });

    // Not the job's last attempt: BullMQ retries; nothing counts yet.
    await expect(scrapeVideo(v.id, jobRun(0, 3), failing(true), () => t0, settings)).rejects.toThrow(/503/);
    expect(await prisma.video.findUniqueOrThrow({ where: { id: v.id } })).toMatchObject({
      scrapeStatus: "ready",
      refreshFailures: 0,
      nextRefreshAt: ready.nextRefreshAt,
    });

    const expected = [30, 60];
    for (const [i, minutes] of expected.entries()) {
      const now = new Date(t0.getTime() + (i + 1) * HOUR);
      await expect(scrapeVideo(v.id, jobRun(2, 3), failing(true), () => now, settings)).rejects.toThrow(/503/);
      const after = await prisma.video.findUniqueOrThrow({ where: { id: v.id } });
      expect(after).toMatchObject({
        scrapeStatus: "ready",
        refreshFailures: i + 1,
        viewCount: ready.viewCount,
        scrapeError: expect.stringMatching(/503/),
      });
      const delay = (after.nextRefreshAt!.getTime() - now.getTime()) / MIN;
      expect(delay).toBeGreaterThanOrEqual(minutes * 0.9);
      expect(delay).toBeLessThanOrEqual(minutes * 1.1);
    }
    await expect(
      scrapeVideo(v.id, jobRun(2, 3), failing(true, "source answered 503 again"), () => new Date(t0.getTime() + 3 * HOUR), settings),
    ).rejects.toThrow();
    const gaveUp = await prisma.video.findUniqueOrThrow({ where: { id: v.id } });
    expect(gaveUp).toMatchObject({ scrapeStatus: "failed", refreshFailures: 3, nextRefreshAt: null, viewCount: ready.viewCount });
    expect(gaveUp.scrapeError).toMatch(/503 again/);
    await refreshDue(new Date(Date.now() + 30 * DAY), { batchSize: 100, maxPerRun: 1000, leaseMs: HOUR }); // however late, it is not taken again
    expect((await prisma.video.findUniqueOrThrow({ where: { id: v.id } })).nextRefreshAt).toBeNull();

    // A refresh request puts it back; a success resets the count and the schedule.
    const c = client(api.url, ws.key);
    await prisma.video.update({ where: { id: v.id }, data: { lastScrapedAt: new Date(Date.now() - HOUR) } });
    expect((await c.post(`/api/v1/videos/${v.id}/refresh`)).status).toBe(202);
    const t1 = new Date();
    await scrapeVideo(v.id, jobRun(0, 3), new SimulatedScrapeProvider({ now: () => t1 }), () => t1, settings);
    const back = await prisma.video.findUniqueOrThrow({ where: { id: v.id } });
    expect(back).toMatchObject({ scrapeStatus: "ready", refreshFailures: 0, scrapeError: null });
    expect(back.nextRefreshAt!.getTime()).toBeGreaterThan(t1.getTime());
  });

  it("a source that says a never-scraped video is gone fails it at once and takes it off the schedule", async () => {
    const ws = await newWorkspace();
    const v = await video(ws.workspaceId);
    await expect(scrapeVideo(v.id, jobRun(0, 5), failing(false, "Video unavailable"), () => new Date(), S)).rejects.toThrow(/unavailable/);
    expect(await prisma.video.findUniqueOrThrow({ where: { id: v.id } })).toMatchObject({
      scrapeStatus: "failed",
      refreshFailures: 1,
      nextRefreshAt: null,
    });
  });

  it("a job whose purpose another run served after it was queued returns at once: no second point", async () => {
    const ws = await newWorkspace();
    const v = await video(ws.workspaceId);
    const queuedAt = new Date(Date.now() - MIN);
    const t = new Date();
    expect(await scrapeVideo(v.id, { ...jobRun(0, 3), queuedAt }, new SimulatedScrapeProvider({ now: () => t }), () => t, S)).toEqual({
      status: "ready",
    });
    expect(await scrapeVideo(v.id, { ...jobRun(0, 3), queuedAt }, new SimulatedScrapeProvider(), () => new Date(), S)).toEqual({
      status: "fresh",
    });
    expect(await prisma.videoMetricPoint.count({ where: { videoId: v.id } })).toBe(1);
  });

  it("end to end: due items claimed by the scheduler are scraped by a worker, which sets their next time from the cadence", async () => {
    const ws = await newWorkspace();
    const v = await video(ws.workspaceId);
    const now = new Date();
    await prisma.video.update({ where: { id: v.id }, data: { nextRefreshAt: new Date(now.getTime() - 1000) } });
    workers = await startWorkers([{ ...trackingJobs(), schedules: [] }]);
    let done;
    try {
      await refreshDue(now, { batchSize: 100, maxPerRun: 1000, leaseMs: HOUR });
      done = await waitUntil(
        "the due video's scrape",
        () => prisma.video.findUniqueOrThrow({ where: { id: v.id } }),
        (x) => x.scrapeStatus === "ready",
        30_000,
        100,
      );
    } finally {
      await workers.close();
      workers = undefined;
    }
    expect(done.scrapeStatus).toBe("ready");
    expect(done.nextRefreshAt!.getTime()).toBeGreaterThan(now.getTime() + DAY);
    expect(await prisma.videoMetricPoint.count({ where: { videoId: v.id } })).toBe(1);
  });

  it("workers remove the retired flat refresh schedule", async () => {
    await queue("scrape").upsertJobScheduler("refresh-tracked", { every: HOUR }, { name: "refresh-tracked", data: {} });
    const w = await startWorkers([{ ...trackingJobs() }]);
    try {
      const ids = (await queue("scrape").getJobSchedulers()).map((s) => s.key ?? s.id);
      expect(ids).not.toContain("refresh-tracked");
      expect(ids).toContain("refresh-due");
      expect(ids).toContain("prune-history");
    } finally {
      await w.close();
      for (const id of ["refresh-due", "prune-history", "daily-snapshots"]) await queue("scrape").removeJobScheduler(id);
    }
  });
});

describe("POST /videos/{id}/refresh and /accounts/{id}/refresh", () => {
  it("202 {id, nextRefreshAt} queues the scrape now; a second call is 429 REFRESH_TOO_SOON with Retry-After; other workspaces get 404", async () => {
    const ws = await newWorkspace();
    const other = await newWorkspace();
    const c = client(api.url, ws.key);
    const v = await video(ws.workspaceId);
    const before = Date.now();
    const r = await c.post(`/api/v1/videos/${v.id}/refresh`);
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ data: { id: v.id, nextRefreshAt: expect.stringMatching(ISO) }, message: expect.stringMatching(/queued/i) });
    const at = Date.parse(r.body.data.nextRefreshAt);
    expect(at).toBeGreaterThanOrEqual(before - 5);
    expect(at).toBeLessThanOrEqual(Date.now());
    expect(await queue("scrape").getJob(`video-${v.id}-due-${at}`)).toBeTruthy();
    expect((await c.get(`/api/v1/videos/${v.id}`)).body.data.nextRefreshAt).toBe(r.body.data.nextRefreshAt);

    const again = await c.post(`/api/v1/videos/${v.id}/refresh`);
    expect(again.status).toBe(429);
    expect(again.body).toEqual({ code: "REFRESH_TOO_SOON", message: expect.stringMatching(/retry in \d+ seconds/) });
    const retryAfter = Number(again.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(290);
    expect(retryAfter).toBeLessThanOrEqual(300);

    // The spacing counts from the last scrape too: scraped 4 minutes ago → about 60 s to wait; 6 minutes ago → allowed.
    const w = await video(ws.workspaceId, { lastScrapedAt: new Date(Date.now() - 4 * MIN), scrapeStatus: "ready" });
    const soon = await c.post(`/api/v1/videos/${w.id}/refresh`);
    expect(soon.status).toBe(429);
    expect(Number(soon.headers.get("retry-after"))).toBeGreaterThan(50);
    expect(Number(soon.headers.get("retry-after"))).toBeLessThanOrEqual(61);
    await prisma.video.update({ where: { id: w.id }, data: { lastScrapedAt: new Date(Date.now() - 6 * MIN) } });
    expect((await c.post(`/api/v1/videos/${w.id}/refresh`)).status).toBe(202);

    // Another workspace: 404, and its call changes nothing.
    const o = client(api.url, other.key);
    expect((await o.post(`/api/v1/videos/${v.id}/refresh`)).body.code).toBe("NOT_FOUND");
    expect((await o.post(`/api/v1/videos/${randomUUID()}/refresh`)).status).toBe(404);
    expect((await c.post(`/api/v1/videos/not-a-uuid/refresh`)).status).toBe(400);
  });

  it("two simultaneous requests queue one scrape", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    const v = await video(ws.workspaceId);
    const answers = await Promise.all(Array.from({ length: 6 }, () => c.post(`/api/v1/videos/${v.id}/refresh`)));
    expect(answers.filter((a) => a.status === 202)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(5);
  });

  it("accounts: 202, then 429; an owner account the workspace does not track is 404", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    const tracked = await c.post("/api/v1/accounts", { url: "https://www.youtube.com/@refresh.me", video_limit: 1 });
    expect(tracked.status).toBe(201);
    const account = await prisma.account.findFirstOrThrow({ where: { username: "refresh.me" } });
    // The account was just tracked (its first scrape is queued, not done): never scraped, never requested.
    const r = await c.post(`/api/v1/accounts/${account.id}/refresh`);
    expect(r.status).toBe(202);
    expect(r.body.data.id).toBe(account.id);
    expect(await queue("scrape").getJob(`account-${account.id}-due-${Date.parse(r.body.data.nextRefreshAt)}`)).toBeTruthy();
    const again = await c.post(`/api/v1/accounts/${account.id}/refresh`);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await c.get(`/api/v1/accounts/${account.id}`)).body.data.nextRefreshAt).toBe(r.body.data.nextRefreshAt);

    const owner = await prisma.account.create({ data: { platform: "platformB", username: "untracked.owner" } });
    await video(ws.workspaceId, { accountId: owner.id });
    expect((await c.post(`/api/v1/accounts/${owner.id}/refresh`)).status).toBe(404);
  });

  it("GraphQL refreshVideo and refreshAccount: the same rules, REFRESH_TOO_SOON in extensions.code", async () => {
    const ws = await newWorkspace();
    const v = await video(ws.workspaceId);
    const q = `mutation($id: ID!) { refreshVideo(id: $id) { uuid nextRefreshAt video { uuid nextRefreshAt } account { uuid } } }`;
    const r = await gql(api.url, ws.key, q, { id: v.id });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.refreshVideo).toMatchObject({ uuid: v.id, nextRefreshAt: expect.stringMatching(ISO), account: null });
    expect(r.body.data.refreshVideo.video.nextRefreshAt).toBe(r.body.data.refreshVideo.nextRefreshAt);
    const again = await gql(api.url, ws.key, q, { id: v.id });
    expect(again.body.errors?.[0]?.extensions?.code).toBe("REFRESH_TOO_SOON");
    expect(again.body.errors?.[0]?.extensions?.retryAfter).toEqual(expect.any(Number));
    const other = await newWorkspace();
    expect((await gql(api.url, other.key, q, { id: v.id })).body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const acc = await gql(api.url, ws.key, `mutation($id: ID!) { refreshAccount(id: $id) { uuid } }`, { id: randomUUID() });
    expect(acc.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });
});
