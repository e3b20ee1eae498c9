import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { spawnService, type ServiceProcess } from "../helpers/processes.js";
import { prisma } from "../../src/infra/db.js";
import type { RunningApi } from "../../src/main/server.js";

let api: RunningApi;
let second: ServiceProcess;

beforeAll(async () => {
  api = await startTestApi();
  second = await spawnService("api");
});
afterAll(async () => {
  await second?.stop();
  await stopAll(api);
});

describe("API keys", () => {
  it("have the format svc_sk_ + 43 URL-safe characters and only their hash is stored", async () => {
    const ws = await newWorkspace();
    expect(ws.key).toMatch(/^svc_sk_[A-Za-z0-9_-]{43}$/);
    const c = client(api.url, ws.key);
    const created = await c.post("/api/v1/settings/api-keys", { name: "ci" });
    expect(created.status).toBe(201);
    expect(created.body.data.key).toMatch(/^svc_sk_[A-Za-z0-9_-]{43}$/);
    expect(created.body.message).toMatch(/not be shown again/);
    // The secret appears nowhere in the database, in any column of any row.
    const dump = await prisma.$queryRaw<{ t: string }[]>`SELECT row_to_json(k)::text AS t FROM api_keys k`;
    const text = dump.map((r) => r.t).join("\n");
    expect(text).not.toContain(ws.key);
    expect(text).not.toContain(created.body.data.key);
    expect(text).not.toContain(created.body.data.key.slice(12));
    // Listing never shows the secret either.
    const list = await c.get("/api/v1/settings/api-keys");
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(created.body.data.key);
    expect(list.body.data.map((k: { name: string }) => k.name)).toEqual(["default", "ci"]);
    for (const k of list.body.data) expect(Object.keys(k).sort()).toEqual(["createdAt", "id", "lastUsedAt", "name", "prefix", "revokedAt"]);
  });

  it("keys are random: 200 keys, no repeats", async () => {
    const { generateSecret } = await import("../../src/domain/keys/service.js");
    const keys = new Set(Array.from({ length: 200 }, generateSecret));
    expect(keys.size).toBe(200);
  });

  it("allow at most 5 active keys per workspace, even when created concurrently; revoking frees a slot", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => c.post("/api/v1/settings/api-keys", { name: `k${i}` })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(4); // plus "default" = 5
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(4);
    for (const r of refused) expect(r.body).toMatchObject({ code: "KEY_LIMIT_REACHED" });
    const victim = results.find((r) => r.status === 201)!.body.data.id;
    expect((await c.delete(`/api/v1/settings/api-keys/${victim}`)).status).toBe(200);
    expect((await c.post("/api/v1/settings/api-keys", { name: "again" })).status).toBe(201);
    expect((await c.post("/api/v1/settings/api-keys", { name: "sixth" })).status).toBe(409);
  });

  it("revocation takes effect on the very next request, in another server process too", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    const extra = (await c.post("/api/v1/settings/api-keys", { name: "to revoke" })).body.data;
    const viaSecond = client(second.url!, extra.key);
    expect((await viaSecond.get("/api/v1/workspace")).status).toBe(200);
    const revoked = await c.delete(`/api/v1/settings/api-keys/${extra.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toEqual({ id: extra.id, revokedAt: expect.stringMatching(/Z$/) });
    expect(revoked.body.message).toBeTypeOf("string");
    const after = await viaSecond.get("/api/v1/workspace");
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ code: "UNAUTHORIZED" });
    expect((await client(api.url, extra.key).get("/api/v1/workspace")).status).toBe(401);
    // Revoking again reports the same moment; it cannot be restored.
    const again = await c.delete(`/api/v1/settings/api-keys/${extra.id}`);
    expect(again.body.data.revokedAt).toBe(revoked.body.data.revokedAt);
  });

  it("a key can revoke itself and is refused right after", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    const own = (await c.get("/api/v1/settings/api-keys")).body.data[0].id;
    expect((await c.delete(`/api/v1/settings/api-keys/${own}`)).status).toBe(200);
    expect((await c.get("/api/v1/workspace")).status).toBe(401);
  });

  it("another workspace's key id is 404, and revoking it changes nothing", async () => {
    const a = await newWorkspace();
    const b = await newWorkspace();
    const aKey = (await client(api.url, a.key).get("/api/v1/settings/api-keys")).body.data[0].id;
    const r = await client(api.url, b.key).delete(`/api/v1/settings/api-keys/${aKey}`);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: "NOT_FOUND", message: expect.any(String) });
    expect((await client(api.url, a.key).get("/api/v1/workspace")).status).toBe(200);
    expect((await client(api.url, b.key).delete("/api/v1/settings/api-keys/not-a-uuid")).body.code).toBe("VALIDATION_ERROR");
  });

  it("validates the key name", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    for (const body of [{}, { name: "" }, { name: "x".repeat(256) }, { name: 5 }, { name: "ok", extra: 1 }]) {
      const r = await c.post("/api/v1/settings/api-keys", body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
    }
  });
});
