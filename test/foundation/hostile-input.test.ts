/**
 * Nothing a client sends produces a 500: every REST route of the route list (so a new route is
 * covered without touching this file) gets malformed ids, query values and bodies, and must answer
 * a 4xx with the contract's error shape.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { z } from "zod";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { gql, newWorkspace, request, startTestApi, stopAll } from "../helpers/api.js";
import { allRoutes } from "../../src/http/rest/routes/index.js";
import type { AnyRoute } from "../../src/http/rest/route.js";
import type { RunningApi } from "../../src/main/server.js";

// Thousands of requests from one key: lift the rate limit before the configuration is read, so
// every request reaches validation (a 429 here would hide a 500).
vi.hoisted(() => {
  process.env.RATE_LIMIT_PER_MINUTE = "1000000";
});

let api: RunningApi;
let key: string;
let openapi: { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
beforeAll(async () => {
  api = await startTestApi();
  key = (await newWorkspace("free")).key;
  openapi = (await request(api.url, "GET", "/api/v1/openapi.json")).body;
});
afterAll(() => stopAll(api));

const BAD_IDS = ["not-a-uuid", "00000000-0000-4000-8000-000000000000", "%27%3B%20DROP%20TABLE%20videos%3B--", "x".repeat(300)];
const BAD_VALUES: unknown[] = [null, -1, 1e300, "", " ", "x".repeat(5000), [], {}, [1, "a", null], { $gt: "" }, true, "\u0000", "ø😀"];
const BAD_QUERY_VALUES = ["abc", "-1", "0", "1e309", "NaN", "2026-02-30", "99999999999999999999", "%00", "true"];

const shapeKeys = (schema: z.ZodType | undefined): string[] =>
  schema && "shape" in schema ? Object.keys((schema as unknown as z.ZodObject).shape) : [];

function pathWith(route: AnyRoute, id: string): string {
  return `/api/v1${route.path.replace(/\{\w+\}/g, id)}`;
}

/** The analyze endpoint's credit error has the spec's `{statusCode, message}` shape; every other error `{code, message}`. */
function expectClientError(route: AnyRoute, what: string, r: { status: number; body: any; text: string }) {
  expect(r.status, `${route.method.toUpperCase()} ${route.path} ${what}: ${r.text.slice(0, 300)}`).toBeLessThan(500);
  expect(r.status, "rate limited: the input was never validated").not.toBe(429);
  if (r.status >= 400) {
    // The OpenAPI document is true: every error status a route answers is documented for it.
    const documented = Object.keys(openapi.paths[`/api/v1${route.path}`]?.[route.method]?.responses ?? {});
    expect(documented, `${route.method.toUpperCase()} ${route.path} answered ${r.status} (${what}), undocumented`).toContain(String(r.status));
    expect(typeof r.body?.message, `${route.path} ${what}`).toBe("string");
    expect(r.body.code ?? r.body.statusCode, `${route.path} ${what}`).toBeDefined();
    expect(r.text).not.toMatch(/\bat .+\.(ts|js):\d+/);
  }
}

describe("hostile input on every REST route", () => {
  const routes = allRoutes.filter((r) => r.auth !== false);

  it.each(routes.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r] as const))("%s", async (_name, route) => {
    const method = route.method.toUpperCase();
    const ids = route.path.includes("{") ? BAD_IDS : [""];
    for (const id of ids) {
      const path = pathWith(route, id);
      expectClientError(route, `id=${id.slice(0, 20)}`, await request(api.url, method, path, { key, body: route.body ? {} : undefined }));

      for (const name of shapeKeys(route.query)) {
        for (const value of BAD_QUERY_VALUES) {
          const r = await request(api.url, method, `${path}?${name}=${encodeURIComponent(value)}&${name}=${encodeURIComponent(value)}`, { key });
          expectClientError(route, `query ${name}=${value} (twice)`, r);
          const once = await request(api.url, method, `${path}?${name}=${encodeURIComponent(value)}`, { key });
          expectClientError(route, `query ${name}=${value}`, once);
        }
      }

      if (route.body) {
        for (const raw of ["", "{", "[]", '"x"', "null", "1", '{"__proto__": {"admin": true}}']) {
          const r = await request(api.url, method, path, { key, rawBody: raw, headers: { "content-type": "application/json" } });
          expectClientError(route, `raw body ${raw}`, r);
        }
        for (const field of shapeKeys(route.body)) {
          for (const value of BAD_VALUES) {
            const r = await request(api.url, method, path, { key, body: { [field]: value } });
            expectClientError(route, `body ${field}=${JSON.stringify(value)?.slice(0, 30)}`, r);
          }
        }
      }
    }
  });
});

describe("NUL characters (PostgreSQL text cannot hold them)", () => {
  it("REST: 400 VALIDATION_ERROR naming the field, in bodies and query strings", async () => {
    const r = await request(api.url, "POST", "/api/v1/folders", { key, body: { name: "a\u0000b" } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: "VALIDATION_ERROR", details: [{ path: "body.name" }] });
    const q = await request(api.url, "GET", "/api/v1/radar/history?limit=%00", { key });
    expect(q.status).toBe(400);
  });

  it("GraphQL: VALIDATION_ERROR in literals and variables, for mutations and subscriptions", async () => {
    const literal = await gql(api.url, key, 'mutation { createApiKey(name: "a\\u0000b") { secret } }');
    expect(literal.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
    const variable = await gql(api.url, key, "mutation($n: String!) { createApiKey(name: $n) { secret } }", { n: "a\u0000b" });
    expect(variable.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
    expect(variable.body.data ?? null).toBeNull();
    const ws = createClient({
      url: api.url.replace("http", "ws") + "/graphql",
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${key}` },
      retryAttempts: 0,
    });
    const code = await new Promise<string>((resolve) => {
      ws.subscribe(
        { query: "subscription($id: ID!) { radarSearchUpdated(id: $id) { status } }", variables: { id: "x\u0000" } },
        {
          next: (v: any) => resolve(v.errors?.[0]?.extensions?.code ?? "next"),
          error: (e: any) => resolve(Array.isArray(e) ? e[0]?.extensions?.code : "error"),
          complete: () => resolve("complete"),
        },
      );
    });
    expect(code).toBe("VALIDATION_ERROR");
    await ws.dispose();
  });
});
