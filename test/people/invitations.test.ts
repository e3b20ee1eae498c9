/**
 * Invitations (docs/contract/decisions.md, "People, sign-in and the dashboard"): an owner invites an
 * email with a role; the token is shown once (only its hash is stored), valid 7 days, single-use, for
 * that email only; accepting signs up (or, signed in, joins). The accept page reads the invitation
 * without signing in. Members and invitations changes are audited; a workspace keeps an owner.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApi } from "../../src/main/server.js";
import { prisma } from "../../src/infra/db.js";
import { request, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { newPerson, PASSWORD, personClient, signedIn, type PersonClient } from "../helpers/people.js";

let api: RunningApi;
let ws: { workspaceId: string; key: string };
let owner: PersonClient;

beforeAll(async () => {
  api = await startTestApi();
  ws = await newWorkspace("free", "Studio");
  await newPerson("owner@example.com", ws.workspaceId, "owner");
  owner = await signedIn(api.url, "owner@example.com");
});

afterAll(() => stopAll(api));

async function invite(email: string, role: "OWNER" | "MEMBER" = "MEMBER") {
  const r = await owner.gql(
    `mutation($e: String!, $r: WorkspaceRole!) { createInvitation(email: $e, role: $r) { token acceptUrl invitation { id uuid email role status expiresAt invitedBy } } }`,
    { e: email, r: role },
  );
  expect(r.body.errors, r.text).toBeUndefined();
  return r.body.data.createInvitation as {
    token: string;
    acceptUrl: string;
    invitation: { id: string; uuid: string; email: string; role: string; status: string; expiresAt: string; invitedBy: string };
  };
}

const preview = (token: string, headers: Record<string, string> = { "x-invitation-token": token }) =>
  request(api.url, "POST", "/graphql", {
    body: { query: `query($t: String!) { invitation(token: $t) { email role workspaceName status } }`, variables: { t: token } },
    headers,
  });

describe("invitations", () => {
  it("the token is shown once, hashed at rest, valid 7 days; the accept page reads it without signing in", async () => {
    const created = await invite("Newbie@Example.com");
    expect(created.token).toMatch(/^svc_inv_[A-Za-z0-9_-]{43}$/);
    expect(created.acceptUrl).toMatch(/\/accept-invitation\?token=svc_inv_/);
    expect(created.invitation).toMatchObject({
      email: "newbie@example.com",
      role: "MEMBER",
      status: "PENDING",
      invitedBy: "owner@example.com",
    });
    expect(new Date(created.invitation.expiresAt).getTime() - Date.now()).toBeGreaterThan(6.99 * 86_400_000);
    const row = await prisma.workspaceInvitation.findUniqueOrThrow({ where: { id: created.invitation.uuid } });
    expect(JSON.stringify(row)).not.toContain(created.token);
    const listed = await owner.gql(`{ invitations(first: 10) { totalCount edges { node { email status } } } }`);
    expect(listed.text).not.toContain(created.token);

    const open = await preview(created.token);
    expect(open.body.data.invitation).toEqual({ email: "newbie@example.com", role: "MEMBER", workspaceName: "Studio", status: "PENDING" });
    // Without the header (and without a session or key) it is 401.
    expect((await preview(created.token, {})).status).toBe(401);
    // The header opens nothing else.
    const more = await request(api.url, "POST", "/graphql", {
      body: { query: "{ workspace { plan } }" },
      headers: { "x-invitation-token": created.token },
    });
    expect(more.body.errors[0].extensions.code).toBe("UNAUTHORIZED");
    expect(
      (
        await request(api.url, "POST", "/graphql", {
          body: { query: "{ workspace { plan } }" },
          headers: { "x-invitation-token": "svc_inv_" + "x".repeat(43) },
        })
      ).status,
    ).toBe(401);
  });

  it("signing up with the token joins the workspace with its role; the token works once", async () => {
    const { token } = await invite("joiner@example.com", "OWNER");
    const joiner = personClient(api.url);
    const res = await joiner.signUp({ email: "joiner@example.com", password: PASSWORD, name: "Joiner", invitationToken: token });
    expect(res.status, res.text).toBe(200);
    const viewer = await joiner.gql(`{ viewer { workspaces { uuid role name } } }`);
    expect(viewer.body.data.viewer.workspaces).toEqual([{ uuid: ws.workspaceId, role: "OWNER", name: "Studio" }]);
    expect((await preview(token)).body.data.invitation.status).toBe("ACCEPTED");
    const again = await personClient(api.url).signUp({
      email: "joiner@example.com",
      password: PASSWORD,
      name: "Again",
      invitationToken: token,
    });
    expect([again.status, again.body.code]).toEqual([409, "INVITATION_NOT_PENDING"]);
  });

  it("is for its email only; a password of fewer than 10 characters is refused", async () => {
    const { token } = await invite("right@example.com");
    const wrong = await personClient(api.url).signUp({
      email: "wrong@example.com",
      password: PASSWORD,
      name: "Wrong",
      invitationToken: token,
    });
    expect([wrong.status, wrong.body.code]).toEqual([403, "FORBIDDEN"]);
    const short = await personClient(api.url).signUp({
      email: "right@example.com",
      password: "short",
      name: "Right",
      invitationToken: token,
    });
    expect([short.status, short.body.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(await prisma.user.count({ where: { email: { in: ["wrong@example.com", "right@example.com"] } } })).toBe(0);
    const unknown = await personClient(api.url).signUp({
      email: "right@example.com",
      password: PASSWORD,
      name: "Right",
      invitationToken: "svc_inv_" + "a".repeat(43),
    });
    expect([unknown.status, unknown.body.code]).toEqual([404, "NOT_FOUND"]);
  });

  it("expires after 7 days; a revoked invitation cannot be used", async () => {
    const late = await invite("late@example.com");
    await prisma.workspaceInvitation.update({ where: { id: late.invitation.uuid }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await preview(late.token)).body.data.invitation.status).toBe("EXPIRED");
    const expired = await personClient(api.url).signUp({
      email: "late@example.com",
      password: PASSWORD,
      name: "Late",
      invitationToken: late.token,
    });
    expect([expired.status, expired.body.code]).toEqual([409, "INVITATION_NOT_PENDING"]);

    const cancelled = await invite("cancelled@example.com");
    const revoked = await owner.gql(`mutation($id: ID!) { revokeInvitation(id: $id) { status } }`, { id: cancelled.invitation.id });
    expect(revoked.body.data.revokeInvitation.status).toBe("REVOKED");
    const refused = await personClient(api.url).signUp({
      email: "cancelled@example.com",
      password: PASSWORD,
      name: "C",
      invitationToken: cancelled.token,
    });
    expect(refused.body.code).toBe("INVITATION_NOT_PENDING");
  });

  it("a signed-in person accepts with acceptInvitation; used once; an existing member cannot be invited", async () => {
    const elsewhere = await newWorkspace("free", "Elsewhere");
    await newPerson("existing@example.com", elsewhere.workspaceId, "owner");
    const existing = await signedIn(api.url, "existing@example.com");
    const { token } = await invite("existing@example.com");
    const joined = await existing.gql(`mutation($t: String!) { acceptInvitation(token: $t) { uuid role name } }`, { t: token });
    expect(joined.body.data.acceptInvitation).toEqual({ uuid: ws.workspaceId, role: "MEMBER", name: "Studio" });
    const twice = await existing.gql(`mutation($t: String!) { acceptInvitation(token: $t) { uuid } }`, { t: token });
    expect(twice.body.errors[0].extensions.code).toBe("INVITATION_NOT_PENDING");
    expect((await existing.gql(`{ viewer { workspaces { name } } }`)).body.data.viewer.workspaces.map((w: any) => w.name)).toEqual([
      "Elsewhere",
      "Studio",
    ]);
    const dup = await owner.gql(`mutation { createInvitation(email: "existing@example.com", role: MEMBER) { token } }`);
    expect(dup.body.errors[0].extensions.code).toBe("ALREADY_MEMBER");
    // Someone else's invitation cannot be accepted by another signed-in person.
    const forOther = await invite("other@example.com");
    expect(
      (await existing.gql(`mutation($t: String!) { acceptInvitation(token: $t) { uuid } }`, { t: forOther.token })).body.errors[0]
        .extensions.code,
    ).toBe("FORBIDDEN");
  });

  it("a workspace keeps an owner: the last owner cannot be demoted or removed", async () => {
    const solo = await newWorkspace("free", "Solo");
    await newPerson("solo@example.com", solo.workspaceId, "owner");
    const p = await signedIn(api.url, "solo@example.com");
    const me = (await p.gql(`{ members(first: 5) { edges { node { id } } } }`)).body.data.members.edges[0].node.id;
    expect(
      (await p.gql(`mutation($id: ID!) { changeMemberRole(id: $id, role: MEMBER) { role } }`, { id: me })).body.errors[0].extensions.code,
    ).toBe("LAST_OWNER");
    expect((await p.gql(`mutation($id: ID!) { removeMember(id: $id) }`, { id: me })).body.errors[0].extensions.code).toBe("LAST_OWNER");
    // Another member's id in the other workspace is NOT_FOUND here.
    const theirs = (await owner.gql(`{ members(first: 1) { edges { node { id } } } }`)).body.data.members.edges[0].node.id;
    expect((await p.gql(`mutation($id: ID!) { removeMember(id: $id) }`, { id: theirs })).body.errors[0].extensions.code).toBe("NOT_FOUND");
  });
});
