/**
 * One auth rule and one rate-limit budget on every door, and revocation reaching live connections
 * (CONTRACT: "Hostile input, auth and limits"): the Authorization grammar on REST, GraphQL over HTTP,
 * WebSocket connection_init and MCP; a key's budget shared by REST, GraphQL over HTTP and each
 * WebSocket operation; a revoked key's WebSockets closed with 4403 and its SSE streams ended.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { client, gql, newWorkspace, request, startTestApi, stopAll } from "../helpers/api.js";
import type { OutgoingHttpHeaders } from "node:http";
import type { RunningApi } from "../../src/main/server.js";

const LIMIT = 8;
vi.hoisted(() => {
  process.env.RATE_LIMIT_PER_MINUTE = "8";
  process.env.REVOCATION_CHECK_INTERVAL_MS = "500";
});

let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => stopAll(api));

const wsUrl = () => api.url.replace("http", "ws") + "/graphql";

function wsClient(authorization: unknown, onClosed?: (code: number) => void): Client {
  return createClient({
    url: wsUrl(),
    webSocketImpl: WebSocket,
    connectionParams: { authorization },
    retryAttempts: 0,
    lazy: true,
    // One socket between operations (each new socket's connection_init costs a unit of the budget).
    lazyCloseTimeout: 60_000,
    on: { closed: (e: any) => onClosed?.(e?.code) },
  });
}

/** The first answer of a one-shot operation over the socket: "data", an error code, or "closed". */
function firstOutcome(c: Client, query: string, variables?: Record<string, unknown>): Promise<string> {
  return new Promise((resolve) => {
    c.subscribe(
      { query, variables },
      {
        next: (v: any) => resolve(v.errors?.[0]?.extensions?.code ?? "data"),
        error: (e: any) => resolve(Array.isArray(e) ? (e[0]?.extensions?.code ?? "error") : e?.code ? `closed:${e.code}` : "error"),
        complete: () => resolve("complete"),
      },
    );
  });
}

describe("Authorization: exactly `Bearer <key>` on every door", () => {
  let key: string;
  beforeAll(async () => {
    key = (await newWorkspace()).key;
  });

  const refused = (k: string) => [
    `Bearer ${k} x`,
    `Bearer ${k} ${k}`,
    `Bearer ${k},Bearer ${k}`,
    `Bearer  ${k}x`,
    `Bearer\t${k}`,
    `Basic ${k}`,
    `Token ${k}`,
    `Bearer${k}`,
    `x Bearer ${k}`,
    `Bearer "${k}"`,
    `${k}`,
    `Bearer ${k};`,
  ];
  const accepted = (k: string) => [`Bearer ${k}`, `bearer ${k}`, `BEARER ${k}`, `Bearer    ${k}`];

  it("REST, GraphQL over HTTP and MCP: 401 UNAUTHORIZED for anything else", async () => {
    for (const header of refused(key)) {
      const rest = await request(api.url, "GET", "/api/v1/workspace", { headers: { authorization: header } });
      expect(rest.status, header).toBe(401);
      expect(rest.body).toMatchObject({ code: "UNAUTHORIZED" });
      const graphql = await request(api.url, "POST", "/graphql", {
        headers: { authorization: header },
        body: { query: "{ workspace { plan } }" },
      });
      expect(graphql.status, header).toBe(401);
      expect(graphql.body.errors[0].extensions.code).toBe("UNAUTHORIZED");
      const mcp = await request(api.url, "POST", "/mcp", {
        headers: { authorization: header, accept: "application/json, text/event-stream" },
        body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
      });
      expect(mcp.status, header).toBe(401);
    }
    for (const header of accepted(key)) {
      expect((await request(api.url, "GET", "/api/v1/workspace", { headers: { authorization: header } })).status, header).toBe(200);
      const graphql = await request(api.url, "POST", "/graphql", {
        headers: { authorization: header },
        body: { query: "{ workspace { plan } }" },
      });
      expect(graphql.body.data?.workspace?.plan, header).toBe("free");
    }
  });

  it("a repeated Authorization header is a second token: 401 on REST, MCP and GraphQL", async () => {
    const { request: httpRequest } = await import("node:http");
    const send = (path: string, body: string) =>
      new Promise<string>((resolve, reject) => {
        const req = httpRequest(`${api.url}${path}`, {
          method: "POST",
          // An array value: Node sends one Authorization line per element.
          headers: {
            authorization: [`Bearer ${key}`, `Bearer ${key}`],
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          } as unknown as OutgoingHttpHeaders,
        });
        req.on("response", (res) => {
          let text = "";
          res.on("data", (c) => (text += c));
          res.on("end", () => resolve(`${res.statusCode} ${text.slice(0, 200)}`));
        });
        req.on("error", reject);
        req.end(body);
      });
    expect(await send("/api/v1/folders", '{"name":"twice"}')).toMatch(/^401 .*UNAUTHORIZED/);
    expect(await send("/graphql", '{"query":"{ workspace { plan } }"}')).toMatch(/^401 .*UNAUTHORIZED/);
    expect(await send("/mcp", '{"jsonrpc":"2.0","id":1,"method":"tools/list"}')).toMatch(/^401 .*UNAUTHORIZED/);
  });

  it("WebSocket connection_init: the same grammar (connection refused otherwise)", async () => {
    for (const header of [...refused(key), 42, null]) {
      const c = wsClient(header);
      expect(await firstOutcome(c, "{ workspace { plan } }"), String(header)).toMatch(/^closed:44\d\d$|^error$/);
      await c.dispose();
    }
    const ok = wsClient(`bearer   ${(await newWorkspace()).key}`);
    expect(await firstOutcome(ok, "{ workspace { plan } }")).toBe("data");
    await ok.dispose();
  });
});

describe("one rate-limit budget per key across REST, GraphQL over HTTP and WebSocket operations", () => {
  it("the budget is shared; past it each door refuses in its own form", async () => {
    const { key } = await newWorkspace();
    const c = client(api.url, key);
    const ws = wsClient(`Bearer ${key}`);
    // LIMIT units spent across the three doors (the socket's connection_init is one), then every door is over.
    expect(await firstOutcome(ws, "{ workspace { plan } }")).toBe("data"); // connection_init + the operation
    for (let i = 2; i < LIMIT; i++) {
      if (i % 3 === 0) expect((await c.get("/api/v1/workspace")).status).toBe(200);
      else if (i % 3 === 1) expect((await gql(api.url, key, "{ workspace { plan } }")).body.data.workspace.plan).toBe("free");
      else expect(await firstOutcome(ws, "{ workspace { plan } }")).toBe("data");
    }
    const rest = await c.get("/api/v1/workspace");
    expect(rest.status).toBe(429);
    expect(rest.body).toMatchObject({ code: "RATE_LIMITED" });
    expect(rest.headers.get("retry-after")).toMatch(/^\d+$/);

    const graphql = await gql(api.url, key, "{ workspace { plan } }");
    expect(graphql.status).toBe(429);
    expect(graphql.body.errors?.[0]?.extensions?.code).toBe("RATE_LIMITED");
    expect(graphql.body.data ?? null).toBeNull();
    expect(graphql.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(graphql.headers.get("ratelimit-remaining")).toBe("0");
    // The one mapping of a retryable refusal (src/http/errors.ts): the header and extensions.retryAfter say the same.
    expect(graphql.body.errors?.[0]?.extensions?.retryAfter).toBe(Number(graphql.headers.get("retry-after")));
    expect(rest.headers.get("ratelimit-remaining")).toBe("0");

    expect(await firstOutcome(ws, "{ workspace { plan } }")).toBe("RATE_LIMITED");
    // A subscription is an operation too.
    expect(await firstOutcome(ws, "subscription { creditsUpdated { totalRemaining } }")).toBe("RATE_LIMITED");
    await ws.dispose();

    // Another key has its own budget.
    expect((await client(api.url, (await newWorkspace()).key).get("/api/v1/workspace")).status).toBe(200);
  });

  it("GraphQL over HTTP answers with the RateLimit headers like REST", async () => {
    const { key } = await newWorkspace();
    const r = await gql(api.url, key, "{ workspace { plan } }");
    expect(r.status).toBe(200);
    expect(r.headers.get("ratelimit-limit")).toBe(String(LIMIT));
  });
});

describe("a revoked key's live connections end", () => {
  async function setUp() {
    const ws = await newWorkspace();
    const admin = client(api.url, ws.key);
    const extra = (await admin.post("/api/v1/settings/api-keys", { name: "live" })).body.data as { id: string; key: string };
    return { ...ws, admin, extra };
  }

  async function grantCredits(workspaceId: string, n: number) {
    const { grant } = await import("../../src/domain/credits/service.js");
    await grant({ workspaceId, amount: 1, idempotencyKey: `g${n}-${Math.random()}`, reason: "test" });
  }

  /** A live creditsUpdated subscription on its own socket, recording balances and the close code. */
  async function liveSubscription(workspaceId: string, key: string) {
    const state = { balances: [] as number[], closedWith: undefined as number | undefined, closedAt: 0 };
    const c = wsClient(`Bearer ${key}`, (code) => {
      state.closedWith ??= code;
      state.closedAt ||= Date.now();
    });
    c.subscribe(
      { query: "subscription { creditsUpdated { totalRemaining } }" },
      { next: (v: any) => state.balances.push(v.data?.creditsUpdated?.totalRemaining), error: () => undefined, complete: () => undefined },
    );
    await vi.waitFor(
      async () => {
        await grantCredits(workspaceId, 1);
        expect(state.balances.length).toBeGreaterThan(0);
      },
      { timeout: 5000, interval: 300 },
    );
    return { c, state };
  }

  async function balance(workspaceId: string): Promise<number> {
    const { getBalance } = await import("../../src/domain/credits/service.js");
    return (await getBalance(workspaceId)).totalRemaining;
  }

  it("WebSocket: closed with 4403 within 5 s (at once through the revocation event); no event after", async () => {
    const { workspaceId, admin, extra } = await setUp();
    const { c, state } = await liveSubscription(workspaceId, extra.key);
    const revokedAt = Date.now();
    expect((await admin.delete(`/api/v1/settings/api-keys/${extra.id}`)).status).toBe(200);
    // A change right after the revocation: its event must never reach the revoked key's socket.
    await grantCredits(workspaceId, 2);
    const afterRevocation = await balance(workspaceId);
    await vi.waitFor(() => expect(state.closedWith).toBe(4403), { timeout: 5000, interval: 50 });
    expect(state.closedAt - revokedAt).toBeLessThan(5000);
    await grantCredits(workspaceId, 3);
    await new Promise((r) => setTimeout(r, 300));
    expect(state.balances.filter((b) => b >= afterRevocation)).toEqual([]);
    await c.dispose();
  });

  it("WebSocket: closed by the periodic re-check when the revocation event is lost", async () => {
    const { workspaceId, extra } = await setUp();
    const { c, state } = await liveSubscription(workspaceId, extra.key);
    // Revoke as revokeKey does, but without announcing it (a lost event).
    const { withdrawKey, hashSecret } = await import("../../src/domain/keys/access.js");
    const { prisma } = await import("../../src/infra/db.js");
    await withdrawKey(hashSecret(extra.key));
    await prisma.apiKey.update({ where: { id: extra.id }, data: { revokedAt: new Date(), slot: null } });
    const started = Date.now();
    await vi.waitFor(() => expect(state.closedWith).toBe(4403), { timeout: 5000, interval: 50 });
    expect(Date.now() - started).toBeLessThan(5000);
    await c.dispose();
  });

  it("SSE: the stream ends, with no event after the revocation", async () => {
    const { workspaceId, admin, extra } = await setUp();
    const res = await fetch(`${api.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${extra.key}`, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ query: "subscription { creditsUpdated { totalRemaining } }" }),
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    let ended = false;
    const reading = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value);
      }
      ended = true;
    })();
    await vi.waitFor(
      async () => {
        await grantCredits(workspaceId, 4);
        expect(text).toContain("totalRemaining");
      },
      { timeout: 5000, interval: 300 },
    );
    expect((await admin.delete(`/api/v1/settings/api-keys/${extra.id}`)).status).toBe(200);
    const before = text.split("totalRemaining").length;
    // A change right after the revocation must not reach the revoked key's stream.
    await grantCredits(workspaceId, 5);
    await vi.waitFor(() => expect(ended).toBe(true), { timeout: 5000, interval: 50 });
    await reading;
    expect(text.split("totalRemaining").length).toBe(before);
  });

  it("other keys' connections stay open", async () => {
    const { workspaceId, admin, extra, key } = await setUp();
    let closed = false;
    const other = wsClient(`Bearer ${key}`, () => (closed = true));
    const events: unknown[] = [];
    other.subscribe(
      { query: "subscription { creditsUpdated { totalRemaining } }" },
      { next: (v) => events.push(v), error: () => undefined, complete: () => undefined },
    );
    await new Promise((r) => setTimeout(r, 300));
    expect((await admin.delete(`/api/v1/settings/api-keys/${extra.id}`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1200));
    await vi.waitFor(
      async () => {
        await grantCredits(workspaceId, 6);
        expect(events.length).toBeGreaterThan(0);
      },
      { timeout: 5000, interval: 300 },
    );
    expect(closed).toBe(false);
    await other.dispose();
  });
});
