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
import { orderBySql, pageSql, type Order, type PageRequest } from "../shared/pages.ts";
import type { Acting, Principal } from "./actor.ts";

/** The actions recorded; `target` says on what (a key's name, an email, a URL). */
export type AuditAction =
  | "api_key.created"
  | "api_key.revoked"
  | "webhook.created"
  | "webhook.deleted"
  | "member.added"
  | "member.role_changed"
  | "member.removed"
  | "invitation.created"
  | "invitation.revoked"
  | "invitation.accepted"
  | "user.signed_in"
  | "user.sign_in_failed"
  | "session.revoked";

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
      return { kind: "api_key", id: p.id, label: Prisma.sql`COALESCE((SELECT 'API key ' || k.name FROM api_keys k WHERE k.id = ${p.id}::uuid), 'API key')` };
    case "system":
      return { kind: "system", id: null, label: Prisma.sql`${p.label}::text` };
  }
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
  return sql<AuditRecord>(Prisma.sql`SELECT ${COLUMNS} FROM audit_log a WHERE a.workspace_id = ${workspaceId}::uuid ${p.where} ${p.orderBy} ${p.limit}`);
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
