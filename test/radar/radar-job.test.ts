/**
 * The radar job end to end: REST creation → BullMQ worker (this process) → the real catalog
 * provider over a hand-made catalog in PostgreSQL → filters, ranking, stored results → REST read.
 * The query expander is a fixed list here (so the queries are known); providers that fail are
 * real SearchProvider objects that throw, injected into the job definition.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { prisma } from "../../src/infra/db.js";
import { getBalance } from "../../src/domain/credits/service.js";
import { startWorkers, type RunningWorkers } from "../../src/jobs/worker.js";
import { jobRun, radarJobs } from "../helpers/jobs.js";
import { radarDeps as configuredRadarDeps } from "../../src/main/providers.js";
import { completeSearch, failSearch, sweepStaleSearches } from "../../src/domain/radar/lifecycle.js";
import { RetryableSearchError, type RadarDeps } from "../../src/domain/radar/run.js";
import { CatalogSearchProvider } from "../../src/domain/radar/catalog.js";
import { ProviderError } from "../../src/domain/shared/provider-error.js";
import { queue } from "../../src/infra/queues.js";
import type { QueryExpander, SearchCandidate, SearchProvider, SearchRequest } from "../../src/domain/radar/ports.js";
import type { Platform } from "../../src/domain/shared/platform.js";
import type { RunningApi } from "../../src/main/server.js";
import { waitUntil } from "../helpers/wait.js";

const DAY = 24 * 3600 * 1000;

/** The user's words plus two rewordings: overlapping queries, so de-duplication matters. */
class FixedExpander implements QueryExpander {
  readonly name = "offline" as const;
  calls = 0;
  async expand(description: string, count: number): Promise<string[]> {
    this.calls++;
    return [description, `${description} tips`, `best ${description}`].slice(0, count);
  }
}

class FailingProvider implements SearchProvider {
  calls = 0;
  readonly name: "catalog" | "ytdlp";
  private readonly retryable: boolean;
  constructor(name: "catalog" | "ytdlp", retryable: boolean) {
    this.name = name;
    this.retryable = retryable;
  }
  supports(): boolean {
    return true;
  }
  async search(): Promise<SearchCandidate[]> {
    this.calls++;
    throw new ProviderError(this.name, "the source answered HTTP 503", this.retryable);
  }
}

/** Delegates to the catalog once `open()` is called: lets a test watch a search while it runs. */
class GatedProvider implements SearchProvider {
  readonly name = "catalog" as const;
  private release!: () => void;
  private gate = new Promise<void>((r) => (this.release = r));
  private readonly inner: SearchProvider;
  constructor(inner: SearchProvider) {
    this.inner = inner;
  }
  supports(p: Platform) {
    return this.inner.supports(p);
  }
  open() {
    this.release();
  }
  async search(req: SearchRequest) {
    await this.gate;
    return this.inner.search(req);
  }
}

const catalog = new CatalogSearchProvider();
const expander = new FixedExpander();
const deps: RadarDeps = { providers: [catalog], expander };

let api: RunningApi;
let workers: RunningWorkers;
const v: Record<string, string> = {};

async function video(
  key: string,
  fields: { platform?: Platform; description: string; views: number | null; postedAt: Date | null; likes?: number },
) {
  const id = `rt-${key}`;
  const row = await prisma.video.create({
    data: {
      platform: fields.platform ?? "platformA",
      platformVideoId: id,
      url: `https://example.test/@creator/video/${id}`,
      description: fields.description,
      username: `creator_${key}`,
      viewCount: fields.views === null ? null : BigInt(fields.views),
      likeCount: fields.likes === undefined ? null : BigInt(fields.likes),
      commentCount: BigInt(10),
      shareCount: BigInt(5),
      postedAt: fields.postedAt,
      language: "en",
      thumbnailUrl: `https://example.test/thumb/${id}.jpg`,
      scrapeStatus: "ready",
      dataSource: "simulated",
    },
  });
  v[key] = row.id;
}

beforeAll(async () => {
  api = await startTestApi();
  const now = Date.now();
  const startOfToday = new Date(new Date().toISOString().slice(0, 10) + "T00:00:00.000Z").getTime();
  await video("big", {
    description: "Budget travel hacks: backpacking Europe cheap",
    views: 500_000,
    likes: 40_000,
    postedAt: new Date(now - 2 * DAY),
  });
  await video("9k", { description: "Travel hacks for airports", views: 9_000, likes: 900, postedAt: new Date(now - 2 * DAY) });
  await video("10k", { description: "Travel hacks for airlines", views: 10_000, likes: 1_000, postedAt: new Date(now - 2 * DAY) });
  await video("yesterday", {
    description: "Travel hacks: hotel upgrades",
    views: 2_000_000,
    likes: 100_000,
    postedAt: new Date(startOfToday - 3600_000),
  });
  await video("today", {
    description: "Travel hacks: flight deals",
    views: 50_000,
    likes: 2_000,
    postedAt: new Date(Math.max(startOfToday, now - 60_000)),
  });
  await video("nullviews", { description: "Travel hacks nobody counted", views: null, postedAt: new Date(now - 3 * DAY) });
  await video("old", {
    description: "Travel hacks from the archive",
    views: 1_000_000,
    likes: 10_000,
    postedAt: new Date(now - 800 * DAY),
  });
  await video("otherplatform", {
    platform: "platformB",
    description: "Travel hacks on another platform",
    views: 900_000,
    postedAt: new Date(now - DAY),
  });
  await video("offtopic", { description: "Creamy pasta recipe", views: 10_000_000, likes: 1_000_000, postedAt: new Date(now - DAY) });
  workers = await startWorkers([radarJobs(() => deps)]);
});
afterAll(() => stopAll(api, workers));

function waitForStatus(searchId: string, statuses: string[], timeoutMs = 30_000) {
  const read = () => prisma.radarSearch.findUniqueOrThrow({ where: { id: searchId } });
  return waitUntil(`search ${searchId} to reach ${statuses.join("/")}`, read, (s) => statuses.includes(s.status), timeoutMs, 100);
}

async function search(key: string, body: Record<string, unknown>) {
  const c = client(api.url, key);
  const created = await c.post("/api/v1/radar/search", body);
  expect(created.status).toBe(202);
  const id = created.body.data.searchId as string;
  await waitForStatus(id, ["completed", "failed"]);
  const got = await c.get(`/api/v1/radar/search/${id}?limit=100`);
  expect(got.status).toBe(200);
  return got.body;
}

const keysOf = (results: { platformVideoId: string }[]) => results.map((r) => r.platformVideoId.replace(/^rt-/, "")).sort();

describe("radar job over a hand-made catalog", () => {
  it("any/any: every on-topic platformA video, de-duplicated, ranked by score, queries stored", async () => {
    deps.providers = [catalog];
    const ws = await newWorkspace();
    const body = await search(ws.key, { query: "travel hacks", depth: "quick" });
    const d = body.data;
    expect(d.status).toBe("completed");
    expect(d.queries).toEqual(["travel hacks", "travel hacks tips", "best travel hacks"]);
    expect(keysOf(d.results)).toEqual(["10k", "9k", "big", "nullviews", "old", "today", "yesterday"].sort());
    expect(d.resultCount).toBe(7);
    expect(body.pagination).toEqual({ total: 7, limit: 100, offset: 0, has_more: false });
    expect(d.completedAt).toMatch(/Z$/);
    expect(d.error).toBeUndefined();
    const scores = d.results.map((r: { score: number }) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const s of scores) expect(s).toBeGreaterThan(0);
    // Same wording, age and engagement rate: the video with more views ranks higher.
    const idx = (k: string) => d.results.findIndex((r: { platformVideoId: string }) => r.platformVideoId === `rt-${k}`);
    expect(idx("10k")).toBeLessThan(idx("9k"));
    const big = d.results[idx("big")];
    expect(big).toMatchObject({
      videoId: v.big,
      url: "https://example.test/@creator/video/rt-big",
      type: "platformA",
      platformVideoId: "rt-big",
      description: "Budget travel hacks: backpacking Europe cheap",
      username: "creator_big",
      viewCount: 500_000,
      likeCount: 40_000,
      commentCount: 10,
      shareCount: 5,
      thumbnailUrl: "https://example.test/thumb/rt-big.jpg",
      tracked: false,
    });
    expect(big.engagementRate).toBeCloseTo((40_015 / 500_000) * 100, 3);
    expect(d.queries).toContain(big.matchedQuery);
    expect(d.results[idx("nullviews")].viewCount).toBeNull();
    // Results pages.
    const c = client(api.url, ws.key);
    const page = await c.get(`/api/v1/radar/search/${d.id}?limit=3&offset=3`);
    expect(page.body.data.results.map((r: { platformVideoId: string }) => r.platformVideoId)).toEqual(
      d.results.slice(3, 6).map((r: { platformVideoId: string }) => r.platformVideoId),
    );
    expect(page.body.pagination).toEqual({ total: 7, limit: 3, offset: 3, has_more: true });
    // History shows the final state.
    const history = await c.get("/api/v1/radar/history");
    expect(history.body.data[0]).toMatchObject({ id: d.id, status: "completed", resultCount: 7 });
  });

  it("min_views 10k: a 9,999-or-fewer-view video never passes, exactly 10,000 does, unknown views do not", async () => {
    const ws = await newWorkspace();
    const d = (await search(ws.key, { query: "travel hacks", depth: "quick", min_views: "10k" })).data;
    expect(keysOf(d.results)).toEqual(["10k", "big", "old", "today", "yesterday"].sort());
    const d100 = (await search(ws.key, { query: "travel hacks", depth: "quick", min_views: "100k" })).data;
    expect(keysOf(d100.results)).toEqual(["big", "old", "yesterday"].sort());
  });

  it("time periods: `today` excludes yesterday's post; week and year bound the rest", async () => {
    const ws = await newWorkspace("pro");
    const today = (await search(ws.key, { query: "travel hacks", depth: "quick", time_period: "today" })).data;
    expect(keysOf(today.results)).toEqual(["today"]);
    const week = (await search(ws.key, { query: "travel hacks", depth: "quick", time_period: "week" })).data;
    expect(keysOf(week.results)).toEqual(["10k", "9k", "big", "nullviews", "today", "yesterday"].sort());
    const month = (await search(ws.key, { query: "travel hacks", depth: "quick", time_period: "month", min_views: "50k" })).data;
    expect(month.time_period).toBe("last month");
    expect(keysOf(month.results)).toEqual(["big", "today", "yesterday"].sort());
    const year = (await search(ws.key, { query: "travel hacks", depth: "quick", time_period: "year" })).data;
    expect(keysOf(year.results)).not.toContain("old");
  });

  it("platformB searches only platformB videos; a query matching nothing completes with 0 results", async () => {
    const ws = await newWorkspace("pro");
    const b = (await search(ws.key, { query: "travel hacks", depth: "quick", platform: "platformB" })).data;
    expect(keysOf(b.results)).toEqual(["otherplatform"]);
    const none = (await search(ws.key, { query: "quantum chromodynamics lecture", depth: "quick" })).data;
    expect(none).toMatchObject({ status: "completed", resultCount: 0, results: [] });
    // It says so, what the catalog covers, and that it was charged.
    expect(none.error).toMatch(/^No results: no video matched any of its 3 queries \("quantum chromodynamics lecture", /);
    expect(none.error).toMatch(/The catalog searches only videos this service has already scraped .*add `ytdlp` to RADAR_PROVIDERS/);
    expect(none.error).toMatch(/A completed search is charged \(100 credits\) even when it finds nothing\.$/);
    expect((await getBalance(ws.workspaceId)).totalRemaining).toBe(10_000 - 200); // a search with no results is still a search
  });

  it("`tracked` is computed per workspace at read time; another workspace cannot read the search", async () => {
    const a = await newWorkspace();
    const b = await newWorkspace();
    await prisma.trackedVideo.create({ data: { workspaceId: a.workspaceId, videoId: v.big! } });
    const da = (await search(a.key, { query: "travel hacks", depth: "quick" })).data;
    const tracked = da.results.filter((r: { tracked: boolean }) => r.tracked).map((r: { platformVideoId: string }) => r.platformVideoId);
    expect(tracked).toEqual(["rt-big"]);
    const db = (await search(b.key, { query: "travel hacks", depth: "quick" })).data;
    expect(db.results.every((r: { tracked: boolean }) => !r.tracked)).toBe(true);
    // Tracked after the search ran: shows on the next read.
    await prisma.trackedVideo.create({ data: { workspaceId: b.workspaceId, videoId: v.today! } });
    const again = await client(api.url, b.key).get(`/api/v1/radar/search/${db.id}?limit=100`);
    expect(
      again.body.data.results.filter((r: { tracked: boolean }) => r.tracked).map((r: { platformVideoId: string }) => r.platformVideoId),
    ).toEqual(["rt-today"]);
    const foreign = await client(api.url, b.key).get(`/api/v1/radar/search/${da.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("NOT_FOUND");
  });
});

describe("as configured", () => {
  it("the configured providers and offline expander: standard depth → 6 queries in the search's language, real catalog results", async () => {
    const configured = configuredRadarDeps();
    expect(configured.providers.map((p) => p.name)).toEqual(["catalog"]);
    expect(configured.expander.name).toBe("offline");
    const saved = { ...deps };
    Object.assign(deps, configured);
    try {
      const ws = await newWorkspace();
      const d = (await search(ws.key, { query: "budget travel hacks" })).data;
      expect(d.status).toBe("completed");
      expect(d.queries).toHaveLength(6);
      expect(new Set(d.queries).size).toBe(6);
      expect(keysOf(d.results)).toContain("big");
      expect(keysOf(d.results)).not.toContain("offtopic");
      expect(keysOf(d.results)).not.toContain("otherplatform");
    } finally {
      Object.assign(deps, saved);
    }
  });
});

describe("failures and refunds", () => {
  const refunds = (workspaceId: string) => prisma.creditLedgerEntry.count({ where: { workspaceId, kind: "refund" } });

  it("every provider fails (not retryable) → failed with the provider's error, 100 credits refunded once", async () => {
    const failing = new FailingProvider("ytdlp", false);
    deps.providers = [failing];
    try {
      const ws = await newWorkspace();
      const body = await search(ws.key, { query: "travel hacks", depth: "quick" });
      expect(body.data.status).toBe("failed");
      expect(body.data.error).toMatch(/ytdlp/);
      expect(body.data.error).toMatch(/HTTP 503/);
      expect(body.data.results).toEqual([]);
      expect(body.data.completedAt).toMatch(/Z$/);
      expect(failing.calls).toBe(3);
      expect((await getBalance(ws.workspaceId)).totalRemaining).toBe(200);
      expect(await refunds(ws.workspaceId)).toBe(1);
      const entry = await prisma.creditLedgerEntry.findFirstOrThrow({ where: { workspaceId: ws.workspaceId, kind: "refund" } });
      expect(entry).toMatchObject({ amount: 100, idempotencyKey: `radar:${body.data.id}:refund` });
      // The job run again (a duplicate delivery) and the failure path run again: still one refund.
      const handler = radarJobs(() => deps).handlers.search!;
      expect(await handler({ data: { searchId: body.data.id } } as never, jobRun(0, 5))).toEqual({ status: "skipped" });
      expect(await failSearch(body.data.id, "again")).toBe(false);
      expect(await refunds(ws.workspaceId)).toBe(1);
      expect((await getBalance(ws.workspaceId)).totalRemaining).toBe(200);
    } finally {
      deps.providers = [catalog];
    }
  });

  it("retryable failures: earlier attempts throw for BullMQ to retry (no refund), the last attempt fails and refunds once", async () => {
    const failing = new FailingProvider("catalog", true);
    const local: RadarDeps = { providers: [failing], expander: new FixedExpander() };
    const handler = radarJobs(() => local).handlers.search!;
    const ws = await newWorkspace();
    // Created through the API, but run by hand: the shared worker must not pick it up first.
    await workers.workers[0]!.pause();
    let id: string;
    try {
      const created = await client(api.url, ws.key).post("/api/v1/radar/search", { query: "travel hacks", depth: "quick" });
      id = created.body.data.searchId;
      await (await queue("radar").getJob(id))!.remove();
    } finally {
      workers.workers[0]!.resume();
    }
    const job = { data: { searchId: id } } as never;
    for (let attempt = 0; attempt < 4; attempt++) {
      await expect(handler(job, jobRun(attempt, 5))).rejects.toBeInstanceOf(RetryableSearchError);
      const s = await prisma.radarSearch.findUniqueOrThrow({ where: { id } });
      expect(s.status).toBe("searching");
      expect(await refunds(ws.workspaceId)).toBe(0);
    }
    expect((local.expander as FixedExpander).calls).toBe(1); // queries are generated once, reused by retries
    expect(await handler(job, jobRun(4, 5))).toMatchObject({ status: "failed" });
    expect(await handler(job, jobRun(4, 5))).toEqual({ status: "skipped" });
    await Promise.all(Array.from({ length: 5 }, () => failSearch(id, "racing failure")));
    expect(await refunds(ws.workspaceId)).toBe(1);
    expect((await getBalance(ws.workspaceId)).totalRemaining).toBe(200);
    const s = await prisma.radarSearch.findUniqueOrThrow({ where: { id } });
    expect(s.status).toBe("failed");
    expect(s.error).toMatch(/HTTP 503/);
  });

  it("one provider fails while another answers → completed with the real results and a note in `error`", async () => {
    deps.providers = [catalog, new FailingProvider("ytdlp", false)];
    try {
      const ws = await newWorkspace();
      const body = await search(ws.key, { query: "travel hacks", depth: "quick", min_views: "100k" });
      expect(body.data.status).toBe("completed");
      expect(keysOf(body.data.results)).toEqual(["big", "old", "yesterday"].sort());
      expect(body.data.error).toMatch(/^Partial results: provider ytdlp failed on 3 queries/);
      expect(await refunds(ws.workspaceId)).toBe(0);
      expect((await getBalance(ws.workspaceId)).totalRemaining).toBe(100);
    } finally {
      deps.providers = [catalog];
    }
  });

  it("no configured provider supports the platform → failed and refunded", async () => {
    const onlyB: SearchProvider = { name: "ytdlp", supports: (p) => p === "platformB", search: async () => [] };
    deps.providers = [onlyB];
    try {
      const ws = await newWorkspace();
      const body = await search(ws.key, { query: "travel hacks", platform: "platformC" });
      expect(body.data.status).toBe("failed");
      expect(body.data.error).toMatch(/No configured search provider supports platformC/);
      expect((await getBalance(ws.workspaceId)).totalRemaining).toBe(200);
    } finally {
      deps.providers = [catalog];
    }
  });

  it("re-running a search left `searching` with stale rows (killed worker) replaces its results, never duplicates", async () => {
    const ws = await newWorkspace();
    const first = (await search(ws.key, { query: "travel hacks", depth: "quick" })).data;
    // Pretend the worker died after writing: back to `searching`, then the job runs again.
    await prisma.radarSearch.update({ where: { id: first.id }, data: { status: "searching", resultCount: 0 } });
    const handler = radarJobs(() => deps).handlers.search!;
    expect(await handler({ data: { searchId: first.id } } as never, jobRun(1, 5))).toMatchObject({ status: "completed", resultCount: 7 });
    expect(await prisma.radarResult.count({ where: { searchId: first.id } })).toBe(7);
    expect(await prisma.creditLedgerEntry.count({ where: { workspaceId: ws.workspaceId, idempotencyKey: { startsWith: "radar:" } } })).toBe(
      1,
    );
  });

  it("the sweep fails a search stuck past its deadline (refund once), and a late completion cannot revive it", async () => {
    const ws = await newWorkspace();
    await workers.workers[0]!.pause();
    let id: string;
    try {
      id = (await client(api.url, ws.key).post("/api/v1/radar/search", { query: "stuck" })).body.data.searchId;
      await (await queue("radar").getJob(id))!.remove();
    } finally {
      workers.workers[0]!.resume();
    }
    await prisma.radarSearch.update({ where: { id }, data: { status: "searching" } });
    const later = new Date(Date.now() + 31 * 60_000);
    expect((await sweepStaleSearches(30 * 60_000, later)).failed).toBeGreaterThanOrEqual(1);
    await sweepStaleSearches(30 * 60_000, later);
    const s = await prisma.radarSearch.findUniqueOrThrow({ where: { id } });
    expect(s.status).toBe("failed");
    expect(s.error).toMatch(/did not finish within 1800 seconds/);
    expect(await refunds(ws.workspaceId)).toBe(1);
    expect(await completeSearch(id, [], null)).toBe(false);
    expect((await prisma.radarSearch.findUniqueOrThrow({ where: { id } })).status).toBe("failed");
  });

  it("the sweep re-enqueues a search left `pending` without a job (lost enqueue), which then completes", async () => {
    const ws = await newWorkspace();
    await workers.workers[0]!.pause();
    let id: string;
    try {
      id = (await client(api.url, ws.key).post("/api/v1/radar/search", { query: "travel hacks", depth: "quick" })).body.data.searchId;
      await (await queue("radar").getJob(id))!.remove();
    } finally {
      workers.workers[0]!.resume();
    }
    expect(await queue("radar").getJob(id)).toBeUndefined();
    const r = await sweepStaleSearches(30 * 60_000, new Date(Date.now() + 2 * 60_000));
    expect(r.requeued).toBeGreaterThanOrEqual(1);
    const s = await waitForStatus(id, ["completed", "failed"]);
    expect(s.status).toBe("completed");
    expect(s.resultCount).toBe(7);
  });

  it("exposes a gated provider's search as `searching` while it runs", async () => {
    const gated = new GatedProvider(catalog);
    deps.providers = [gated];
    try {
      const ws = await newWorkspace();
      const c = client(api.url, ws.key);
      const id = (await c.post("/api/v1/radar/search", { query: "travel hacks", depth: "quick" })).body.data.searchId;
      await waitForStatus(id, ["searching"]);
      const mid = await c.get(`/api/v1/radar/search/${id}`);
      expect(mid.body.data).toMatchObject({ status: "searching", resultCount: 0, results: [], completedAt: null });
      gated.open();
      expect((await waitForStatus(id, ["completed", "failed"])).status).toBe("completed");
    } finally {
      deps.providers = [catalog];
    }
  });
});
