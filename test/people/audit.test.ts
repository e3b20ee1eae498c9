/**
 * The audit log (docs/contract/decisions.md, "People, sign-in and the dashboard"): key creation and
 * revocation, webhook changes, member and invitation changes and sign-ins are recorded with who
 * (a person, an API key, the operator's CLI), what, when and from which client address; owners read
 * them newest first through GraphQL `auditLog` and REST `GET /settings/audit-log` (paginated).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.WEBHOOK_SECRET_KEY = "audit-test-webhook-secret-key-0123456789";
});

import type { RunningApi } from "../../src/main/server.js";
import { client, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { newPerson, PASSWORD, personClient, signedIn, type PersonClient } from "../helpers/people.js";

let api: RunningApi;
let ws: { workspaceId: string; key: string };
let owner: PersonClient;

beforeAll(async () => {
  api = await startTestApi();
  ws = await newWorkspace("free", "Audited");
  await newPerson("owner@example.com", ws.workspaceId, "owner");
  await newPerson("member@example.com", ws.workspaceId, "member");
  owner = await signedIn(api.url, "owner@example.com");
});

afterAll(() => stopAll(api));

interface Entry {
  action: string;
  actor: { kind: string; id: string | null; label: string };
  target: string | null;
  ipAddress: string | null;
  details: Record<string, unknown> | null;
  at: string;
}

async function restLog(limit = 100, offset = 0): Promise<{ data: Entry[]; pagination: { total: number; has_more: boolean } }> {
  const r = await client(api.url, ws.key).get(`/api/v1/settings/audit-log?limit=${limit}&offset=${offset}`);
  expect(r.status, r.text).toBe(200);
  return r.body;
}

describe("audit log", () => {
  it("records keys, webhooks, members, invitations and sign-ins, with who, what, when and from where", async () => {
    const byKey = client(api.url, ws.key);
    const made = (await byKey.post("/api/v1/settings/api-keys", { name: "ci" })).body.data;
    await byKey.delete(`/api/v1/settings/api-keys/${made.id}`);
    await byKey.delete(`/api/v1/settings/api-keys/${made.id}`); // again: changes nothing, recorded once
    const person = await owner.gql(`mutation { createApiKey(name: "dashboard key") { apiKey { id } } }`);
    expect(person.body.errors).toBeUndefined();
    const hook = await owner.gql(`mutation { createWebhook(url: "https://hooks.example.com/a", events: [VIDEO_SPIKE]) { webhook { id } } }`);
    await owner.gql(`mutation($id: ID!) { deleteWebhook(id: $id) }`, { id: hook.body.data.createWebhook.webhook.id });
    const inv = await owner.gql(`mutation { createInvitation(email: "guest@example.com", role: MEMBER) { token invitation { id } } }`);
    await owner.gql(`mutation($id: ID!) { revokeInvitation(id: $id) { status } }`, { id: inv.body.data.createInvitation.invitation.id });
    const members = (await owner.gql(`{ members(first: 5) { edges { node { id email } } } }`)).body.data.members.edges;
    const memberId = members.find((e: any) => e.node.email === "member@example.com").node.id;
    await owner.gql(`mutation($id: ID!) { changeMemberRole(id: $id, role: OWNER) { role } }`, { id: memberId });
    await owner.gql(`mutation($id: ID!) { removeMember(id: $id) }`, { id: memberId });
    await personClient(api.url).signIn("owner@example.com", "a wrong password");
    await signedIn(api.url, "owner@example.com", PASSWORD);

    await vi.waitFor(async () => expect((await restLog()).data.map((e) => e.action)).toContain("user.signed_in"), { timeout: 3000 });
    const { data, pagination } = await restLog();
    const actions = data.map((e) => e.action);
    // Newest first.
    expect(actions.slice(0, 9)).toEqual([
      "user.signed_in",
      "user.sign_in_failed",
      "member.removed",
      "member.role_changed",
      "invitation.revoked",
      "invitation.created",
      "webhook.deleted",
      "webhook.created",
      "api_key.created",
    ]);
    expect(actions.filter((a) => a === "api_key.revoked")).toHaveLength(1);
    expect(pagination.total).toBe(data.length);

    const find = (action: string) => data.find((e) => e.action === action)!;
    expect(find("api_key.revoked")).toMatchObject({ actor: { kind: "api_key", id: expect.any(String), label: "API key default" }, target: "ci", ipAddress: expect.stringMatching(/127\.0\.0\.1/) });
    expect(find("invitation.created")).toMatchObject({ actor: { kind: "user", label: "owner@example.com" }, target: "guest@example.com", details: { role: "member" } });
    expect(find("member.role_changed")).toMatchObject({ target: "member@example.com", details: { from: "member", to: "owner" } });
    expect(find("webhook.created").target).toBe("https://hooks.example.com/a");
    expect(find("user.sign_in_failed")).toMatchObject({ actor: { kind: "user", label: "owner@example.com" }, ipAddress: expect.any(String) });
    // The CLI's own records (the workspace's first key) name the operator.
    expect(data.find((e) => e.action === "api_key.created" && e.target === "default")?.actor).toEqual({ kind: "system", id: null, label: "operator (CLI)" });

    // GraphQL: the same entries, a cursor connection newest first.
    const g = await owner.gql(`{ auditLog(first: 3) { totalCount pageInfo { hasNextPage } edges { node { action actor { kind label } ipAddress at } } } }`);
    expect(g.body.data.auditLog.totalCount).toBe(pagination.total);
    expect(g.body.data.auditLog.edges.map((e: any) => e.node.action)).toEqual(actions.slice(0, 3));
    expect(g.body.data.auditLog.pageInfo.hasNextPage).toBe(true);

    // REST pages.
    const page2 = await restLog(2, 2);
    expect(page2.data.map((e) => e.action)).toEqual(actions.slice(2, 4));
    expect(page2.pagination.has_more).toBe(true);
  });

  it("a sign-in is recorded in each workspace of the person; members cannot read the log", async () => {
    const second = await newWorkspace("free", "Second");
    const { setMembership } = await import("../../src/domain/people/members.js");
    const { OPERATOR } = await import("../../src/domain/people/actor.js");
    await newPerson("two@example.com", ws.workspaceId, "member");
    const { prisma } = await import("../../src/infra/db.js");
    const userId = (await prisma.user.findUniqueOrThrow({ where: { email: "two@example.com" } })).id;
    await setMembership({ workspaceId: second.workspaceId, userId, role: "member", by: OPERATOR });
    const two = await signedIn(api.url, "two@example.com");
    await vi.waitFor(async () => {
      const inSecond = await client(api.url, second.key).get("/api/v1/settings/audit-log");
      expect(inSecond.body.data.map((e: any) => `${e.action} ${e.target}`)).toContain("user.signed_in two@example.com");
    });
    expect((await restLog()).data.map((e) => `${e.action} ${e.target}`)).toContain("user.signed_in two@example.com");
    expect((await two.send("GET", "/api/v1/settings/audit-log")).status).toBe(403);
    expect((await two.gql(`{ auditLog(first: 1) { totalCount } }`)).body.errors[0].extensions.code).toBe("FORBIDDEN");
  });
});
