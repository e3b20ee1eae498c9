/**
 * The audit log (docs/contract/decisions.md, "People, sign-in and the dashboard"): API keys created
 * and revoked, webhook changes, member and invitation changes and sign-ins, each with who acted (a
 * person, an API key or the operator's CLI), what, when, on what and from which client address.
 * Owners read it (./roles.ts: `auditLog.read`): GraphQL `auditLog`, REST `GET /settings/audit-log`.
 *
 * Entries belong to a workspace. A sign-in is a person's, not a workspace's: it is recorded once in
 * each workspace the person belongs to, so each workspace's owners see their members' sign-ins and
 * a read stays one index range. Append-only; the entry is written in the transaction of the change
 * when the change has one.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { sql, type Tx } from "../../infra/db.ts";
import { orderBySql, pageAndTotal, pageSql, type Order, type PageRequest } from "../shared/pages.ts";
import { quoted } from "../mail/text.ts";
import type { Acting, Principal } from "./actor.ts";

/** The actions recorded, each with what it means; `target` says on what (a key's name, an email, a URL). The doors describe the field from here. */
export const AUDIT_ACTIONS = {
  "api_key.created": "an API key was created",
  "api_key.revoked": "an API key was revoked",
  "webhook.created": "a webhook endpoint was created",
  "webhook.deleted": "a webhook endpoint was deleted",
  "member.added": "a person joined the workspace (or was added by the operator)",
  "member.role_changed": "a member's role changed",
  "member.removed": "a member was removed",
  "member.left": "a person left the workspace on their own",
  "invitation.created": "an invitation was made",
  "invitation.revoked": "an invitation was revoked",
  "invitation.accepted": "an invitation was accepted",
  "user.signed_in": "a person signed in",
  "user.sign_in_failed": "a sign-in failed (wrong password, for a person who exists)",
  "user.signed_out": "a person signed out (their session ended)",
  "user.signed_out_everywhere": "a person ended every session of theirs (POST /auth/revoke-sessions)",
  "session.revoked":
    "a person ended other sessions of theirs (GraphQL revokeSession, /auth/revoke-session, /auth/revoke-other-sessions); `details.sessionIds`",
  "user.password_changed": "a person changed their password; `details.sessionsEnded`: their other sessions, ended with it",
  "user.password_reset_requested":
    "a password-reset link was made (asked for on the sign-in page and sent by mail, the operator's CLI, the first run)",
  "user.password_reset": "a person set a new password from a reset link; every session of theirs ended (`details.sessionsEnded`)",
  "user.name_changed": "a person changed their name (`details.from`, `details.to`)",
  "campaign.created": "a campaign was created (`target`: its name)",
  "campaign.updated": "a campaign's period, filters, payout rule or budget changed (`details`: the fields given)",
  "campaign.closed": "a campaign was closed: its payouts frozen (`details.payoutMinor`, `details.currency`)",
  "user.email_changed": "a person's email changed (`details.from`, `details.to`; not offered by the service today)",
  // Folder share links (src/domain/reports/share-links.ts); `target` is the folder's name.
  "share_link.created": "a folder's read-only share link was made (`details.linkId`, `details.folderId`, `details.expiresAt`)",
  "share_link.revoked":
    "a folder's share link was revoked (`details.linkId`); a schedule's own link also says `details.scheduleId` and `details.reason` (`paused`, `recipient_removed` by an owner or by the recipient's unsubscribe link, `deleted`)",
  "report_schedule.created": "a folder's scheduled report was made (`details.scheduleId`)",
  "report_schedule.deleted": "a folder's scheduled report was deleted (`details.scheduleId`)",
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

/** The catalog in words, for the doors' field descriptions (REST's OpenAPI, GraphQL). */
export const auditActionsInWords = () =>
  Object.entries(AUDIT_ACTIONS)
    .map(([action, meaning]) => `\`${action}\` (${meaning})`)
    .join(", ");

export type AuditActorKind = "user" | "api_key" | "system";

export interface AuditRecord {
  id: string;
  at: Date;
  action: string;
  actorKind: AuditActorKind;
  actorId: string | null;
  /** A person's email, an API key's name, or what the system was (the CLI). */
  actorLabel: string;
  target: string | null;
  ipAddress: string | null;
  details: Record<string, unknown> | null;
}

export interface AuditInput {
  /** One workspace, or several (a sign-in is recorded in each workspace of the person). */
  workspaceIds: string[];
  by: Acting;
  action: AuditAction;
  target?: string | null;
  details?: Record<string, unknown> | null;
}

function actorColumns(p: Principal): { kind: AuditActorKind; id: string | null; label: Prisma.Sql } {
  switch (p.kind) {
    case "user":
      return { kind: "user", id: p.id, label: Prisma.sql`${p.email}::text` };
    case "api_key":
      // The key's name as it is now (the row is never deleted); its id stays in actor_id.
      return {
        kind: "api_key",
        id: p.id,
        label: Prisma.sql`COALESCE((SELECT 'API key ' || k.name FROM api_keys k WHERE k.id = ${p.id}::uuid), 'API key')`,
      };
    case "system":
      return { kind: "system", id: null, label: Prisma.sql`${p.label}::text` };
  }
}

/** How a mail names who acted (the audit entry's own label: `actorColumns`): a person's email, an API key's name as quoted data (../mail/text.ts), or the operator. */
export async function actingLabel(by: Acting, tx?: Tx): Promise<string | null> {
  const p = by.principal;
  if (p.kind === "user") return p.email;
  if (p.kind === "system") return null;
  const [key] = await sql<{ name: string }>(Prisma.sql`SELECT name FROM api_keys WHERE id = ${p.id}::uuid`, { tx });
  return key ? `the API key ${quoted(key.name, 60)}` : "an API key";
}

/** Records one action (in `tx` when given, so it commits or rolls back with the change). */
export async function recordAudit(entry: AuditInput, tx?: Tx): Promise<void> {
  if (entry.workspaceIds.length === 0) return;
  const actor = actorColumns(entry.by.principal);
  const details = entry.details ? JSON.stringify(entry.details) : null;
  await sql(
    Prisma.sql`
      INSERT INTO audit_log (workspace_id, action, actor_kind, actor_id, actor_label, target, ip_address, details)
      SELECT w, ${entry.action}, ${actor.kind}::"AuditActorKind", ${actor.id}::uuid, ${actor.label}, ${entry.target ?? null},
             ${entry.by.clientAddress}, ${details}::jsonb
        FROM unnest(${entry.workspaceIds}::uuid[]) AS w
      RETURNING id`,
    { tx },
  );
}

/** Newest first, ties by id. */
export const AUDIT_ORDER: Order<AuditRecord> = [
  { sql: "a.at", type: "timestamptz", desc: true, value: (a) => a.at },
  { sql: "a.id", type: "uuid", desc: true, value: (a) => a.id },
];

const COLUMNS = Prisma.raw(
  `a.id, a.at, a.action, a.actor_kind::text AS "actorKind", a.actor_id AS "actorId", a.actor_label AS "actorLabel", a.target, a.ip_address AS "ipAddress", a.details`,
);

export async function listAudit(workspaceId: string, page: PageRequest): Promise<AuditRecord[]> {
  const p = pageSql(AUDIT_ORDER, page);
  return sql<AuditRecord>(
    Prisma.sql`SELECT ${COLUMNS} FROM audit_log a WHERE a.workspace_id = ${workspaceId}::uuid ${p.where} ${p.orderBy} ${p.limit}`,
  );
}

/** A page of the log and the log's size from one statement (`pageAndTotal`): they agree while entries are being written. */
export function auditPage(workspaceId: string, page: PageRequest): Promise<{ items: AuditRecord[]; total: number }> {
  return pageAndTotal(AUDIT_ORDER, page, {
    columns: COLUMNS,
    from: Prisma.sql`audit_log a`,
    where: Prisma.sql`a.workspace_id = ${workspaceId}::uuid`,
    count: Prisma.sql`SELECT count(*)::int FROM audit_log c WHERE c.workspace_id = ${workspaceId}::uuid`,
  });
}

export async function countAudit(workspaceId: string): Promise<number> {
  const [row] = await sql<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM audit_log WHERE workspace_id = ${workspaceId}::uuid`);
  return row!.n;
}

export async function auditByIds(workspaceId: string, ids: readonly string[]): Promise<AuditRecord[]> {
  if (ids.length === 0) return [];
  return sql<AuditRecord>(
    Prisma.sql`SELECT ${COLUMNS} FROM audit_log a WHERE a.workspace_id = ${workspaceId}::uuid AND a.id = ANY(${ids as string[]}::uuid[]) ${orderBySql(AUDIT_ORDER)}`,
  );
}
