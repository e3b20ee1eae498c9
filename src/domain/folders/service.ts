/**
 * Folders: create, list, read, rename, delete, and membership of tracked videos and tracked
 * accounts. Every function is scoped by the workspace: a folder of another workspace is NOT_FOUND,
 * exactly like an unknown id. Memberships point at tracking records, so removing an item from a
 * folder, or deleting the folder, never untracks anything.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { prisma, sql, sqlExec, type Tx } from "../../infra/db.ts";
import { notFound } from "../shared/errors.ts";
import { pageSql, type Order, type PageRequest, type Page } from "../shared/pages.ts";
import type { BulkItemResult } from "../shared/inputs.ts";
import { folderVideoIds } from "./video-set.ts";

export interface FolderRecord {
  id: string;
  name: string;
  createdAt: Date;
}

export interface FolderCounts {
  /** Distinct videos of the folder: added directly or tracked videos of its accounts. */
  videoCount: number;
  accountCount: number;
}

export type FolderSummary = FolderRecord & FolderCounts;

const FOLDER_COLUMNS = Prisma.raw(`f.id, f.name, f.created_at AS "createdAt"`);

/** The workspace's folders: newest first, ties by id (index folders (workspace_id, created_at DESC, id)). */
export const FOLDERS_ORDER: Order<FolderRecord> = [
  { sql: "f.created_at", type: "timestamptz", desc: true, value: (f) => f.createdAt },
  { sql: "f.id", type: "uuid", desc: true, value: (f) => f.id },
];

export async function createFolder(workspaceId: string, name: string): Promise<FolderRecord> {
  const [folder] = await sql<FolderRecord>(Prisma.sql`INSERT INTO folders AS f (workspace_id, name) VALUES (${workspaceId}::uuid, ${name}) RETURNING ${FOLDER_COLUMNS}`);
  return folder!;
}

/** A page of the workspace's folders (FOLDERS_ORDER), with the total. */
export async function listFolders(workspaceId: string, page: PageRequest): Promise<Page<FolderRecord>> {
  const p = pageSql(FOLDERS_ORDER, page);
  const [items, [count]] = await Promise.all([
    sql<FolderRecord>(Prisma.sql`SELECT ${FOLDER_COLUMNS} FROM folders f WHERE f.workspace_id = ${workspaceId}::uuid ${p.where} ${p.orderBy} ${p.limit}`),
    sql<{ n: number }>(Prisma.sql`SELECT count(*) AS n FROM folders WHERE workspace_id = ${workspaceId}::uuid`),
  ]);
  return { items, total: count!.n };
}

/** Folders of the workspace by id, in any order; other ids are left out. */
export async function foldersByIds(workspaceId: string, folderIds: readonly string[]): Promise<FolderRecord[]> {
  if (folderIds.length === 0) return [];
  return sql<FolderRecord>(
    Prisma.sql`SELECT ${FOLDER_COLUMNS} FROM folders f WHERE f.workspace_id = ${workspaceId}::uuid AND f.id = ANY(${folderIds as string[]}::uuid[])`,
  );
}

/** Video and account counts of many folders of the workspace in one statement (no N+1). */
export async function folderCounts(workspaceId: string, folderIds: readonly string[]): Promise<Map<string, FolderCounts>> {
  if (folderIds.length === 0) return new Map();
  const rows = await sql<FolderCounts & { id: string }>(Prisma.sql`
    SELECT f.id,
           (SELECT count(*) FROM (${folderVideoIds(Prisma.sql`f.id`)}) s) AS "videoCount",
           (SELECT count(*) FROM folder_accounts fa WHERE fa.folder_id = f.id) AS "accountCount"
      FROM folders f
     WHERE f.workspace_id = ${workspaceId}::uuid AND f.id = ANY(${folderIds as string[]}::uuid[])`);
  return new Map(rows.map(({ id, ...counts }) => [id, counts]));
}

const withCounts = (f: FolderRecord, counts: Map<string, FolderCounts>): FolderSummary => ({ ...f, ...(counts.get(f.id) ?? { videoCount: 0, accountCount: 0 }) });

export async function listFolderSummaries(workspaceId: string, page: PageRequest): Promise<Page<FolderSummary>> {
  const { items, total } = await listFolders(workspaceId, page);
  const counts = await folderCounts(workspaceId, items.map((f) => f.id));
  return { items: items.map((f) => withCounts(f, counts)), total };
}

/** The folder if it belongs to the workspace, else NOT_FOUND. */
export async function requireFolder(workspaceId: string, folderId: string): Promise<FolderRecord> {
  const [folder] = await foldersByIds(workspaceId, [folderId]);
  if (!folder) throw notFound("Folder");
  return folder;
}

export async function getFolder(workspaceId: string, folderId: string): Promise<FolderSummary> {
  const folder = await requireFolder(workspaceId, folderId);
  return withCounts(folder, await folderCounts(workspaceId, [folderId]));
}

/** Renames the folder and answers the name this request wrote (never a re-read a concurrent rename may have changed). */
export async function renameFolder(workspaceId: string, folderId: string, name: string): Promise<FolderRecord> {
  const [folder] = await sql<FolderRecord>(Prisma.sql`
    UPDATE folders AS f SET name = ${name}, updated_at = now()
     WHERE f.id = ${folderId}::uuid AND f.workspace_id = ${workspaceId}::uuid
    RETURNING ${FOLDER_COLUMNS}`);
  if (!folder) throw notFound("Folder");
  return folder;
}

/** Deletes the folder and its memberships (cascade); the videos and accounts stay tracked. */
export async function deleteFolder(workspaceId: string, folderId: string): Promise<{ id: string }> {
  const { count } = await prisma.folder.deleteMany({ where: { id: folderId, workspaceId } });
  if (count === 0) throw notFound("Folder");
  return { id: folderId };
}

/**
 * Locks the folder row against deletion for the rest of the transaction (a concurrent DELETE waits),
 * so memberships are never inserted for a folder that vanished meanwhile.
 */
async function lockFolder(tx: Tx, workspaceId: string, folderId: string): Promise<void> {
  const rows = await sql<{ id: string }>(Prisma.sql`SELECT id FROM folders WHERE id = ${folderId}::uuid AND workspace_id = ${workspaceId}::uuid FOR KEY SHARE`, { tx });
  if (rows.length === 0) throw notFound("Folder");
}

/** A folder's membership of one kind of tracked item: the tracking table and the membership table. */
interface Membership {
  tracking: Prisma.Sql;
  item: Prisma.Sql;
  members: Prisma.Sql;
  member: Prisma.Sql;
  notFound: string;
}
const VIDEO_MEMBERSHIP: Membership = {
  tracking: Prisma.raw("tracked_videos"),
  item: Prisma.raw("video_id"),
  members: Prisma.raw("folder_videos"),
  member: Prisma.raw("tracked_video_id"),
  notFound: "Video not found",
};
const ACCOUNT_MEMBERSHIP: Membership = {
  tracking: Prisma.raw("tracked_accounts"),
  item: Prisma.raw("account_id"),
  members: Prisma.raw("folder_accounts"),
  member: Prisma.raw("tracked_account_id"),
  notFound: "Account not found",
};

/**
 * TRACKED_ROWS_LOCKED: the tracking rows a membership will reference are read with FOR KEY SHARE.
 * An untrack committed after the statement's snapshot then makes the locking read skip the row (the
 * id answers "not found") instead of the insert failing its foreign key (a 500), and an untrack that
 * comes later waits for this transaction and removes the new membership with the row.
 *
 * Adds the workspace's tracked items `ids` to the folder, each on its own: found (added or already
 * there) or `notFound`.
 */
async function addMembers(m: Membership, workspaceId: string, folderId: string, ids: string[]): Promise<BulkItemResult[]> {
  return prisma.$transaction(async (tx) => {
    await lockFolder(tx, workspaceId, folderId);
    const found = await sql<{ itemId: string }>(
      Prisma.sql`
      WITH tracked AS (
        SELECT id, ${m.item} FROM ${m.tracking} WHERE workspace_id = ${workspaceId}::uuid AND ${m.item} = ANY(${ids}::uuid[])
           FOR KEY SHARE -- see TRACKED_ROWS_LOCKED
      ), added AS (
        INSERT INTO ${m.members} (folder_id, ${m.member})
        SELECT ${folderId}::uuid, id FROM tracked
        ON CONFLICT DO NOTHING
      )
      SELECT ${m.item}::text AS "itemId" FROM tracked`,
      { tx },
    );
    const tracked = new Set(found.map((r) => r.itemId));
    // PostgreSQL answers UUIDs in lower case; a client may send them in any case.
    return ids.map((id) => (tracked.has(id.toLowerCase()) ? { id, success: true } : { id, success: false, error: m.notFound }));
  });
}

/**
 * Adds tracked videos (by video id) to the folder. Per id: success when the video is in the folder
 * afterwards (already being there is a success); "Video not found" when the workspace does not
 * track it (another workspace's video included).
 */
export function addVideosToFolder(workspaceId: string, folderId: string, videoIds: string[]): Promise<BulkItemResult[]> {
  return addMembers(VIDEO_MEMBERSHIP, workspaceId, folderId, videoIds);
}

/**
 * Removes videos added directly to the folder; answers how many memberships were removed. A video
 * that is in the folder only through one of its accounts stays (remove the account instead).
 */
export async function removeVideosFromFolder(workspaceId: string, folderId: string, videoIds: string[]): Promise<{ removed: number }> {
  await requireFolder(workspaceId, folderId);
  const removed = await sqlExec(Prisma.sql`
    DELETE FROM folder_videos fv USING tracked_videos tv
     WHERE fv.folder_id = ${folderId}::uuid AND fv.tracked_video_id = tv.id
       AND tv.workspace_id = ${workspaceId}::uuid AND tv.video_id = ANY(${videoIds}::uuid[])`);
  return { removed };
}

/** Adds tracked accounts (by canonical account id). Same per-id rules as videos: "Account not found". */
export function addAccountsToFolder(workspaceId: string, folderId: string, accountIds: string[]): Promise<BulkItemResult[]> {
  return addMembers(ACCOUNT_MEMBERSHIP, workspaceId, folderId, accountIds);
}

/**
 * Removes accounts from the folder. Per id: success when it was in the folder and is removed;
 * "Account not found" when the workspace does not track it; "Account is not in this folder" when
 * it is tracked but was not in the folder (so a repeated request reports what it did).
 */
export async function removeAccountsFromFolder(workspaceId: string, folderId: string, accountIds: string[]): Promise<BulkItemResult[]> {
  await requireFolder(workspaceId, folderId);
  const rows = await sql<{ accountId: string; removed: boolean }>(Prisma.sql`
    WITH tracked AS (
      SELECT id, account_id FROM tracked_accounts WHERE workspace_id = ${workspaceId}::uuid AND account_id = ANY(${accountIds}::uuid[])
    ), removed AS (
      DELETE FROM folder_accounts fa USING tracked t
       WHERE fa.folder_id = ${folderId}::uuid AND fa.tracked_account_id = t.id
      RETURNING fa.tracked_account_id
    )
    SELECT t.account_id::text AS "accountId", EXISTS (SELECT 1 FROM removed r WHERE r.tracked_account_id = t.id) AS removed FROM tracked t`);
  const state = new Map(rows.map((r) => [r.accountId, r.removed]));
  // The first occurrence of an id reports the removal; a repeated id finds it already gone.
  const reported = new Set<string>();
  return accountIds.map((id) => {
    const key = id.toLowerCase(); // PostgreSQL answers UUIDs in lower case
    if (!state.has(key)) return { id, success: false, error: "Account not found" };
    if (state.get(key) && !reported.has(key)) {
      reported.add(key);
      return { id, success: true };
    }
    return { id, success: false, error: "Account is not in this folder" };
  });
}
