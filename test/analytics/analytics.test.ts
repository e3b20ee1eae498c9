/** GET /analytics/videos/top and GET /analytics/growth on real PostgreSQL, against results computed here. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import type { RunningApi } from "../../src/main/server.js";
import { prisma } from "../../src/infra/db.js";
import { growth } from "../../src/domain/analytics/service.js";
import { createAccount, createTrackedVideo, createVariedVideos, snapshot, trackAccount } from "../folders/fixtures.js";

let api: RunningApi;
const P = "/api/v1";
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => stopAll(api));

describe("GET /analytics/videos/top", () => {
  it("ranks scraped tracked videos by engagement rate, then views, then id; limit default 10", async () => {
    const ws = await newWorkspace("pro");
    const c = client(api.url, ws.key);
    const account = await createAccount({ displayName: "Account Display" });
    await createVariedVideos(ws.workspaceId, 36, 21, { accountId: account.id, displayName: "" });
    // Equal engagement rates (10 %) with different views: views decide. Equal both: id decides.
    await createTrackedVideo(ws.workspaceId, { viewCount: 1000, likeCount: 100, commentCount: 0, shareCount: 0, displayName: "Own Name" });
    await createTrackedVideo(ws.workspaceId, { viewCount: 2000, likeCount: 200, commentCount: 0, shareCount: 0 });
    await createTrackedVideo(ws.workspaceId, { viewCount: 2000, likeCount: 150, commentCount: 50, shareCount: 0 });
    // Another workspace's video with a huge rate is not in this ranking.
    const other = await newWorkspace();
    await createTrackedVideo(other.workspaceId, { viewCount: 10, likeCount: 10, commentCount: 10, shareCount: 10 });

    const mine = await prisma.video.findMany({ where: { tracked: { some: { workspaceId: ws.workspaceId } } }, include: { account: true } });
    const ranked = mine
      .filter((v) => v.viewCount !== null)
      .sort((a, b) => b.engagementRate - a.engagementRate || Number(b.viewCount! - a.viewCount!) || (a.id < b.id ? -1 : 1));
    expect(ranked.length).toBe(35); // 4 of the 39 were never scraped
    expect(ranked.some((v) => v.viewCount === 0n)).toBe(true);

    const all = await c.get(`${P}/analytics/videos/top?limit=100`);
    expect(all.status).toBe(200);
    expect(all.body.data.map((v: any) => v.id)).toEqual(ranked.map((v) => v.id));
    const def = await c.get(`${P}/analytics/videos/top`);
    expect(def.body.data.map((v: any) => v.id)).toEqual(ranked.slice(0, 10).map((v) => v.id));
    const three = await c.get(`${P}/analytics/videos/top?limit=3`);
    expect(three.body.data).toHaveLength(3);

    const n = (x: bigint | null) => (x === null ? null : Number(x));
    const v = ranked[0]!;
    expect(all.body.data[0]).toEqual({
      id: v.id,
      platformVideoId: v.platformVideoId,
      description: v.description,
      viewCount: Number(v.viewCount),
      likeCount: n(v.likeCount),
      commentCount: n(v.commentCount),
      shareCount: n(v.shareCount),
      engagementRate: v.engagementRate,
      postedAt: v.postedAt ? v.postedAt.toISOString() : null,
      url: v.url,
      type: v.platform,
      thumbnailUrl: v.thumbnailUrl,
      username: v.username,
      displayName: v.displayName || v.account?.displayName || "",
    });
    const byId = new Map(all.body.data.map((x: any) => [x.id, x]));
    for (const video of ranked) expect((byId.get(video.id) as any).displayName).toBe(video.displayName || video.account?.displayName || "");

    for (const q of ["limit=0", "limit=101", "limit=ten"]) {
      const r = await c.get(`${P}/analytics/videos/top?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
    }
    const empty = await client(api.url, (await newWorkspace()).key).get(`${P}/analytics/videos/top`);
    expect(empty.body).toEqual({ data: [] });
  });
});

const DAY = 86_400_000;
const utcDay = (offsetDays: number, now = new Date()) => {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + offsetDays * DAY);
  return d.toISOString().slice(0, 10);
};

interface Snap {
  account: string;
  day: string;
  followers: number | null;
  views: number | null;
  videos: number | null;
}

/** Brute force: for each day, each tracked account's latest snapshot on or before it (null → 0). */
function expectedGrowth(snaps: Snap[], tracked: string[], from: string, to: string) {
  const points = [];
  for (let t = Date.parse(`${to}T00:00:00Z`); t >= Date.parse(`${from}T00:00:00Z`); t -= DAY) {
    const day = new Date(t).toISOString().slice(0, 10);
    let f = 0;
    let v = 0;
    let n = 0;
    for (const acc of tracked) {
      const latest = snaps.filter((s) => s.account === acc && s.day <= day).sort((a, b) => (a.day < b.day ? 1 : -1))[0];
      if (!latest) continue;
      f += latest.followers ?? 0;
      v += latest.views ?? 0;
      n += latest.videos ?? 0;
    }
    points.push({ date: day, totalFollowers: f, totalViews: v, totalVideos: n });
  }
  return points;
}

describe("GET /analytics/growth", () => {
  it("sums tracked accounts by day, carries the last known values over gaps, newest first, for every period", async () => {
    const ws = await newWorkspace("pro");
    const c = client(api.url, ws.key);
    const [a, b, e, untracked, foreign] = await Promise.all([
      createAccount(),
      createAccount(),
      createAccount(),
      createAccount(),
      createAccount(),
    ]);
    await trackAccount(ws.workspaceId, a.id);
    await trackAccount(ws.workspaceId, b.id);
    await trackAccount(ws.workspaceId, e.id); // tracked, never snapshotted: counts 0
    const other = await newWorkspace();
    await trackAccount(other.workspaceId, foreign.id);

    const snaps: Snap[] = [
      // A: gaps of several days, including across the 7d window start.
      { account: a.id, day: utcDay(-100), followers: 10, views: 100, videos: 1 },
      { account: a.id, day: utcDay(-10), followers: 100, views: 1000, videos: 5 },
      { account: a.id, day: utcDay(-7), followers: 150, views: 1800, videos: 6 },
      { account: a.id, day: utcDay(-2), followers: 300, views: 5000, videos: 9 },
      // B: a platform without view counts (null), then a drop in followers.
      { account: b.id, day: utcDay(-40), followers: 1000, views: null, videos: 20 },
      { account: b.id, day: utcDay(-5), followers: 1100, views: null, videos: 21 },
      { account: b.id, day: utcDay(-1), followers: 1050, views: null, videos: 21 },
      { account: b.id, day: utcDay(0), followers: 1060, views: null, videos: 22 },
      // In the future (clock skew): ignored.
      { account: b.id, day: utcDay(1), followers: 999_999, views: 999_999, videos: 999 },
      // Accounts this workspace does not track.
      { account: untracked.id, day: utcDay(-3), followers: 77_777, views: 77_777, videos: 77 },
      { account: foreign.id, day: utcDay(-3), followers: 88_888, views: 88_888, videos: 88 },
    ];
    for (const s of snaps) await snapshot(s.account, s.day, { followers: s.followers, views: s.views, videos: s.videos });
    const tracked = [a.id, b.id, e.id];

    for (const [period, days] of [
      ["7d", 7],
      ["30d", 30],
      ["90d", 90],
    ] as const) {
      const r = await c.get(`${P}/analytics/growth?period=${period}`);
      expect(r.status).toBe(200);
      expect(r.body.data).toHaveLength(days);
      expect(r.body.data).toEqual(expectedGrowth(snaps, tracked, utcDay(-(days - 1)), utcDay(0)));
    }
    const def = await c.get(`${P}/analytics/growth`);
    expect(def.body.data).toHaveLength(30);
    const all = await c.get(`${P}/analytics/growth?period=all`);
    expect(all.body.data).toHaveLength(101);
    expect(all.body.data).toEqual(expectedGrowth(snaps, tracked, utcDay(-100), utcDay(0)));
    expect(all.body.data[0]).toEqual({ date: utcDay(0), totalFollowers: 300 + 1060, totalViews: 5000, totalVideos: 9 + 22 });
    // A gap day: day -3 carries A's day -7 values and B's day -5 values.
    expect(all.body.data[3]).toEqual({ date: utcDay(-3), totalFollowers: 150 + 1100, totalViews: 1800, totalVideos: 6 + 21 });

    for (const q of ["period=1y", "period=30D", "period=", "period=all&period=7d"]) {
      const r = await c.get(`${P}/analytics/growth?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
    }
  });

  it("no tracked accounts: zero points for fixed periods, none for all; the service takes `now` for a fixed end day", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    const seven = await c.get(`${P}/analytics/growth?period=7d`);
    expect(seven.body.data).toEqual(expectedGrowth([], [], utcDay(-6), utcDay(0)));
    expect((await c.get(`${P}/analytics/growth?period=all`)).body).toEqual({ data: [] });

    const acc = await createAccount();
    await trackAccount(ws.workspaceId, acc.id);
    await snapshot(acc.id, "2026-01-10", { followers: 5, views: 50, videos: 1 });
    await snapshot(acc.id, "2026-01-13", { followers: 8, views: 80, videos: 2 });
    const points = await growth(ws.workspaceId, "7d", new Date("2026-01-14T23:59:00Z"));
    expect(points.map((p) => [p.date, p.totalFollowers])).toEqual([
      ["2026-01-14", 8],
      ["2026-01-13", 8],
      ["2026-01-12", 5],
      ["2026-01-11", 5],
      ["2026-01-10", 5],
      ["2026-01-09", 0],
      ["2026-01-08", 0],
    ]);
  });
});
