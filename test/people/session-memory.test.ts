/**
 * A person costs what a key costs (src/domain/people/sessions.ts): an API process remembers what a
 * session cookie was answered with (the session, the person, their memberships), and forgets it the
 * moment any process announces a change through the revocation channel.
 *
 * - In this process: a signed-in person's request sends the same statements as the same request
 *   with an API key (none for the session, the person or the memberships).
 * - Across two API processes started with SESSION_MEMORY_MS=60000, so that only the announcement can
 *   end what B remembers within the contract's 5 s: B first shows that it remembers (a name changed
 *   in PostgreSQL behind its back is not seen), then a sign-out, a revoked session, a removal, a role
 *   change, a password change, a new name and a new membership made through A take effect on B
 *   within 5 s.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApi } from "../../src/main/server.js";
import { prisma } from "../../src/infra/db.js";
import { gql, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { newPerson, PASSWORD, personClient, signedIn, type PersonClient } from "../helpers/people.js";
import { spawnService, type ServiceProcess } from "../helpers/processes.js";
import { waitUntil } from "../helpers/wait.js";
import { statementsOf } from "../helpers/statements.js";

/** The contract's bound for a withdrawal to take effect. */
const CONTRACT_MS = 5000;

let api: RunningApi;
let a: ServiceProcess;
let b: ServiceProcess;

beforeAll(async () => {
  api = await startTestApi();
  [a, b] = await Promise.all([spawnService("api", { SESSION_MEMORY_MS: "60000" }), spawnService("api", { SESSION_MEMORY_MS: "60000" })]);
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await stopAll(api);
});

/** The same person's client, talking to another process (the cookie is the service's, not a process's). */
function on(p: PersonClient, url: string): PersonClient {
  const there = personClient(url);
  for (const [k, v] of p.cookies) there.cookies.set(k, v);
  return there;
}

/** Counts the SQL statements this process sends while `fn` runs (the in-process API's). */
const statements = async (fn: () => Promise<unknown>): Promise<number> => (await statementsOf(fn)).statements.length;

/**
 * Makes `there` (a client of B) remembered by B, and shows it: a name written to PostgreSQL alone
 * (no announcement) is not what B answers; B answers the one it read before. (The person's name is
 * a marker from then on.)
 */
async function rememberedByB(there: PersonClient, userId: string): Promise<void> {
  let i = 0;
  await waitUntil(
    "B answering the person from memory",
    async () => {
      const marker = `marker ${++i}`;
      await prisma.user.update({ where: { id: userId }, data: { name: marker } });
      return { marker, seen: (await there.gql(`{ viewer { name } }`)).body.data?.viewer?.name };
    },
    ({ marker, seen }) => seen !== undefined && seen !== marker,
    CONTRACT_MS,
  );
}

/** Polls B until `ok` accepts its answer, within the contract's 5 s from now. */
const withinContract = <T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean) => waitUntil(what, read, ok, CONTRACT_MS);

describe("a signed-in person costs what a key costs", () => {
  it("the same statements as the same request with an API key, once the session is remembered", async () => {
    const { workspaceId, key } = await newWorkspace();
    await newPerson("cheap@example.com", workspaceId, "member");
    const person = await signedIn(api.url, "cheap@example.com");
    const query = `{ workspace { plan } }`;
    await gql(api.url, key, query); // the key registered in Redis (its first request reads PostgreSQL)
    const withKey = await statements(() => gql(api.url, key, query));
    const first = await statements(() => person.gql(query));
    expect(first, "the first request reads the session, the person and the memberships").toBeGreaterThan(withKey);
    await waitUntil(
      "the session remembered",
      () => statements(() => person.gql(query)),
      (n) => n === withKey,
      CONTRACT_MS,
    );
    const answer = await person.gql(query);
    expect(answer.status).toBe(200);
    expect(answer.body.data.workspace.plan).toBe("free");
  });
});

describe("the library's refresh of a session, kept", () => {
  it("a session due for its refresh is refreshed (its cookie set again) on its next request, once; then it is remembered as refreshed", async () => {
    const { workspaceId, key } = await newWorkspace();
    await newPerson("refresh@example.com", workspaceId, "member");
    const person = await signedIn(api.url, "refresh@example.com");
    const query = `{ workspace { plan } }`;
    await gql(api.url, key, query);
    const withKey = await statements(() => gql(api.url, key, query));
    await waitUntil(
      "the session remembered",
      () => statements(() => person.gql(query)),
      (n) => n === withKey,
      CONTRACT_MS,
    );
    // Last refreshed two hours ago (the library refreshes at most hourly): due.
    const session = await prisma.session.findFirstOrThrow({ where: { user: { email: "refresh@example.com" } } });
    await prisma.session.update({ where: { id: session.id }, data: { expiresAt: new Date(Date.now() + 7 * 86_400_000 - 2 * 3_600_000) } });
    const refreshed = await waitUntil(
      "the library refreshing the session",
      async () => {
        const r = await person.gql(query);
        return r.headers.getSetCookie().filter((c) => c.includes("session_token="));
      },
      (cookies) => cookies.length === 1,
      CONTRACT_MS, // what this process remembered (3 s) ends, and the next request goes to the library
    );
    expect(refreshed[0]).toMatch(/Max-Age=604800/);
    expect((await prisma.session.findUniqueOrThrow({ where: { id: session.id } })).expiresAt.getTime()).toBeGreaterThan(
      Date.now() + 7 * 86_400_000 - 60_000,
    );
    // Once: the following requests set no cookie, and are answered from memory again.
    for (let i = 0; i < 3; i++) expect((await person.gql(query)).headers.getSetCookie()).toEqual([]);
    await waitUntil(
      "the refreshed session remembered",
      () => statements(() => person.gql(query)),
      (n) => n === withKey,
      CONTRACT_MS,
    );
  });
});

describe("what one process remembers ends when another announces a change (SESSION_MEMORY_MS=60000)", () => {
  it("sign-out on A: B refuses the cookie within 5 s", async () => {
    const { workspaceId } = await newWorkspace();
    const { userId } = await newPerson("mem-out@example.com", workspaceId, "member");
    const person = await signedIn(a.url!, "mem-out@example.com");
    const atB = on(person, b.url!);
    await rememberedByB(atB, userId);
    expect((await person.signOut()).status).toBe(200);
    await withinContract(
      "B refusing a signed-out session",
      () => atB.gql(`{ viewer { email } }`),
      (r) => r.status === 401,
    );
  });

  it("a session revoked from another one (on A), and a password change (on A) ending the other sessions: B refuses them within 5 s", async () => {
    const { workspaceId } = await newWorkspace();
    const { userId } = await newPerson("mem-revoke@example.com", workspaceId, "member");
    const laptop = await signedIn(a.url!, "mem-revoke@example.com");
    const phone = await signedIn(a.url!, "mem-revoke@example.com");
    const tablet = await signedIn(a.url!, "mem-revoke@example.com");
    const phoneAtB = on(phone, b.url!);
    const tabletAtB = on(tablet, b.url!);
    await rememberedByB(phoneAtB, userId);
    await rememberedByB(tabletAtB, userId);
    const sessions = (await laptop.gql(`{ viewer { sessions { id userAgent current } } }`)).body.data.viewer.sessions as {
      id: string;
      current: boolean;
    }[];
    const phoneId = (await phone.gql(`{ viewer { sessions { id current } } }`)).body.data.viewer.sessions.find(
      (s: { current: boolean }) => s.current,
    ).id;
    expect(sessions.map((s) => s.id)).toContain(phoneId);
    expect((await laptop.gql(`mutation($id: ID!) { revokeSession(id: $id) }`, { id: phoneId })).body.data.revokeSession).toBe(phoneId);
    await withinContract(
      "B refusing the revoked session",
      () => phoneAtB.gql(`{ viewer { email } }`),
      (r) => r.status === 401,
    );
    expect((await tabletAtB.gql(`{ viewer { email } }`)).status).toBe(200);

    const changed = await laptop.auth("POST", "/change-password", { currentPassword: PASSWORD, newPassword: "a brand new password" });
    expect(changed.status).toBe(200);
    await withinContract(
      "B refusing a session the password change ended",
      () => tabletAtB.gql(`{ viewer { email } }`),
      (r) => r.status === 401,
    );
    expect((await on(laptop, b.url!).gql(`{ viewer { email } }`)).status).toBe(200);
  });

  it("a member removed, and a role changed, by an owner on A: B answers the new memberships within 5 s", async () => {
    const { workspaceId } = await newWorkspace("free", "Shared");
    const other = await newWorkspace("starter", "Other");
    await newPerson("mem-owner@example.com", workspaceId, "owner");
    const { userId } = await newPerson("mem-member@example.com", workspaceId, "member");
    const { setMembership } = await import("../../src/domain/people/members.js");
    const { OPERATOR } = await import("../../src/domain/actors/actor.js");
    const owner = await signedIn(a.url!, "mem-owner@example.com");
    const member = await signedIn(a.url!, "mem-member@example.com");
    const memberAtB = on(member, b.url!);
    await rememberedByB(memberAtB, userId);
    const roleAtB = () => memberAtB.gql(`{ viewer { currentWorkspace { role } } }`, {}, { workspace: workspaceId });
    expect((await roleAtB()).body.data.viewer.currentWorkspace.role).toBe("MEMBER");

    const memberId = (
      await owner.gql(`{ members { edges { node { id email } } } }`, {}, { workspace: workspaceId })
    ).body.data.members.edges.find((e: { node: { email: string } }) => e.node.email === "mem-member@example.com").node.id;
    const promoted = await owner.gql(
      `mutation($id: ID!) { changeMemberRole(id: $id, role: OWNER) { role } }`,
      { id: memberId },
      { workspace: workspaceId },
    );
    expect(promoted.body.data.changeMemberRole.role).toBe("OWNER");
    await withinContract("B answering the new role", roleAtB, (r) => r.body.data?.viewer?.currentWorkspace?.role === "OWNER");

    // A membership added (the operators' CLI, through the domain in this process): B sees the new workspace.
    await rememberedByB(memberAtB, userId);
    await setMembership({ workspaceId: other.workspaceId, userId, role: "member", by: OPERATOR });
    await withinContract(
      "B answering the new workspace",
      () => memberAtB.gql(`{ workspace { plan } }`, {}, { workspace: other.workspaceId }),
      (r) => r.body.data?.workspace?.plan === "starter",
    );

    await rememberedByB(memberAtB, userId);
    expect(
      (await owner.gql(`mutation($id: ID!) { removeMember(id: $id) }`, { id: memberId }, { workspace: workspaceId })).body.errors,
    ).toBeUndefined();
    await withinContract(
      "B refusing the workspace of a removed member",
      () => memberAtB.gql(`{ workspace { plan } }`, {}, { workspace: workspaceId }),
      (r) => r.status === 404,
    );
  });

  it("a new name (update-user on A): B answers it within 5 s", async () => {
    const { workspaceId } = await newWorkspace();
    const { userId } = await newPerson("mem-name@example.com", workspaceId, "member");
    const person = await signedIn(a.url!, "mem-name@example.com");
    const atB = on(person, b.url!);
    await rememberedByB(atB, userId);
    expect((await person.auth("POST", "/update-user", { name: "Renamed" })).status).toBe(200);
    await withinContract(
      "B answering the new name",
      () => atB.gql(`{ viewer { name } }`),
      (r) => r.body.data?.viewer?.name === "Renamed",
    );
  });
});
