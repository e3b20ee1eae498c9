/**
 * Abuse resistance of the GraphQL doors: no single cheap request, anonymous or not, may
 * starve or crash the service. Each case reproduces an attack on loopback, bounded in size and time:
 * aliased and nested introspection, answers that multiply, anonymous documents that are expensive to
 * parse, trusted documents and frame sizes on WebSocket, sockets and subscriptions per key, and the
 * fan-out of one write to many subscriptions of one key.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getIntrospectionQuery } from "graphql";
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gql, newWorkspace, request, startTestApi, stopAll } from "../helpers/api.js";
import { spawnService } from "../helpers/processes.js";
import { waitFor } from "../helpers/wait.js";
import { statementsOf } from "../helpers/statements.js";
import { createAccount, createTrackedVideo } from "../folders/fixtures.js";
import { announceVideo } from "../../src/domain/tracking/events.js";
import { subscribed as eventsSubscribed } from "../../src/infra/events.js";
import type { RunningApi } from "../../src/main/server.js";

const MAX_SOCKETS = 3;
const MAX_SUBSCRIPTIONS = 60;
vi.hoisted(() => {
  process.env.GRAPHQL_MAX_SOCKETS_PER_KEY = "3";
  process.env.GRAPHQL_MAX_SUBSCRIPTIONS_PER_KEY = "60";
  process.env.GRAPHQL_WS_AUTH_TIMEOUT_MS = "400";
  process.env.GRAPHQL_MAX_RESPONSE_VALUES = "20000";
});

let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => stopAll(api));

const wsUrl = () => api.url.replace("http", "ws") + "/graphql";

function wsClient(key: string, url = wsUrl(), onClosed?: (code: number) => void): Client {
  return createClient({
    url,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${key}` },
    retryAttempts: 0,
    lazy: true,
    // A socket stays open between operations (a lazy client would close it after each).
    lazyCloseTimeout: 60_000,
    on: { closed: (e: any) => onClosed?.(e?.code) },
  });
}

/** The first answer of an operation over the socket: "data", an error code, or "closed:<code>". */
function firstOutcome(
  c: Client,
  payload: { query: string; variables?: Record<string, unknown>; extensions?: Record<string, unknown> },
): Promise<string> {
  return new Promise((resolve) => {
    c.subscribe(payload as { query: string }, {
      next: (v: any) => resolve(v.errors?.[0]?.extensions?.code ?? "data"),
      error: (e: any) => resolve(Array.isArray(e) ? (e[0]?.extensions?.code ?? "error") : e?.code ? `closed:${e.code}` : "error"),
      complete: () => resolve("complete"),
    });
  });
}

const codeOf = (r: { body: any }) => r.body?.errors?.[0]?.extensions?.code;
const introspectionAliases = (n: number) =>
  `{ ${Array.from({ length: n }, (_, i) => `s${i}: __schema { types { name fields { name args { name type { name } } } } }`).join(" ")} }`;

describe("introspection and the size of an answer", () => {
  it("the standard introspection query is answered (GraphiQL, codegen, Relay)", async () => {
    const { key } = await newWorkspace();
    const r = await gql(api.url, key, getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, inputValueDeprecation: true }));
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.__schema.types.length).toBeGreaterThan(50);
  });

  it("introspection under aliases is refused before it runs (QUERY_TOO_COSTLY), on HTTP and WebSocket", async () => {
    const { key } = await newWorkspace();
    const started = Date.now();
    const r = await gql(api.url, key, introspectionAliases(2));
    expect(codeOf(r)).toBe("QUERY_TOO_COSTLY");
    expect(r.body.errors![0]!.message).toMatch(/introspection/);
    expect(r.body.data ?? null).toBeNull();
    // A few types by name are fine (each answers one type; aliases are bounded).
    const types = await gql(api.url, key, `{ a: __type(name: "Video") { name fields { name } } b: __type(name: "Account") { name } }`);
    expect(types.body.errors).toBeUndefined();
    // Through a fragment too.
    const viaFragment = await gql(
      api.url,
      key,
      `query { ...A b: __schema { queryType { name } } } fragment A on Query { a: __schema { queryType { name } } }`,
    );
    expect(codeOf(viaFragment)).toBe("QUERY_TOO_COSTLY");
    const c = wsClient(key);
    expect(await firstOutcome(c, { query: introspectionAliases(3) })).toBe("QUERY_TOO_COSTLY");
    await c.dispose();
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("introspection that lists members below a member list is refused (the answer would multiply)", async () => {
    const { key } = await newWorkspace();
    const nested = await gql(
      api.url,
      key,
      `{ __schema { types { fields { type { ofType { fields { type { ofType { fields { name } } } } } } } } } }`,
    );
    expect(codeOf(nested)).toBe("QUERY_TOO_COSTLY");
    const viaType = await gql(api.url, key, `{ __type(name: "Video") { fields { type { fields { name } } } } }`);
    expect(codeOf(viaType)).toBe("QUERY_TOO_COSTLY");
    const flat = await gql(api.url, key, `{ __type(name: "Video") { fields { name type { kind name ofType { kind name } } } } }`);
    expect(flat.body.errors).toBeUndefined();
  });

  it("an answer that could hold more values than GRAPHQL_MAX_RESPONSE_VALUES is refused before it runs", async () => {
    const { key } = await newWorkspace();
    // 25 pages of 100 videos, 8 values each: up to 22,500 values (limit 20,000 in this file; the shape's cost is small).
    const nested = (n: string) =>
      Array.from(
        { length: 25 },
        (_, i) => `p${i}: videos(first: ${n}) { edges { node { uuid url viewCount likeCount commentCount shareCount bookmarkCount } } }`,
      ).join(" ");
    // graphql-armor's shape cost multiplies literal page sizes only; the answer-size bound also reads variables.
    expect(codeOf(await gql(api.url, key, `{ ${nested("100")} }`))).toBe("QUERY_TOO_COSTLY");
    const withVariables = `query($n: Int) { ${nested("$n")} }`;
    const r = await gql(api.url, key, withVariables, { n: 100 });
    expect(codeOf(r)).toBe("QUERY_TOO_COSTLY");
    expect(r.body.errors![0]!.message).toMatch(/GRAPHQL_MAX_RESPONSE_VALUES/);
    expect(r.body.data ?? null).toBeNull();
    const small = await gql(api.url, key, withVariables, { n: 5 });
    expect(small.body.errors).toBeUndefined();
    expect(small.body.data.p0.edges).toEqual([]);
    // Aliases past GRAPHQL_MAX_ALIASES: a code of their own.
    const aliased = await gql(api.url, key, `{ ${Array.from({ length: 40 }, (_, i) => `a${i}: workspace { plan }`).join(" ")} }`);
    expect(codeOf(aliased)).toBe("QUERY_TOO_MANY_ALIASES");
    expect(aliased.body.errors![0]!.message).toMatch(/40 aliases; the limit is 30 \(GRAPHQL_MAX_ALIASES\)/);
  });
});

describe("documents that are expensive to read", () => {
  const nesting = (levels: number) => `${"{ a ".repeat(levels)}${"}".repeat(levels)}`;
  // Each just under the 1 MiB body limit.
  const directives = `{ workspace ${"@include(if: true) ".repeat(50_000)} { plan } }`;
  const spreads = `{ ...F ${"...F ".repeat(190_000)}} fragment F on Query { workspace { plan } }`;

  it("without a key: UNAUTHORIZED before the document is read (never INTERNAL_ERROR), and quickly", async () => {
    for (const query of [nesting(5_000), directives, spreads]) {
      const started = performance.now();
      const r = await request(api.url, "POST", "/graphql", { body: { query } });
      expect(r.status).toBe(401);
      expect(codeOf(r)).toBe("UNAUTHORIZED");
      expect(performance.now() - started).toBeLessThan(1_000);
    }
    // Over WebSocket nothing is read before connection_init with a key.
  });

  it("with a key: QUERY_TOO_LARGE or QUERY_TOO_DEEP at the token budget, never INTERNAL_ERROR", async () => {
    const { key } = await newWorkspace();
    // Past the parser's recursion or the token budget, whichever comes first.
    expect(codeOf(await gql(api.url, key, nesting(5_000)))).toMatch(/^QUERY_TOO_(DEEP|LARGE)$/);
    expect(codeOf(await gql(api.url, key, nesting(2_000)))).toMatch(/^QUERY_TOO_(DEEP|LARGE)$/);
    expect(codeOf(await gql(api.url, key, nesting(40)))).toBe("QUERY_TOO_DEEP");
    expect(codeOf(await gql(api.url, key, directives))).toBe("QUERY_TOO_LARGE");
    expect(codeOf(await gql(api.url, key, spreads))).toBe("QUERY_TOO_LARGE");
    expect(codeOf(await gql(api.url, key, `{ workspace ${"@include(if: true) ".repeat(60)} { plan } }`))).toBe("QUERY_TOO_MANY_DIRECTIVES");
  });
});

describe("graphql-ws has HTTP's bounds", () => {
  it("a frame over 1 MiB closes the socket (1009) before authentication, and the process stays well", async () => {
    const socket = new WebSocket(wsUrl(), "graphql-transport-ws");
    await new Promise((resolve) => socket.once("open", resolve));
    const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
    socket.send(JSON.stringify({ type: "connection_init", payload: { pad: "x".repeat(2 * 1024 * 1024) } }));
    expect(await closed).toBe(1009);
    expect((await request(api.url, "GET", "/healthz")).status).toBe(200);
  });

  it("a socket that never authenticates is closed after GRAPHQL_WS_AUTH_TIMEOUT_MS (4408)", async () => {
    const socket = new WebSocket(wsUrl(), "graphql-transport-ws");
    const started = Date.now();
    const code = await new Promise<number>((resolve) => socket.once("close", (c) => resolve(c)));
    expect(code).toBe(4408);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it(`at most ${MAX_SOCKETS} sockets per key (4429 past it, across the key's sockets); a closed one frees its place`, async () => {
    const { key } = await newWorkspace();
    const clients = Array.from({ length: MAX_SOCKETS }, () => wsClient(key));
    for (const c of clients) expect(await firstOutcome(c, { query: "{ workspace { plan } }" })).toBe("data");
    const closedWith: number[] = [];
    const extra = wsClient(key, wsUrl(), (code) => closedWith.push(code));
    expect(await firstOutcome(extra, { query: "{ workspace { plan } }" })).toBe("closed:4429");
    await extra.dispose();
    // Another key is not affected.
    const other = wsClient((await newWorkspace()).key);
    expect(await firstOutcome(other, { query: "{ workspace { plan } }" })).toBe("data");
    await other.dispose();
    await clients[0]!.dispose();
    const again = wsClient(key);
    await waitFor(
      "the closed socket's place",
      async () => (await firstOutcome(again, { query: "{ workspace { plan } }" })) === "data",
      5_000,
    );
    await again.dispose();
    for (const c of clients.slice(1)) await c.dispose();
  });

  it("every way a client leaves gives its place back: a close frame, a half-close, a dropped connection", async () => {
    const { key } = await newWorkspace();
    /** A raw socket that has authenticated (connection_ack), with the place it holds. */
    const acked = async () => {
      const socket = new WebSocket(wsUrl(), "graphql-transport-ws");
      await new Promise<void>((resolve, reject) => {
        socket.once("open", () => socket.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${key}` } })));
        socket.on("message", (m) => (JSON.parse(String(m)).type === "connection_ack" ? resolve() : undefined));
        socket.once("close", (code) => reject(new Error(`closed ${code} before its ack`)));
      });
      return socket;
    };
    const leaving = [await acked(), await acked(), await acked()];
    const [framed, halfClosed, dropped] = leaving as [WebSocket, WebSocket, WebSocket];
    framed.close(1000); // the close handshake, then the server ends the TCP connection
    (halfClosed as unknown as { _socket: import("node:net").Socket })._socket.end(); // a FIN without a close frame
    dropped.terminate(); // the connection cut: no close frame, no FIN from a live peer
    // All three places back: three new sockets are let in (the limit is three), none refused with 4429.
    await waitFor(
      "every place given back",
      async () => {
        const again = await Promise.allSettled([acked(), acked(), acked()]);
        for (const r of again) if (r.status === "fulfilled") r.value.terminate();
        return again.every((r) => r.status === "fulfilled");
      },
      10_000,
      200,
    );
  });

  it("trusted documents hold on WebSocket as on HTTP (GRAPHQL_PERSISTED_ONLY)", async () => {
    const { key } = await newWorkspace();
    const dir = await mkdtemp(join(tmpdir(), "persisted-ws-"));
    const manifest = join(dir, "persisted.json");
    await writeFile(
      manifest,
      JSON.stringify({
        plan1: "query Plan { workspace { plan } }",
        credits1: "subscription Credits { creditsUpdated { totalRemaining } }",
      }),
    );
    const only = await spawnService("api", { GRAPHQL_PERSISTED_OPERATIONS: manifest, GRAPHQL_PERSISTED_ONLY: "true" });
    try {
      const c = wsClient(key, only.url!.replace("http", "ws") + "/graphql");
      for (const query of [
        "{ workspace { plan } }",
        `mutation { createFolder(name: "x") { id } }`,
        "{ __schema { queryType { name } } }",
      ]) {
        expect(await firstOutcome(c, { query }), query).toBe("CANNOT_SEND_PQ_ID_AND_BODY");
      }
      expect(await firstOutcome(c, { query: "", extensions: { persistedQuery: { version: 1, sha256Hash: "plan1" } } })).toBe("data");
      expect(await firstOutcome(c, { query: "", extensions: { persistedQuery: { version: 1, sha256Hash: "nope" } } })).toBe(
        "PERSISTED_QUERY_NOT_IN_LIST",
      );
      await c.dispose();
      // SSE is HTTP: the same rule.
      const sse = await fetch(`${only.url}/graphql?query=${encodeURIComponent("subscription { creditsUpdated { totalRemaining } }")}`, {
        headers: { authorization: `Bearer ${key}`, accept: "text/event-stream" },
      });
      expect(await sse.text()).toMatch(/CANNOT_SEND_PQ_ID_AND_BODY/);
    } finally {
      await only.stop();
    }
  });
});

describe("live subscriptions per key", () => {
  it(`at most ${MAX_SUBSCRIPTIONS} live subscriptions per key, WebSocket and SSE together; an ended one frees its place`, async () => {
    const { key } = await newWorkspace();
    const c = wsClient(key);
    const ends: (() => void)[] = [];
    const started: Promise<void>[] = [];
    for (let i = 0; i < MAX_SUBSCRIPTIONS - 1; i++) {
      started.push(
        new Promise<void>((resolve, reject) => {
          ends.push(
            c.subscribe(
              { query: "subscription { creditsUpdated { totalRemaining } }" },
              { next: () => undefined, error: reject, complete: () => undefined },
            ),
          );
          resolve();
        }),
      );
    }
    await Promise.all(started);
    // The last place, over SSE.
    const abort = new AbortController();
    const sse = await fetch(`${api.url}/graphql?query=${encodeURIComponent("subscription { creditsUpdated { totalRemaining } }")}`, {
      headers: { authorization: `Bearer ${key}`, accept: "text/event-stream" },
      signal: abort.signal,
    });
    expect(sse.status).toBe(200);
    await waitFor(
      "the limit",
      async () => (await firstOutcome(c, { query: "subscription { creditsUpdated { totalRemaining } }" })) === "SUBSCRIPTION_LIMIT_REACHED",
      10_000,
    );
    const overSse = await fetch(`${api.url}/graphql?query=${encodeURIComponent("subscription { creditsUpdated { totalRemaining } }")}`, {
      headers: { authorization: `Bearer ${key}`, accept: "text/event-stream" },
    });
    expect(await overSse.text()).toMatch(/SUBSCRIPTION_LIMIT_REACHED/);
    // Queries are not subscriptions.
    expect(await firstOutcome(c, { query: "{ workspace { plan } }" })).toBe("data");
    // Ending one (the SSE stream) gives its place back.
    abort.abort();
    await waitFor(
      "the SSE stream's place",
      async () => {
        const outcome = await new Promise<string>((resolve) => {
          const end = c.subscribe(
            { query: "subscription { creditsUpdated { totalRemaining } }" },
            { next: () => undefined, error: (e: any) => resolve(e?.[0]?.extensions?.code ?? "error"), complete: () => resolve("complete") },
          );
          setTimeout(() => {
            end();
            resolve("live");
          }, 300);
        });
        return outcome === "live";
      },
      10_000,
    );
    for (const end of ends) end();
    await c.dispose();
  });
});

describe("fan-out: one write, many subscriptions of one key", () => {
  it("reads the changed record once per event for all the workspace's subscribers, not once per subscriber", async () => {
    const { key, workspaceId } = await newWorkspace();
    const account = await createAccount();
    const video = await createTrackedVideo(workspaceId, { accountId: account.id });
    const c = wsClient(key);
    const deliver = async (subscribers: number) => {
      const received: any[] = [];
      const ends = Array.from({ length: subscribers }, () =>
        c.subscribe(
          { query: "subscription { trackedVideosChanged { change video { uuid viewCount account { username } } } }" },
          { next: (v: any) => received.push(v), error: () => undefined, complete: () => undefined },
        ),
      );
      // Every subscription is live (its Redis SUBSCRIBE answered) before the write.
      await new Promise((r) => setTimeout(r, 300));
      await eventsSubscribed();
      const { statements } = await statementsOf(async () => {
        await announceVideo(video.id, "ready");
        await waitFor("every delivery", () => received.length >= subscribers, 15_000);
      });
      for (const end of ends) end();
      expect(
        received.every((v) => v.data.trackedVideosChanged.video.uuid === video.id && v.data.trackedVideosChanged.video.account.username),
      ).toBe(true);
      return statements;
    };
    const few = await deliver(2);
    const many = await deliver(50);
    // announceVideo's own read of the trackers, then the video and its account once each.
    expect(many.length, many.join("\n---\n")).toBeLessThanOrEqual(few.length);
    expect(many.length).toBeLessThanOrEqual(3);
    await c.dispose();
  });
});
