/**
 * Roles and tenancy on every door (docs/contract/decisions.md, "People, sign-in and the dashboard"):
 * owners manage API keys, webhooks, members and invitations and read the audit log; a member asking
 * is 403 FORBIDDEN, on REST and GraphQL (queries, mutations, node loads) alike, while members track,
 * organise and spend credits. An API key acts as an owner. A workspace the person is not in is 404
 * NOT_FOUND on REST, GraphQL over HTTP, SSE, WebSocket and MCP, and its objects are never visible.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.WEBHOOK_SECRET_KEY = "roles-test-webhook-secret-key-0123456789";
});

import { createClient } from "graphql-ws";
import type { RunningApi } from "../../src/main/server.js";
import { client, gql, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { cookieSocket, newPerson, signedIn, type PersonClient } from "../helpers/people.js";

let api: RunningApi;
let ws: { workspaceId: string; key: string };
let other: { workspaceId: string; key: string };
let owner: PersonClient;
let member: PersonClient;
let webhookId: string;
let keyId: string;
let memberId: string;
let invitationId: string;

beforeAll(async () => {
  api = await startTestApi();
  ws = await newWorkspace("free", "Team");
  other = await newWorkspace("free", "Other team");
  await newPerson("owner@example.com", ws.workspaceId, "owner");
  await newPerson("member@example.com", ws.workspaceId, "member");
  await newPerson("stranger@example.com", other.workspaceId, "owner");
  owner = await signedIn(api.url, "owner@example.com");
  member = await signedIn(api.url, "member@example.com");
  const k = client(api.url, ws.key);
  webhookId = (await k.post("/api/v1/webhooks", { url: "https://hooks.example.com/x", events: ["video.spike"] })).body.data.id;
  keyId = (await k.post("/api/v1/settings/api-keys", { name: "ci" })).body.data.id;
  const members = await owner.gql(`{ members(first: 10) { edges { node { id email } } } }`);
  memberId = members.body.data.members.edges.find((e: any) => e.node.email === "member@example.com").node.id;
  invitationId = (await owner.gql(`mutation { createInvitation(email: "new@example.com", role: MEMBER) { invitation { uuid } } }`)).body
    .data.createInvitation.invitation.uuid;
});

afterAll(() => stopAll(api));

/** Every owner-only REST operation (the routes that carry a `permission`). */
const REST_OWNER_ONLY = () =>
  [
    ["GET", "/api/v1/settings/api-keys", undefined],
    ["POST", "/api/v1/settings/api-keys", { name: "by member" }],
    ["DELETE", `/api/v1/settings/api-keys/${keyId}`, undefined],
    ["GET", "/api/v1/webhooks", undefined],
    ["POST", "/api/v1/webhooks", { url: "https://hooks.example.com/m", events: ["video.spike"] }],
    ["GET", `/api/v1/webhooks/${webhookId}`, undefined],
    ["GET", `/api/v1/webhooks/${webhookId}/deliveries`, undefined],
    ["POST", `/api/v1/webhooks/${webhookId}/test`, undefined],
    ["DELETE", `/api/v1/webhooks/${webhookId}`, undefined],
    ["GET", "/api/v1/settings/audit-log", undefined],
  ] as const;

/** Every owner-only GraphQL operation, queries, mutations and node loads. */
const GRAPHQL_OWNER_ONLY = () => [
  `{ apiKeys(first: 5) { totalCount } }`,
  `mutation { createApiKey(name: "by member") { secret } }`,
  `mutation { revokeApiKey(id: "${keyId}") { revokedAt } }`,
  `{ webhooks(first: 5) { totalCount } }`,
  `{ webhook(id: "${webhookId}") { url } }`,
  `mutation { createWebhook(url: "https://hooks.example.com/g", events: [VIDEO_SPIKE]) { secret } }`,
  `mutation { sendWebhookTest(id: "${webhookId}") { uuid } }`,
  `mutation { deleteWebhook(id: "${webhookId}") }`,
  `{ invitations(first: 5) { totalCount } }`,
  `mutation { createInvitation(email: "x@example.com", role: MEMBER) { token } }`,
  `mutation { revokeInvitation(id: "${invitationId}") { status } }`,
  `mutation { changeMemberRole(id: "${memberId}", role: OWNER) { role } }`,
  `mutation { removeMember(id: "${memberId}") }`,
  `{ auditLog(first: 5) { totalCount } }`,
  `{ node(id: "${Buffer.from(`ApiKey:${keyId}`).toString("base64")}") { id } }`,
  `{ node(id: "${Buffer.from(`Webhook:${webhookId}`).toString("base64")}") { id } }`,
  `{ node(id: "${Buffer.from(`Invitation:${invitationId}`).toString("base64")}") { id } }`,
];

describe("the role matrix: a member on every owner-only operation", () => {
  it("REST: 403 FORBIDDEN for the member, nothing changed", async () => {
    for (const [method, path, body] of REST_OWNER_ONLY()) {
      const r = await member.send(method, path, { body, headers: { "x-requested-with": "dashboard" } });
      expect([r.status, r.body.code], `${method} ${path}`).toEqual([403, "FORBIDDEN"]);
    }
    const keys = await client(api.url, ws.key).get("/api/v1/settings/api-keys");
    expect(keys.body.data.find((k: any) => k.id === keyId).revokedAt).toBeNull();
  });

  it("GraphQL: FORBIDDEN for the member, on queries, mutations and node loads", async () => {
    for (const query of GRAPHQL_OWNER_ONLY()) {
      const r = await member.gql(query);
      expect(r.body.errors?.[0]?.extensions?.code, `${query} → ${r.text}`).toBe("FORBIDDEN");
    }
    const m = await owner.gql(`{ members(first: 5) { edges { node { role email } } } }`);
    expect(m.body.data.members.edges).toHaveLength(2);
  });

  it("the owner, and the workspace's API key (an owner), are allowed every one of them", async () => {
    for (const [method, path, body] of REST_OWNER_ONLY().filter(([m]) => m === "GET")) {
      expect((await owner.send(method, path, { body })).status, `${method} ${path}`).toBe(200);
      expect((await client(api.url, ws.key).get(path)).status, `${method} ${path} by key`).toBe(200);
    }
    for (const query of GRAPHQL_OWNER_ONLY().filter((q) => !q.startsWith("mutation"))) {
      const r = await owner.gql(query);
      expect(r.body.errors, `${query} → ${r.text}`).toBeUndefined();
      expect((await gql(api.url, ws.key, query)).body.errors, `${query} by key`).toBeUndefined();
    }
    const made = await owner.gql(`mutation { createApiKey(name: "owner made") { apiKey { id } secret } }`);
    expect(made.body.data.createApiKey.secret).toMatch(/^svc_sk_/);
    const revoked = await owner.gql(`mutation($id: ID!) { revokeApiKey(id: $id) { revokedAt } }`, {
      id: made.body.data.createApiKey.apiKey.id,
    });
    expect(revoked.body.data.revokeApiKey.revokedAt).toBeTruthy();
  });

  it("members track, organise, read and spend credits", async () => {
    const track = await member.gql(`mutation { trackVideo(url: "https://www.tiktok.com/@m/video/7301234567890123499") { video { id } } }`);
    expect(track.body.errors, track.text).toBeUndefined();
    const folder = await member.send("POST", "/api/v1/folders", {
      body: { name: "members' folder" },
      headers: { "x-requested-with": "x" },
    });
    expect(folder.status).toBe(201);
    const search = await member.send("POST", "/api/v1/radar/search", { body: { query: "pasta" }, headers: { "x-requested-with": "x" } });
    expect(search.status).toBe(202);
    expect((await member.gql(`{ credits { totalRemaining } viewer { currentWorkspace { role } } }`)).body.data).toEqual({
      credits: { totalRemaining: 100 },
      viewer: { currentWorkspace: { role: "MEMBER" } },
    });
  });
});

describe("a workspace the person is not in: 404 on every door", () => {
  const foreign = () => ({ "x-workspace-id": other.workspaceId, "x-requested-with": "x" });

  it("REST (reads and writes) and MCP", async () => {
    for (const [method, path] of [
      ["GET", "/api/v1/workspace"],
      ["GET", "/api/v1/videos"],
      ["POST", "/api/v1/folders"],
    ] as const) {
      const r = await owner.send(method, path, { body: method === "POST" ? { name: "x" } : undefined, headers: foreign() });
      expect([r.status, r.body.code], `${method} ${path}`).toEqual([404, "NOT_FOUND"]);
    }
    const mcp = await owner.send("POST", "/mcp", {
      body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
      headers: { ...foreign(), accept: "application/json, text/event-stream" },
    });
    expect([mcp.status, mcp.body.code]).toEqual([404, "NOT_FOUND"]);
  });

  it("GraphQL over HTTP and SSE", async () => {
    const r = await owner.gql(`{ workspace { plan } }`, {}, { workspace: other.workspaceId });
    expect(r.status).toBe(404);
    expect(r.body.errors[0].extensions.code).toBe("NOT_FOUND");
    const sse = await owner.send("POST", "/graphql", {
      body: { query: "subscription { creditsUpdated { totalRemaining } }" },
      headers: { ...foreign(), accept: "text/event-stream" },
    });
    expect(sse.status).toBe(404);
    // The workspace's global ID is the same refusal.
    const global = Buffer.from(`Workspace:${other.workspaceId}`).toString("base64");
    expect((await owner.gql(`{ workspace { plan } }`, {}, { workspace: global })).status).toBe(404);
    // And so is choosing it.
    const chosen = await owner.gql(`mutation($id: ID!) { selectWorkspace(id: $id) { currentWorkspace { uuid } } }`, {
      id: other.workspaceId,
    });
    expect(chosen.body.errors[0].extensions.code).toBe("NOT_FOUND");
  });

  it("WebSocket: the connection is refused", async () => {
    const closed = await new Promise<number>((resolve) => {
      const c = createClient({
        url: api.url.replace("http", "ws") + "/graphql",
        webSocketImpl: cookieSocket(owner.cookieHeader(), api.url),
        connectionParams: { workspaceId: other.workspaceId },
        retryAttempts: 0,
        lazy: true,
        on: { closed: (e: any) => resolve(e?.code) },
      });
      c.subscribe(
        { query: "subscription { creditsUpdated { totalRemaining } }" },
        { next: () => undefined, error: () => undefined, complete: () => undefined },
      );
    });
    expect(closed).toBe(4403);
  });

  it("another workspace's objects stay invisible by id (node, REST)", async () => {
    const theirs = (await client(api.url, other.key).post("/api/v1/folders", { name: "theirs" })).body.data.id;
    expect((await owner.send("GET", `/api/v1/folders/${theirs}`)).status).toBe(404);
    const node = await owner.gql(`{ node(id: "${Buffer.from(`Folder:${theirs}`).toString("base64")}") { id } }`);
    expect(node.body.data.node).toBeNull();
  });

  it("a person in no workspace: viewer works, workspace fields are NOT_FOUND, REST is 404", async () => {
    await newPerson("loner@example.com");
    const loner = await signedIn(api.url, "loner@example.com");
    const r = await loner.gql(`{ viewer { email workspaces { uuid } } }`);
    expect(r.body.data.viewer).toEqual({ email: "loner@example.com", workspaces: [] });
    const w = await loner.gql(`{ workspace { plan } }`);
    expect(w.body.errors[0].extensions.code).toBe("NOT_FOUND");
    expect((await loner.send("GET", "/api/v1/workspace")).status).toBe(404);
  });
});
