import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
