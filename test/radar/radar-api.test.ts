/**
 * Radar REST: validation of every field, the 100-credit charge (atomic with the balance check),
 * INSUFFICIENT_CREDITS, concurrent creations, history order and pagination, tenant isolation.
 * No worker runs in this file: searches stay `pending` with their job on the queue.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { prisma } from "../../src/infra/db.js";
import { charge, getBalance, grant } from "../../src/domain/credits/service.js";
import { queue } from "../../src/infra/queues.js";
import type { RunningApi } from "../../src/main/server.js";

let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => stopAll(api));

/** A free workspace (200 credits) with `left` credits remaining. */
async function workspaceWith(left: number) {
  const ws = await newWorkspace("free");
  if (left < 200) await charge({ workspaceId: ws.workspaceId, amount: 200 - left, idempotencyKey: "setup", reason: "test setup" });
  return ws;
}

describe("POST /radar/search validation", () => {
  const invalid: [string, unknown, string][] = [
    ["missing query", {}, "body.query"],
    ["empty query", { query: "" }, "body.query"],
    ["blank query", { query: "   \n " }, "body.query"],
    ["query over 1000 characters", { query: "a".repeat(1001) }, "body.query"],
    ["query not a string", { query: 42 }, "body.query"],
    ["unknown platform", { query: "cats", platform: "platformD" }, "body.platform"],
    ["platform in another casing", { query: "cats", platform: "PLATFORMA" }, "body.platform"],
    ["unknown depth", { query: "cats", depth: "medium" }, "body.depth"],
    ["unknown min_views", { query: "cats", min_views: "5k" }, "body.min_views"],
    ["min_views as a number", { query: "cats", min_views: 10000 }, "body.min_views"],
    ["unknown time_period", { query: "cats", time_period: "last week" }, "body.time_period"],
    ["empty language", { query: "cats", language: "" }, "body.language"],
    ["language over 50 characters", { query: "cats", language: "x".repeat(51) }, "body.language"],
    ["camelCase field name", { query: "cats", minViews: "10k" }, "body"],
    ["null query", { query: null }, "body.query"],
  ];

  it.each(invalid)("%s → 400 VALIDATION_ERROR naming the field, nothing charged", async (_name, payload, path) => {
    const ws = await newWorkspace();
    const r = await client(api.url, ws.key).post("/api/v1/radar/search", payload);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("VALIDATION_ERROR");
    expect(typeof r.body.message).toBe("string");
    expect(r.body.details.some((d: { path: string }) => d.path.startsWith(path))).toBe(true);
    expect((await getBalance(ws.workspaceId)).totalRemaining).toBe(200);
    expect(await prisma.radarSearch.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
  });

  it("a body that is not JSON, or no body at all → 400 VALIDATION_ERROR", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    const bad = await c.raw("POST", "/api/v1/radar/search", { rawBody: "{query:", headers: { "content-type": "application/json" } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("VALIDATION_ERROR");
    const none = await c.post("/api/v1/radar/search");
    expect(none.status).toBe(400);
    expect(none.body.code).toBe("VALIDATION_ERROR");
  });

  it("defaults: platformA, standard, any, any, English; 202 with {data: {searchId}}; the job is queued under the search id", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    const r = await c.post("/api/v1/radar/search", { query: "  budget travel hacks for students  " });
    expect(r.status).toBe(202);
    expect(Object.keys(r.body)).toEqual(["data"]);
    expect(Object.keys(r.body.data)).toEqual(["searchId"]);
    const id = r.body.data.searchId;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const got = await c.get(`/api/v1/radar/search/${id}`);
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({
      id,
      query: "budget travel hacks for students",
      platform: "platformA",
      depth: "standard",
      min_views: "any",
      time_period: "any",
      language: "English",
      status: "pending",
      resultCount: 0,
      completedAt: null,
      queries: [],
      results: [],
    });
    expect(got.body.data.error).toBeUndefined();
    expect(got.body.data.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(got.body.pagination).toEqual({ total: 0, limit: 20, offset: 0, has_more: false });
    const job = await queue("radar").getJob(id);
    expect(job?.name).toBe("search");
    // The search id, and the ids of the request that queued it (src/infra/queues.ts: data.trace).
    expect(job?.data).toEqual({ searchId: id, trace: { requestId: r.headers.get("x-request-id"), workspaceId: expect.any(String) } });
  });

  it("accepts every enum value, `month` as `last month`, and a 1000-character query", async () => {
    const ws = await newWorkspace("pro");
    const c = client(api.url, ws.key);
    const combos = [
      { platform: "platformA", depth: "quick", min_views: "any", time_period: "any" },
      { platform: "platformB", depth: "standard", min_views: "10k", time_period: "today" },
      { platform: "platformC", depth: "deep", min_views: "25k", time_period: "week" },
      { platform: "platformA", depth: "deep", min_views: "50k", time_period: "last month" },
      { platform: "platformB", depth: "quick", min_views: "100k", time_period: "year" },
      { platform: "platformC", depth: "standard", min_views: "any", time_period: "month", expect: "last month" },
    ];
    for (const { expect: stored, ...combo } of combos) {
      const r = await c.post("/api/v1/radar/search", { query: "q".repeat(1000), language: "Spanish", ...combo });
      expect(r.status).toBe(202);
      const got = await c.get(`/api/v1/radar/search/${r.body.data.searchId}`);
      expect(got.body.data).toMatchObject({ ...combo, time_period: stored ?? combo.time_period, language: "Spanish" });
      expect(got.body.data.query).toHaveLength(1000);
    }
  });
});

describe("credits", () => {
  it("charges 100 credits per search with the ledger key radar:<id>:charge", async () => {
    const ws = await newWorkspace();
    const r = await client(api.url, ws.key).post("/api/v1/radar/search", { query: "home workouts" });
    expect(r.status).toBe(202);
    expect((await getBalance(ws.workspaceId)).totalRemaining).toBe(100);
    const entries = await prisma.creditLedgerEntry.findMany({ where: { workspaceId: ws.workspaceId, kind: "charge" } });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ amount: -100, idempotencyKey: `radar:${r.body.data.searchId}:charge` });
  });

  it("99 credits → 402 INSUFFICIENT_CREDITS stating 100 required and 99 available; nothing charged or stored", async () => {
    const ws = await workspaceWith(99);
    const r = await client(api.url, ws.key).post("/api/v1/radar/search", { query: "skincare routine" });
    expect(r.status).toBe(402);
    expect(r.body.code).toBe("INSUFFICIENT_CREDITS");
    expect(r.body.message).toMatch(/\b100\b/);
    expect(r.body.message).toMatch(/\b99\b/);
    expect((await getBalance(ws.workspaceId)).totalRemaining).toBe(99);
    expect(await prisma.radarSearch.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
    expect(await prisma.creditLedgerEntry.count({ where: { workspaceId: ws.workspaceId, kind: "charge" } })).toBe(1); // the setup charge only
  });

  it("exactly 100 credits are enough, and then the balance is 0", async () => {
    const ws = await workspaceWith(100);
    const c = client(api.url, ws.key);
    expect((await c.post("/api/v1/radar/search", { query: "one" })).status).toBe(202);
    const second = await c.post("/api/v1/radar/search", { query: "two" });
    expect(second.status).toBe(402);
    expect(second.body.message).toMatch(/\b0\b/);
    expect((await getBalance(ws.workspaceId)).totalRemaining).toBe(0);
  });

  it("5 concurrent searches with credits for 2: exactly 2 accepted, 3 refused, the balance never below 0", async () => {
    const ws = await newWorkspace("free"); // 200 monthly + 99 granted = 299: enough for 2, not for 3
    await grant({ workspaceId: ws.workspaceId, amount: 99, idempotencyKey: "top-up", reason: "test" });
    const c = client(api.url, ws.key);
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => c.post("/api/v1/radar/search", { query: `concurrent ${i}` })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([202, 202, 402, 402, 402]);
    for (const a of answers.filter((x) => x.status === 402)) expect(a.body.code).toBe("INSUFFICIENT_CREDITS");
    expect((await getBalance(ws.workspaceId)).totalRemaining).toBe(99);
    expect(await prisma.radarSearch.count({ where: { workspaceId: ws.workspaceId } })).toBe(2);
    expect(await prisma.creditLedgerEntry.count({ where: { workspaceId: ws.workspaceId, idempotencyKey: { startsWith: "radar:" } } })).toBe(
      2,
    );
  });
});

describe("GET /radar/history", () => {
  it("newest first, with limit/offset and the pagination object", async () => {
    const ws = await newWorkspace("pro");
    const c = client(api.url, ws.key);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await c.post("/api/v1/radar/search", { query: `topic ${i}`, platform: i % 2 ? "platformB" : "platformA" });
      ids.push(r.body.data.searchId);
    }
    const all = await c.get("/api/v1/radar/history");
    expect(all.status).toBe(200);
    expect(all.body.data.map((s: { id: string }) => s.id)).toEqual([...ids].reverse());
    expect(all.body.pagination).toEqual({ total: 5, limit: 20, offset: 0, has_more: false });
    expect(all.body.data[0]).toEqual({
      id: ids[4],
      query: "topic 4",
      platform: "platformA",
      status: "pending",
      resultCount: 0,
      createdAt: expect.stringMatching(/Z$/),
    });
    const page = await c.get("/api/v1/radar/history?limit=2&offset=2");
    expect(page.body.data.map((s: { id: string }) => s.id)).toEqual([ids[2], ids[1]]);
    expect(page.body.pagination).toEqual({ total: 5, limit: 2, offset: 2, has_more: true });
    const last = await c.get("/api/v1/radar/history?limit=2&offset=4");
    expect(last.body.data.map((s: { id: string }) => s.id)).toEqual([ids[0]]);
    expect(last.body.pagination.has_more).toBe(false);
    const beyond = await c.get("/api/v1/radar/history?offset=50");
    expect(beyond.body.data).toEqual([]);
    for (const q of ["limit=0", "limit=101", "limit=abc", "offset=-1", "limit=2.5"]) {
      const bad = await c.get(`/api/v1/radar/history?${q}`);
      expect(bad.status, q).toBe(400);
      expect(bad.body.code).toBe("VALIDATION_ERROR");
    }
  });
});

describe("tenant isolation", () => {
  it("another workspace's search is 404 NOT_FOUND and absent from its history; a malformed id is 400", async () => {
    const a = await newWorkspace();
    const b = await newWorkspace();
    const created = await client(api.url, a.key).post("/api/v1/radar/search", { query: "private topic" });
    const id = created.body.data.searchId;
    const cb = client(api.url, b.key);
    const foreign = await cb.get(`/api/v1/radar/search/${id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("NOT_FOUND");
    expect((await cb.get("/api/v1/radar/history")).body.data).toEqual([]);
    expect((await cb.get(`/api/v1/radar/search/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    const malformed = await cb.get("/api/v1/radar/search/not-a-uuid");
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe("VALIDATION_ERROR");
    expect((await client(api.url, a.key).get(`/api/v1/radar/search/${id}?limit=0`)).status).toBe(400);
  });

  it("requires an API key", async () => {
    const r = await client(api.url, null).post("/api/v1/radar/search", { query: "x" });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe("UNAUTHORIZED");
  });
});
