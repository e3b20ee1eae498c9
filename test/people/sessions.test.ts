/**
 * Sessions (docs/contract/decisions.md, "People, sign-in and the dashboard"): signing out, revoking a
 * session and removing a member end that person's live WebSockets (4403) and SSE streams within 5 s,
 * like a revoked key, with no event after; idle (7 days) and absolute (30 days) expiry; the chosen
 * workspace; the person's rate-limit budget; Secure cookies behind a trusted https proxy.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.RATE_LIMIT_PER_MINUTE = "60";
});

import { createClient, type Client } from "graphql-ws";
import type { RunningApi } from "../../src/main/server.js";
import { prisma } from "../../src/infra/db.js";
import { newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { cookieSocket, newPerson, personClient, PASSWORD, signedIn, type PersonClient } from "../helpers/people.js";
import { spawnService, type ServiceProcess } from "../helpers/processes.js";

let api: RunningApi;
const spawned: ServiceProcess[] = [];

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  for (const p of spawned) await p.stop("SIGKILL");
  await stopAll(api);
});

async function grant(workspaceId: string) {
  const { grant: g } = await import("../../src/domain/credits/service.js");
  await g({ workspaceId, amount: 1, idempotencyKey: `g-${Math.random()}`, reason: "test" });
}

/** A live creditsUpdated subscription over a cookie-authenticated WebSocket, recording balances and the close code. */
async function liveSocket(person: PersonClient, workspaceId: string) {
  const state = { balances: [] as number[], closedWith: undefined as number | undefined };
  const c: Client = createClient({
    url: api.url.replace("http", "ws") + "/graphql",
    webSocketImpl: cookieSocket(person.cookieHeader(), api.url),
    connectionParams: { workspaceId },
    retryAttempts: 0,
    lazy: true,
    on: { closed: (e: any) => (state.closedWith ??= e?.code) },
  });
  c.subscribe(
    { query: "subscription { creditsUpdated { totalRemaining } }" },
    { next: (v: any) => state.balances.push(v.data?.creditsUpdated?.totalRemaining), error: () => undefined, complete: () => undefined },
  );
  await vi.waitFor(
    async () => {
      await grant(workspaceId);
      expect(state.balances.length).toBeGreaterThan(0);
    },
    { timeout: 5000, interval: 300 },
  );
  return { c, state };
}

/** A live creditsUpdated subscription over SSE with the cookie; resolves `ended` when the stream ends. */
async function liveStream(person: PersonClient, workspaceId: string) {
  const res = await fetch(`${api.url}/graphql`, {
    method: "POST",
    headers: {
      cookie: person.cookieHeader(),
      "x-workspace-id": workspaceId,
      "content-type": "application/json",
      accept: "text/event-stream",
    },
    body: JSON.stringify({ query: "subscription { creditsUpdated { totalRemaining } }" }),
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const state = { text: "", ended: false };
  void (async () => {
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      state.text += decoder.decode(value);
    }
    state.ended = true;
  })();
  await vi.waitFor(
    async () => {
      await grant(workspaceId);
      expect(state.text).toContain("totalRemaining");
    },
    { timeout: 5000, interval: 300 },
  );
  return state;
}

describe("ending a session ends its live connections within 5 s", () => {
  it("sign-out closes the WebSocket (4403) and ends the SSE stream; no event after", async () => {
    const { workspaceId } = await newWorkspace();
    await newPerson("out@example.com", workspaceId, "member");
    const person = await signedIn(api.url, "out@example.com");
    const { c, state } = await liveSocket(person, workspaceId);
    const stream = await liveStream(person, workspaceId);
    const started = Date.now();
    expect((await person.signOut()).status).toBe(200);
    await grant(workspaceId);
    await vi.waitFor(() => expect(state.closedWith).toBe(4403), { timeout: 5000, interval: 50 });
    await vi.waitFor(() => expect(stream.ended).toBe(true), { timeout: 5000, interval: 50 });
    expect(Date.now() - started).toBeLessThan(5000);
    const seen = state.balances.length;
    await grant(workspaceId);
    await new Promise((r) => setTimeout(r, 300));
    expect(state.balances.length).toBe(seen);
    await c.dispose();
  });

  it("revokeSession (from another session of the same person) closes that session's WebSocket; the other stays", async () => {
    const { workspaceId } = await newWorkspace();
    await newPerson("two@example.com", workspaceId, "member");
    const laptop = await signedIn(api.url, "two@example.com");
    const phone = await signedIn(api.url, "two@example.com");
    const onPhone = await liveSocket(phone, workspaceId);
    const onLaptop = await liveSocket(laptop, workspaceId);
    const sessions = (await laptop.gql(`{ viewer { sessions { id current } } }`)).body.data.viewer.sessions as {
      id: string;
      current: boolean;
    }[];
    expect(sessions).toHaveLength(2);
    const phoneSession = sessions.find((s) => !s.current)!.id;
    const revoked = await laptop.gql(`mutation($id: ID!) { revokeSession(id: $id) }`, { id: phoneSession });
    expect(revoked.body.data.revokeSession).toBe(phoneSession);
    await vi.waitFor(() => expect(onPhone.state.closedWith).toBe(4403), { timeout: 5000, interval: 50 });
    expect((await phone.gql(`{ viewer { email } }`)).status).toBe(401);
    expect(onLaptop.state.closedWith).toBeUndefined();
    // Another person's session cannot be revoked: NOT_FOUND.
    await newPerson("three@example.com", workspaceId, "member");
    const third = await signedIn(api.url, "three@example.com");
    const thirdSession = (await third.gql(`{ viewer { sessions { id } } }`)).body.data.viewer.sessions[0].id;
    expect((await laptop.gql(`mutation($id: ID!) { revokeSession(id: $id) }`, { id: thirdSession })).body.errors[0].extensions.code).toBe(
      "NOT_FOUND",
    );
    await onPhone.c.dispose();
    await onLaptop.c.dispose();
  });

  it("a password change ends the person's other sessions (their WebSocket 4403, their SSE stream) and keeps the one that changed it", async () => {
    const { workspaceId } = await newWorkspace();
    await newPerson("changer@example.com", workspaceId, "member");
    const laptop = await signedIn(api.url, "changer@example.com");
    const stolen = await signedIn(api.url, "changer@example.com"); // a session the person does not know about
    const onStolen = await liveSocket(stolen, workspaceId);
    const streamOfStolen = await liveStream(stolen, workspaceId);
    const onLaptop = await liveSocket(laptop, workspaceId);
    const started = Date.now();
    const changed = await laptop.auth("POST", "/change-password", { currentPassword: PASSWORD, newPassword: "a brand new passphrase" });
    expect(changed.status, changed.text).toBe(200);
    await vi.waitFor(() => expect(onStolen.state.closedWith).toBe(4403), { timeout: 5000, interval: 50 });
    await vi.waitFor(() => expect(streamOfStolen.ended).toBe(true), { timeout: 5000, interval: 50 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await stolen.gql(`{ viewer { email } }`)).status).toBe(401);
    // The session that changed it goes on, live connection included.
    expect((await laptop.gql(`{ viewer { email } }`)).body.data.viewer.email).toBe("changer@example.com");
    expect(onLaptop.state.closedWith).toBeUndefined();
    expect((await personClient(api.url).signIn("changer@example.com", PASSWORD)).status).toBe(401);
    expect((await personClient(api.url).signIn("changer@example.com", "a brand new passphrase")).status).toBe(200);
    await onStolen.c.dispose();
    await onLaptop.c.dispose();

    // A client that says revokeOtherSessions: false keeps them (its choice); true is the library's own (every session, a new one).
    const other = await signedIn(api.url, "changer@example.com", "a brand new passphrase");
    expect(
      (
        await laptop.auth("POST", "/change-password", {
          currentPassword: "a brand new passphrase",
          newPassword: "yet another passphrase",
          revokeOtherSessions: false,
        })
      ).status,
    ).toBe(200);
    expect((await other.gql(`{ viewer { email } }`)).status).toBe(200);
  });

  it("removing a member closes their live connections on that workspace, and only there", async () => {
    const team = await newWorkspace("free", "Team");
    const own = await newWorkspace("free", "Own");
    await newPerson("boss@example.com", team.workspaceId, "owner");
    await newPerson("leaver@example.com", team.workspaceId, "member");
    const { setMembership } = await import("../../src/domain/people/members.js");
    const { OPERATOR } = await import("../../src/domain/actors/actor.js");
    const leaverId = (await prisma.user.findUniqueOrThrow({ where: { email: "leaver@example.com" } })).id;
    await setMembership({ workspaceId: own.workspaceId, userId: leaverId, role: "owner", by: OPERATOR });
    const boss = await signedIn(api.url, "boss@example.com");
    const leaver = await signedIn(api.url, "leaver@example.com");
    const onTeam = await liveSocket(leaver, team.workspaceId);
    const onOwn = await liveSocket(leaver, own.workspaceId);
    const member = (await boss.gql(`{ members(first: 5) { edges { node { id email } } } }`)).body.data.members.edges.find(
      (e: any) => e.node.email === "leaver@example.com",
    ).node.id;
    const started = Date.now();
    expect((await boss.gql(`mutation($id: ID!) { removeMember(id: $id) }`, { id: member })).body.data.removeMember).toBe(member);
    await vi.waitFor(() => expect(onTeam.state.closedWith).toBe(4403), { timeout: 5000, interval: 50 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await leaver.gql(`{ workspace { plan } }`, {}, { workspace: team.workspaceId })).status).toBe(404);
    expect(onOwn.state.closedWith).toBeUndefined();
    expect((await leaver.gql(`{ workspace { plan } }`, {}, { workspace: own.workspaceId })).status).toBe(200);
    await onTeam.c.dispose();
    await onOwn.c.dispose();
  });
});

describe("expiry, the chosen workspace, the person's budget", () => {
  it("a session unused for 7 days (expires_at passed) and one 30 days old are refused; the cap holds in the database", async () => {
    const { workspaceId } = await newWorkspace();
    await newPerson("old@example.com", workspaceId, "member");
    const idle = await signedIn(api.url, "old@example.com");
    const aged = await signedIn(api.url, "old@example.com");
    const [a, b] = await prisma.session.findMany({ where: { user: { email: "old@example.com" } }, orderBy: { createdAt: "asc" } });
    expect(b!.expiresAt.getTime() - b!.createdAt.getTime()).toBeGreaterThan(6.9 * 86_400_000); // idle expiry: 7 days ahead
    await prisma.session.update({ where: { id: a!.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    // 31 days old: whatever the library writes, expires_at never passes created_at + 30 days (trigger).
    await prisma.session.update({
      where: { id: b!.id },
      data: { createdAt: new Date(Date.now() - 31 * 86_400_000), expiresAt: new Date(Date.now() + 7 * 86_400_000) },
    });
    const capped = await prisma.session.findUniqueOrThrow({ where: { id: b!.id } });
    expect(capped.expiresAt.getTime()).toBeLessThan(Date.now());
    expect((await idle.gql(`{ viewer { email } }`)).status).toBe(401);
    expect((await aged.gql(`{ viewer { email } }`)).status).toBe(401);
    expect((await aged.auth("GET", "/get-session")).body).toBeNull();
  });

  it("selectWorkspace is remembered by the session; x-workspace-id wins for one request", async () => {
    const a = await newWorkspace("free", "A");
    const b = await newWorkspace("starter", "B");
    await newPerson("both@example.com", a.workspaceId, "member");
    const { setMembership } = await import("../../src/domain/people/members.js");
    const { OPERATOR } = await import("../../src/domain/actors/actor.js");
    const userId = (await prisma.user.findUniqueOrThrow({ where: { email: "both@example.com" } })).id;
    await setMembership({ workspaceId: b.workspaceId, userId, role: "owner", by: OPERATOR });
    const p = await signedIn(api.url, "both@example.com");
    expect((await p.gql(`{ workspace { plan } }`)).body.data.workspace.plan).toBe("free"); // the oldest membership
    const chosen = await p.gql(`mutation($id: ID!) { selectWorkspace(id: $id) { currentWorkspace { uuid role } } }`, { id: b.workspaceId });
    expect(chosen.body.data.selectWorkspace.currentWorkspace).toEqual({ uuid: b.workspaceId, role: "OWNER" });
    expect((await p.gql(`{ workspace { plan } }`)).body.data.workspace.plan).toBe("starter");
    expect((await p.send("GET", "/api/v1/workspace")).body.data.plan).toBe("starter");
    expect((await p.gql(`{ workspace { plan } }`, {}, { workspace: a.workspaceId })).body.data.workspace.plan).toBe("free");
    // A malformed x-workspace-id is a validation error, not a guess.
    expect((await p.gql(`{ workspace { plan } }`, {}, { workspace: "not-an-id" })).body.errors[0].extensions.code).toBe("VALIDATION_ERROR");
  });

  it("a person's requests share one rate-limit budget across their sessions (RATE_LIMIT_PER_MINUTE), like a key's", async () => {
    const { workspaceId } = await newWorkspace();
    await newPerson("busy@example.com", workspaceId, "member");
    const one = await signedIn(api.url, "busy@example.com");
    const two = await signedIn(api.url, "busy@example.com");
    const first = await one.send("GET", "/api/v1/workspace");
    expect(first.headers.get("ratelimit-limit")).toBe("60");
    let refused = null;
    for (let i = 0; i < 70 && !refused; i++) {
      const r = await (i % 2 ? one : two).send("GET", "/api/v1/workspace");
      if (r.status === 429) refused = r;
    }
    expect(refused?.body.code).toBe("RATE_LIMITED");
    expect(refused?.headers.get("retry-after")).toMatch(/^\d+$/);
    const g = await two.gql(`{ workspace { plan } }`);
    expect(g.status).toBe(429);
  });
});

describe("behind a trusted https proxy", () => {
  it("the cookie is Secure (and __Secure- prefixed); the client address is the forwarded one", async () => {
    const proxied = await spawnService("api", { TRUST_PROXY: "loopback" });
    spawned.push(proxied);
    const { workspaceId } = await newWorkspace();
    await newPerson("secure@example.com", workspaceId, "owner");
    const c = personClient(proxied.url!);
    const headers = { "x-forwarded-proto": "https", "x-forwarded-for": "203.0.113.9", origin: "https://" + new URL(proxied.url!).host };
    const res = await c.send("POST", "/auth/sign-in/email", { body: { email: "secure@example.com", password: PASSWORD }, headers });
    expect(res.status, res.text).toBe(200);
    const cookie = c.lastSetCookies.find((s) => s.includes("session_token="))!;
    expect(cookie).toMatch(/^__Secure-svc\.session_token=/);
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/HttpOnly/i);
    const session = await prisma.session.findFirstOrThrow({ where: { user: { email: "secure@example.com" } } });
    expect(session.ipAddress).toBe("203.0.113.9");
    const viewer = await c.send("POST", "/graphql", {
      body: { query: "{ viewer { email } }" },
      headers: { ...headers, "x-requested-with": "x" },
    });
    expect(viewer.body.data.viewer.email).toBe("secure@example.com");
  });
});
