/**
 * The audit log (docs/contract/decisions.md, "People, sign-in and the dashboard"): key creation and
 * revocation, webhook changes, member and invitation changes and sign-ins are recorded with who
 * (a person, an API key, the operator's CLI), what, when and from which client address; owners read
 * them newest first through GraphQL `auditLog` and REST `GET /settings/audit-log` (paginated). A
 * person's own account changes too, whatever the door (src/domain/people/account-audit.ts):
 * name, password changed, reset asked and done, sign-out, sign-out everywhere, sessions ended.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.WEBHOOK_SECRET_KEY = "audit-test-webhook-secret-key-0123456789";
});

import type { RunningApi } from "../../src/main/server.js";
import { client, gql, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
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
    const hook = await owner.gql(
      `mutation { createWebhook(url: "https://hooks.example.com/a", events: [VIDEO_SPIKE]) { webhook { id } } }`,
    );
    await owner.gql(`mutation($id: ID!) { deleteWebhook(id: $id) }`, { id: hook.body.data.createWebhook.webhook.id });
    const inv = await owner.gql(`mutation { createInvitation(email: "guest@example.com", role: MEMBER) { token invitation { id } } }`);
    await owner.gql(`mutation($id: ID!) { revokeInvitation(id: $id) { status } }`, { id: inv.body.data.createInvitation.invitation.id });
    const members = (await owner.gql(`{ members(first: 5) { edges { node { id email } } } }`)).body.data.members.edges;
    const memberId = members.find((e: any) => e.node.email === "member@example.com").node.id;
    await owner.gql(`mutation($id: ID!) { changeMemberRole(id: $id, role: OWNER) { role } }`, { id: memberId });
    await owner.gql(`mutation($id: ID!) { removeMember(id: $id) }`, { id: memberId });
    // Sign-ins are recorded after their answer (never delaying it): each is waited for before the next, so the order is
    // theirs. Waiting for "a user.signed_in" alone was not enough: the sign-in of beforeAll is one, lower in the log.
    const newest = async () => (await restLog()).data[0]?.action;
    await personClient(api.url).signIn("owner@example.com", "a wrong password");
    await vi.waitFor(async () => expect(await newest()).toBe("user.sign_in_failed"), { timeout: 3000 });
    await signedIn(api.url, "owner@example.com", PASSWORD);
    await vi.waitFor(async () => expect(await newest()).toBe("user.signed_in"), { timeout: 3000 });
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
    expect(find("api_key.revoked")).toMatchObject({
      actor: { kind: "api_key", id: expect.any(String), label: "API key default" },
      target: "ci",
      ipAddress: expect.stringMatching(/127\.0\.0\.1/),
    });
    expect(find("invitation.created")).toMatchObject({
      actor: { kind: "user", label: "owner@example.com" },
      target: "guest@example.com",
      details: { role: "member" },
    });
    expect(find("member.role_changed")).toMatchObject({ target: "member@example.com", details: { from: "member", to: "owner" } });
    expect(find("webhook.created").target).toBe("https://hooks.example.com/a");
    expect(find("user.sign_in_failed")).toMatchObject({
      actor: { kind: "user", label: "owner@example.com" },
      ipAddress: expect.any(String),
    });
    // The CLI's own records (the workspace's first key) name the operator.
    expect(data.find((e) => e.action === "api_key.created" && e.target === "default")?.actor).toEqual({
      kind: "system",
      id: null,
      label: "operator (CLI)",
    });

    // GraphQL: the same entries, a cursor connection newest first.
    const g = await owner.gql(
      `{ auditLog(first: 3) { totalCount pageInfo { hasNextPage } edges { node { action actor { kind label } ipAddress at } } } }`,
    );
    expect(g.body.data.auditLog.totalCount).toBe(pagination.total);
    expect(g.body.data.auditLog.edges.map((e: any) => e.node.action)).toEqual(actions.slice(0, 3));
    expect(g.body.data.auditLog.pageInfo.hasNextPage).toBe(true);

    // REST pages.
    const page2 = await restLog(2, 2);
    expect(page2.data.map((e) => e.action)).toEqual(actions.slice(2, 4));
    expect(page2.pagination.has_more).toBe(true);
  });

  it("a page and its total agree while entries are being written, over REST and GraphQL", async () => {
    const busy = await newWorkspace("free", "Busy");
    const { recordAudit } = await import("../../src/domain/actors/audit.js");
    const { OPERATOR } = await import("../../src/domain/actors/actor.js");
    let writing = true;
    const writer = (async () => {
      for (let i = 0; i < 80; i++)
        await recordAudit({ workspaceIds: [busy.workspaceId], by: OPERATOR, action: "api_key.created", target: `k${i}` });
      writing = false;
    })();
    let reads = 0;
    while (writing) {
      const [rest, graph] = await Promise.all([
        client(api.url, busy.key).get("/api/v1/settings/audit-log?limit=100"),
        gql(api.url, busy.key, `{ auditLog(first: 100) { totalCount edges { node { action } } } }`),
      ]);
      expect(rest.body.pagination.total, "REST: the total counts the rows of the page").toBe(rest.body.data.length);
      expect(graph.body.data.auditLog.totalCount, "GraphQL: the same").toBe(graph.body.data.auditLog.edges.length);
      reads++;
    }
    await writer;
    expect(reads).toBeGreaterThan(5);
  });

  it("a sign-in is recorded in each workspace of the person; members cannot read the log", async () => {
    const second = await newWorkspace("free", "Second");
    const { setMembership } = await import("../../src/domain/people/members.js");
    const { OPERATOR } = await import("../../src/domain/actors/actor.js");
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

  it("records a person's own account changes through /auth, the CLI and GraphQL: name, password changed, reset asked and done, sessions ended, sign-out, sign-out everywhere", async () => {
    const mine = await newWorkspace("free", "Account");
    const email = "account@example.com";
    await newPerson(email, mine.workspaceId, "owner");
    const log = async () => (await client(api.url, mine.key).get("/api/v1/settings/audit-log?limit=100")).body.data as Entry[];
    /** The session token in a client's cookie (the library's signed cookie: `<token>.<signature>`). */
    const tokenOf = (c: PersonClient) =>
      decodeURIComponent([...c.cookies].find(([name]) => name.endsWith("session_token"))![1]).split(".")[0]!;
    const sessionIdOf = async (c: PersonClient) =>
      ((await c.gql(`{ viewer { sessions { id current } } }`)).body.data.viewer.sessions as { id: string; current: boolean }[]).find(
        (s) => s.current,
      )!.id;
    const [p1, p2, p3] = ["first long password", "second long password", "third long password"];

    const a = await signedIn(api.url, email);
    await signedIn(api.url, email);
    await signedIn(api.url, email);
    expect((await a.auth("POST", "/update-user", { name: "Ada Account" })).status).toBe(200);
    expect((await a.auth("POST", "/change-password", { currentPassword: PASSWORD, newPassword: p1 })).status).toBe(200); // ends the other two
    const d = await signedIn(api.url, email, p1);
    await signedIn(api.url, email, p1);
    expect((await d.auth("POST", "/revoke-other-sessions", {})).status).toBe(200); // ends a and the other
    const f = await signedIn(api.url, email, p1);
    const dSession = await sessionIdOf(d);
    expect((await f.auth("POST", "/revoke-session", { token: tokenOf(d) })).status).toBe(200);
    const fSession = await sessionIdOf(f);
    expect((await f.signOut()).status).toBe(200);
    // The operator's CLI makes a reset link; the person uses it (every session of theirs ends).
    const { resetPasswordLink } = await import("../../src/domain/people/users.js");
    const stillIn = await signedIn(api.url, email, p1);
    const token = new URL(await resetPasswordLink(email)).searchParams.get("token")!;
    expect((await personClient(api.url).auth("POST", "/reset-password", { token, newPassword: p2 })).status).toBe(200);
    expect((await stillIn.gql(`{ viewer { email } }`)).status).toBe(401);
    const g = await signedIn(api.url, email, p2);
    const h = await signedIn(api.url, email, p2);
    const hSession = await sessionIdOf(h);
    expect((await g.gql(`mutation($id: ID!) { revokeSession(id: $id) }`, { id: hSession })).body.data.revokeSession).toBeTruthy();
    await signedIn(api.url, email, p2);
    expect((await g.auth("POST", "/revoke-sessions", {})).status).toBe(200);
    expect((await a.auth("POST", "/change-password", { currentPassword: p2, newPassword: p3 })).status).toBe(401); // signed out long ago: nothing recorded

    const entries = (await log()).filter(
      (e) => !["user.signed_in", "user.sign_in_failed", "member.added", "api_key.created"].includes(e.action),
    );
    expect(entries.map((e) => e.action)).toEqual([
      "user.signed_out_everywhere",
      "session.revoked",
      "user.password_reset",
      "user.password_reset_requested",
      "user.signed_out",
      "session.revoked",
      "session.revoked",
      "user.password_changed",
      "user.name_changed",
    ]);
    const [everywhere, revokedByGraphQL, reset, asked, out, revokedOne, revokedOthers, changed, renamed] = entries;
    for (const e of entries) expect(e.target).toBe(email);
    const person = { kind: "user", label: email };
    expect(renamed).toMatchObject({ actor: person, details: { from: "account", to: "Ada Account" }, ipAddress: expect.any(String) });
    expect(changed).toMatchObject({ actor: person, details: { sessionsEnded: 2 } });
    expect(revokedOthers).toMatchObject({ actor: person, details: { sessionIds: expect.any(Array) } });
    expect(revokedOthers!.details!.sessionIds).toHaveLength(2);
    expect(revokedOne).toMatchObject({ actor: person, details: { sessionIds: [dSession] } });
    expect(out).toMatchObject({ actor: person, ipAddress: expect.any(String) });
    expect(asked).toMatchObject({ actor: { kind: "system", label: "operator (CLI)" } });
    expect(reset).toMatchObject({ actor: person, details: { sessionsEnded: 1 }, ipAddress: expect.any(String) });
    expect(revokedByGraphQL).toMatchObject({ actor: person, details: { sessionIds: [hSession] } });
    expect(everywhere).toMatchObject({ actor: person, details: { sessionsEnded: 2 } });
    expect(fSession).not.toBe(dSession);
  });
});
