/**
 * Metric history: GET /videos/{id}/history and GET /accounts/{id}/history (both intervals, ranges,
 * the full-resolution window, 400 and 404, tenant isolation), the same points on GraphQL (batched
 * over a page, keyset cursors), the points a scrape writes (idempotent), views24h and outlierScore
 * against values computed here independently, and the pruning job.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, gql, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { jobRun } from "../helpers/jobs.js";
import { prisma, pgPool } from "../../src/infra/db.js";
import { scrapeVideo } from "../../src/domain/tracking/scrape-jobs.js";
import { pruneHistory } from "../../src/domain/tracking/history-partitions.js";
import { storeScrapedVideo } from "../../src/domain/tracking/scrape-store.js";
import { SimulatedScrapeProvider, simulateVideo } from "../../src/providers/scrape/simulated.js";
import type { ScrapedVideo, ScrapeProvider, VideoRef } from "../../src/domain/tracking/ports.js";
import type { RunningApi } from "../../src/main/server.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => stopAll(api));

/** 00:00 UTC of today plus `days` (negative: before). */
const dayStart = (days: number) => {
  const n = new Date();
  return new Date(Date.UTC(n.getUTCFullYear(), n.getUTCMonth(), n.getUTCDate()) + days * DAY);
};
const ymd = (d: Date) => d.toISOString().slice(0, 10);

let seq = 0;
async function trackedVideo(workspaceId: string, data: Record<string, unknown> = {}) {
  const id = `hi${String(++seq).padStart(9, "0")}`;
  const v = await prisma.video.create({
    data: { platform: "platformB", platformVideoId: id, url: `https://www.youtube.com/watch?v=${id}`, ...data },
  });
  await prisma.trackedVideo.create({ data: { workspaceId, videoId: v.id } });
  return v;
}

async function point(videoId: string, at: Date, views: number, source = "simulated") {
  await pgPool.query(
    `INSERT INTO video_metric_points (video_id, captured_at, source, view_count, like_count, comment_count, share_count, bookmark_count)
     VALUES ($1, $2, $3, $4::int8, $4::int8 / 10, $4::int8 / 100, NULL, NULL)`,
    [videoId, at, source, views],
  );
}
async function daily(videoId: string, day: Date, at: Date, views: number, source = "simulated") {
  await pgPool.query(
    `INSERT INTO video_snapshots (video_id, day, captured_at, source, view_count, like_count, comment_count, share_count, bookmark_count)
     VALUES ($1, $2::date, $3, $4, $5::int8, $5::int8 / 10, $5::int8 / 100, NULL, NULL)`,
    [videoId, ymd(day), at, source, views],
  );
}

/**
 * A video's stored history, as scrapes would leave it: hourly points yesterday and the day before,
 * a point at noon on the other days of the 30-day window (each with its day's row), daily rows only
 * for days 30 to 40 ago, and on day 35 ago a copied row (captured the day before: not a point).
 */
async function seedVideoHistory(videoId: string) {
  for (let d = -40; d <= -3; d++) {
    const noon = new Date(dayStart(d).getTime() + 12 * HOUR);
    const views = 1000 * (d + 41);
    if (d === -35) {
      await daily(videoId, dayStart(d), new Date(dayStart(d - 1).getTime() + 12 * HOUR), 1000 * (d + 40));
      continue;
    }
    await daily(videoId, dayStart(d), noon, views);
    if (d >= -29) await point(videoId, noon, views);
  }
  for (let h = 0; h < 48; h++) {
    const at = new Date(dayStart(-2).getTime() + h * HOUR);
    await point(videoId, at, 50_000 + h * 100, "ytdlp");
    if (h === 23 || h === 47) await daily(videoId, at, at, 50_000 + h * 100, "ytdlp");
  }
}

describe("GET /videos/{id}/history", () => {
  it("day (default): the last point of each UTC day of the last 30 days, oldest first, with its real capture time and source", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    const v = await trackedVideo(ws.workspaceId);
    await seedVideoHistory(v.id);
    const r = await c.get(`/api/v1/videos/${v.id}/history`);
    expect(r.status).toBe(200);
    expect(r.body.data.interval).toBe("day");
    const points = r.body.data.points;
    // Days -29 … -1 (today has no scrape): 29 points.
    expect(points).toHaveLength(29);
    expect(points[0]).toEqual({
      capturedAt: new Date(dayStart(-29).getTime() + 12 * HOUR).toISOString(),
      viewCount: 12_000,
      likeCount: 1200,
      commentCount: 120,
      shareCount: null,
      bookmarkCount: null,
      source: "simulated",
    });
    expect(points.at(-2)).toMatchObject({
      capturedAt: new Date(dayStart(-2).getTime() + 23 * HOUR).toISOString(),
      viewCount: 52_300,
      source: "ytdlp",
    });
    expect(points.at(-1)).toMatchObject({ capturedAt: new Date(dayStart(-1).getTime() + 23 * HOUR).toISOString(), viewCount: 54_700 });
    const times = points.map((p: any) => Date.parse(p.capturedAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it("hour: every point inside the full-resolution window, the daily points before it; copied days are never points", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    const v = await trackedVideo(ws.workspaceId);
    await seedVideoHistory(v.id);
    const r = await c.get(`/api/v1/videos/${v.id}/history?interval=hour&start_date=${ymd(dayStart(-40))}&end_date=${ymd(dayStart(0))}`);
    expect(r.status).toBe(200);
    expect(r.body.data.interval).toBe("hour");
    const points = r.body.data.points;
    // Daily before the window: days -40 … -30 without the copied day -35 (10); in it: -29 … -3 at noon (27) and 48 hourly points.
    expect(points).toHaveLength(10 + 27 + 48);
    const days = points.map((p: any) => p.capturedAt.slice(0, 10));
    expect(days).not.toContain(ymd(dayStart(-35)));
    expect(points.filter((p: any) => p.capturedAt.startsWith(ymd(dayStart(-2))))).toHaveLength(24);
    const times = points.map((p: any) => Date.parse(p.capturedAt));
    expect(new Set(times).size).toBe(times.length);
    expect(times).toEqual([...times].sort((a, b) => a - b));

    const day = await c.get(`/api/v1/videos/${v.id}/history?interval=day&start_date=${ymd(dayStart(-40))}`);
    expect(day.body.data.points).toHaveLength(39);
    const one = await c.get(`/api/v1/videos/${v.id}/history?interval=hour&start_date=${ymd(dayStart(-2))}&end_date=${ymd(dayStart(-2))}`);
    expect(one.body.data.points).toHaveLength(24);
    const oneDay = await c.get(`/api/v1/videos/${v.id}/history?start_date=${ymd(dayStart(-2))}&end_date=${ymd(dayStart(-2))}`);
    expect(oneDay.body.data.points).toEqual([
      expect.objectContaining({ capturedAt: new Date(dayStart(-2).getTime() + 23 * HOUR).toISOString() }),
    ]);
    // end_date alone: the 30 days ending then.
    const ending = await c.get(`/api/v1/videos/${v.id}/history?end_date=${ymd(dayStart(-10))}`);
    expect(ending.body.data.points).toHaveLength(29);
    expect(ending.body.data.points[0].capturedAt.slice(0, 10)).toBe(ymd(dayStart(-39)));
    // A range with no points: an empty list.
    const empty = await c.get(`/api/v1/videos/${v.id}/history?start_date=2020-01-01&end_date=2020-01-31`);
    expect(empty.body).toEqual({ data: { interval: "day", points: [] } });
  });

  it("400 VALIDATION_ERROR for start_date after end_date, bad dates and unknown intervals; 404 unless the workspace tracks the video", async () => {
    const ws = await newWorkspace();
    const other = await newWorkspace();
    const c = client(api.url, ws.key);
    const v = await trackedVideo(ws.workspaceId);
    const untracked = await prisma.video.create({
      data: { platform: "platformB", platformVideoId: "hiuntracked", url: "https://www.youtube.com/watch?v=hiuntracked" },
    });
    for (const q of [
      "start_date=2026-11-10&end_date=2026-11-01",
      "start_date=2026-02-30",
      "end_date=yesterday",
      "interval=minute",
      "interval=HOUR",
      // Days PostgreSQL cannot hold once the range is built (year 0, year 10000) were a 500.
      "end_date=9999-12-31",
      "start_date=0000-01-01",
      "end_date=0001-01-05",
      "start_date=1969-12-31",
    ]) {
      const r = await c.get(`/api/v1/videos/${v.id}/history?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
    }
    expect((await c.get(`/api/v1/videos/not-a-uuid/history`)).status).toBe(400);
    for (const id of [untracked.id, randomUUID()]) {
      const r = await c.get(`/api/v1/videos/${id}/history`);
      expect(r.status).toBe(404);
      expect(r.body.code).toBe("NOT_FOUND");
    }
    const o = await client(api.url, other.key).get(`/api/v1/videos/${v.id}/history`);
    expect(o.status).toBe(404);
  });
});

describe("GET /accounts/{id}/history", () => {
  it("the same for a tracked account; an owner account the workspace does not track is 404 until it tracks it (then `added`)", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    const owner = await prisma.account.create({ data: { platform: "platformA", username: "history.owner" } });
    await trackedVideo(ws.workspaceId, { accountId: owner.id });
    for (let d = -5; d <= -1; d++) {
      for (const h of [6, 18]) {
        const at = new Date(dayStart(d).getTime() + h * HOUR);
        await pgPool.query(
          `INSERT INTO account_metric_points (account_id, captured_at, source, follower_count, total_views, video_count) VALUES ($1, $2, 'simulated', $3, $4, 7)`,
          [owner.id, at, 100 * (d + 10) + h, 5000 + h],
        );
      }
      await pgPool.query(
        `INSERT INTO account_snapshots (account_id, day, captured_at, source, follower_count, total_views, video_count) VALUES ($1, $2::date, $3, 'simulated', $4, $5, 7)`,
        [owner.id, ymd(dayStart(d)), new Date(dayStart(d).getTime() + 18 * HOUR), 100 * (d + 10) + 18, 5018],
      );
    }
    // Today: a copied row (the daily fill), not a point.
    await pgPool.query(
      `INSERT INTO account_snapshots (account_id, day, captured_at, source, follower_count, total_views, video_count) VALUES ($1, $2::date, $3, 'simulated', 918, 5018, 7)`,
      [owner.id, ymd(dayStart(0)), new Date(dayStart(-1).getTime() + 18 * HOUR)],
    );

    expect((await c.get(`/api/v1/accounts/${owner.id}/history`)).status).toBe(404);
    const tracked = await c.post("/api/v1/accounts", { url: "https://www.tiktok.com/@history.owner", video_limit: 1 });
    expect(tracked.body.data.added).toEqual(["history.owner"]);
    const day = await c.get(`/api/v1/accounts/${owner.id}/history`);
    expect(day.status).toBe(200);
    expect(day.body.data.interval).toBe("day");
    expect(day.body.data.points).toHaveLength(5);
    expect(day.body.data.points[0]).toEqual({
      capturedAt: new Date(dayStart(-5).getTime() + 18 * HOUR).toISOString(),
      followerCount: 518,
      totalViews: 5018,
      videoCount: 7,
      source: "simulated",
    });
    const hour = await c.get(`/api/v1/accounts/${owner.id}/history?interval=hour`);
    expect(hour.body.data.points).toHaveLength(10);
    expect((await c.get(`/api/v1/accounts/${owner.id}/history?start_date=2026-11-02&end_date=2026-11-01`)).status).toBe(400);
    const other = await newWorkspace();
    expect((await client(api.url, other.key).get(`/api/v1/accounts/${owner.id}/history`)).status).toBe(404);
  });
});

describe("GraphQL Video.history and Account.history", () => {
  it("pages of points with capture-time cursors, for every video of a page in one statement; null history for an untracked owner account", async () => {
    const ws = await newWorkspace();
    const owner = await prisma.account.create({ data: { platform: "platformB", username: "gql.history.owner" } });
    const a = await trackedVideo(ws.workspaceId, { accountId: owner.id });
    const b = await trackedVideo(ws.workspaceId);
    await seedVideoHistory(a.id);
    await point(b.id, new Date(dayStart(-1).getTime() + HOUR), 7);
    const q = `query($after: String) { videos(first: 10) { edges { node { uuid
        history(interval: HOUR, first: 5, after: $after, startDate: "${ymd(dayStart(-2))}") { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { capturedAt viewCount source } } }
        account { uuid history { totalCount } } } } } }`;
    const r = await gql(api.url, ws.key, q);
    expect(r.body.errors).toBeUndefined();
    const byId = new Map(r.body.data.videos.edges.map((e: any) => [e.node.uuid, e.node]));
    const ha = (byId.get(a.id) as any).history;
    expect(ha.totalCount).toBe(48);
    expect(ha.edges.map((e: any) => e.node.capturedAt)).toEqual(
      [0, 1, 2, 3, 4].map((h) => new Date(dayStart(-2).getTime() + h * HOUR).toISOString()),
    );
    expect(ha.pageInfo.hasNextPage).toBe(true);
    expect((byId.get(b.id) as any).history).toMatchObject({ totalCount: 1, edges: [{ node: { viewCount: 7 } }] });
    expect((byId.get(a.id) as any).account).toEqual({ uuid: owner.id, history: null });

    const next = await gql(
      api.url,
      ws.key,
      `query($id: ID!, $after: String) { video(id: $id) { history(interval: HOUR, first: 3, after: $after, startDate: "${ymd(dayStart(-2))}") { edges { node { capturedAt } } } } }`,
      { id: a.id, after: ha.pageInfo.endCursor },
    );
    expect(next.body.data.video.history.edges.map((e: any) => e.node.capturedAt)).toEqual(
      [5, 6, 7].map((h) => new Date(dayStart(-2).getTime() + h * HOUR).toISOString()),
    );
    const last = await gql(
      api.url,
      ws.key,
      `query($id: ID!) { video(id: $id) { history(interval: DAY, last: 2) { edges { node { capturedAt } } } } }`,
      { id: a.id },
    );
    expect(last.body.data.video.history.edges.map((e: any) => e.node.capturedAt.slice(0, 10))).toEqual([
      ymd(dayStart(-2)),
      ymd(dayStart(-1)),
    ]);
    const bad = await gql(
      api.url,
      ws.key,
      `query($id: ID!) { video(id: $id) { history(startDate: "2026-11-10", endDate: "2026-11-01") { totalCount } } }`,
      { id: a.id },
    );
    expect(bad.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");

    // The statement count does not grow with the page: one history read for every video of it.
    const page = `{ videos(first: 10) { edges { node { history(first: 2) { totalCount edges { node { capturedAt } } } } } } }`;
    const one = await countQueries(() => gql(api.url, ws.key, page));
    await trackedVideo(ws.workspaceId);
    await trackedVideo(ws.workspaceId);
    expect(await countQueries(() => gql(api.url, ws.key, page))).toBe(one);
    // The page (with its total), the histories, their counts (the key, used above, is read from Redis).
    expect(one).toBe(3);
  });
});

/** Statements this process sends while `fn` runs (the API runs in this process). */
async function countQueries(fn: () => Promise<unknown>): Promise<number> {
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const original = proto.query;
  let n = 0;
  proto.query = function (this: unknown, ...args: unknown[]) {
    n++;
    return original.apply(this, args);
  };
  try {
    await fn();
  } finally {
    proto.query = original;
  }
  return n;
}

/** A provider whose video scrape answers the given numbers (and the simulated data otherwise). */
function answering(fields: Partial<ScrapedVideo>): ScrapeProvider {
  return {
    name: "simulated",
    scrapeVideo: async (ref: VideoRef) => ({ ...simulateVideo(ref, new Date()), ...fields }),
    scrapeAccount: async () => {
      throw new Error("unused");
    },
  };
}

describe("points written by scrapes", () => {
  it("every stored scrape appends one point with its provider, in the same statement as the day's row; a statement run twice appends nothing twice", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    const v = await trackedVideo(ws.workspaceId);
    const times = [dayStart(-2).getTime() + 9 * HOUR, dayStart(-2).getTime() + 15 * HOUR, dayStart(-1).getTime() + 8 * HOUR].map(
      (t) => new Date(t),
    );
    for (const t of times) {
      await scrapeVideo(v.id, jobRun(0, 3), new SimulatedScrapeProvider({ now: () => t }), () => t);
      // The same scrape stored again (a retry whose clock did not move): no second point.
      await storeScrapedVideo(simulateVideo({ platform: "platformB", platformVideoId: v.platformVideoId, canonicalUrl: v.url }, t), {
        source: "simulated",
        now: t,
      });
    }
    const hour = await c.get(`/api/v1/videos/${v.id}/history?interval=hour&start_date=${ymd(dayStart(-3))}`);
    expect(hour.body.data.points.map((p: any) => p.capturedAt)).toEqual(times.map((t) => t.toISOString()));
    expect(hour.body.data.points.every((p: any) => p.source === "simulated" && Number.isInteger(p.viewCount))).toBe(true);
    const day = await c.get(`/api/v1/videos/${v.id}/history?start_date=${ymd(dayStart(-3))}`);
    expect(day.body.data.points.map((p: any) => p.capturedAt)).toEqual([times[1]!.toISOString(), times[2]!.toISOString()]);
    const stored = (await c.get(`/api/v1/videos/${v.id}`)).body.data;
    expect(day.body.data.points.at(-1).viewCount).toBe(stored.viewCount);
  });
});

const views24h = async (id: string) => {
  const v = await prisma.video.findUniqueOrThrow({ where: { id }, select: { views24h: true } });
  return v.views24h === null ? null : Number(v.views24h);
};

describe("views24h and outlierScore, computed in SQL from the history", () => {
  async function ownerWithVideos(username: string, views: number[]) {
    const owner = await prisma.account.create({ data: { platform: "platformB", username } });
    // Newest posted first: views[0] is the most recent.
    for (const [i, n] of views.entries()) {
      await prisma.video.create({
        data: {
          platform: "platformB",
          platformVideoId: `${username.slice(0, 4).replace(".", "_")}${String(i).padStart(7, "0")}`,
          url: "https://www.youtube.com/watch?v=x",
          accountId: owner.id,
          viewCount: n,
          postedAt: new Date(Date.now() - (i + 2) * DAY),
        },
      });
    }
    return owner;
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };

  it("outlierScore = views / the median of the account's 20 most recently posted other videos (at least 3), 4 decimals", async () => {
    const ws = await newWorkspace();
    // 25 other videos; the 5 oldest have huge counts that must not count.
    const others = Array.from({ length: 25 }, (_, i) => (i < 20 ? 1000 + 137 * ((i * 7) % 20) : 5_000_000));
    const owner = await ownerWithVideos("outlier.acc", others);
    const v = await trackedVideo(ws.workspaceId, { username: "outlier.acc", accountId: owner.id });
    await scrapeVideo(v.id, jobRun(0, 3), answering({ viewCount: 7777, username: "outlier.acc", postedAt: new Date(Date.now() - DAY) }));
    const stored = await prisma.video.findUniqueOrThrow({ where: { id: v.id } });
    const expected = Math.round((7777 / median(others.slice(0, 20))) * 10_000) / 10_000;
    expect(stored.outlierScore).toBe(expected);
    expect((await client(api.url, ws.key).get(`/api/v1/videos/${v.id}`)).body.data.outlierScore).toBe(expected);

    const few = await ownerWithVideos("few.videos", [100, 200]);
    const w = await trackedVideo(ws.workspaceId, { username: "few.videos", accountId: few.id });
    await scrapeVideo(w.id, jobRun(0, 3), answering({ viewCount: 900, username: "few.videos" }));
    expect((await prisma.video.findUniqueOrThrow({ where: { id: w.id } })).outlierScore).toBeNull();
  });

  it("views24h = views now minus the views 24 h ago, read from the points around that instant (interpolated); all views for a video posted within 24 h; null without history", async () => {
    const ws = await newWorkspace();
    const now = Date.now();
    const a = await trackedVideo(ws.workspaceId, { postedAt: new Date(now - 10 * DAY) });
    await point(a.id, new Date(now - 30 * HOUR), 1000);
    await point(a.id, new Date(now - 20 * HOUR), 2000);
    await scrapeVideo(a.id, jobRun(0, 3), answering({ viewCount: 5000, postedAt: new Date(now - 10 * DAY) }), () => new Date(now));
    // 24 h ago lies 6/10 of the way from the point at -30 h to the one at -20 h: 1000 + 0.6 × 1000.
    expect(await views24h(a.id)).toBe(5000 - 1600);

    // Only a daily point 3 days ago, nothing since: interpolated towards this scrape.
    const b = await trackedVideo(ws.workspaceId, { postedAt: new Date(now - 10 * DAY) });
    await daily(b.id, new Date(now - 3 * DAY), new Date(now - 3 * DAY), 500);
    await scrapeVideo(b.id, jobRun(0, 3), answering({ viewCount: 5000, postedAt: new Date(now - 10 * DAY) }), () => new Date(now));
    expect(await views24h(b.id)).toBe(5000 - Math.round(500 + 4500 * (2 / 3)));

    const young = await trackedVideo(ws.workspaceId);
    await scrapeVideo(young.id, jobRun(0, 3), answering({ viewCount: 321, postedAt: new Date(now - 10 * HOUR) }), () => new Date(now));
    expect(await views24h(young.id)).toBe(321);

    const old = await trackedVideo(ws.workspaceId);
    await scrapeVideo(old.id, jobRun(0, 3), answering({ viewCount: 321, postedAt: new Date(now - 100 * DAY) }), () => new Date(now));
    expect(await views24h(old.id)).toBeNull();
    // A second scrape an hour later: the first one is the only point, before 24 h ago there is none: still null…
    await scrapeVideo(old.id, jobRun(0, 3), answering({ viewCount: 400, postedAt: new Date(now - 100 * DAY) }), () => new Date(now + HOUR));
    expect(await views24h(old.id)).toBeNull();
    // …and a day later it reaches back: 24 h before +26 h is +2 h, between the point at +1 h (400) and this scrape (1400): 400 + 1000 × 1/25.
    await scrapeVideo(
      old.id,
      jobRun(0, 3),
      answering({ viewCount: 1400, postedAt: new Date(now - 100 * DAY) }),
      () => new Date(now + 26 * HOUR),
    );
    expect(await views24h(old.id)).toBe(1400 - 440);
  });
});

describe("pruning (job prune-history)", () => {
  // Dropping whole monthly partitions: test/operations/history-partitions.test.ts. Points of a month
  // without a partition (here: before the migration's first month) are in the DEFAULT partition.
  it("deletes points before the full-resolution window from the DEFAULT partition; the day's last point stays, written first when its day has no row", async () => {
    const ws = await newWorkspace();
    const v = await trackedVideo(ws.workspaceId);
    const old = dayStart(-45);
    await point(v.id, new Date(old.getTime() + 8 * HOUR), 10);
    await point(v.id, new Date(old.getTime() + 20 * HOUR), 20);
    const kept = new Date(dayStart(-29).getTime() + HOUR);
    await point(v.id, kept, 30);
    const r1 = await pruneHistory(new Date(), 30);
    expect(r1.strays).toBeGreaterThanOrEqual(2);
    expect((await prisma.videoMetricPoint.findMany({ where: { videoId: v.id } })).map((p) => p.capturedAt)).toEqual([kept]);
    const day = await prisma.videoSnapshot.findMany({ where: { videoId: v.id } });
    expect(day).toHaveLength(1);
    expect(day[0]).toMatchObject({ capturedAt: new Date(old.getTime() + 20 * HOUR), viewCount: 20n });
    expect((await pruneHistory(new Date(), 30)).strays).toBe(0);
  });
});
