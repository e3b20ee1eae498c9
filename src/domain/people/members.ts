/**
 * Workspace membership: which people belong to a workspace, with which role (`owner` or `member`).
 * Memberships live in the project's own table beside `workspaces` (which owns plan, credits and
 * keys), not in an authentication library's organization tables: docs/architecture.md says why.
 *
 * A workspace never loses its last owner: a role change or removal that would leave it without one
 * is refused (409 LAST_OWNER), decided under the workspace's row lock so two owners demoting each
 * other at once cannot both succeed. Removing a member ends their live connections on that
 * workspace (the `member:` revocation subject, src/domain/keys/revocation.ts).
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { prisma, sql, type Tx } from "../../infra/db.ts";
import { DomainError, notFound } from "../shared/errors.ts";
import { pageAndTotal, type Order, type PageRequest } from "../shared/pages.ts";
import { announceRevocation, revocationSubject } from "../keys/revocation.ts";
import type { Acting, Actor, WorkspaceRole } from "../actors/actor.ts";
import { recordAudit } from "../actors/audit.ts";
import { queueRemovedMail } from "./mails.ts";
import { dispatchMails } from "../mail/outbox.ts";
import { authorize } from "../actors/roles.ts";

export interface MemberRecord {
  id: string;
  workspaceId: string;
  userId: string;
  email: string;
  name: string;
  role: WorkspaceRole;
  joinedAt: Date;
}

/** A workspace as one of a person's memberships sees it. */
export interface MembershipRecord {
  workspaceId: string;
  workspaceName: string;
  role: WorkspaceRole;
  joinedAt: Date;
}

/** Oldest member first, ties by id. */
export const MEMBERS_ORDER: Order<MemberRecord> = [
  { sql: "m.created_at", type: "timestamptz", value: (m) => m.joinedAt },
  { sql: "m.id", type: "uuid", value: (m) => m.id },
];

const MEMBER_COLUMNS = Prisma.raw(
  `m.id, m.workspace_id AS "workspaceId", m.user_id AS "userId", u.email, u.name, m.role::text AS role, m.created_at AS "joinedAt"`,
);

/** Every workspace the person belongs to, oldest membership first. */
export async function membershipsOf(userId: string): Promise<MembershipRecord[]> {
  return sql<MembershipRecord>(Prisma.sql`
    SELECT m.workspace_id AS "workspaceId", w.name AS "workspaceName", m.role::text AS role, m.created_at AS "joinedAt"
      FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
     WHERE m.user_id = ${userId}::uuid
     ORDER BY m.created_at, m.id`);
}

/** A page of the workspace's members and how many it has, from one statement (`pageAndTotal`: they agree while people join). */
export function membersPage(workspaceId: string, page: PageRequest): Promise<{ items: MemberRecord[]; total: number }> {
  return pageAndTotal(MEMBERS_ORDER, page, {
    columns: MEMBER_COLUMNS,
    from: Prisma.sql`workspace_members m JOIN users u ON u.id = m.user_id`,
    where: Prisma.sql`m.workspace_id = ${workspaceId}::uuid`,
    count: Prisma.sql`SELECT count(*)::int FROM workspace_members c WHERE c.workspace_id = ${workspaceId}::uuid`,
  });
}

export async function membersByIds(workspaceId: string, ids: readonly string[]): Promise<MemberRecord[]> {
  if (ids.length === 0) return [];
  return sql<MemberRecord>(Prisma.sql`
    SELECT ${MEMBER_COLUMNS} FROM workspace_members m JOIN users u ON u.id = m.user_id
     WHERE m.workspace_id = ${workspaceId}::uuid AND m.id = ANY(${ids as string[]}::uuid[])`);
}

/**
 * Adds the person to the workspace with the role; a person who already belongs keeps their
 * membership (and role). Recorded as `member.added` when it is new.
 */
export async function addMember(
  args: { workspaceId: string; userId: string; role: WorkspaceRole; by: Acting },
  tx?: Tx,
): Promise<{ member: MemberRecord; added: boolean }> {
  const [inserted] = await sql<{ id: string }>(
    Prisma.sql`
      INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (${args.workspaceId}::uuid, ${args.userId}::uuid, ${args.role}::"WorkspaceRole")
      ON CONFLICT (workspace_id, user_id) DO NOTHING RETURNING id`,
    { tx },
  );
  const [member] = await sql<MemberRecord>(
    Prisma.sql`SELECT ${MEMBER_COLUMNS} FROM workspace_members m JOIN users u ON u.id = m.user_id
                WHERE m.workspace_id = ${args.workspaceId}::uuid AND m.user_id = ${args.userId}::uuid`,
    { tx },
  );
  if (inserted) {
    await recordAudit(
      { workspaceIds: [args.workspaceId], by: args.by, action: "member.added", target: member!.email, details: { role: args.role } },
      tx,
    );
  }
  return { member: member!, added: !!inserted };
}

/** Locks the workspace (serialising owner changes) and reads the member; NOT_FOUND when it is not one of the workspace's. */
async function lockedMember(tx: Tx, workspaceId: string, memberId: string): Promise<MemberRecord> {
  await sql(Prisma.sql`SELECT id FROM workspaces WHERE id = ${workspaceId}::uuid FOR UPDATE`, { tx });
  const [member] = await sql<MemberRecord>(
    Prisma.sql`SELECT ${MEMBER_COLUMNS} FROM workspace_members m JOIN users u ON u.id = m.user_id
                WHERE m.workspace_id = ${workspaceId}::uuid AND m.id = ${memberId}::uuid`,
    { tx },
  );
  if (!member) throw notFound("Member");
  return member;
}

async function refuseLastOwner(tx: Tx, member: MemberRecord, what: string): Promise<void> {
  if (member.role !== "owner") return;
  const [row] = await sql<{ n: number }>(
    Prisma.sql`SELECT count(*)::int AS n FROM workspace_members WHERE workspace_id = ${member.workspaceId}::uuid AND role = 'owner'`,
    { tx },
  );
  if (row!.n <= 1)
    throw new DomainError("LAST_OWNER", `A workspace needs an owner: make another member an owner before you ${what} the last one.`);
}

/** Sets a member's role (owners: `members.manage`); the answer is the membership as written. */
export async function changeMemberRole(actor: Actor, memberId: string, role: WorkspaceRole): Promise<MemberRecord> {
  authorize(actor, "members.manage");
  return membershipAnnounced(
    prisma.$transaction(async (tx) => {
      const member = await lockedMember(tx, actor.workspaceId, memberId);
      if (member.role === role) return member;
      if (role !== "owner") await refuseLastOwner(tx, member, "demote");
      await sql(Prisma.sql`UPDATE workspace_members SET role = ${role}::"WorkspaceRole" WHERE id = ${memberId}::uuid`, { tx });
      await recordAudit(
        {
          workspaceIds: [actor.workspaceId],
          by: actor,
          action: "member.role_changed",
          target: member.email,
          details: { from: member.role, to: role },
        },
        tx,
      );
      return { ...member, role };
    }),
  );
}

/** After the commit: every process reads the person's memberships again (./sessions.ts remembers them). */
async function membershipAnnounced(change: Promise<MemberRecord>): Promise<MemberRecord> {
  const member = await change;
  await announceRevocation(revocationSubject.person(member.userId));
  return member;
}

/**
 * Removes a member (owners: `members.manage`; an owner may remove themselves while another owner
 * remains). Their live WebSockets and SSE streams on this workspace end within seconds; their
 * sessions stay (they may belong to other workspaces).
 */
export async function removeMember(actor: Actor, memberId: string): Promise<MemberRecord> {
  authorize(actor, "members.manage");
  return takeOut(actor, memberId, "member.removed");
}

/**
 * The person leaves the actor's workspace on their own (any role; the last owner cannot: 409
 * LAST_OWNER). Sessions only: an API key is the workspace's, not a person's.
 */
export async function leaveWorkspace(actor: Actor): Promise<MemberRecord> {
  if (actor.principal.kind !== "user") throw new DomainError("FORBIDDEN", "Only a signed-in person can leave a workspace.");
  const [me] = await sql<{ id: string }>(
    Prisma.sql`SELECT id FROM workspace_members WHERE workspace_id = ${actor.workspaceId}::uuid AND user_id = ${actor.principal.id}::uuid`,
  );
  if (!me) throw notFound("Member");
  return takeOut(actor, me.id, "member.left");
}

/** Removes the membership (never the last owner), audited; someone removed by another gets a mail saying so. */
async function takeOut(actor: Actor, memberId: string, action: "member.removed" | "member.left"): Promise<MemberRecord> {
  const { removed, mails } = await prisma.$transaction(async (tx) => {
    const member = await lockedMember(tx, actor.workspaceId, memberId);
    await refuseLastOwner(tx, member, action === "member.left" ? "leave as" : "remove");
    await sql(Prisma.sql`DELETE FROM workspace_members WHERE id = ${memberId}::uuid`, { tx });
    await recordAudit({ workspaceIds: [actor.workspaceId], by: actor, action, target: member.email, details: { role: member.role } }, tx);
    const self = actor.principal.kind === "user" && actor.principal.id === member.userId;
    return { removed: member, mails: self ? [] : await queueRemovedMail(tx, member, actor) };
  });
  await dispatchMails(mails);
  await announceRevocation(revocationSubject.member(removed.workspaceId, removed.userId));
  return removed;
}

/**
 * Operators (CLI `member add`): makes the person a member with the role, or sets the role of an
 * existing member (never demoting the last owner).
 */
export async function setMembership(args: { workspaceId: string; userId: string; role: WorkspaceRole; by: Acting }): Promise<MemberRecord> {
  return membershipAnnounced(
    prisma.$transaction(async (tx) => {
      const { member, added } = await addMember(args, tx);
      if (added || member.role === args.role) return member;
      const locked = await lockedMember(tx, args.workspaceId, member.id);
      if (args.role !== "owner") await refuseLastOwner(tx, locked, "demote");
      await sql(Prisma.sql`UPDATE workspace_members SET role = ${args.role}::"WorkspaceRole" WHERE id = ${member.id}::uuid`, { tx });
      await recordAudit(
        {
          workspaceIds: [args.workspaceId],
          by: args.by,
          action: "member.role_changed",
          target: member.email,
          details: { from: member.role, to: args.role },
        },
        tx,
      );
      return { ...member, role: args.role };
    }),
  );
}
