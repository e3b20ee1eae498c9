/**
 * Idempotency-Key (docs/contract/decisions.md, "Idempotent requests (third wave)"; the rule:
 * src/domain/shared/idempotency.ts) through every door: REST writes (a retried radar search and a
 * retried analysis charge once, 50 parallel requests run once, misuse codes, 5xx and 400 not kept, the
 * first answer's headers replayed, a claim extended while its request runs past the lease, the
 * header's validation), a GraphQL mutation over HTTP, an MCP tool's `idempotencyKey`, workspace
 * scope, expiry and the lease of a claim whose process died. Real PostgreSQL and Redis; no worker
 * runs, so searches and analyses stay queued.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { newWorkspace, request, startTestApi, stopAll, type HttpResult } from "../helpers/api.js";
import { trackedVideo } from "../analysis/fixtures.js";
import { schedulersOf } from "../helpers/jobs.js";
import { maintenanceQueue } from "../../src/jobs/registry.js";
import { getBalance } from "../../src/domain/credits/service.js";
import { config } from "../../src/config.js";
import { prisma } from "../../src/infra/db.js";
import {
  claimIdempotentRequest,
  PRUNE_IDEMPOTENT_REQUESTS,
  pruneIdempotentRequests,
  runIdempotently,
} from "../../src/domain/shared/idempotency.js";
import type { RunningApi } from "../../src/main/server.js";

let api: RunningApi;
const mcpClients: Client[] = [];
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  for (const c of mcpClients) await c.close().catch(() => undefined);
  await stopAll(api);
});

const SEARCH = "/api/v1/radar/search";

function post(key: string, path: string, body: unknown, idempotencyKey?: string): Promise<HttpResult> {
  return request(api.url, "POST", path, { key, body, headers: idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey } });
}

const replayed = (r: HttpResult) => r.headers.get("idempotent-replayed");
const searches = (workspaceId: string) => prisma.radarSearch.count({ where: { workspaceId } });
const remaining = async (workspaceId: string) => (await getBalance(workspaceId)).totalRemaining;

describe("REST: a retried request does its work once", () => {
  it("a radar search retried with the same key charges 100 credits once and answers the same body with Idempotent-Replayed: true", async () => {
    const ws = await newWorkspace("free"); // 200 credits
    const key = randomUUID();
    const first = await post(ws.key, SEARCH, { query: "budget travel hacks" }, key);
    expect(first.status).toBe(202);
    expect(replayed(first)).toBeNull();
    const again = await post(ws.key, SEARCH, { query: "budget travel hacks" }, key);
    expect(again.status).toBe(202);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("content-type")).toMatch(/^application\/json/);
    expect(replayed(again)).toBe("true");
    expect(await searches(ws.workspaceId)).toBe(1);
    expect(await remaining(ws.workspaceId)).toBe(100);
    // The same body under the same key, with its keys in another order and other spacing, is the same request.
    const reordered = await request(api.url, "POST", SEARCH, {
      key: ws.key,
      rawBody: '{ "query" :"budget travel hacks" }',
      headers: { "content-type": "application/json", "idempotency-key": key },
    });
    expect(reordered.text).toBe(first.text);
    expect(replayed(reordered)).toBe("true");

    // Without a key, behaviour is unchanged: a second search is a second charge.
    const other = await post(ws.key, SEARCH, { query: "budget travel hacks" });
    expect(other.status).toBe(202);
    expect(other.body.data.searchId).not.toBe(first.body.data.searchId);
    expect(await remaining(ws.workspaceId)).toBe(0);
  });

  it("a retried analysis reserves credits once and answers the first answer again", async () => {
    const ws = await newWorkspace("free");
    const videoId = await trackedVideo(ws.workspaceId);
    const path = `/api/v1/video-analysis/${videoId}/analyze?force=true`;
    const key = randomUUID();
    const first = await post(ws.key, path, undefined, key);
    expect(first.status).toBe(202);
    const again = await post(ws.key, path, undefined, key);
    expect(again.status).toBe(202);
    expect(again.text).toBe(first.text);
    expect(replayed(again)).toBe("true");
    expect(await prisma.videoAnalysis.count({ where: { workspaceId: ws.workspaceId, videoId } })).toBe(1);
    expect(await prisma.creditReservation.count({ where: { workspaceId: ws.workspaceId } })).toBe(1);
    expect((await getBalance(ws.workspaceId)).reserved).toBe(5);
  });

  it("50 parallel requests with one key run the work once; the others get its answer or 409 IDEMPOTENCY_KEY_IN_USE", async () => {
    const ws = await newWorkspace("free");
    const key = randomUUID();
    const all = await Promise.all(Array.from({ length: 50 }, () => post(ws.key, SEARCH, { query: "sourdough starters" }, key)));
    expect(await searches(ws.workspaceId)).toBe(1);
    expect(await remaining(ws.workspaceId)).toBe(100);
    const ok = all.filter((r) => r.status === 202);
    const busy = all.filter((r) => r.status === 409);
    expect(ok.length + busy.length).toBe(50);
    expect(ok.filter((r) => replayed(r) === null)).toHaveLength(1);
    expect(new Set(ok.map((r) => r.text)).size).toBe(1);
    for (const r of busy) {
      expect(r.body.code).toBe("IDEMPOTENCY_KEY_IN_USE");
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
    // Once the work has answered, a retry gets its answer.
    const after = await post(ws.key, SEARCH, { query: "sourdough starters" }, key);
    expect(after.status).toBe(202);
    expect(after.text).toBe(ok[0]!.text);
  });

  it("the same key with another body, path or method: 422 IDEMPOTENCY_KEY_REUSED, nothing run", async () => {
    const ws = await newWorkspace("free");
    const key = randomUUID();
    expect((await post(ws.key, SEARCH, { query: "cats" }, key)).status).toBe(202);
    const otherBody = await post(ws.key, SEARCH, { query: "dogs" }, key);
    expect(otherBody.status).toBe(422);
    expect(otherBody.body).toEqual({ code: "IDEMPOTENCY_KEY_REUSED", message: expect.stringContaining("Idempotency-Key") });
    const otherPath = await post(ws.key, "/api/v1/folders", { name: "cats" }, key);
    expect(otherPath.status).toBe(422);
    expect(otherPath.body.code).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(await searches(ws.workspaceId)).toBe(1);
    expect(await prisma.folder.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
  });

  it("a request whose first run is still going: 409 IDEMPOTENCY_KEY_IN_USE with Retry-After", async () => {
    const ws = await newWorkspace("free");
    const key = randomUUID();
    const body = { name: "in progress" };
    // The first request holds the key (as REST's middleware claims it) and has not answered.
    const apiKey = await prisma.apiKey.findFirstOrThrow({ where: { workspaceId: ws.workspaceId } });
    const held = await claimIdempotentRequest({
      workspaceId: ws.workspaceId,
      key,
      method: "POST",
      path: "/api/v1/folders",
      payload: { query: {}, body },
      asker: `api_key:${apiKey.id}`,
    });
    expect(held.kind).toBe("claimed");
    const r = await post(ws.key, "/api/v1/folders", body, key);
    expect(r.status).toBe(409);
    expect(r.body.code).toBe("IDEMPOTENCY_KEY_IN_USE");
    expect(r.headers.get("retry-after")).toBe("1");
    expect(await prisma.folder.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
  });

  it("4xx answers are kept, but not a refusal as invalid (400: fix the body, keep the key) nor 5xx (the retry runs again)", async () => {
    const ws = await newWorkspace("free");
    // 400, refused before any work: not kept, so the fixed body may use the same key (Stripe's rule).
    const fixed = randomUUID();
    const refused = await post(ws.key, SEARCH, { query: "" }, fixed);
    expect(refused.status).toBe(400);
    expect(await prisma.idempotentRequest.count({ where: { workspaceId: ws.workspaceId, key: fixed } })).toBe(0);
    const ran = await post(ws.key, SEARCH, { query: "cats" }, fixed);
    expect(ran.status).toBe(202);
    expect(replayed(ran)).toBeNull();
    expect(replayed(await post(ws.key, SEARCH, { query: "cats" }, fixed))).toBe("true");
    // Other 4xx answers (the work looked and answered): kept and answered again.
    const missing = randomUUID();
    const path = `/api/v1/folders/${randomUUID()}`;
    const notFound = await request(api.url, "PATCH", path, { key: ws.key, body: { name: "x" }, headers: { "idempotency-key": missing } });
    expect(notFound.status).toBe(404);
    const notFoundAgain = await request(api.url, "PATCH", path, {
      key: ws.key,
      body: { name: "x" },
      headers: { "idempotency-key": missing },
    });
    expect(notFoundAgain.text).toBe(notFound.text);
    expect(replayed(notFoundAgain)).toBe("true");

    // 5xx: without WEBHOOK_SECRET_KEY, POST /webhooks answers 503 WEBHOOKS_NOT_CONFIGURED; the retry runs again.
    const key = randomUUID();
    const body = { url: "https://hooks.example.com/idempotency", events: ["analysis.completed"] };
    const webhooks = config.webhooks as { secretKey?: string };
    const saved = webhooks.secretKey;
    webhooks.secretKey = undefined;
    try {
      const down = await post(ws.key, "/api/v1/webhooks", body, key);
      expect(down.status).toBe(503);
      expect(down.body.code).toBe("WEBHOOKS_NOT_CONFIGURED");
    } finally {
      webhooks.secretKey = saved ?? "test-only-webhook-secret-key-for-idempotency-0123456789";
    }
    expect(await prisma.idempotentRequest.count({ where: { workspaceId: ws.workspaceId, key } })).toBe(0);
    const up = await post(ws.key, "/api/v1/webhooks", body, key);
    expect(up.status).toBe(201);
    expect(replayed(up)).toBeNull();
    const upAgain = await post(ws.key, "/api/v1/webhooks", body, key);
    expect(upAgain.status).toBe(201);
    expect(upAgain.text).toBe(up.text);
    expect(await prisma.webhookEndpoint.count({ where: { workspaceId: ws.workspaceId } })).toBe(1);
    webhooks.secretKey = saved;
  });

  it("a replay answers the first answer's headers too: Content-Type, Retry-After (RateLimit-* are the replay's own)", async () => {
    const ws = await newWorkspace("free");
    const videoId = await trackedVideo(ws.workspaceId); // just scraped: a refresh now is too soon
    const key = randomUUID();
    const path = `/api/v1/videos/${videoId}/refresh`;
    const first = await post(ws.key, path, undefined, key);
    expect(first.status).toBe(429);
    expect(first.body.code).toBe("REFRESH_TOO_SOON");
    const retryAfter = first.headers.get("retry-after");
    expect(retryAfter).toMatch(/^\d+$/);
    await new Promise((r) => setTimeout(r, 1100)); // a second later, a new answer would say one second less
    const again = await post(ws.key, path, undefined, key);
    expect(replayed(again)).toBe("true");
    expect(again.status).toBe(429);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("retry-after")).toBe(retryAfter);
    expect(again.headers.get("content-type")).toBe(first.headers.get("content-type"));
    // The replay was admitted and counted: its budget now, not the first one's.
    expect(Number(again.headers.get("ratelimit-remaining"))).toBe(Number(first.headers.get("ratelimit-remaining")) - 1);
  });

  it("the store keeps the headers a replay repeats (Location among them)", async () => {
    const ws = await newWorkspace("free");
    const request = { workspaceId: ws.workspaceId, key: randomUUID(), method: "POST", path: "/test", payload: null, asker: "system:test" };
    const headers = { "content-type": "application/json; charset=utf-8", location: "/api/v1/folders/x" };
    await runIdempotently(request, async () => ({ status: 201, body: "{}", headers }));
    expect(await runIdempotently(request, async () => ({ status: 201, body: "{}" }))).toEqual({
      status: 201,
      body: "{}",
      headers,
      replayed: true,
    });
  });

  it("a request that runs past the claim's lease is not run a second time: its claim is extended while it runs", async () => {
    const idempotency = config.idempotency as { leaseMs: number };
    const saved = idempotency.leaseMs;
    idempotency.leaseMs = 600;
    try {
      const ws = await newWorkspace("free");
      const request = {
        workspaceId: ws.workspaceId,
        key: randomUUID(),
        method: "TOOL",
        path: "slow",
        payload: { n: 1 },
        asker: "system:test",
      };
      let runs = 0;
      const slow = async () => {
        runs++;
        await new Promise((r) => setTimeout(r, 2_000)); // more than three leases
        return { status: 201, body: JSON.stringify({ run: runs }) };
      };
      const first = runIdempotently(request, slow);
      await new Promise((r) => setTimeout(r, 1_200)); // twice the lease: without extension the key would be free
      await expect(runIdempotently(request, slow)).rejects.toMatchObject({ code: "IDEMPOTENCY_KEY_IN_USE" });
      expect(await first).toEqual({ status: 201, body: '{"run":1}', replayed: false });
      expect(await runIdempotently(request, slow)).toMatchObject({ body: '{"run":1}', replayed: true });
      expect(runs).toBe(1);
    } finally {
      idempotency.leaseMs = saved;
    }
  });

  it("PATCH and DELETE take the key too", async () => {
    const ws = await newWorkspace("free");
    const folder = await post(ws.key, "/api/v1/folders", { name: "to delete" });
    const path = `/api/v1/folders/${folder.body.data.id}`;
    const rename = randomUUID();
    const renamed = await request(api.url, "PATCH", path, {
      key: ws.key,
      body: { name: "renamed" },
      headers: { "idempotency-key": rename },
    });
    expect(renamed.status).toBe(200);
    const renamedAgain = await request(api.url, "PATCH", path, {
      key: ws.key,
      body: { name: "renamed" },
      headers: { "idempotency-key": rename },
    });
    expect(renamedAgain.text).toBe(renamed.text);
    expect(replayed(renamedAgain)).toBe("true");
    const key = randomUUID();
    const gone = await request(api.url, "DELETE", path, { key: ws.key, headers: { "idempotency-key": key } });
    expect(gone.status).toBeLessThan(300);
    const goneAgain = await request(api.url, "DELETE", path, { key: ws.key, headers: { "idempotency-key": key } });
    expect(goneAgain.status).toBe(gone.status);
    expect(replayed(goneAgain)).toBe("true");
    // Without the key, the second delete finds nothing.
    expect((await request(api.url, "DELETE", path, { key: ws.key })).status).toBe(404);
  });

  it.each([
    ["empty", ""],
    ["256 characters", "k".repeat(256)],
    ["a non-ASCII character", "kéy"],
    ["a control character", "a\tb"],
  ])("a key that is %s: 400 VALIDATION_ERROR naming the header, nothing run", async (_name, value) => {
    const ws = await newWorkspace("free");
    const r = await request(api.url, "POST", SEARCH, { key: ws.key, body: { query: "cats" }, headers: { "idempotency-key": value } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      code: "VALIDATION_ERROR",
      message: expect.stringContaining("Idempotency-Key"),
      details: [{ path: "headers.idempotency-key" }],
    });
    expect(await searches(ws.workspaceId)).toBe(0);
  });

  it("255 printable characters (spaces and punctuation included) are a key", async () => {
    const ws = await newWorkspace("free");
    const key = `a b~!"#$%&'()*+,-./:;<=>?@[\\]^_\`{|}`.padEnd(255, "z");
    expect((await post(ws.key, SEARCH, { query: "cats" }, key)).status).toBe(202);
    expect(replayed(await post(ws.key, SEARCH, { query: "cats" }, key))).toBe("true");
  });

  it("keys are scoped to the workspace: another workspace's same key and body run its own work", async () => {
    const a = await newWorkspace("free");
    const b = await newWorkspace("free");
    const key = randomUUID();
    const ra = await post(a.key, SEARCH, { query: "cats" }, key);
    const rb = await post(b.key, SEARCH, { query: "cats" }, key);
    expect(rb.status).toBe(202);
    expect(replayed(rb)).toBeNull();
    expect(rb.body.data.searchId).not.toBe(ra.body.data.searchId);
    expect(await searches(b.workspaceId)).toBe(1);
    expect(await remaining(b.workspaceId)).toBe(100);
    expect(await remaining(a.workspaceId)).toBe(100);
  });

  it("answers are kept in PostgreSQL for 24 hours; an expired key runs again and the prune deletes expired answers", async () => {
    const ws = await newWorkspace("free");
    const key = randomUUID();
    await post(ws.key, SEARCH, { query: "cats" }, key);
    const row = await prisma.idempotentRequest.findUniqueOrThrow({ where: { workspaceId_key: { workspaceId: ws.workspaceId, key } } });
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeGreaterThanOrEqual(24 * 3600_000);
    await prisma.idempotentRequest.update({
      where: { workspaceId_key: { workspaceId: ws.workspaceId, key } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const again = await post(ws.key, SEARCH, { query: "cats" }, key);
    expect(again.status).toBe(202);
    expect(replayed(again)).toBeNull();
    expect(await searches(ws.workspaceId)).toBe(2);

    const stale = randomUUID();
    await post(ws.key, "/api/v1/folders", { name: "old" }, stale);
    await prisma.idempotentRequest.update({
      where: { workspaceId_key: { workspaceId: ws.workspaceId, key: stale } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await pruneIdempotentRequests()).removed).toBeGreaterThanOrEqual(1);
    expect(await prisma.idempotentRequest.count({ where: { workspaceId: ws.workspaceId, key: stale } })).toBe(0);
    expect(await prisma.idempotentRequest.count({ where: { workspaceId: ws.workspaceId, key } })).toBe(1);
  });

  it("the prune runs hourly as a BullMQ job scheduler on the maintenance queue, and deletes through its handler", async () => {
    const schedulers = await schedulersOf(maintenanceQueue());
    expect(schedulers.find((s) => s.key === PRUNE_IDEMPOTENT_REQUESTS)).toMatchObject({ every: 3600_000 });
    const ws = await newWorkspace("free");
    const key = randomUUID();
    await runIdempotently(
      { workspaceId: ws.workspaceId, key, method: "TOOL", path: "test", payload: null, asker: "system:test" },
      async () => ({ status: 200, body: "{}" }),
    );
    await prisma.idempotentRequest.updateMany({ where: { workspaceId: ws.workspaceId }, data: { expiresAt: new Date(Date.now() - 1) } });
    const handler = maintenanceQueue().handlers[PRUNE_IDEMPOTENT_REQUESTS]!;
    expect(await handler({} as never, {} as never)).toMatchObject({ removed: expect.any(Number) });
    expect(await prisma.idempotentRequest.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
  });

  it("a claim whose process died is taken over once its lease ran out", async () => {
    const ws = await newWorkspace("free");
    const request = {
      workspaceId: ws.workspaceId,
      key: randomUUID(),
      method: "TOOL",
      path: "test",
      payload: { n: 1 },
      asker: "system:test",
    };
    expect((await claimIdempotentRequest(request)).kind).toBe("claimed");
    await expect(runIdempotently(request, async () => ({ status: 200, body: "{}" }))).rejects.toMatchObject({
      code: "IDEMPOTENCY_KEY_IN_USE",
    });
    await prisma.idempotentRequest.update({
      where: { workspaceId_key: { workspaceId: ws.workspaceId, key: request.key } },
      data: { lockedUntil: new Date(Date.now() - 1) },
    });
    let runs = 0;
    const work = async () => ({ status: 201, body: JSON.stringify({ run: ++runs }) });
    expect(await runIdempotently(request, work)).toEqual({ status: 201, body: '{"run":1}', replayed: false });
    expect(await runIdempotently(request, work)).toEqual({ status: 201, body: '{"run":1}', replayed: true });
    // A 5xx answer is not kept: the next call runs again.
    const failing = { ...request, key: randomUUID() };
    expect((await runIdempotently(failing, async () => ({ status: 503, body: "{}" }))).replayed).toBe(false);
    expect(await runIdempotently(failing, work)).toEqual({ status: 201, body: '{"run":2}', replayed: false });
  });
});

describe("documented", () => {
  it("OpenAPI: every write declares the Idempotency-Key header, 422 and 409 and Idempotent-Replayed; reads do not", async () => {
    const doc = (await request(api.url, "GET", "/api/v1/openapi.json")).body;
    let writes = 0;
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const header = (op.parameters ?? []).find((p: any) => p.in === "header" && p.name === "Idempotency-Key");
        if (method === "get") {
          expect(header, `${method} ${path}`).toBeUndefined();
          continue;
        }
        writes++;
        expect(header, `${method} ${path}`).toMatchObject({ required: false, schema: { type: "string", minLength: 1, maxLength: 255 } });
        expect(op.responses["422"].description, `${method} ${path}`).toContain("IDEMPOTENCY_KEY_REUSED");
        expect(op.responses["409"].description, `${method} ${path}`).toContain("IDEMPOTENCY_KEY_IN_USE");
        const success = Object.keys(op.responses).find((s) => s.startsWith("2"))!;
        expect(op.responses[success].headers?.["Idempotent-Replayed"], `${method} ${path}`).toBeDefined();
      }
    }
    expect(writes).toBeGreaterThan(15);
  });
});

describe("GraphQL mutations over HTTP", () => {
  const CREATE = `mutation ($query: String!) { createRadarSearch(query: $query) { id status } }`;
  const gqlPost = (key: string, variables: Record<string, unknown>, idempotencyKey?: string) =>
    request(api.url, "POST", "/graphql", {
      key,
      body: { query: CREATE, variables },
      headers: idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey },
    });

  it("a mutation retried with the same key runs once and answers the same result with Idempotent-Replayed: true", async () => {
    const ws = await newWorkspace("free");
    const key = randomUUID();
    const first = await gqlPost(ws.key, { query: "cats" }, key);
    expect(first.status).toBe(200);
    expect(first.body.errors).toBeUndefined();
    const again = await gqlPost(ws.key, { query: "cats" }, key);
    expect(again.text).toBe(first.text);
    expect(replayed(again)).toBe("true");
    expect(await searches(ws.workspaceId)).toBe(1);
    expect(await remaining(ws.workspaceId)).toBe(100);

    const reused = await gqlPost(ws.key, { query: "dogs" }, key);
    expect(reused.status).toBe(422);
    expect(reused.body.errors[0].extensions.code).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(await searches(ws.workspaceId)).toBe(1);

    const invalid = await gqlPost(ws.key, { query: "dogs" }, "x".repeat(256));
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors[0].extensions.code).toBe("VALIDATION_ERROR");
  });

  it("a domain error (4xx) is kept and answered again with its errors", async () => {
    const ws = await newWorkspace("free");
    await post(ws.key, SEARCH, { query: "a" });
    await post(ws.key, SEARCH, { query: "b" }); // 0 credits left
    const key = randomUUID();
    const first = await gqlPost(ws.key, { query: "cats" }, key);
    expect(first.body.errors[0].extensions.code).toBe("INSUFFICIENT_CREDITS");
    const again = await gqlPost(ws.key, { query: "cats" }, key);
    expect(again.status).toBe(first.status);
    expect(again.text).toBe(first.text);
    expect(replayed(again)).toBe("true");
  });

  it("a mutation refused as invalid (VALIDATION_ERROR, nothing run) is not kept: the fixed variables run under the same key", async () => {
    const ws = await newWorkspace("free");
    const key = randomUUID();
    const refused = await gqlPost(ws.key, { query: "" }, key);
    expect(refused.body.errors[0].extensions.code).toBe("VALIDATION_ERROR");
    const ran = await gqlPost(ws.key, { query: "cats" }, key);
    expect(ran.body.errors).toBeUndefined();
    expect(replayed(ran)).toBeNull();
    expect(await searches(ws.workspaceId)).toBe(1);
  });

  it("a mutation whose first run is still going: 409 IDEMPOTENCY_KEY_IN_USE with Retry-After, nothing run", async () => {
    const ws = await newWorkspace("free");
    const key = randomUUID();
    const variables = { query: "still running" };
    // The first request holds the key, as the GraphQL plugin claims it (src/http/graphql/idempotency.ts), and has not answered.
    const apiKey = await prisma.apiKey.findFirstOrThrow({ where: { workspaceId: ws.workspaceId } });
    const held = await claimIdempotentRequest({
      workspaceId: ws.workspaceId,
      key,
      method: "POST",
      path: "/graphql",
      payload: { query: CREATE, variables, operationName: null },
      asker: `api_key:${apiKey.id}`,
    });
    expect(held.kind).toBe("claimed");
    const r = await gqlPost(ws.key, variables, key);
    expect(r.status).toBe(409);
    expect(r.body.errors[0].extensions.code).toBe("IDEMPOTENCY_KEY_IN_USE");
    expect(r.headers.get("retry-after")).toBe("1");
    expect(await searches(ws.workspaceId)).toBe(0);
    expect(await remaining(ws.workspaceId)).toBe(200);
  });

  it("a key's answer is replayed only to whoever asked first: another key of the workspace gets 422, not the secret", async () => {
    const ws = await newWorkspace("free");
    const { createKey } = await import("../../src/domain/keys/service.js");
    const other = (await createKey(ws.workspaceId, "a second integration")).secret;
    const key = randomUUID();
    const mutation = { query: `mutation { createApiKey(name: "shown once") { secret } }` };
    const send = (apiKey: string) =>
      request(api.url, "POST", "/graphql", { key: apiKey, body: mutation, headers: { "idempotency-key": key } });
    const first = await send(ws.key);
    const secret = first.body.data.createApiKey.secret as string;
    expect(secret).toBeTruthy();
    const stolen = await send(other);
    expect(JSON.stringify(stolen.body)).not.toContain(secret);
    expect(stolen.body.errors[0].extensions.code).toBe("IDEMPOTENCY_KEY_REUSED");
    const again = await send(ws.key);
    expect(again.body.data.createApiKey.secret).toBe(secret);
    expect(replayed(again)).toBe("true");
  });

  it("queries ignore the header", async () => {
    const ws = await newWorkspace("free");
    const r = await request(api.url, "POST", "/graphql", {
      key: ws.key,
      body: { query: "{ __typename }" },
      headers: { "idempotency-key": "" },
    });
    expect(r.status).toBe(200);
    expect(replayed(r)).toBeNull();
  });
});

describe("MCP tools that spend credits or create take idempotencyKey", () => {
  async function connect(key: string): Promise<Client> {
    const c = new Client({ name: "idempotency-test", version: "1.0.0" });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }),
    );
    mcpClients.push(c);
    return c;
  }
  type ToolAnswer = { isError?: boolean; structuredContent?: any; _meta?: Record<string, unknown> };

  it("start_radar_search called again with the same idempotencyKey charges once and answers the first answer", async () => {
    const ws = await newWorkspace("free");
    const c = await connect(ws.key);
    const idempotencyKey = randomUUID();
    const first = (await c.callTool({ name: "start_radar_search", arguments: { query: "cats", idempotencyKey } })) as ToolAnswer;
    expect(first.isError).toBeUndefined();
    expect(first._meta?.idempotentReplayed).toBeUndefined();
    const again = (await c.callTool({ name: "start_radar_search", arguments: { query: "cats", idempotencyKey } })) as ToolAnswer;
    expect(again.structuredContent).toEqual(first.structuredContent);
    expect(again._meta?.idempotentReplayed).toBe(true);
    expect(await searches(ws.workspaceId)).toBe(1);
    expect(await remaining(ws.workspaceId)).toBe(100);

    const reused = (await c.callTool({ name: "start_radar_search", arguments: { query: "dogs", idempotencyKey } })) as ToolAnswer;
    expect(reused.isError).toBe(true);
    expect(reused.structuredContent.code).toBe("IDEMPOTENCY_KEY_REUSED");
    const invalid = (await c.callTool({ name: "start_radar_search", arguments: { query: "dogs", idempotencyKey: "" } })) as ToolAnswer;
    expect(invalid.isError).toBe(true);
    expect(invalid.structuredContent).toMatchObject({ code: "VALIDATION_ERROR", details: [{ path: "idempotencyKey" }] });
    expect(await searches(ws.workspaceId)).toBe(1);

    // The argument is published in the tool's input schema, on the tools that spend or create only.
    const { tools } = await c.listTools();
    const withKey = tools.filter((t) => t.inputSchema.properties && "idempotencyKey" in t.inputSchema.properties).map((t) => t.name);
    expect(withKey.sort()).toEqual([
      "analyze_video",
      "create_folder",
      "create_tag",
      "export_list",
      "start_radar_search",
      "track_account",
      "track_video",
    ]);
  });

  it("a REST key and an MCP key are one namespace per workspace: the same key for another request is refused", async () => {
    const ws = await newWorkspace("free");
    const c = await connect(ws.key);
    const key = randomUUID();
    expect((await post(ws.key, SEARCH, { query: "cats" }, key)).status).toBe(202);
    const r = (await c.callTool({ name: "start_radar_search", arguments: { query: "cats", idempotencyKey: key } })) as ToolAnswer;
    expect(r.structuredContent.code).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(await searches(ws.workspaceId)).toBe(1);
  });
});
