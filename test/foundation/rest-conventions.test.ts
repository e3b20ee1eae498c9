import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, newWorkspace, request, startTestApi, stopAll } from "../helpers/api.js";
import { spawnService } from "../helpers/processes.js";
import type { RunningApi } from "../../src/main/server.js";

let api: RunningApi;
let key: string;
beforeAll(async () => {
  api = await startTestApi();
  key = (await newWorkspace()).key;
});
afterAll(() => stopAll(api));

const errorShape = (code: string) => ({ code, message: expect.any(String) });

describe("authentication (401 UNAUTHORIZED)", () => {
  it.each([
    ["missing", undefined],
    ["not bearer", "Basic abc"],
    ["malformed", "Bearer svc_sk_short"],
    ["wrong prefix", `Bearer sk_live_${"a".repeat(43)}`],
    ["unknown", `Bearer svc_sk_${"a".repeat(43)}`],
    ["empty bearer", "Bearer "],
  ])("%s key", async (_name, header) => {
    const r = await request(api.url, "GET", "/api/v1/workspace", { headers: header ? { authorization: header } : {} });
    expect(r.status).toBe(401);
    expect(r.body).toEqual(errorShape("UNAUTHORIZED"));
  });
});

describe("request validation (400 VALIDATION_ERROR, never 500)", () => {
  it("malformed JSON", async () => {
    const r = await client(api.url, key).raw("POST", "/api/v1/settings/api-keys", {
      rawBody: '{"name": ',
      headers: { "content-type": "application/json" },
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(errorShape("VALIDATION_ERROR"));
  });

  it("a JSON body that is not an object", async () => {
    for (const raw of ['"just a string"', "42", "null", "[1,2]"]) {
      const r = await client(api.url, key).raw("POST", "/api/v1/settings/api-keys", {
        rawBody: raw,
        headers: { "content-type": "application/json" },
      });
      expect(r.status, raw).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
    }
  });

  it("wrong types and unknown fields, with details naming the field", async () => {
    const wrong = await client(api.url, key).post("/api/v1/settings/api-keys", { name: ["a"] });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details).toEqual([{ path: "body.name", message: expect.any(String) }]);
    const unknown = await client(api.url, key).post("/api/v1/settings/api-keys", { name: "a", admin: true });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe("VALIDATION_ERROR");
    expect(JSON.stringify(unknown.body.details)).toContain("admin");
  });

  it("a body sent without a JSON content type is 415 UNSUPPORTED_MEDIA_TYPE and not applied (hostile-input.test.ts has the rest)", async () => {
    const c = client(api.url, key);
    const before = (await c.get("/api/v1/settings/api-keys")).body.data.length;
    const r = await c.raw("POST", "/api/v1/settings/api-keys", { rawBody: '{"name":"plain"}', headers: { "content-type": "text/plain" } });
    expect(r.status).toBe(415);
    expect(r.body).toEqual(errorShape("UNSUPPORTED_MEDIA_TYPE"));
    expect((await c.get("/api/v1/settings/api-keys")).body.data.length).toBe(before);
  });

  it("bad UUID in a path", async () => {
    const r = await client(api.url, key).delete("/api/v1/settings/api-keys/123");
    expect(r.status).toBe(400);
    expect(r.body.details[0].path).toBe("params.keyId");
  });
});

describe("body size", () => {
  it("a body over 1 MiB is 413 PAYLOAD_TOO_LARGE; just under is read", async () => {
    const big = JSON.stringify({ name: "x".repeat(1024 * 1024) });
    const r = await client(api.url, key).raw("POST", "/api/v1/settings/api-keys", {
      rawBody: big,
      headers: { "content-type": "application/json" },
    });
    expect(r.status).toBe(413);
    expect(r.body).toEqual(errorShape("PAYLOAD_TOO_LARGE"));
    const under = JSON.stringify({ name: "x".repeat(1024 * 1024 - 100) });
    const ok = await client(api.url, key).raw("POST", "/api/v1/settings/api-keys", {
      rawBody: under,
      headers: { "content-type": "application/json" },
    });
    expect(ok.status).toBe(400); // read and validated (name too long), not refused for size
    expect(ok.body.code).toBe("VALIDATION_ERROR");
  });
});

describe("routing and headers", () => {
  it("unknown routes answer a JSON 404, with or without a key", async () => {
    for (const [method, path] of [
      ["GET", "/api/v1/nope"],
      ["POST", "/api/v1/workspace/nope"],
      ["GET", "/nothing-here"],
    ] as const) {
      const r = await request(api.url, method, path, { key });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body).toEqual(errorShape("NOT_FOUND"));
      expect(r.headers.get("content-type")).toMatch(/application\/json/);
    }
    // A known path with a method it does not serve is 405 with Allow (test/foundation/http-semantics.test.ts).
    const wrong = await request(api.url, "POST", "/api/v1/workspace", { key });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, HEAD");
  });

  it("every response carries X-Request-Id, echoing a valid incoming one", async () => {
    const echoed = await client(api.url, key).get("/api/v1/workspace", { "x-request-id": "trace-123.abc" });
    expect(echoed.headers.get("x-request-id")).toBe("trace-123.abc");
    const fresh = await client(api.url, key).get("/api/v1/workspace", { "x-request-id": "bad id with spaces" });
    expect(fresh.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const err = await request(api.url, "GET", "/api/v1/workspace");
    expect(err.headers.get("x-request-id")).toBeTruthy();
  });

  it("/healthz and /readyz need no key; readiness reports the checks, the runtime and the scrape provider", async () => {
    expect((await request(api.url, "GET", "/healthz")).body).toEqual({ status: "ok" });
    const ready = await request(api.url, "GET", "/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: "ready", checks: { database: "ok", redis: "ok" }, providers: { scrape: "simulated" } });
    expect(ready.body.runtime).toEqual({ node: process.versions.node });
  });

  it("runs on Node.js 24 LTS (the npm package `node` pinned in package.json), whatever the system's Node.js is", () => {
    // npm scripts put node_modules/.bin first on PATH, so `npm test` and `npm start` run the pinned binary.
    expect(Number(process.versions.node.split(".")[0])).toBe(24);
  });

  it("rate limit headers are sent on authenticated responses", async () => {
    const r = await client(api.url, key).get("/api/v1/workspace");
    // Each header must be present and a whole number (Number(null) is 0, so presence is checked first).
    const header = (name: string) => {
      const value = r.headers.get(name);
      expect(value, `${name} header`).toMatch(/^\d+$/);
      return Number(value);
    };
    expect(header("ratelimit-limit")).toBe(600);
    expect(header("ratelimit-remaining")).toBeLessThan(600);
    expect(header("ratelimit-reset")).toBeGreaterThanOrEqual(0);
    expect(header("ratelimit-reset")).toBeLessThanOrEqual(60);
  });
});

describe("in other processes", () => {
  it("429 RATE_LIMITED with Retry-After past the per-key limit, counted across processes in Redis", async () => {
    const limited = await spawnService("api", { RATE_LIMIT_PER_MINUTE: "5" });
    const limited2 = await spawnService("api", { RATE_LIMIT_PER_MINUTE: "5" });
    try {
      const ws = await newWorkspace();
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++)
        statuses.push((await client(i % 2 ? limited.url! : limited2.url!, ws.key).get("/api/v1/workspace")).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      const r = await client(limited.url!, ws.key).get("/api/v1/workspace");
      expect(r.status).toBe(429);
      expect(r.body).toEqual(errorShape("RATE_LIMITED"));
      expect(r.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(r.headers.get("ratelimit-remaining")).toBe("0");
      // Another key is not affected.
      expect((await client(limited.url!, (await newWorkspace()).key).get("/api/v1/workspace")).status).toBe(200);
    } finally {
      await limited.stop();
      await limited2.stop();
    }
  });

  it("503 SERVICE_UNAVAILABLE, not 500, when the database is unreachable", async () => {
    const broken = await spawnService("api", { DATABASE_URL: "postgresql://root@127.0.0.1:1/nothing" });
    try {
      const r = await client(broken.url!, key).get("/api/v1/workspace");
      expect(r.status).toBe(503);
      expect(r.body).toMatchObject({ code: "SERVICE_UNAVAILABLE", message: expect.any(String) });
      expect(r.text).not.toMatch(/at .*\.ts:\d+/); // no stack trace
      expect((await request(broken.url!, "GET", "/readyz")).status).toBe(503);
    } finally {
      await broken.stop();
    }
  });

  it("503 SERVICE_UNAVAILABLE when Redis is unreachable", async () => {
    const broken = await spawnService("api", { REDIS_URL: "redis://127.0.0.1:1" });
    try {
      const r = await client(broken.url!, key).get("/api/v1/workspace");
      expect(r.status).toBe(503);
      expect(r.body.code).toBe("SERVICE_UNAVAILABLE");
    } finally {
      await broken.stop("SIGKILL");
    }
  });
});
