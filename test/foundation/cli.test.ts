import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../helpers/cli.js";
import { client, startTestApi, stopAll } from "../helpers/api.js";
import type { RunningApi } from "../../src/main/server.js";

let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => stopAll(api));

describe("admin CLI (--json prints exactly one JSON object)", () => {
  it("workspace create, key create/list/revoke, credits grant, plan set", async () => {
    const created = await cli("workspace", "create", "--name", "Ops", "--plan", "starter");
    expect(created.code).toBe(0);
    expect(Object.keys(created.json).sort()).toEqual(["apiKey", "workspaceId"]);
    expect(created.json.apiKey).toMatch(/^svc_sk_[A-Za-z0-9_-]{43}$/);
    const ws = created.json.workspaceId;
    expect((await client(api.url, created.json.apiKey).get("/api/v1/workspace")).body.data.plan).toBe("starter");

    const key = await cli("key", "create", "--workspace", ws, "--name", "script");
    expect(Object.keys(key.json).sort()).toEqual(["apiKey", "keyId"]);

    const list = await cli("key", "list", "--workspace", ws);
    expect(list.json.keys.map((k: any) => k.name)).toEqual(["default", "script"]);
    expect(Object.keys(list.json.keys[0]).sort()).toEqual(["createdAt", "id", "lastUsedAt", "name", "prefix", "revokedAt"]);

    const revoked = await cli("key", "revoke", "--key", key.json.keyId);
    expect(revoked.json).toEqual({ keyId: key.json.keyId, revokedAt: expect.stringMatching(/Z$/) });
    expect((await client(api.url, key.json.apiKey).get("/api/v1/workspace")).status).toBe(401);

    const granted = await cli("credits", "grant", "--workspace", ws, "--amount", "500", "--reason", "trial");
    expect(granted.json).toEqual({ workspaceId: ws, totalRemaining: 2500 });

    const plan = await cli("plan", "set", "--workspace", ws, "--plan", "pro");
    expect(plan.json).toEqual({ workspaceId: ws, plan: "pro" });
    const info = (await client(api.url, created.json.apiKey).get("/api/v1/workspace")).body.data;
    expect(info.limits.video_limit).toBe(5000);
    expect(info.credits.total_remaining).toBe(10500);
  });

  it("errors are one JSON object too, with a non-zero exit", async () => {
    const bad = await cli("plan", "set", "--workspace", "00000000-0000-4000-8000-000000000000", "--plan", "pro");
    expect(bad.code).toBe(1);
    expect(bad.json).toEqual({ error: { code: "NOT_FOUND", message: expect.any(String) } });
    const unknownPlan = await cli("workspace", "create", "--name", "x", "--plan", "gold");
    expect(unknownPlan.json.error.code).toBe("VALIDATION_ERROR");
    const usage = await cli("frobnicate");
    expect(usage.json.error.code).toBe("USAGE");
  });
});
