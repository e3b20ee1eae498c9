/**
 * The service serves the built dashboard (src/http/dashboard.ts): index.html for the dashboard's
 * own paths only, hashed assets cached for a year, every API path answering as before (JSON 404s
 * included), and a clear 503 at / when the build is missing.
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, get as httpGet, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request, startTestApi, stopAll } from "../helpers/api.js";
import type { RunningApi } from "../../src/main/server.js";
import { dashboard } from "../../src/http/dashboard.js";
import { requireBuiltDashboard } from "./harness.js";

let api: RunningApi;
beforeAll(async () => {
  requireBuiltDashboard();
  api = await startTestApi();
});
afterAll(() => stopAll(api));

const get = (path: string, headers: Record<string, string> = {}) =>
  request(api.url, "GET", path, { headers: { accept: "text/html", ...headers } });

/** A GET whose body stays as sent (encoded). */
function rawGet(url: string, acceptEncoding: string): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on("error", reject);
  });
}

describe("the dashboard at /", () => {
  it("answers index.html, never cached, with a same-origin content security policy, for each of its paths", async () => {
    for (const path of [
      "/",
      "/videos",
      "/videos/3b020eb0-0000-4000-8000-000000000000",
      "/videos?sort=views",
      "/accounts",
      "/folders/x",
      "/radar",
      "/settings/keys",
      "/sign-in?next=%2Fvideos",
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toMatch(/^text\/html/);
      expect(res.text, path).toContain('<div id="root"></div>');
      expect(res.headers.get("cache-control"), path).toBe("no-cache");
      expect(res.headers.get("content-security-policy"), path).toContain("default-src 'self'");
    }
  });

  it("serves the hashed assets gzipped, with a year-long immutable cache", async () => {
    const index = await get("/");
    const scripts = [...index.text.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const path of scripts) {
      const res = await request(api.url, "GET", path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("cache-control"), path).toBe("public, max-age=31536000, immutable");
    }
    // Sent gzipped to a browser that accepts it (fetch asks for gzip and decodes it).
    const script = scripts.find((p) => p.endsWith(".js"))!;
    const raw = await fetch(api.url + script, { headers: { "accept-encoding": "gzip" } });
    expect(raw.headers.get("content-encoding")).toBe("gzip");
    const missing = await request(api.url, "GET", "/assets/no-such-file.js");
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: "NOT_FOUND" });
  });

  it("sends the build's own brotli (or gzip) of a script, byte for byte, to a browser that accepts it", async () => {
    const index = await get("/");
    const script = [...index.text.matchAll(/src="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!)[0]!;
    const file = fileURLToPath(new URL(`../../web/dist${script}`, import.meta.url));
    for (const [acceptEncoding, encoding, suffix] of [
      ["gzip, deflate, br, zstd", "br", ".br"],
      ["gzip", "gzip", ".gz"],
    ] as const) {
      // node:http, not fetch: fetch would decode the body.
      const res = await rawGet(api.url + script, acceptEncoding);
      expect(res.headers["content-encoding"], acceptEncoding).toBe(encoding);
      expect(res.headers["content-type"]).toMatch(/^text\/javascript/);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.body.equals(readFileSync(file + suffix)), acceptEncoding).toBe(true);
    }
    const plain = await rawGet(api.url + script, "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.equals(readFileSync(file))).toBe(true);
  });

  it("never shadows the API's paths: they keep their answers, unknown ones their JSON 404", async () => {
    const paths = [
      "/api/v1/no-such-route",
      "/api/v2/videos",
      "/auth/no-such-route",
      "/mcp/no-such-route",
      "/admin/queues",
      "/no-such-page",
      "/videos.php",
      "/graphiql/x",
    ];
    for (const path of paths) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toMatch(/^application\/json/);
      expect(res.body, path).toMatchObject({ code: "NOT_FOUND" });
    }
    expect((await get("/healthz")).body).toEqual({ status: "ok" });
    expect((await request(api.url, "GET", "/api/v1/workspace")).body).toMatchObject({ code: "UNAUTHORIZED" });
    const graphql = await request(api.url, "POST", "/graphql", {
      body: { query: "{ __typename }" },
      headers: { accept: "application/json" },
    });
    expect(graphql.body.errors[0].extensions.code).toBe("UNAUTHORIZED");
    expect((await get("/metrics")).text).toContain("# HELP");
  });

  it("says what to run when the build is missing", async () => {
    const empty = mkdtempSync(join(tmpdir(), "no-dashboard-"));
    expect(readdirSync(empty)).toEqual([]);
    const app = express()
      .use(dashboard(empty))
      .use((_req, res) => void res.status(404).json({ code: "NOT_FOUND" }));
    const server: Server = await new Promise((resolve) => {
      const s = createServer(app).listen(0, "127.0.0.1", () => resolve(s));
    });
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const res = await request(url, "GET", "/");
      expect(res.status).toBe(503);
      expect(res.text).toContain("The dashboard is not built. Run `npm ci`");
      expect((await request(url, "GET", "/api/v1/x")).status).toBe(404);
    } finally {
      server.close();
    }
  });
});
