import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WORKSPACE_EVENT_TYPES } from "../../src/domain/shared/workspace-events.js";
import { request, startTestApi, stopAll } from "../helpers/api.js";
import { allRoutes } from "../../src/http/rest/routes/index.js";
import type { RunningApi } from "../../src/main/server.js";

let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => stopAll(api));

describe("GET /api/v1/openapi.json", () => {
  it("is an OpenAPI 3.1 document, served without a key, documenting every route the server has", async () => {
    const r = await request(api.url, "GET", "/api/v1/openapi.json");
    expect(r.status).toBe(200);
    const doc = r.body;
    expect(doc.openapi).toBe("3.1.0");
    for (const route of allRoutes) {
      const op = doc.paths[`/api/v1${route.path}`]?.[route.method];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op.summary).toBeTruthy();
      const statuses = Object.keys(op.responses);
      expect(statuses.some((s) => s.startsWith("2"))).toBe(true);
      if (route.auth !== false) expect(statuses).toContain("401");
    }
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("documents the query and body schemas the routes validate with", async () => {
    const doc = (await request(api.url, "GET", "/api/v1/openapi.json")).body;
    const create = doc.paths["/api/v1/settings/api-keys"].post;
    const schema = create.requestBody.content["application/json"].schema;
    expect(schema.properties.name).toMatchObject({ type: "string", maxLength: 255 });
    expect(schema.additionalProperties).toBe(false);
    expect(create.responses["409"].description).toContain("KEY_LIMIT_REACHED");
  });
});

describe("for generated clients and linters", () => {
  it("every operation has a unique, camelCase operationId, fixed in its route definition", async () => {
    const doc = (await request(api.url, "GET", "/api/v1/openapi.json")).body;
    const ids: string[] = [];
    for (const [path, item] of Object.entries<Record<string, { operationId?: string }>>(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][a-zA-Z0-9]*$/);
        ids.push(op.operationId!);
      }
    }
    expect(ids).toHaveLength(new Set(allRoutes.map((r) => `${r.method} ${r.path}`)).size);
    expect(new Set(ids).size).toBe(ids.length);
    // Stable: a few generated clients' method names, pinned.
    expect(doc.paths["/api/v1/videos"].get.operationId).toBe("listVideos");
    expect(doc.paths["/api/v1/accounts"].post.operationId).toBe("trackAccount");
    expect(doc.paths["/api/v1/radar/search/{id}"].get.operationId).toBe("getRadarSearch");
  });

  it("names a license, documents the 401 challenge, and describes the eight webhook events with their payloads", async () => {
    const doc = (await request(api.url, "GET", "/api/v1/openapi.json")).body;
    expect(doc.info.license).toMatchObject({ name: expect.any(String) });
    expect(doc.paths["/api/v1/workspace"].get.responses["401"].headers["WWW-Authenticate"]).toBeDefined();
    expect(Object.keys(doc.webhooks).sort()).toEqual([...WORKSPACE_EVENT_TYPES].sort());
    for (const type of WORKSPACE_EVENT_TYPES) {
      const op = doc.webhooks[type].post;
      expect(op.operationId).toMatch(/^[a-z][a-zA-Z0-9]*Event$/);
      const body = op.requestBody.content["application/json"].schema;
      expect(body.properties.type).toMatchObject({ enum: [type] });
      expect(body.required).toEqual(expect.arrayContaining(["type", "timestamp", "data"]));
      expect(Object.keys(body.properties.data.properties).length).toBeGreaterThan(1);
      expect(op.parameters.map((p: { name: string }) => p.name).sort()).toEqual(["webhook-id", "webhook-signature", "webhook-timestamp"]);
    }
    expect(doc.webhooks["video.spike"].post.requestBody.content["application/json"].schema.properties.data.required).toContain(
      "outlierScore",
    );
  });

  it("passes Redocly's recommended lint, offline, with no warning", async () => {
    const dir = await mkdtemp(join(tmpdir(), "openapi-lint-"));
    try {
      const file = join(dir, "openapi.json");
      await writeFile(file, (await request(api.url, "GET", "/api/v1/openapi.json")).text);
      const redocly = fileURLToPath(new URL("../../node_modules/.bin/redocly", import.meta.url));
      const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };
      const run = await promisify(execFile)(redocly, ["lint", file, "--extends=recommended", "--max-problems=50"], {
        env,
        cwd: dir,
        timeout: 120_000,
      }).catch((e: { stdout: string; stderr: string }) => e);
      const out = `${run.stdout}${run.stderr}`;
      expect(out, out).toMatch(/Your API description is valid/);
      expect(out, out).not.toMatch(/warning/i);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
