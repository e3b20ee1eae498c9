/**
 * GET /videos' optional platform, q, sort and order (and the same on GraphQL `videos`, with keyset
 * cursors per order): filters, every sort in both orders with nulls last, totals of filtered lists,
 * 400 for unknown values, and without them the list answers exactly as before.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, gql, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { prisma } from "../../src/infra/db.js";
import type { RunningApi } from "../../src/main/server.js";

let api: RunningApi;
let ws: { workspaceId: string; key: string };
let other: { workspaceId: string; key: string };

interface Seed {
  platform: "platformA" | "platformB" | "platformC";
  description: string;
  username: string;
  viewCount: number | null;
  engagementRate: number;
  views24h: number | null;
  outlierScore: number | null;
  postedAt: Date | null;
}

const SEEDS: Seed[] = [
  {
    platform: "platformA",
    description: "Crispy gnocchi in ONE pan #pasta",
    username: "chef.marta",
    viewCount: 5000,
    engagementRate: 4.5,
    views24h: 300,
    outlierScore: 1.2,
    postedAt: new Date("2026-10-01T10:00:00Z"),
  },
  {
    platform: "platformA",
    description: "Leg day, no excuses",
    username: "gym.bro",
    viewCount: 120,
    engagementRate: 9.1,
    views24h: null,
    outlierScore: null,
    postedAt: new Date("2026-11-01T10:00:00Z"),
  },
  {
    platform: "platformB",
    description: "Pasta shapes ranked",
    username: "sweetbytes",
    viewCount: 90_000,
    engagementRate: 2.2,
    views24h: 15_000,
    outlierScore: 6.5,
    postedAt: new Date("2026-09-15T10:00:00Z"),
  },
  {
    platform: "platformB",
    description: "Unboxing a 100% cotton shirt",
    username: "style_desk",
    viewCount: null,
    engagementRate: 0,
    views24h: null,
    outlierScore: null,
    postedAt: null,
  },
  {
    platform: "platformC",
    description: "Lisbon on a budget: pasta and trams",
    username: "natgeo",
    viewCount: 700,
    engagementRate: 4.5,
    views24h: 20,
    outlierScore: 0.4,
    postedAt: new Date("2026-11-10T10:00:00Z"),
  },
  {
    platform: "platformC",
    description: "Sunset timelapse",
    username: "pasta.lover",
    viewCount: 700,
    engagementRate: 1.1,
    views24h: -3,
    outlierScore: 3.0,
    postedAt: new Date("2026-11-12T10:00:00Z"),
  },
];

const ids: string[] = [];

beforeAll(async () => {
  api = await startTestApi();
  ws = await newWorkspace();
  other = await newWorkspace();
  for (const [i, s] of SEEDS.entries()) {
    const platformVideoId =
      s.platform === "platformA"
        ? `73444444444444444${String(i).padStart(2, "0")}`
        : `lf${s.platform.slice(-1)}${String(i).padStart(8, "0")}`;
    const v = await prisma.video.create({
      data: {
        ...s,
        platformVideoId,
        url: `https://example.invalid/${i}`,
        scrapeStatus: s.viewCount === null ? "queued" : "ready",
        lastScrapedAt: s.viewCount === null ? null : new Date(),
      },
    });
    // Tracked one second apart: the default order is the reverse of SEEDS.
    await prisma.trackedVideo.create({
      data: { workspaceId: ws.workspaceId, videoId: v.id, createdAt: new Date(Date.UTC(2026, 10, 20, 0, 0, i)) },
    });
    ids.push(v.id);
  }
  // Another workspace's video matching every filter: never listed.
  const foreign = await prisma.video.create({
    data: {
      platform: "platformA",
      platformVideoId: "7344444444444444499",
      url: "https://example.invalid/x",
      description: "pasta pasta",
      username: "chef.marta",
      viewCount: 1e9,
    },
  });
  await prisma.trackedVideo.create({ data: { workspaceId: other.workspaceId, videoId: foreign.id } });
});
afterAll(() => stopAll(api));

const list = async (query = "") => (await client(api.url, ws.key).get(`/api/v1/videos${query}`)).body;
const order = (body: any) => body.data.map((v: any) => ids.indexOf(v.id));

describe("GET /videos without the new parameters", () => {
  it("answers as before: newest tracked first, the spec's pagination, the records with their new fields only", async () => {
    const body = await list();
    expect(order(body)).toEqual([5, 4, 3, 2, 1, 0]);
    expect(body.pagination).toEqual({ total: 6, limit: 20, offset: 0, has_more: false });
    const keys = [
      "id",
      "platformVideoId",
      "url",
      "type",
      "description",
      "hashtags",
      "viewCount",
      "likeCount",
      "commentCount",
      "shareCount",
      "bookmarkCount",
      "engagementRate",
      "postedAt",
      "thumbnailUrl",
      "username",
      "displayName",
      "canonicalAccountId",
      "musicName",
      "musicAuthor",
      "musicCoverUrl",
      "durationSeconds",
      "scrapeStatus",
      "scrapeError",
      "lastScrapedAt",
      "dataSource",
      "nextRefreshAt",
      "views24h",
      "outlierScore",
      "trackedVideoId",
      "trackedAt",
    ];
    for (const v of body.data) expect(Object.keys(v)).toEqual(keys);
    expect(await list("?sort=tracked_at&order=desc")).toEqual(body);
    expect(order(await list("?limit=2&offset=2"))).toEqual([3, 2]);
  });
});

describe("GET /videos filters and sorts", () => {
  it("platform, and q: every word case-insensitively in the description or the username, LIKE's wildcards taken literally", async () => {
    expect(order(await list("?platform=platformB"))).toEqual([3, 2]);
    expect((await list("?platform=platformB")).pagination.total).toBe(2);
    // "pasta": in four descriptions, and in one username only.
    expect(order(await list("?q=PASTA"))).toEqual([5, 4, 2, 0]);
    expect(order(await list("?q=pasta%20chef"))).toEqual([0]);
    expect(order(await list("?q=%20%20pasta%20%20lisbon%20"))).toEqual([4]);
    expect(order(await list("?q=100%25"))).toEqual([3]);
    expect(order(await list("?q=style_desk"))).toEqual([3]);
    expect(order(await list("?q=o_e"))).toEqual([]); // "_" is no wildcard ("ONE", "lover" do not match)
    expect(order(await list("?q=pasta&platform=platformC"))).toEqual([5, 4]);
    const page = await list("?q=pasta&limit=1&offset=1");
    expect(order(page)).toEqual([4]);
    expect(page.pagination).toEqual({ total: 4, limit: 1, offset: 1, has_more: true });
    expect(order(await list("?q="))).toEqual([5, 4, 3, 2, 1, 0]);
    expect((await list("?q=nothing-matches")).data).toEqual([]);
  });

  it("every sort in both orders, nulls last either way, ties by video id", async () => {
    const byId = (a: number, b: number) => (ids[a]! < ids[b]! ? -1 : 1);
    const expected = (key: keyof Seed, desc: boolean) => {
      const idx = SEEDS.map((_, i) => i);
      const val = (i: number) => {
        const v = SEEDS[i]![key];
        return v instanceof Date ? v.getTime() : (v as number | null);
      };
      return idx.sort((a, b) => {
        const x = val(a);
        const y = val(b);
        if (x === null || y === null) return x === y ? byId(a, b) : x === null ? 1 : -1;
        return x === y ? byId(a, b) : desc ? y - x : x - y;
      });
    };
    const cases: Array<[string, keyof Seed]> = [
      ["views", "viewCount"],
      ["engagement", "engagementRate"],
      ["views_24h", "views24h"],
      ["outlier", "outlierScore"],
      ["posted_at", "postedAt"],
    ];
    for (const [sort, key] of cases) {
      expect(order(await list(`?sort=${sort}`)), sort).toEqual(expected(key, true));
      expect(order(await list(`?sort=${sort}&order=desc`)), sort).toEqual(expected(key, true));
      expect(order(await list(`?sort=${sort}&order=asc`)), `${sort} asc`).toEqual(expected(key, false));
    }
    expect(order(await list("?order=asc"))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(order(await list("?sort=views_24h&limit=2&offset=1"))).toEqual(expected("views24h", true).slice(1, 3));
  });

  it("unknown sort, order or platform values are 400 VALIDATION_ERROR", async () => {
    const c = client(api.url, ws.key);
    for (const q of ["sort=likes", "sort=VIEWS", "order=up", "platform=tiktok", `q=${"x".repeat(201)}`]) {
      const r = await c.get(`/api/v1/videos?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
    }
  });
});

describe("GraphQL videos: the same filters and sorts, keyset cursors per order", () => {
  it("pages through every order without gaps or repeats; a cursor of another order is a VALIDATION_ERROR", async () => {
    const q = `query($sort: VideoSort, $order: SortOrder, $after: String, $platform: Platform, $q: String) {
      videos(first: 2, after: $after, sort: $sort, order: $order, platform: $platform, q: $q) {
        totalCount pageInfo { hasNextPage endCursor } edges { node { uuid views24h outlierScore nextRefreshAt } } } }`;
    for (const sort of ["TRACKED_AT", "POSTED_AT", "VIEWS", "ENGAGEMENT", "VIEWS_24H", "OUTLIER"]) {
      for (const dir of ["DESC", "ASC"]) {
        const expected = (await list(`?sort=${sort.toLowerCase()}&order=${dir.toLowerCase()}`)).data.map((v: any) => v.id);
        const seen: string[] = [];
        let after: string | undefined;
        for (;;) {
          const r = await gql(api.url, ws.key, q, { sort, order: dir, after });
          expect(r.body.errors, `${sort} ${dir}`).toBeUndefined();
          const page = r.body.data.videos;
          expect(page.totalCount).toBe(6);
          seen.push(...page.edges.map((e: any) => e.node.uuid));
          if (!page.pageInfo.hasNextPage) break;
          after = page.pageInfo.endCursor;
        }
        expect(seen, `${sort} ${dir}`).toEqual(expected);
      }
    }
    const filtered = await gql(api.url, ws.key, q, { platform: "PLATFORM_C", q: "pasta", sort: "OUTLIER" });
    expect(filtered.body.data.videos.totalCount).toBe(2);
    expect(filtered.body.data.videos.edges.map((e: any) => [e.node.uuid, e.node.views24h, e.node.outlierScore])).toEqual([
      [ids[5], -3, 3],
      [ids[4], 20, 0.4],
    ]);
    const tracked = await gql(api.url, ws.key, q, { sort: "TRACKED_AT" });
    const wrong = await gql(api.url, ws.key, q, { sort: "VIEWS", after: tracked.body.data.videos.pageInfo.endCursor });
    expect(wrong.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
    const badQ = await gql(api.url, ws.key, q, { q: "x".repeat(201) });
    expect(badQ.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
  });
});
