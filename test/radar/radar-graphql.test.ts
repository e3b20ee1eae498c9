/**
 * Radar over GraphQL: the same services as REST (createRadarSearch, radarSearches, radarSearch with
 * results) and the radarSearchUpdated subscription over graphql-ws seeing SEARCHING then COMPLETED.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { client, gql, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { prisma } from "../../src/infra/db.js";
import { charge, getBalance } from "../../src/domain/credits/service.js";
import { startWorkers, type RunningWorkers } from "../../src/jobs/worker.js";
import { radarJobs } from "../helpers/jobs.js";
import type { RadarDeps } from "../../src/domain/radar/run.js";
import { CatalogSearchProvider } from "../../src/domain/radar/catalog.js";
import type { QueryExpander, SearchProvider, SearchRequest } from "../../src/domain/radar/ports.js";
import type { RunningApi } from "../../src/main/server.js";
import { waitUntil } from "../helpers/wait.js";

const expander: QueryExpander = { name: "offline", expand: async (d, n) => [d, `${d} ideas`, `${d} tutorial`].slice(0, n) };

/** Catalog search that waits for `open()`: the test subscribes while the search is running. */
class GatedCatalog implements SearchProvider {
  readonly name = "catalog" as const;
  private readonly inner = new CatalogSearchProvider();
  private release!: () => void;
  private gate = new Promise<void>((r) => (this.release = r));
  supports() {
    return true;
  }
  open() {
    this.release();
  }
  async search(req: SearchRequest) {
    await this.gate;
    return this.inner.search(req);
  }
}

let gated = new GatedCatalog();
const deps: RadarDeps = { providers: [gated], expander };
let api: RunningApi;
let workers: RunningWorkers;

beforeAll(async () => {
  api = await startTestApi();
  for (let i = 0; i < 3; i++) {
    await prisma.video.create({
      data: {
        platform: "platformA",
        platformVideoId: `gq${i}`,
        url: `https://example.test/@maker/video/gq${i}`,
        description: `Cozy knitting pattern number ${i}`,
        username: "maker",
        viewCount: BigInt(1000 * (i + 1)),
        likeCount: BigInt(100),
        postedAt: new Date(Date.now() - 86_400_000),
        language: "en",
      },
    });
  }
  workers = await startWorkers([radarJobs(() => deps)]);
});
afterAll(() => stopAll(api, workers));

const SEARCH_FIELDS = `uuid query platform depth minViews timePeriod language status resultCount error queries createdAt completedAt
  results(first: 2) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { uuid rank videoId url type platformVideoId viewCount likeCount engagementRate postedAt score matchedQuery tracked } } }`;

const codeOf = (r: { body: { errors?: { extensions?: Record<string, any> }[] } }) => r.body.errors?.[0]?.extensions?.code;

async function waitForStatus(id: string, status: string) {
  await waitUntil(
    `search ${id} to reach ${status}`,
    () => prisma.radarSearch.findUniqueOrThrow({ where: { id } }),
    (s) => s.status === status,
    30_000,
    100,
  );
}

describe("radar over GraphQL", () => {
  it("createRadarSearch, the subscription (SEARCHING → COMPLETED), radarSearch with paged results, radarSearches", async () => {
    const ws = await newWorkspace();
    const created = await gql(
      api.url,
      ws.key,
      `mutation { createRadarSearch(query: "knitting pattern", depth: QUICK, minViews: ANY, timePeriod: LAST_MONTH) { id: uuid status depth minViews timePeriod platform language } }`,
    );
    expect(created.body.errors).toBeUndefined();
    const s = created.body.data.createRadarSearch;
    expect(s).toMatchObject({ depth: "QUICK", minViews: "ANY", timePeriod: "LAST_MONTH", platform: "PLATFORM_A", language: "English" });
    // The answer reads the search after queueing it: the worker may already have taken it (seen on a quiet machine).
    expect(["PENDING", "SEARCHING"]).toContain(s.status);
    expect((await getBalance(ws.workspaceId)).totalRemaining).toBe(100);
    await waitForStatus(s.id, "searching");

    const c = createClient({
      url: api.url.replace("http", "ws") + "/graphql",
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${ws.key}` },
      retryAttempts: 0,
      lazy: true,
    });
    const seen: { status: string; resultCount: number }[] = [];
    const done = new Promise<void>((resolve, reject) => {
      c.subscribe(
        { query: `subscription($id: ID!) { radarSearchUpdated(id: $id) { status resultCount } }`, variables: { id: s.id } },
        {
          next: (v: any) => {
            if (v.errors) return reject(new Error(JSON.stringify(v.errors)));
            seen.push(v.data.radarSearchUpdated);
            if (seen.length === 1) gated.open(); // the subscription is live: let the search finish
          },
          error: reject,
          complete: resolve,
        },
      );
    });
    await done;
    await c.dispose();
    expect(seen[0]).toEqual({ status: "SEARCHING", resultCount: 0 });
    expect(seen.at(-1)).toEqual({ status: "COMPLETED", resultCount: 3 });

    const read = await gql(api.url, ws.key, `query($id: ID!) { radarSearch(id: $id) { ${SEARCH_FIELDS} } }`, { id: s.id });
    expect(read.body.errors).toBeUndefined();
    const r = read.body.data.radarSearch;
    expect(r).toMatchObject({
      status: "COMPLETED",
      resultCount: 3,
      error: null,
      queries: ["knitting pattern", "knitting pattern ideas", "knitting pattern tutorial"],
    });
    const items = r.results.edges.map((e: any) => e.node);
    expect(r.results).toMatchObject({ totalCount: 3, pageInfo: { hasNextPage: true } });
    expect(items).toHaveLength(2);
    expect(items.map((x: any) => x.rank)).toEqual([1, 2]);
    expect(items[0]).toMatchObject({ type: "PLATFORM_A", tracked: false, likeCount: 100 });
    // The REST twin gives the same search and order.
    const rest = await client(api.url, ws.key).get(`/api/v1/radar/search/${s.id}?limit=2`);
    expect(rest.body.data.results.map((x: { platformVideoId: string }) => x.platformVideoId)).toEqual(
      items.map((x: { platformVideoId: string }) => x.platformVideoId),
    );

    const list = await gql(
      api.url,
      ws.key,
      `{ radarSearches(first: 5) { totalCount pageInfo { hasNextPage } edges { node { uuid status resultCount } } } }`,
    );
    expect(list.body.data.radarSearches).toEqual({
      totalCount: 1,
      pageInfo: { hasNextPage: false },
      edges: [{ node: { uuid: s.id, status: "COMPLETED", resultCount: 3 } }],
    });

    // A list asking for each search's results (batched into one query per page of arguments).
    const second = (
      await gql(api.url, ws.key, `mutation { createRadarSearch(query: "cozy knitting", depth: QUICK, minViews: MIN_10K) { uuid } }`)
    ).body.data.createRadarSearch.uuid;
    await waitForStatus(second, "completed");
    const after = r.results.edges[0].cursor;
    const withResults = await gql(
      api.url,
      ws.key,
      `query($a: String) { radarSearches { edges { node { uuid results(first: 1, after: $a) { totalCount edges { node { platformVideoId } } } } } } }`,
      { a: after },
    );
    expect(withResults.body.errors).toBeUndefined();
    expect(withResults.body.data.radarSearches.edges.map((e: any) => e.node)).toEqual([
      { uuid: second, results: { totalCount: 0, edges: [] } }, // 10k minimum: none of the 1k-3k-view videos
      { uuid: s.id, results: { totalCount: 3, edges: [{ node: { platformVideoId: items[1].platformVideoId } }] } },
    ]);
  });

  it("a finished search's subscription sends its final state and completes", async () => {
    gated.open();
    const ws = await newWorkspace();
    const id = (await gql(api.url, ws.key, `mutation { createRadarSearch(query: "knitting", depth: QUICK) { uuid } }`)).body.data
      .createRadarSearch.uuid;
    await waitForStatus(id, "completed");
    const c = createClient({
      url: api.url.replace("http", "ws") + "/graphql",
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${ws.key}` },
      retryAttempts: 0,
      lazy: true,
    });
    const seen: string[] = [];
    await new Promise<void>((resolve, reject) =>
      c.subscribe(
        { query: `subscription { radarSearchUpdated(id: "${id}") { status } }` },
        { next: (v: any) => seen.push(v.data.radarSearchUpdated.status), error: reject, complete: resolve },
      ),
    );
    await c.dispose();
    expect(seen).toEqual(["COMPLETED"]);
  });

  it("another workspace's search: NOT_FOUND on query and subscription; validation and credit errors keep their codes", async () => {
    gated.open();
    const a = await newWorkspace();
    const b = await newWorkspace();
    const id = (await gql(api.url, a.key, `mutation { createRadarSearch(query: "knitting") { uuid } }`)).body.data.createRadarSearch.uuid;
    const foreign = await gql(api.url, b.key, `query($id: ID!) { radarSearch(id: $id) { id } }`, { id });
    expect(codeOf(foreign)).toBe("NOT_FOUND");
    const c = createClient({
      url: api.url.replace("http", "ws") + "/graphql",
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${b.key}` },
      retryAttempts: 0,
      lazy: true,
    });
    const outcome = await new Promise<any>((resolve) =>
      c.subscribe(
        { query: `subscription { radarSearchUpdated(id: "${id}") { status } }` },
        { next: (v) => resolve(v), error: (e) => resolve(e), complete: () => resolve("complete") },
      ),
    );
    await c.dispose();
    expect(JSON.stringify(outcome)).toMatch(/NOT_FOUND/);
    expect((await gql(api.url, b.key, `{ radarSearches { totalCount } }`)).body.data.radarSearches.totalCount).toBe(0);

    const empty = await gql(api.url, a.key, `mutation { createRadarSearch(query: "   ") { id } }`);
    expect(codeOf(empty)).toBe("VALIDATION_ERROR");
    const long = await gql(api.url, a.key, `mutation($q: String!) { createRadarSearch(query: $q) { id } }`, { q: "x".repeat(1001) });
    expect(codeOf(long)).toBe("VALIDATION_ERROR");
    const platform = await gql(api.url, a.key, `mutation { createRadarSearch(query: "x", platform: PLATFORM_Z) { id } }`);
    expect(platform.body.errors).toBeDefined();
    expect(platform.body.data ?? null).toBeNull();
    const badEnum = await gql(api.url, a.key, `mutation { createRadarSearch(query: "x", depth: MEDIUM) { id } }`);
    expect(badEnum.body.errors).toBeDefined();
    const longLanguage = await gql(
      api.url,
      a.key,
      `mutation { createRadarSearch(query: "x", platform: PLATFORM_B, language: "${"l".repeat(51)}") { id } }`,
    );
    expect(codeOf(longLanguage)).toBe("VALIDATION_ERROR");
    expect((await getBalance(a.workspaceId)).totalRemaining).toBe(100); // none of the refused ones charged
    const badLimit = await gql(api.url, a.key, `{ radarSearches(first: -1) { totalCount } }`);
    expect(codeOf(badLimit)).toBe("VALIDATION_ERROR");

    await charge({ workspaceId: a.workspaceId, amount: 1, idempotencyKey: "leave-99", reason: "test" });
    const poor = await gql(api.url, a.key, `mutation { createRadarSearch(query: "knitting") { id } }`);
    expect(codeOf(poor)).toBe("INSUFFICIENT_CREDITS");
    expect(poor.body.errors?.[0]?.message).toMatch(/100 credits and 99 are available/);
    expect((await getBalance(a.workspaceId)).totalRemaining).toBe(99);
  });
});
