/**
 * What HTTP clients and generated clients meet first: every 401 of REST, /mcp and GraphQL carries
 * `WWW-Authenticate: Bearer` (with `error="invalid_token"` when a key was sent and refused, RFC 6750), a known
 * path asked with the wrong method is 405 with `Allow`, and tracking an account says what it costs in slots.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, newWorkspace, request, startTestApi, stopAll } from "../helpers/api.js";
import type { RunningApi } from "../../src/main/server.js";

let api: RunningApi;
let key: string;
beforeAll(async () => {
  api = await startTestApi();
  key = (await newWorkspace()).key;
});
afterAll(() => stopAll(api));

const UNKNOWN_KEY = `svc_sk_${"a".repeat(43)}`;
const MCP_INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};

describe("WWW-Authenticate on every 401", () => {
  it.each([
    ["REST", "GET", "/api/v1/workspace", undefined],
    ["MCP", "POST", "/mcp", MCP_INIT],
    ["GraphQL", "POST", "/graphql", { query: "{ workspace { plan } }" }],
  ])('%s: no key is a bare Bearer challenge; a refused key adds error="invalid_token"', async (_door, method, path, body) => {
    const headers = { accept: "application/json, text/event-stream" };
    const none = await request(api.url, method, path, { body, headers });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="video-service"');
    if (path !== "/graphql")
      expect(none.body).toMatchObject({ code: "UNAUTHORIZED", message: expect.stringContaining("Authorization: Bearer") });
    for (const sent of [UNKNOWN_KEY, "svc_sk_short"]) {
      const refused = await request(api.url, method, path, { body, key: sent, headers });
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toMatch(
        /^Bearer realm="video-service", error="invalid_token", error_description="[^"]+"$/,
      );
    }
    const basic = await request(api.url, method, path, { body, headers: { ...headers, authorization: "Basic abc" } });
    expect(basic.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
  });

  it("an accepted key gets no challenge", async () => {
    const r = await client(api.url, key).get("/api/v1/workspace");
    expect(r.status).toBe(200);
    expect(r.headers.get("www-authenticate")).toBeNull();
  });
});

describe("405 METHOD_NOT_ALLOWED with Allow", () => {
  it.each([
    ["PUT", "/api/v1/videos", "GET, POST, HEAD"],
    ["PATCH", "/api/v1/workspace", "GET, HEAD"],
    ["DELETE", "/api/v1/credits", "GET, HEAD"],
    ["POST", "/api/v1/openapi.json", "GET, HEAD"],
    ["GET", "/api/v1/radar/search", "POST"],
    ["PUT", "/api/v1/folders/00000000-0000-4000-8000-000000000000", "GET, PATCH, DELETE, HEAD"],
    ["POST", "/readyz", "GET, HEAD"],
    ["DELETE", "/healthz", "GET, HEAD"],
  ])("%s %s", async (method, path, allow) => {
    const r = await request(api.url, method, path, { key });
    expect(r.status).toBe(405);
    expect(new Set(r.headers.get("allow")!.split(", "))).toEqual(new Set(allow.split(", ")));
    expect(r.body).toEqual({ code: "METHOD_NOT_ALLOWED", message: expect.stringContaining(`${method} is not allowed here`) });
  });

  it("is answered without a key (paths and methods are public in the OpenAPI document); unknown paths stay 404", async () => {
    expect((await request(api.url, "PUT", "/api/v1/videos")).status).toBe(405);
    expect((await request(api.url, "GET", "/api/v1/no-such-thing", { key })).status).toBe(404);
    expect((await request(api.url, "GET", "/api/v1/videos/a/b/c", { key })).status).toBe(404);
  });
});

describe("tracking an account states its slot cost", () => {
  it("POST /accounts' message says how many of the plan's slots its videos may take", async () => {
    const r = await client(api.url, key).post("/api/v1/accounts", { url: "https://www.tiktok.com/@slotcost", video_limit: 7 });
    expect(r.status).toBe(201);
    expect(r.body.message).toMatch(
      /Up to 7 of its newest videos \(video_limit\) will be tracked, each taking one of the plan's tracking slots/,
    );
  });
});
