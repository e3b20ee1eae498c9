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
function expectClientError(route: AnyRoute, what: string, r: { status: number; body: any; text: string }, mustFail = false) {
  expect(r.status, `${route.method.toUpperCase()} ${route.path} ${what}: ${r.text.slice(0, 300)}`).toBeLessThan(500);
  // Inputs that no route may accept (a malformed or unknown id, a body that is not a JSON object) are refused.
  if (mustFail) expect(r.status, `${route.method.toUpperCase()} ${route.path} accepted ${what}`).toBeGreaterThanOrEqual(400);
  expect(r.status, "rate limited: the input was never validated").not.toBe(429);
  if (r.status >= 400) {
    // The OpenAPI document is true: every error status a route answers is documented for it.
    const documented = Object.keys(openapi.paths[`/api/v1${route.path}`]?.[route.method]?.responses ?? {});
    expect(documented, `${route.method.toUpperCase()} ${route.path} answered ${r.status} (${what}), undocumented`).toContain(
      String(r.status),
    );
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
      expectClientError(
        route,
        `id=${id.slice(0, 20)}`,
        await request(api.url, method, path, { key, body: route.body ? {} : undefined }),
        id !== "",
      );

      for (const name of shapeKeys(route.query)) {
        for (const value of BAD_QUERY_VALUES) {
          const r = await request(api.url, method, `${path}?${name}=${encodeURIComponent(value)}&${name}=${encodeURIComponent(value)}`, {
            key,
          });
          expectClientError(route, `query ${name}=${value} (twice)`, r);
          const once = await request(api.url, method, `${path}?${name}=${encodeURIComponent(value)}`, { key });
          expectClientError(route, `query ${name}=${value}`, once);
        }
      }

      if (route.body) {
        for (const raw of ["", "{", "[]", '"x"', "null", "1", '{"__proto__": {"admin": true}}']) {
          const r = await request(api.url, method, path, { key, rawBody: raw, headers: { "content-type": "application/json" } });
          // Not JSON, or JSON that is not an object: refused whatever the route (an empty body may mean "no fields").
          expectClientError(route, `raw body ${raw}`, r, raw !== "" && !raw.startsWith('{"'));
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

// ---------------------------------------------------------------------------------------------
// CONTRACT "Hostile input, auth and limits"

const routesWithId = () => allRoutes.filter((r) => r.auth !== false && r.path.includes("{"));

async function countRows(table: string): Promise<number> {
  const { prisma } = await import("../../src/infra/db.js");
  const [row] = await prisma.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM ${table}`);
  return Number(row!.n);
}

describe("path segments that are not percent-encoded UTF-8", () => {
  it.each(["%", "%zz", "%ff%fe", "%ed%a0%80", "abc%", "%c3"])("%s: 400 VALIDATION_ERROR on every route with an id", async (segment) => {
    for (const route of routesWithId()) {
      const path = `/api/v1${route.path.replace(/\{\w+\}/, segment).replace(/\{\w+\}/g, "00000000-0000-4000-8000-000000000000")}`;
      const r = await request(api.url, route.method.toUpperCase(), path, { key, body: route.body ? {} : undefined });
      expect(r.status, `${route.method.toUpperCase()} ${path}: ${r.text.slice(0, 200)}`).toBe(400);
      expect(r.body).toMatchObject({ code: "VALIDATION_ERROR", message: expect.any(String) });
      expect(r.text).not.toMatch(/URIError|decode param/i);
    }
  });
});

describe("NUL and lone surrogates, on every door", () => {
  const SURROGATE_BODY = (field: string, value: string) => `{"${field}":"${value}"}`;
  const json = { "content-type": "application/json" };

  it("REST: folder create and rename with \\ud800 are 400 VALIDATION_ERROR, nothing stored", async () => {
    const folders = await countRows("folders");
    for (const v of ["\\ud800", "a\\udfffb", "\\udc00\\ud800", "x\\u0000"]) {
      const created = await request(api.url, "POST", "/api/v1/folders", { key, rawBody: SURROGATE_BODY("name", v), headers: json });
      expect(created.status, v).toBe(400);
      expect(created.body).toMatchObject({ code: "VALIDATION_ERROR", details: [{ path: "body.name" }] });
    }
    expect(await countRows("folders")).toBe(folders);
    const id = (await request(api.url, "POST", "/api/v1/folders", { key, body: { name: "before" } })).body.data.id;
    const renamed = await request(api.url, "PATCH", `/api/v1/folders/${id}`, {
      key,
      rawBody: SURROGATE_BODY("name", "\\ud800"),
      headers: json,
    });
    expect(renamed.status).toBe(400);
    expect(renamed.body.code).toBe("VALIDATION_ERROR");
    expect((await request(api.url, "GET", `/api/v1/folders/${id}`, { key })).body.data.name).toBe("before");
    // A surrogate pair (an emoji) is valid Unicode and kept.
    const emoji = await request(api.url, "POST", "/api/v1/folders", {
      key,
      rawBody: SURROGATE_BODY("name", "\\ud83d\\ude00"),
      headers: json,
    });
    expect(emoji.status).toBe(201);
    expect(emoji.body.data.name).toBe("😀");
  });

  it("REST: in a key, a nested value and a query string too", async () => {
    const keyed = await request(api.url, "POST", "/api/v1/folders", { key, rawBody: '{"name":"n","\\ud800":1}', headers: json });
    expect(keyed.status).toBe(400);
    expect(keyed.body.code).toBe("VALIDATION_ERROR");
    const nested = await request(api.url, "POST", "/api/v1/radar/search", {
      key,
      rawBody: '{"query":"a","extra":["\\ud800"]}',
      headers: json,
    });
    expect(nested.body.code).toBe("VALIDATION_ERROR");
    const q = await request(api.url, "GET", "/api/v1/videos?q=a%00b", { key });
    expect(q.status).toBe(400);
    expect(q.body.code).toBe("VALIDATION_ERROR");
  });

  it("REST: in a url field it is INVALID_URL (videos and accounts), nothing tracked", async () => {
    const [videos, accounts] = [await countRows("tracked_videos"), await countRows("tracked_accounts")];
    for (const [path, url] of [
      ["/api/v1/videos", "https://www.tiktok.com/@a/video/1\\u0000"],
      ["/api/v1/videos", "https://www.tiktok.com/@a/video/1\\ud800"],
      ["/api/v1/accounts", "https://www.tiktok.com/@someone\\u0000"],
      ["/api/v1/accounts", "https://www.instagram.com/\\udc00someone/"],
    ] as const) {
      const r = await request(api.url, "POST", path, { key, rawBody: SURROGATE_BODY("url", url), headers: json });
      expect(r.status, url).toBe(400);
      expect(r.body.code, url).toBe("INVALID_URL");
    }
    expect([await countRows("tracked_videos"), await countRows("tracked_accounts")]).toEqual([videos, accounts]);
  });

  it("GraphQL: variables and literals are VALIDATION_ERROR (extensions.code), url arguments INVALID_URL", async () => {
    const folders = await countRows("folders");
    const post = (body: string) => request(api.url, "POST", "/graphql", { key, rawBody: body, headers: json });
    const create = await post('{"query":"mutation($n: String!) { createFolder(name: $n) { name } }","variables":{"n":"\\ud800"}}');
    expect(create.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
    expect(create.body.data ?? null).toBeNull();
    const rename = await post(
      '{"query":"mutation($id: ID!, $n: String!) { renameFolder(id: $id, name: $n) { name } }","variables":{"id":"00000000-0000-4000-8000-000000000000","n":"a\\udc00"}}',
    );
    expect(rename.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
    // In the document: as a character (JSON escape) and as a GraphQL escape.
    const literalChar = await post('{"query":"mutation { createFolder(name: \\"\\ud800\\") { name } }"}');
    expect(literalChar.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
    const literalEscape = await post('{"query":"mutation { createFolder(name: \\"\\\\ud800\\") { name } }"}');
    expect(literalEscape.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
    expect(await countRows("folders")).toBe(folders);

    const urlVar = await post(
      '{"query":"mutation($u: String!) { trackVideo(url: $u) { __typename } }","variables":{"u":"https://www.tiktok.com/@a/video/1\\ud800"}}',
    );
    expect(urlVar.body.errors?.[0]?.extensions?.code).toBe("INVALID_URL");
    const urlNul = await gql(api.url, key, "mutation($u: String!) { trackAccount(url: $u) { __typename } }", {
      u: "https://www.tiktok.com/@a\u0000",
    });
    expect(urlNul.body.errors?.[0]?.extensions?.code).toBe("INVALID_URL");
    const urlLiteral = await gql(api.url, key, 'mutation { trackVideo(url: "https://www.tiktok.com/@a/video/1\\u0000") { __typename } }');
    expect(urlLiteral.body.errors?.[0]?.extensions?.code).toBe("INVALID_URL");
  });
});

describe("bodies must be JSON: 415 UNSUPPORTED_MEDIA_TYPE, nothing applied", () => {
  const writeRoutes = () => allRoutes.filter((r) => r.auth !== false && r.method !== "get");

  it("every REST route that may take a body", async () => {
    const folders = await countRows("folders");
    const keys = await countRows("api_keys");
    const id = (await request(api.url, "POST", "/api/v1/folders", { key, body: { name: "media" } })).body.data.id;
    for (const route of writeRoutes()) {
      const path = `/api/v1${route.path.replace(/\{\w+\}/g, id)}`;
      for (const headers of [
        {},
        { "content-type": "text/plain" },
        { "content-type": "application/x-www-form-urlencoded" },
        { "content-type": "multipart/form-data; boundary=x" },
        { "content-type": "application/jsonx" },
        { "content-type": "json" },
      ] as Record<string, string>[]) {
        const r = await request(api.url, route.method.toUpperCase(), path, { key, rawBody: '{"name":"changed"}', headers });
        expect(r.status, `${route.method} ${route.path} ${JSON.stringify(headers)}: ${r.text.slice(0, 200)}`).toBe(415);
        expect(r.body).toEqual({ code: "UNSUPPORTED_MEDIA_TYPE", message: expect.any(String) });
      }
    }
    expect((await request(api.url, "GET", `/api/v1/folders/${id}`, { key })).body.data.name).toBe("media");
    expect(await countRows("folders")).toBe(folders + 1);
    expect(await countRows("api_keys")).toBe(keys);
  });

  it("JSON in any of its names and charsets is read; a request without a body needs no type", async () => {
    for (const type of [
      "application/json",
      "application/json; charset=utf-8",
      "Application/JSON;charset=UTF-8",
      "application/vnd.api+json",
      "application/merge-patch+json; charset=utf-8",
      "application/json; charset=latin1",
    ]) {
      const r = await request(api.url, "POST", "/api/v1/folders", { key, rawBody: '{"name":"typed"}', headers: { "content-type": type } });
      expect(r.status, type).toBe(201);
    }
    const noBody = await request(
      api.url,
      "DELETE",
      `/api/v1/folders/${(await request(api.url, "POST", "/api/v1/folders", { key, body: { name: "x" } })).body.data.id}`,
      { key, headers: { "content-type": "text/plain" } },
    );
    expect(noBody.status).toBe(200);
  });

  it("GraphQL POST: 415 with a GraphQL error (extensions.code); JSON variants are read", async () => {
    const folders = await countRows("folders");
    const query = JSON.stringify({ query: 'mutation { createFolder(name: "via graphql") { name } }' });
    for (const headers of [
      {},
      { "content-type": "text/plain" },
      { "content-type": "application/graphql" },
      { "content-type": "application/x-www-form-urlencoded" },
    ] as Record<string, string>[]) {
      const r = await request(api.url, "POST", "/graphql", { key, rawBody: query, headers });
      expect(r.status, JSON.stringify(headers)).toBe(415);
      expect(r.body.errors?.[0]?.extensions?.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    }
    expect(await countRows("folders")).toBe(folders);
    for (const type of ["application/json; charset=utf-8", "application/graphql-response+json", "APPLICATION/JSON"]) {
      const r = await request(api.url, "POST", "/graphql", {
        key,
        rawBody: JSON.stringify({ query: "{ workspace { plan } }" }),
        headers: { "content-type": type },
      });
      expect(r.body.data?.workspace?.plan, type).toBe("free");
    }
    // GET needs no body and no content type.
    expect(
      (await request(api.url, "GET", `/graphql?query=${encodeURIComponent("{ workspace { plan } }")}`, { key })).body.data.workspace.plan,
    ).toBe("free");
  });

  it("/mcp: the same rule", async () => {
    const r = await request(api.url, "POST", "/mcp", {
      key,
      rawBody: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      headers: { "content-type": "text/plain", accept: "application/json, text/event-stream" },
    });
    expect(r.status).toBe(415);
    expect(r.body.code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });
});

describe("account links: the platform's handle grammar, never normalised into another handle", () => {
  const REFUSED = [
    "https://www.instagram.com/../admin",
    "https://www.instagram.com/%2e%2e/admin",
    "https://www.instagram.com/%2E%2E/admin/",
    "https://www.instagram.com/./admin",
    "https://www.instagram.com/admin/..",
    "https://www.instagram.com/x/../admin",
    "https://www.tiktok.com/@..",
    "https://www.tiktok.com/@.",
    "https://www.tiktok.com/@abc.",
    "https://www.tiktok.com/@../video/1",
    "https://www.tiktok.com/@x/../@admin",
    "https://www.youtube.com/@...",
    "https://www.youtube.com/@%2e%2e%2e",
    "https://www.youtube.com/x/%2e%2e/@admin",
    "https://www.instagram.com/%61dmin/",
  ];

  it("parseAccountUrl refuses them with INVALID_URL", async () => {
    const { parseAccountUrl } = await import("../../src/domain/tracking/urls.js");
    for (const url of REFUSED) expect(() => parseAccountUrl(url), url).toThrow(expect.objectContaining({ code: "INVALID_URL" }));
    // Handles with dots inside stay accepted.
    expect(parseAccountUrl("https://www.tiktok.com/@chef.marta").username).toBe("chef.marta");
    expect(parseAccountUrl("https://www.youtube.com/@a.b-c_d").username).toBe("a.b-c_d");
  });

  it("POST /accounts: 400 INVALID_URL, the handle as written under data.failed, nothing tracked", async () => {
    const before = [await countRows("tracked_accounts"), await countRows("accounts")];
    for (const url of REFUSED) {
      const r = await request(api.url, "POST", "/api/v1/accounts", { key, body: { url } });
      expect(r.status, url).toBe(400);
      expect(r.body.code, url).toBe("INVALID_URL");
      expect(r.body.data?.added ?? [], url).toEqual([]);
    }
    const dots = await request(api.url, "POST", "/api/v1/accounts", { key, body: { url: "https://www.tiktok.com/@.." } });
    expect(dots.body.data).toEqual({ added: [], alreadyTracked: [], failed: [".."] });
    const traversal = await request(api.url, "POST", "/api/v1/accounts", { key, body: { url: "https://www.instagram.com/../admin" } });
    expect(traversal.body.data.failed).toEqual(["../admin"]);
    expect([await countRows("tracked_accounts"), await countRows("accounts")]).toEqual(before);
  });

  it("GraphQL trackAccount: INVALID_URL", async () => {
    for (const url of REFUSED.slice(0, 7)) {
      const r = await gql(api.url, key, "mutation($u: String!) { trackAccount(url: $u) { __typename } }", { u: url });
      expect(r.body.errors?.[0]?.extensions?.code, url).toBe("INVALID_URL");
    }
  });
});

describe("a write answers the state it wrote", () => {
  it("concurrent renames: each PATCH answers the name it wrote (REST and GraphQL)", async () => {
    const id = (await request(api.url, "POST", "/api/v1/folders", { key, body: { name: "start" } })).body.data.id;
    const names = Array.from({ length: 24 }, (_, i) => `name-${i}`);
    const answers = await Promise.all(
      names.map((name, i) =>
        i % 2
          ? request(api.url, "PATCH", `/api/v1/folders/${id}`, { key, body: { name } }).then((r) => r.body.data.name)
          : gql(api.url, key, "mutation($id: ID!, $n: String!) { renameFolder(id: $id, name: $n) { name } }", { id, n: name }).then(
              (r) => r.body.data.renameFolder.name,
            ),
      ),
    );
    expect(answers).toEqual(names);
  });

  it("revoking a key answers the revocation it recorded", async () => {
    const created = (await request(api.url, "POST", "/api/v1/settings/api-keys", { key, body: { name: "short-lived" } })).body.data;
    const [a, b] = await Promise.all([1, 2].map(() => request(api.url, "DELETE", `/api/v1/settings/api-keys/${created.id}`, { key })));
    expect(a!.body.data.revokedAt).toEqual(expect.any(String));
    expect(a!.body.data.revokedAt).toBe(b!.body.data.revokedAt);
  });
});
