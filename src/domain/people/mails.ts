/**
 * The people mails, each queued in the outbox (src/domain/mail/outbox.ts) inside
 * the transaction of the change it tells about, where the service owns that transaction:
 * - an invitation: who invited, to which workspace, the link (7 days, as the invitation);
 * - a password-reset link, when a person asks for one on the sign-in page (answered the same whether
 *   the address exists or not; at most MAIL_MAX_RESETS_PER_ADDRESS_PER_HOUR per address);
 * - a security notice to the person when their password is changed or reset (email changes are not
 *   offered: better-auth's /change-email is off; the owners' notice of a new API key: src/domain/keys/mails.ts);
 * - "you were removed from workspace X".
 * The workspace's name and every other value a template shows are read in the change's transaction,
 * from the change's own workspace only.
 */
import { createHash } from "node:crypto";
import { Prisma } from "../../generated/prisma/client.ts";
import { config } from "../../config.ts";
import { prisma, sql, type Tx } from "../../infra/db.ts";
import { logger } from "../../infra/logger.ts";
import { allowanceLeft } from "../mail/allowance.ts";
import { dispatchMails, queueMails, sendMails, type NewMail, type QueuedMail } from "../mail/outbox.ts";
import type { InvitationData, MemberRemovedData, PasswordResetData, SecurityNoticeData } from "../mail/templates.ts";
import type { Acting } from "../actors/actor.ts";
import { actingLabel } from "../actors/audit.ts";

async function workspaceName(workspaceId: string, tx?: Tx): Promise<string> {
  const [row] = await sql<{ name: string }>(Prisma.sql`SELECT name FROM workspaces WHERE id = ${workspaceId}::uuid`, { tx });
  return row?.name ?? "a workspace";
}

const HOUR_MS = 3_600_000;

/** The names of the workspaces a person is a member of, by name (what a mail about their own account names). */
async function workspacesOf(userId: string, tx: Tx): Promise<string[]> {
  const rows = await sql<{ name: string }>(
    Prisma.sql`SELECT w.name FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id WHERE m.user_id = ${userId}::uuid ORDER BY w.name, w.id`,
    { tx },
  );
  return rows.map((r) => r.name);
}

const fingerprint = (secret: string) => createHash("sha256").update(secret).digest("hex").slice(0, 32);

/**
 * The invitation mail, to an address outside the workspace: it names the person who invited (their address), never an
 * API key's name (an owner's free text would reach anyone under the service's From).
 */
export async function queueInvitationMail(
  tx: Tx,
  invitation: { id: string; workspaceId: string; email: string; role: "owner" | "member"; expiresAt: Date },
  acceptPath: string,
  by: Acting,
): Promise<QueuedMail[]> {
  const data: InvitationData = {
    workspaceName: await workspaceName(invitation.workspaceId, tx),
    inviter: by.principal.kind === "user" ? by.principal.email : null,
    role: invitation.role,
    expiresAt: invitation.expiresAt.toISOString(),
    secret: { acceptPath },
  };
  return queueMails(
    [{ dedupeKey: `invitation:${invitation.id}`, workspaceId: invitation.workspaceId, to: invitation.email, kind: "invitation", data }],
    tx,
  );
}

/**
 * The reset link a person asked for (the library calls this after storing the token). Past the
 * per-address allowance nothing is queued, and the answer is the same.
 */
export async function sendPasswordResetMail(user: { id: string; email: string }, token: string, expiresInSeconds: number): Promise<void> {
  const data: PasswordResetData = {
    expiresInMinutes: Math.round(expiresInSeconds / 60),
    secret: { resetPath: `/reset-password?token=${encodeURIComponent(token)}` },
  };
  const queued = await prisma.$transaction(async (tx) => {
    const left = await allowanceLeft(tx, user.email, {
      kind: "password_reset",
      max: config.mail.maxResetsPerAddressPerHour,
      windowMs: HOUR_MS,
    });
    if (!left.allowed) {
      logger.warn({ userId: user.id }, "password-reset mail not queued: this address had its hourly allowance");
      return [];
    }
    data.email = user.email;
    data.workspaceNames = await workspacesOf(user.id, tx);
    return queueMails(
      [{ dedupeKey: `password_reset:${fingerprint(token)}`, userId: user.id, to: user.email, kind: "password_reset", data }],
      tx,
    );
  });
  await dispatchMails(queued);
}

/** The person's own password changed or was reset (after the library's commit: its transaction is its own). */
export async function sendPasswordNotice(
  user: { id: string; email: string },
  what: "password_changed" | "password_reset" | "password_set",
  at = new Date(),
): Promise<void> {
  const data: SecurityNoticeData = { what, at: at.toISOString() };
  await sendMails([
    { dedupeKey: `security:${what}:${user.id}:${at.getTime()}`, userId: user.id, to: user.email, kind: "security_notice", data },
  ]);
}

export async function queueRemovedMail(
  tx: Tx,
  member: { id: string; workspaceId: string; userId: string; email: string },
  by: Acting,
): Promise<QueuedMail[]> {
  const data: MemberRemovedData = { workspaceName: await workspaceName(member.workspaceId, tx), by: await actingLabel(by, tx) };
  // The mail belongs to the person, not the workspace they left (its cap and its data are no longer theirs to see).
  return queueMails([{ dedupeKey: `removed:${member.id}`, userId: member.userId, to: member.email, kind: "member_removed", data }], tx);
}
