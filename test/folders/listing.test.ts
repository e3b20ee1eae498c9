/** Folder video listing (every sort both ways, dates, pages) and folder aggregates, on real PostgreSQL. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import type { RunningApi } from "../../src/main/server.js";
import { prisma } from "../../src/infra/db.js";
import { createAccount, createTrackedVideo, createVariedVideos, createVideo, trackAccount } from "./fixtures.js";

let api: RunningApi;
const P = "/api/v1";
let c: ReturnType<typeof client>;
let folderId: string;
let emptyFolderId: string;
/** The folder's videos as stored, read independently of the service. */
let expected: Awaited<ReturnType<typeof prisma.video.findMany>>;
let accountIds: string[];

beforeAll(async () => {
  api = await startTestApi();
  const ws = await newWorkspace("pro");
  c = client(api.url, ws.key);
  folderId = (await c.post(`${P}/folders`, { name: "listing" })).body.data.id;
  emptyFolderId = (await c.post(`${P}/folders`, { name: "empty" })).body.data.id;

  const direct = await createVariedVideos(ws.workspaceId, 30, 7);
  const outside = await createVariedVideos(ws.workspaceId, 6, 8); // tracked, not in the folder
  const accountA = await createAccount({ followerCount: 1200 });
  const accountB = await createAccount({ platform: "platformC", followerCount: null });
  await trackAccount(ws.workspaceId, accountA.id);
  await trackAccount(ws.workspaceId, accountB.id);
  const viaA = await createVariedVideos(ws.workspaceId, 9, 9, { accountId: accountA.id, username: accountA.username });
  const viaB = await createVariedVideos(ws.workspaceId, 5, 10, { accountId: accountB.id, username: accountB.username });
  // Another workspace tracks a video of account A: not this folder's.
  const other = await newWorkspace();
  const foreign = await createVideo({ accountId: accountA.id, viewCount: 9_999_999 });
  await prisma.trackedVideo.create({ data: { workspaceId: other.workspaceId, videoId: foreign.id } });

  // Direct videos (two of account A's videos also directly: counted once) and both accounts.
  const directIds = [...direct.map((v) => v.id), viaA[0]!.id, viaA[1]!.id];
  for (let i = 0; i < directIds.length; i += 50) {
    const r = await c.post(`${P}/folders/${folderId}/videos`, { video_ids: directIds.slice(i, i + 50) });
    expect(r.body.data.every((d: any) => d.success)).toBe(true);
  }
  accountIds = [accountA.id, accountB.id];
  await c.post(`${P}/folders/${folderId}/accounts`, { account_ids: accountIds });
  const ids = [...direct, ...viaA, ...viaB].map((v) => v.id);
  expected = await prisma.video.findMany({ where: { id: { in: ids } } });
  expect(expected).toHaveLength(44);
  expect(outside).toHaveLength(6);
});
afterAll(() => stopAll(api));

type V = (typeof expected)[number];
const VALUE: Record<string, (v: V) => number | null> = {
  views: (v) => (v.viewCount === null ? null : Number(v.viewCount)),
  likes: (v) => (v.likeCount === null ? null : Number(v.likeCount)),
  comments: (v) => (v.commentCount === null ? null : Number(v.commentCount)),
  shares: (v) => (v.shareCount === null ? null : Number(v.shareCount)),
  engagement_rate: (v) => v.engagementRate,
  uploaded: (v) => (v.postedAt ? v.postedAt.getTime() : null),
};

/** The documented order: value in the asked direction, missing values last, then id ascending. */
function expectedOrder(videos: V[], sort: string, order: "asc" | "desc"): string[] {
  const value = VALUE[sort]!;
  return [...videos]
    .sort((a, b) => {
      const x = value(a);
      const y = value(b);
      if (x === null || y === null) {
        if (x !== y) return x === null ? 1 : -1;
      } else if (x !== y) return order === "asc" ? x - y : y - x;
      return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    })
    .map((v) => v.id);
}

async function allPages(query: string, limit: number) {
  const ids: string[] = [];
  let offset = 0;
  for (;;) {
    const r = await c.get(`${P}/folders/${folderId}/videos?limit=${limit}&offset=${offset}${query}`);
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["currentPage", "data", "total", "totalPages"]);
    expect(r.body.currentPage).toBe(Math.floor(offset / limit) + 1);
    expect(r.body.totalPages).toBe(Math.ceil(r.body.total / limit));
    ids.push(...r.body.data.map((v: any) => v.id));
    offset += limit;
    if (offset >= r.body.total) return { ids, total: r.body.total as number };
  }
}

describe("GET /folders/{id}/videos", () => {
  it("defaults: uploaded, newest first, limit 20, item shape", async () => {
    const r = await c.get(`${P}/folders/${folderId}/videos`);
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(44);
    expect(r.body.currentPage).toBe(1);
    expect(r.body.totalPages).toBe(3);
    expect(r.body.data).toHaveLength(20);
    expect(r.body.data.map((v: any) => v.id)).toEqual(expectedOrder(expected, "uploaded", "desc").slice(0, 20));
    const first = expected.find((v) => v.id === r.body.data[0].id)!;
    expect(r.body.data[0]).toEqual({
      id: first.id,
      description: first.description,
      viewCount: first.viewCount === null ? null : Number(first.viewCount),
      likeCount: first.likeCount === null ? null : Number(first.likeCount),
      engagementRate: first.engagementRate,
      postedAt: first.postedAt!.toISOString(),
      username: first.username,
      type: first.platform,
    });
  });

  for (const sort of ["views", "likes", "comments", "shares", "engagement_rate", "uploaded"]) {
    for (const order of ["asc", "desc"] as const) {
      it(`sort=${sort} sort_order=${order}: the whole order, across pages of 7`, async () => {
        const want = expectedOrder(expected, sort, order);
        // The data has ties and nulls for every key, so the tie-break and null placement are exercised.
        const values = expected.map(VALUE[sort]!);
        expect(values.some((x) => x === null) || sort === "engagement_rate").toBe(true);
        expect(new Set(values.filter((x) => x !== null)).size).toBeLessThan(values.filter((x) => x !== null).length);
        const { ids, total } = await allPages(`&sort=${sort}&sort_order=${order}`, 7);
        expect(total).toBe(44);
        expect(ids).toEqual(want);
      });
    }
  }

  it("date filters include both days (UTC) and leave out videos without a posting date", async () => {
    const inRange = (v: V, from: string, to: string) =>
      v.postedAt !== null &&
      v.postedAt >= new Date(`${from}T00:00:00Z`) &&
      v.postedAt < new Date(new Date(`${to}T00:00:00Z`).getTime() + 86_400_000);
    for (const [from, to] of [
      ["2026-03-01", "2026-06-30"],
      ["2026-05-15", "2026-05-15"],
      ["2026-01-01", "2026-12-31"],
    ] as const) {
      const want = expectedOrder(
        expected.filter((v) => inRange(v, from, to)),
        "views",
        "desc",
      );
      const { ids, total } = await allPages(`&sort=views&start_date=${from}&end_date=${to}`, 10);
      expect(total).toBe(want.length);
      expect(ids).toEqual(want);
    }
    const onlyStart = await c.get(`${P}/folders/${folderId}/videos?start_date=2026-07-01&limit=100`);
    expect(onlyStart.body.total).toBe(expected.filter((v) => v.postedAt && v.postedAt >= new Date("2026-07-01T00:00:00Z")).length);
    const onlyEnd = await c.get(`${P}/folders/${folderId}/videos?end_date=2026-02-28&limit=100`);
    expect(onlyEnd.body.total).toBe(expected.filter((v) => v.postedAt && v.postedAt < new Date("2026-03-01T00:00:00Z")).length);
  });

  it("past the last page: empty data with the right total; an empty folder has 0 pages", async () => {
    const r = await c.get(`${P}/folders/${folderId}/videos?limit=10&offset=100`);
    expect(r.body).toEqual({ data: [], total: 44, currentPage: 11, totalPages: 5 });
    const e = await c.get(`${P}/folders/${emptyFolderId}/videos`);
    expect(e.body).toEqual({ data: [], total: 0, currentPage: 1, totalPages: 0 });
  });

  it("bad sort, sort_order, dates, limit, offset → 400 VALIDATION_ERROR", async () => {
    for (const q of [
      "sort=popularity",
      "sort=VIEWS",
      "sort_order=up",
      "start_date=2026-13-01",
      "end_date=2026-02-30",
      "start_date=yesterday",
      "start_date=2026-06-02&end_date=2026-06-01",
      "limit=0",
      "limit=101",
      "limit=abc",
      "offset=-1",
    ]) {
      const r = await c.get(`${P}/folders/${folderId}/videos?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.code, q).toBe("VALIDATION_ERROR");
    }
  });
});

describe("GET /folders/{id}/analytics", () => {
  it("totals equal sums computed independently; average over scraped videos; top 5 by views", async () => {
    const r = await c.get(`${P}/folders/${folderId}/analytics`);
    expect(r.status).toBe(200);
    const sum = (f: (v: V) => bigint | null) => expected.reduce((s, v) => s + Number(f(v) ?? 0), 0);
    const scraped = expected.filter((v) => v.viewCount !== null);
    const avg = scraped.reduce((s, v) => s + v.engagementRate, 0) / scraped.length;
    const top = [...scraped]
      .sort((a, b) => Number(b.viewCount! - a.viewCount!) || (a.id < b.id ? -1 : 1))
      .slice(0, 5)
      .map((v) => ({ id: v.id, description: v.description, viewCount: Number(v.viewCount), username: v.username }));
    const { avgEngagementRate, ...rest } = r.body.data;
    expect(rest).toEqual({
      totalAccounts: 2,
      totalVideos: 44,
      totalViews: sum((v) => v.viewCount),
      totalLikes: sum((v) => v.likeCount),
      totalComments: sum((v) => v.commentCount),
      totalShares: sum((v) => v.shareCount),
      topVideos: top,
    });
    expect(avgEngagementRate).toBeCloseTo(avg, 9);
    expect(rest.totalViews).toBeGreaterThan(1_000_000);

    const empty = await c.get(`${P}/folders/${emptyFolderId}/analytics`);
    expect(empty.body.data).toEqual({
      totalAccounts: 0,
      totalVideos: 0,
      totalViews: 0,
      totalLikes: 0,
      totalComments: 0,
      totalShares: 0,
      avgEngagementRate: 0,
      topVideos: [],
    });
  });

  it("follows membership changes: removing an account takes its videos out of the totals", async () => {
    const before = (await c.get(`${P}/folders/${folderId}/analytics`)).body.data;
    const res = await c.delete(`${P}/folders/${folderId}/accounts`, { account_ids: [accountIds[1]] });
    expect(res.body.data[0].success).toBe(true);
    const after = (await c.get(`${P}/folders/${folderId}/analytics`)).body.data;
    expect(after.totalAccounts).toBe(1);
    expect(after.totalVideos).toBe(before.totalVideos - 5);
    await c.post(`${P}/folders/${folderId}/accounts`, { account_ids: [accountIds[1]] });
    expect((await c.get(`${P}/folders/${folderId}/analytics`)).body.data).toEqual(before);
  });
});
