/**
 * Creators: a person or team behind one or more tracked accounts (across platforms), with a name,
 * contact and notes. An account belongs to at most one creator in a workspace (the primary key of
 * `creator_accounts` is (workspace_id, account_id)). Every read and write is scoped by the
 * workspace: a creator of another workspace is NOT_FOUND, like an unknown id.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { prisma, sql, sqlExec } from "../../infra/db.ts";
import { notFound } from "../shared/errors.ts";
import { authorize } from "../actors/roles.ts";
import type { Actor } from "../actors/actor.ts";
import { authorizeAccountsChange, authorizeCreatorChange, type Changer } from "../actors/payout-holds.ts";
import type { BulkItemResult } from "../shared/inputs.ts";
import { pageSql, type Order, type Page, type PageRequest } from "../shared/pages.ts";
import { searchSql } from "../shared/search.ts";

export interface CreatorRecord {
  id: string;
  name: string;
  contact: string;
  notes: string;
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS = Prisma.raw(`cr.id, cr.name, cr.contact, cr.notes, cr.created_at AS "createdAt", cr.updated_at AS "updatedAt"`);

/** The workspace's creators by name, ties by id. */
export const CREATORS_ORDER: Order<CreatorRecord> = [
  { sql: "cr.name", type: "text", value: (c) => c.name },
  { sql: "cr.id", type: "uuid", value: (c) => c.id },
];

export async function createCreator(
  workspaceId: string,
  input: { name: string; contact?: string; notes?: string },
): Promise<CreatorRecord> {
  const [c] = await sql<CreatorRecord>(Prisma.sql`
    INSERT INTO creators AS cr (workspace_id, name, contact, notes) VALUES (${workspaceId}::uuid, ${input.name}, ${input.contact ?? ""}, ${input.notes ?? ""})
    RETURNING ${COLUMNS}`);
  return c!;
}

/** A page of the workspace's creators (CREATORS_ORDER), with the total; `q`: words of their names. */
export async function listCreators(workspaceId: string, page: PageRequest, filter: { q?: string } = {}): Promise<Page<CreatorRecord>> {
  const p = pageSql(CREATORS_ORDER, page);
  const named = searchSql(Prisma.sql`lower(cr.name)`, filter.q);
  const [items, [count]] = await Promise.all([
    sql<CreatorRecord>(
      Prisma.sql`SELECT ${COLUMNS} FROM creators cr WHERE cr.workspace_id = ${workspaceId}::uuid ${named} ${p.where} ${p.orderBy} ${p.limit}`,
    ),
    sql<{ n: number }>(Prisma.sql`SELECT count(*) AS n FROM creators cr WHERE cr.workspace_id = ${workspaceId}::uuid ${named}`),
  ]);
  return { items, total: count!.n };
}

export async function creatorsByIds(workspaceId: string, ids: readonly string[]): Promise<CreatorRecord[]> {
  if (ids.length === 0) return [];
  return sql<CreatorRecord>(
    Prisma.sql`SELECT ${COLUMNS} FROM creators cr WHERE cr.workspace_id = ${workspaceId}::uuid AND cr.id = ANY(${ids as string[]}::uuid[])`,
  );
}

export async function requireCreator(workspaceId: string, id: string): Promise<CreatorRecord> {
  const [c] = await creatorsByIds(workspaceId, [id]);
  if (!c) throw notFound("Creator");
  return c;
}

/** Changes a creator's name, contact or notes: an owner's change while an active campaign pays it (they are in every payout row). */
export async function updateCreator(
  actor: Changer,
  id: string,
  change: { name?: string; contact?: string; notes?: string },
): Promise<CreatorRecord> {
  const workspaceId = actor.workspaceId;
  await requireCreator(workspaceId, id);
  await authorizeCreatorChange(actor, id);
  const [c] = await sql<CreatorRecord>(Prisma.sql`
    UPDATE creators AS cr SET name = coalesce(${change.name ?? null}, cr.name), contact = coalesce(${change.contact ?? null}, cr.contact),
           notes = coalesce(${change.notes ?? null}, cr.notes), updated_at = now()
     WHERE cr.id = ${id}::uuid AND cr.workspace_id = ${workspaceId}::uuid
    RETURNING ${COLUMNS}`);
  if (!c) throw notFound("Creator");
  return c;
}

/** Deletes the creator: its accounts become unassigned, its campaign memberships and rule overrides go with it (closed campaigns' frozen rows stay). */
export async function deleteCreator(actor: Changer, id: string): Promise<{ id: string }> {
  const workspaceId = actor.workspaceId;
  await requireCreator(workspaceId, id);
  await authorizeCreatorChange(actor, id);
  const { count } = await prisma.$transaction(async (tx) => ({
    count: await sqlExec(Prisma.sql`DELETE FROM creators WHERE id = ${id}::uuid AND workspace_id = ${workspaceId}::uuid`, { tx }),
  }));
  if (count === 0) throw notFound("Creator");
  return { id };
}

/**
 * Gives accounts to the creator, each on its own: success when the account is the creator's
 * afterwards (already included); `Account not found` when the workspace does not track it;
 * `Account belongs to another creator` when it does (an account has at most one creator: take it
 * from the other creator first).
 */
export async function assignAccounts(actor: Changer, creatorId: string, accountIds: string[]): Promise<BulkItemResult[]> {
  const workspaceId = actor.workspaceId;
  await requireCreator(workspaceId, creatorId);
  await authorizeAccountsChange(actor, creatorId, accountIds);
  const rows = await sql<{ accountId: string; creatorId: string | null; tracked: boolean }>(Prisma.sql`
    WITH asked AS (SELECT DISTINCT lower(x)::uuid AS id FROM unnest(${accountIds}::text[]) x),
    tracked AS (SELECT ta.account_id FROM tracked_accounts ta JOIN asked ON asked.id = ta.account_id WHERE ta.workspace_id = ${workspaceId}::uuid),
    added AS (
      INSERT INTO creator_accounts (workspace_id, account_id, creator_id)
      SELECT ${workspaceId}::uuid, account_id, ${creatorId}::uuid FROM tracked
      ON CONFLICT (workspace_id, account_id) DO NOTHING RETURNING account_id, creator_id)
    SELECT asked.id::text AS "accountId", coalesce(ad.creator_id, ca.creator_id)::text AS "creatorId", (t.account_id IS NOT NULL) AS tracked
      FROM asked LEFT JOIN tracked t ON t.account_id = asked.id LEFT JOIN added ad ON ad.account_id = asked.id
      LEFT JOIN creator_accounts ca ON ca.workspace_id = ${workspaceId}::uuid AND ca.account_id = asked.id`);
  const byId = new Map(rows.map((r) => [r.accountId, r]));
  return accountIds.map((id) => {
    const r = byId.get(id.toLowerCase());
    if (!r?.tracked) return { id, success: false, error: "Account not found" };
    if (r.creatorId !== creatorId.toLowerCase()) return { id, success: false, error: "Account belongs to another creator" };
    return { id, success: true };
  });
}

/** Takes accounts from the creator; answers how many were the creator's. */
export async function unassignAccounts(actor: Changer, creatorId: string, accountIds: string[]): Promise<{ removed: number }> {
  const workspaceId = actor.workspaceId;
  await requireCreator(workspaceId, creatorId);
  await authorizeAccountsChange(actor, creatorId, accountIds);
  const removed = await sqlExec(Prisma.sql`
    DELETE FROM creator_accounts WHERE workspace_id = ${workspaceId}::uuid AND creator_id = ${creatorId}::uuid AND account_id = ANY(${accountIds}::uuid[])`);
  return { removed };
}

/** The canonical account ids of many creators of the workspace (tracked or not any more), one statement. */
export async function accountIdsOfCreators(workspaceId: string, creatorIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(creatorIds.map((id) => [id, []]));
  if (creatorIds.length === 0) return out;
  const rows = await sql<{ creatorId: string; accountId: string }>(Prisma.sql`
    SELECT creator_id::text AS "creatorId", account_id::text AS "accountId" FROM creator_accounts
     WHERE workspace_id = ${workspaceId}::uuid AND creator_id = ANY(${creatorIds as string[]}::uuid[]) ORDER BY added_at, account_id`);
  for (const r of rows) out.get(r.creatorId)?.push(r.accountId);
  return out;
}
