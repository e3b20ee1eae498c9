/**
 * Abuse resistance, the smaller holes: forged cursors reaching PostgreSQL, foreign-key
 * races answered 500, INTERNAL_ERROR for `node(id:)` of another Workspace id and a negative
 * `@stream(initialCount:)`, MCP batches counted as one request, and slow anonymous clients holding a
 * connection for Node's default five minutes.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { connect as tcpConnect } from "node:net";
import { randomUUID } from "node:crypto";
import { client, gql, newWorkspace, request, startTestApi, stopAll } from "../helpers/api.js";
import { createAccount, createTrackedVideo, trackAccount } from "../folders/fixtures.js";
import type { RunningApi } from "../../src/main/server.js";

vi.hoisted(() => {
  process.env.WEBHOOK_SECRET_KEY = "test-only-webhook-secret-key-0123456789";
  process.env.HTTP_HEADERS_TIMEOUT_MS = "500";
  process.env.HTTP_REQUEST_TIMEOUT_MS = "1000";
});

let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => stopAll(api));

const codeOf = (r: { body: any }) => r.body?.errors?.[0]?.extensions?.code;
const cursor = (values: unknown[]) => Buffer.from(JSON.stringify(values)).toString("base64url");

describe("forged cursors are checked as values before any SQL", () => {
  it("VALIDATION_ERROR for days that do not exist, year 0000, integers past their type, unstorable text; never INTERNAL_ERROR", async () => {
    const { key, workspaceId } = await newWorkspace();
    await createTrackedVideo(workspaceId, { views: 10 } as never);
    const id = randomUUID();
    const cases: [string, unknown[]][] = [
      ["TRACKED_AT", ["2024-02-30T00:00:00.000Z", id]],
      ["TRACKED_AT", ["2024-02-30", id]],
      ["TRACKED_AT", ["0000-01-01T00:00:00.000Z", id]],
      ["TRACKED_AT", ["2024-13-01T00:00:00.000Z", id]],
      ["TRACKED_AT", ["2024-01-01T25:00:00.000Z", id]],
      ["POSTED_AT", ["2023-02-29T10:00:00Z", id]],
      ["VIEWS", ["9223372036854775808", id]],
      ["VIEWS", ["-9223372036854775809", id]],
      ["VIEWS", [1.5, id]],
      ["VIEWS", [1e300, id]],
      ["ENGAGEMENT", ["NaN", id]],
      ["TRACKED_AT", ["2024-01-01T00:00:00.000Z", "not-a-uuid"]],
    ];
    for (const [sort, values] of cases) {
      const r = await gql(
        api.url,
        key,
        `query($after: String, $sort: VideoSort) { videos(first: 5, after: $after, sort: $sort) { edges { node { uuid } } } }`,
        {
          after: cursor(values),
          sort,
        },
      );
      expect(codeOf(r), `${sort} ${JSON.stringify(values)}`).toBe("VALIDATION_ERROR");
    }
    // Real values in range still page.
    for (const [sort, values] of [
      ["VIEWS", ["9223372036854775807", id]],
      ["TRACKED_AT", ["2024-02-29T00:00:00.000Z", id]],
    ] as [string, unknown[]][]) {
      const r = await gql(
        api.url,
        key,
        `query($after: String, $sort: VideoSort) { videos(first: 5, after: $after, sort: $sort) { edges { node { uuid } } } }`,
        { after: cursor(values), sort },
      );
      expect(r.body.errors, `${sort} ${JSON.stringify(values)}`).toBeUndefined();
    }
  });
});

describe("foreign-key races answer NOT_FOUND or a per-item failure, never 500", () => {
  it("POST /webhooks/{id}/test racing DELETE /webhooks/{id}", async () => {
    const { key } = await newWorkspace();
    const c = client(api.url, key);
    for (let i = 0; i < 15; i++) {
      const created = await c.post("/api/v1/webhooks", { url: "https://hooks.example.com/race", events: ["video.spike"] });
      expect(created.status).toBe(201);
      const id = created.body.data.id;
      const [test, del] = await Promise.all([c.post(`/api/v1/webhooks/${id}/test`), c.delete(`/api/v1/webhooks/${id}`)]);
      expect([202, 404], JSON.stringify(test.body)).toContain(test.status);
      expect(del.status).toBe(200);
    }
  });

  it("adding videos and accounts to a folder racing their untrack", async () => {
    const { key, workspaceId } = await newWorkspace("pro");
    const c = client(api.url, key);
    for (let i = 0; i < 15; i++) {
      const folder = (await c.post("/api/v1/folders", { name: `race ${i}` })).body.data;
      const account = await createAccount();
      const video = await createTrackedVideo(workspaceId, { accountId: account.id });
      await trackAccount(workspaceId, account.id);
      const [addVideo, untrack, addAccount, untrackAccount] = await Promise.all([
        c.post(`/api/v1/folders/${folder.id}/videos`, { video_ids: [video.id] }),
        c.post("/api/v1/videos/bulk-untrack", { ids: [video.id] }),
        c.post(`/api/v1/folders/${folder.id}/accounts`, { account_ids: [account.id] }),
        c.delete(`/api/v1/accounts/${account.id}`),
      ]);
      for (const r of [addVideo, untrack, addAccount, untrackAccount]) expect(r.status, JSON.stringify(r.body)).toBeLessThan(500);
    }
  });
});

describe("INTERNAL_ERROR no more", () => {
  it("node(id:) of another or unknown Workspace id is null", async () => {
    const { key } = await newWorkspace();
    const other = await newWorkspace();
    for (const uuid of [other.workspaceId, randomUUID()]) {
      const id = Buffer.from(`Workspace:${uuid}`).toString("base64");
      const r = await gql(api.url, key, `query($id: ID!) { node(id: $id) { id } }`, { id });
      expect(r.body.errors, JSON.stringify(r.body)).toBeUndefined();
      expect(r.body.data.node).toBeNull();
    }
  });

  it("@stream(initialCount: -1) is VALIDATION_ERROR, literal or variable", async () => {
    const { key } = await newWorkspace();
    const literal = await gql(api.url, key, `{ nodes(ids: []) @stream(initialCount: -1) { id } }`);
    expect(codeOf(literal)).toBe("VALIDATION_ERROR");
    const variable = await gql(api.url, key, `query($n: Int!) { nodes(ids: []) @stream(initialCount: $n) { id } }`, { n: -5 });
    expect(codeOf(variable)).toBe("VALIDATION_ERROR");
  });
});

describe("MCP batches are counted per call", () => {
  it("a batch of N tools/list costs N units of the key's budget", async () => {
    const { key } = await newWorkspace();
    const headers = { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
    const one = await request(api.url, "POST", "/mcp", { key, body: { jsonrpc: "2.0", id: 1, method: "tools/list" }, headers });
    const before = Number(one.headers.get("ratelimit-remaining"));
    const batch = Array.from({ length: 20 }, (_, i) => ({ jsonrpc: "2.0", id: i + 2, method: "tools/list" }));
    const batched = await request(api.url, "POST", "/mcp", { key, body: batch, headers });
    expect(batched.status).toBe(200);
    expect(batched.body).toHaveLength(20);
    expect(Number(batched.headers.get("ratelimit-remaining"))).toBe(before - 20);
  });
});

describe("slow clients are cut", () => {
  /** Writes `chunks` slowly on a raw connection; answers what the server sent and how long it took to close. */
  const slowly = (chunks: string[]) =>
    new Promise<{ text: string; ms: number }>((resolve) => {
      const started = Date.now();
      const socket = tcpConnect(api.port, "127.0.0.1");
      let text = "";
      socket.on("data", (d) => (text += d.toString()));
      socket.on("close", () => resolve({ text, ms: Date.now() - started }));
      socket.on("error", () => undefined);
      socket.write(chunks[0]!);
      let i = 1;
      const timer = setInterval(() => {
        if (socket.destroyed || i >= chunks.length) return clearInterval(timer);
        socket.write(chunks[i++]!);
      }, 200);
    });

  it("headers that never finish: closed (408) after HTTP_HEADERS_TIMEOUT_MS", async () => {
    const r = await slowly(["POST /graphql HTTP/1.1\r\nHost: x\r\n", ...Array.from({ length: 30 }, (_, i) => `X-Slow-${i}: y\r\n`)]);
    expect(r.text).toMatch(/^HTTP\/1\.1 408/);
    expect(r.ms).toBeLessThan(3_000);
  });

  it("a body that never finishes: closed (408) after HTTP_REQUEST_TIMEOUT_MS; without a key, refused (401) before it is read", async () => {
    const head = (auth: string) =>
      `POST /api/v1/folders HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n`;
    const { key } = await newWorkspace();
    const r = await slowly([head(`Authorization: Bearer ${key}\r\n`), ...Array.from({ length: 30 }, () => " ")]);
    expect(r.text).toMatch(/^HTTP\/1\.1 408/);
    expect(r.ms).toBeLessThan(4_000);
    const anonymous = await slowly([head(""), ...Array.from({ length: 30 }, () => " ")]);
    expect(anonymous.text).toMatch(/^HTTP\/1\.1 401/);
    expect(anonymous.ms).toBeLessThan(4_000);
  });
});
