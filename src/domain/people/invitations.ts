/**
 * Invitations (docs/contract/decisions.md, "People, sign-in and the dashboard"): an owner invites an
 * email with a role; the link carries a single-use token shown once (only its SHA-256 is stored, as
 * for API keys), valid 7 days. Accepting it signs up (POST /auth/sign-up/email with
 * `invitationToken`) or, signed in, joins (GraphQL `acceptInvitation`). It is for its email only,
 * and accepted at most once: the acceptance is one conditional UPDATE, so two racing acceptances
 * cannot both join.
 */
import { randomBytes } from "node:crypto";
import { Prisma } from "../../generated/prisma/client.ts";
import { config } from "../../config.ts";
import { prisma, sql, type Tx } from "../../infra/db.ts";
import { DomainError, notFound } from "../shared/errors.ts";
import { orderBySql, pageAndTotal, type Order, type PageRequest } from "../shared/pages.ts";
import { hashSecret } from "../keys/access.ts";
import { announceRevocation, revocationSubject } from "../keys/revocation.ts";
import type { Acting, Actor, WorkspaceRole } from "../actors/actor.ts";
import { recordAudit } from "../actors/audit.ts";
import { addMember, type MembershipRecord } from "./members.ts";
import { queueInvitationMail } from "./mails.ts";
import { allowanceLeft } from "../mail/allowance.ts";
import { dispatchMails } from "../mail/outbox.ts";
import { authorize } from "../actors/roles.ts";

export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;
const TOKEN_PREFIX = "svc_inv_";

export type InvitationStatus = "pending" | "accepted" | "revoked" | "expired";

export interface InvitationRecord {
  id: string;
  workspaceId: string;
  email: string;
  role: WorkspaceRole;
  status: InvitationStatus;
  createdAt: Date;
  expiresAt: Date;
  /** Who invited (a person's email, an API key's name, or the CLI). */
  invitedBy: string | null;
}

/** What the accept page shows before anyone signs in (the token is the credential). */
export interface InvitationPreview {
  email: string;
  role: WorkspaceRole;
  status: InvitationStatus;
  expiresAt: Date;
  workspaceName: string;
}

const STATUS = Prisma.raw(`CASE WHEN i.accepted_at IS NOT NULL THEN 'accepted' WHEN i.revoked_at IS NOT NULL THEN 'revoked'
  WHEN i.expires_at <= now() THEN 'expired' ELSE 'pending' END`);
const COLUMNS = Prisma.sql`i.id, i.workspace_id AS "workspaceId", i.email, i.role::text AS role, ${STATUS} AS status, i.created_at AS "createdAt",
  i.expires_at AS "expiresAt", i.invited_by AS "invitedBy"`;
/** Only tokens of this shape are looked up. */
const TOKEN = /^svc_inv_[A-Za-z0-9_-]{43}$/;

/** Newest first, ties by id. */
export const INVITATIONS_ORDER: Order<InvitationRecord> = [
  { sql: "i.created_at", type: "timestamptz", desc: true, value: (i) => i.createdAt },
  { sql: "i.id", type: "uuid", desc: true, value: (i) => i.id },
];

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** The dashboard page that accepts an invitation (PUBLIC_URL). */
export const acceptUrlOf = (token: string) => `${config.people.publicUrl}${acceptPathOf(token)}`;
const acceptPathOf = (token: string) => `/accept-invitation?token=${encodeURIComponent(token)}`;

function inviterLabel(by: Acting): Prisma.Sql {
  const p = by.principal;
  if (p.kind === "user") return Prisma.sql`${p.email}::text`;
  if (p.kind === "api_key") return Prisma.sql`(SELECT 'API key ' || name FROM api_keys WHERE id = ${p.id}::uuid)`;
  return Prisma.sql`${p.label}::text`;
}

const DAY_MS = 86_400_000;

/** 429: the address was mailed its allowance of invitations (every workspace together) in the last 24 hours. */
export class InvitationsCappedError extends DomainError {
  override readonly retryAfterSeconds: number;
  constructor(email: string, retryAfterSeconds: number) {
    super(
      "RATE_LIMITED",
      `${email} was sent ${config.mail.maxInvitationsPerAddressPerDay} invitations in the last 24 hours, the most an address gets: invite it again in ${Math.ceil(retryAfterSeconds / 3600)} hours.`,
    );
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * Invites the email to the actor's workspace with the role (owners: `members.manage`). The token
 * is in the answer and in the invitation mail, queued in the same transaction (./mails.ts). A person
 * who is already a member cannot be invited (409 ALREADY_MEMBER); an address that got
 * MAIL_MAX_INVITATIONS_PER_ADDRESS_PER_DAY invitation mails in the last 24 hours, from any workspace, is not
 * invited again before one of them is a day old (429 RATE_LIMITED with Retry-After: ../mail/allowance.ts).
 */
export async function createInvitation(
  actor: Actor,
  input: { email: string; role: WorkspaceRole },
): Promise<{ invitation: InvitationRecord; token: string; acceptUrl: string }> {
  authorize(actor, "members.manage");
  const email = normaliseEmail(input.email);
  const token = TOKEN_PREFIX + randomBytes(32).toString("base64url");
  const { invitation, mails } = await prisma.$transaction(async (tx) => {
    const [member] = await sql<{ id: string }>(
      Prisma.sql`SELECT m.id FROM workspace_members m JOIN users u ON u.id = m.user_id WHERE m.workspace_id = ${actor.workspaceId}::uuid AND u.email = ${email}`,
      { tx },
    );
    if (member) throw new DomainError("ALREADY_MEMBER", `${email} is already a member of this workspace.`);
    const left = await allowanceLeft(tx, email, { kind: "invitation", max: config.mail.maxInvitationsPerAddressPerDay, windowMs: DAY_MS });
    if (!left.allowed) throw new InvitationsCappedError(email, left.retryAfterSeconds);
    const [row] = await sql<InvitationRecord>(
      Prisma.sql`
        INSERT INTO workspace_invitations AS i (workspace_id, email, role, token_hash, invited_by, expires_at)
        VALUES (${actor.workspaceId}::uuid, ${email}, ${input.role}::"WorkspaceRole", ${hashSecret(token)}, ${inviterLabel(actor)},
                now() + ${`${INVITATION_TTL_MS} milliseconds`}::interval)
        RETURNING ${COLUMNS}`,
      { tx },
    );
    await recordAudit(
      {
        workspaceIds: [actor.workspaceId],
        by: actor,
        action: "invitation.created",
        target: email,
        details: { invitationId: row!.id, role: input.role },
      },
      tx,
    );
    return { invitation: row!, mails: await queueInvitationMail(tx, row!, acceptPathOf(token), actor) };
  });
  await dispatchMails(mails);
  return { invitation, token, acceptUrl: acceptUrlOf(token) };
}

/** Revokes a pending invitation of the actor's workspace (owners); its link stops working at once. */
export async function revokeInvitation(actor: Actor, invitationId: string): Promise<InvitationRecord> {
  authorize(actor, "members.manage");
  // `old` (the row locked, as it was) tells whether this statement revoked a pending invitation, for the audit log.
  const [row] = await sql<InvitationRecord & { wasPending: boolean }>(Prisma.sql`
    UPDATE workspace_invitations AS i SET revoked_at = COALESCE(i.revoked_at, now())
      FROM (SELECT id, revoked_at IS NULL AND expires_at > now() AS pending FROM workspace_invitations
             WHERE id = ${invitationId}::uuid AND workspace_id = ${actor.workspaceId}::uuid AND accepted_at IS NULL FOR UPDATE) AS old
     WHERE i.id = old.id
    RETURNING ${COLUMNS}, old.pending AS "wasPending"`);
  if (!row) {
    const [existing] = await invitationsByIds(actor.workspaceId, [invitationId]);
    if (!existing) throw notFound("Invitation");
    throw new DomainError("INVITATION_NOT_PENDING", "This invitation was already accepted; remove the member instead.");
  }
  const { wasPending, ...invitation } = row;
  if (wasPending)
    await recordAudit({
      workspaceIds: [actor.workspaceId],
      by: actor,
      action: "invitation.revoked",
      target: invitation.email,
      details: { invitationId },
    });
  return invitation;
}

/** A page of the workspace's invitations and how many it has, from one statement (`pageAndTotal`). */
export function invitationsPage(workspaceId: string, page: PageRequest): Promise<{ items: InvitationRecord[]; total: number }> {
  return pageAndTotal(INVITATIONS_ORDER, page, {
    columns: COLUMNS,
    from: Prisma.sql`workspace_invitations i`,
    where: Prisma.sql`i.workspace_id = ${workspaceId}::uuid`,
    count: Prisma.sql`SELECT count(*)::int FROM workspace_invitations c WHERE c.workspace_id = ${workspaceId}::uuid`,
  });
}

export async function invitationsByIds(workspaceId: string, ids: readonly string[]): Promise<InvitationRecord[]> {
  if (ids.length === 0) return [];
  return sql<InvitationRecord>(
    Prisma.sql`SELECT ${COLUMNS} FROM workspace_invitations i WHERE i.workspace_id = ${workspaceId}::uuid AND i.id = ANY(${ids as string[]}::uuid[]) ${orderBySql(INVITATIONS_ORDER)}`,
  );
}

/** The invitation a token opens, for the accept page; null for a token that opens none. */
export async function previewInvitation(token: string): Promise<InvitationPreview | null> {
  if (!TOKEN.test(token)) return null;
  const [row] = await sql<InvitationPreview>(Prisma.sql`
    SELECT i.email, i.role::text AS role, ${STATUS} AS status, i.expires_at AS "expiresAt", w.name AS "workspaceName"
      FROM workspace_invitations i JOIN workspaces w ON w.id = i.workspace_id
     WHERE i.token_hash = ${hashSecret(token)}`);
  return row ?? null;
}

const notPending = (status: InvitationStatus) =>
  new DomainError(
    "INVITATION_NOT_PENDING",
    status === "accepted"
      ? "This invitation was already used."
      : status === "revoked"
        ? "This invitation was revoked."
        : "This invitation has expired; ask for a new one.",
  );

/**
 * Checks, before anything is written, that the token opens a pending invitation for this email
 * (sign-up with an invitation: src/domain/people/authentication.ts).
 */
export async function checkInvitation(token: string, email: string): Promise<InvitationPreview> {
  const preview = await previewInvitation(token);
  if (!preview) throw notFound("Invitation");
  if (preview.status !== "pending") throw notPending(preview.status);
  if (preview.email !== normaliseEmail(email)) throw new DomainError("FORBIDDEN", "This invitation is for another email address.");
  return preview;
}

/**
 * The signed-in person accepts the invitation: it is marked accepted (once: a conditional UPDATE)
 * and they join its workspace with its role, in one transaction. A person already in the workspace
 * keeps their role. Answers the membership.
 */
export async function acceptInvitation(
  person: { id: string; email: string },
  token: string,
  clientAddress: string | null,
  outerTx?: Tx,
): Promise<MembershipRecord> {
  const preview = await checkInvitation(token, person.email);
  const by: Acting = { principal: { kind: "user", id: person.id, email: person.email, sessionId: null }, clientAddress };
  const run = async (tx: Tx): Promise<MembershipRecord> => {
    const [claimed] = await sql<{ id: string; workspaceId: string; role: WorkspaceRole }>(
      Prisma.sql`
        UPDATE workspace_invitations SET accepted_at = now(), accepted_by_user_id = ${person.id}::uuid
         WHERE token_hash = ${hashSecret(token)} AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
        RETURNING id, workspace_id AS "workspaceId", role::text AS role`,
      { tx },
    );
    if (!claimed) throw notPending("accepted");
    const { member } = await addMember({ workspaceId: claimed.workspaceId, userId: person.id, role: claimed.role, by }, tx);
    await recordAudit(
      {
        workspaceIds: [claimed.workspaceId],
        by,
        action: "invitation.accepted",
        target: person.email,
        details: { invitationId: claimed.id, role: member.role },
      },
      tx,
    );
    return { workspaceId: claimed.workspaceId, workspaceName: preview.workspaceName, role: member.role, joinedAt: member.joinedAt };
  };
  if (outerTx) return run(outerTx);
  const joined = await prisma.$transaction(run);
  // After the commit: every process reads the person's memberships again (./sessions.ts remembers them).
  await announceRevocation(revocationSubject.person(person.id));
  return joined;
}
