/**
 * Folders: create, list, read, rename, move, delete, and membership of tracked videos and tracked
 * accounts. Folders nest (a parent in the same workspace, at most 5 levels, no cycles): the rule is
 * ./tree.ts (`placeFolder`), applied here inside each change's transaction. Every function is scoped by the workspace: a folder of another workspace is NOT_FOUND,
 * exactly like an unknown id. Memberships point at tracking records, so removing an item from a
 * folder, or deleting the folder, never untracks anything.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { prisma, sql, sqlExec, type Tx } from "../../infra/db.ts";
import { notFound } from "../shared/errors.ts";
import { pageSql, rowNumberRange, type Order, type PageRequest, type Page } from "../shared/pages.ts";
import type { BulkItemResult } from "../shared/inputs.ts";
import { searchSql } from "../shared/search.ts";
import { folderVideoIds } from "./video-set.ts";
import { lockFolderTree, placeFolder } from "./tree.ts";
import type { DeleteChildren } from "./inputs.ts";

export interface FolderRecord {
  id: string;
  name: string;
  /** The parent folder's id; null for a top-level folder. */
  parentId: string | null;
  createdAt: Date;
}

export interface FolderCounts {
  /** Distinct videos of the folder: added directly or tracked videos of its accounts. */
  videoCount: number;
  accountCount: number;
  /** Direct sub-folders. */
  childCount: number;
}

export type FolderSummary = FolderRecord & FolderCounts;

const FOLDER_COLUMNS = Prisma.raw(`f.id, f.name, f.parent_id AS "parentId", f.created_at AS "createdAt"`);

/** The workspace's folders: newest first, ties by id (index folders (workspace_id, created_at DESC, id)). */
export const FOLDERS_ORDER: Order<FolderRecord> = [
  { sql: "f.created_at", type: "timestamptz", desc: true, value: (f) => f.createdAt },
  { sql: "f.id", type: "uuid", desc: true, value: (f) => f.id },
];

/**
 * The same in creation order, oldest first: a folder's parent was made before it (unless the folder was moved under
 * a newer one since), so every page read this way holds its folders' parents: what a tree shown page by page needs.
 */
export const FOLDERS_OLDEST_FIRST: Order<FolderRecord> = FOLDERS_ORDER.map(({ desc: _desc, ...key }) => key);

/** Creates a folder, top-level or under `parentId` (checked by placeFolder under the tree's lock). */
export async function createFolder(workspaceId: string, name: string, parentId: string | null = null): Promise<FolderRecord> {
  const insert = (tx?: Tx) =>
    sql<FolderRecord>(
      Prisma.sql`INSERT INTO folders AS f (workspace_id, name, parent_id) VALUES (${workspaceId}::uuid, ${name}, ${parentId}::uuid) RETURNING ${FOLDER_COLUMNS}`,
      { tx },
    );
  if (!parentId) return (await insert())[0]!;
  return prisma.$transaction(async (tx) => {
    await lockFolderTree(tx, workspaceId);
    await placeFolder(tx, workspaceId, null, parentId);
    return (await insert(tx))[0]!;
  });
}

/** Which folders a list holds: all of them (no filter), or the direct sub-folders of one folder; `q`: words of their names. */
export interface FolderListFilter {
  parentId?: string;
  q?: string;
}

/**
 * A page of the workspace's folders (FOLDERS_ORDER, or FOLDERS_OLDEST_FIRST), with the total of the filter's folders;
 * `parentId` keeps that folder's sub-folders, `q` the folders whose name holds its words (../shared/search.ts).
 */
export async function listFolders(
  workspaceId: string,
  page: PageRequest,
  filter: FolderListFilter = {},
  order: Order<FolderRecord> = FOLDERS_ORDER,
): Promise<Page<FolderRecord>> {
  const p = pageSql(order, page);
  const under = filter.parentId ? Prisma.sql`AND f.parent_id = ${filter.parentId}::uuid` : Prisma.empty;
  const named = searchSql(Prisma.sql`lower(f.name)`, filter.q);
  const [items, [count]] = await Promise.all([
    sql<FolderRecord>(
      Prisma.sql`SELECT ${FOLDER_COLUMNS} FROM folders f WHERE f.workspace_id = ${workspaceId}::uuid ${under} ${named} ${p.where} ${p.orderBy} ${p.limit}`,
    ),
    sql<{ n: number }>(Prisma.sql`SELECT count(*) AS n FROM folders f WHERE f.workspace_id = ${workspaceId}::uuid ${under} ${named}`),
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

/** A folder's sub-folders: by name (the database's collation), ties by id. */
export const CHILD_FOLDERS_ORDER: Order<FolderRecord> = [
  { sql: "f.name", type: "text", value: (f) => f.name },
  { sql: "f.id", type: "uuid", value: (f) => f.id },
];

/** A page of the direct sub-folders of each of several folders of the workspace, in one statement. */
export async function childrenOfFolders(
  workspaceId: string,
  parentIds: readonly string[],
  page: PageRequest,
): Promise<Map<string, FolderRecord[]>> {
  const out = new Map<string, FolderRecord[]>(parentIds.map((id) => [id, []]));
  if (parentIds.length === 0) return out;
  const p = pageSql(CHILD_FOLDERS_ORDER, page);
  const { from, to } = rowNumberRange(page);
  const rows = await sql<FolderRecord & { n: number }>(Prisma.sql`
    SELECT * FROM (
      SELECT ${FOLDER_COLUMNS}, row_number() OVER (PARTITION BY f.parent_id ${p.orderBy}) AS n
        FROM folders f
       WHERE f.workspace_id = ${workspaceId}::uuid AND f.parent_id = ANY(${parentIds as string[]}::uuid[]) ${p.where}
    ) x WHERE n BETWEEN ${from} AND ${to} ORDER BY "parentId", n`);
  for (const { n: _n, ...f } of rows) out.get(f.parentId!)?.push(f);
  return out;
}

/** Video and account counts of many folders of the workspace in one statement (no N+1). */
export async function folderCounts(workspaceId: string, folderIds: readonly string[]): Promise<Map<string, FolderCounts>> {
  if (folderIds.length === 0) return new Map();
  const rows = await sql<FolderCounts & { id: string }>(Prisma.sql`
    SELECT f.id,
           (SELECT count(*) FROM (${folderVideoIds(Prisma.sql`f.id`)}) s) AS "videoCount",
           (SELECT count(*) FROM folder_accounts fa WHERE fa.folder_id = f.id) AS "accountCount",
           (SELECT count(*) FROM folders c WHERE c.parent_id = f.id) AS "childCount"
      FROM folders f
     WHERE f.workspace_id = ${workspaceId}::uuid AND f.id = ANY(${folderIds as string[]}::uuid[])`);
  return new Map(rows.map(({ id, ...counts }) => [id, counts]));
}

export const NO_COUNTS: FolderCounts = { videoCount: 0, accountCount: 0, childCount: 0 };
const withCounts = (f: FolderRecord, counts: Map<string, FolderCounts>): FolderSummary => ({ ...f, ...(counts.get(f.id) ?? NO_COUNTS) });

export async function listFolderSummaries(
  workspaceId: string,
  page: PageRequest,
  filter: FolderListFilter = {},
): Promise<Page<FolderSummary>> {
  const { items, total } = await listFolders(workspaceId, page, filter);
  const counts = await folderCounts(
    workspaceId,
    items.map((f) => f.id),
  );
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

/**
 * Changes a folder's name and/or parent (`parentId` null: top-level; undefined: unchanged) and answers
 * what this request wrote. A move is checked by placeFolder under the tree's lock.
 */
export async function updateFolder(
  workspaceId: string,
  folderId: string,
  change: { name?: string; parentId?: string | null },
): Promise<FolderRecord> {
  const moving = change.parentId !== undefined;
  const write = async (tx?: Tx) => {
    const [folder] = await sql<FolderRecord>(
      Prisma.sql`
      UPDATE folders AS f SET name = coalesce(${change.name ?? null}, f.name), updated_at = now(),
             parent_id = CASE WHEN ${moving} THEN ${change.parentId ?? null}::uuid ELSE f.parent_id END
       WHERE f.id = ${folderId}::uuid AND f.workspace_id = ${workspaceId}::uuid
      RETURNING ${FOLDER_COLUMNS}`,
      { tx },
    );
    if (!folder) throw notFound("Folder");
    return folder;
  };
  // A rename alone changes no place in the tree: one statement, no lock.
  if (!moving) return write();
  return prisma.$transaction(async (tx) => {
    await lockFolderTree(tx, workspaceId);
    if (change.parentId) await placeFolder(tx, workspaceId, folderId, change.parentId);
    return write(tx);
  });
}

/** What a deletion did to the folder's sub-folders. */
export interface FolderDeletion {
  id: string;
  /** Sub-folders moved up to the deleted folder's parent (`children=move_up`). */
  movedUp: number;
  /** Sub-folders deleted with it, at every level (`children=delete`). */
  deletedDescendants: number;
}

/**
 * Deletes the folder and its memberships (cascade); the videos and accounts stay tracked. Its
 * sub-folders either move up to its parent (`move_up`, the default: nothing but the folder is lost)
 * or are deleted with it, at every level (`delete`). Under the tree's lock, so a concurrent move into
 * the folder cannot slip between the two steps.
 */
export async function deleteFolder(workspaceId: string, folderId: string, children: DeleteChildren = "move_up"): Promise<FolderDeletion> {
  return prisma.$transaction(async (tx) => {
    await lockFolderTree(tx, workspaceId);
    const [row] = await sql<{ movedUp: number; descendants: number }>(
      Prisma.sql`
      WITH RECURSIVE target AS (
        SELECT id, parent_id FROM folders WHERE id = ${folderId}::uuid AND workspace_id = ${workspaceId}::uuid
      ), below(id) AS (
        SELECT c.id FROM folders c JOIN target t ON c.parent_id = t.id
        UNION SELECT c.id FROM folders c JOIN below b ON c.parent_id = b.id
      ), moved AS (
        UPDATE folders c SET parent_id = t.parent_id, updated_at = now() FROM target t
         WHERE c.parent_id = t.id AND ${children === "move_up"}
        RETURNING c.id
      )
      SELECT (SELECT count(*) FROM moved)::int AS "movedUp", (SELECT count(*) FROM below)::int AS descendants
        FROM target`,
      { tx },
    );
    if (!row) throw notFound("Folder");
    // A separate statement: in the one above, the cascade would not yet see the children moved up.
    await sql(Prisma.sql`DELETE FROM folders WHERE id = ${folderId}::uuid AND workspace_id = ${workspaceId}::uuid RETURNING id`, { tx });
    return { id: folderId, movedUp: row.movedUp, deletedDescendants: children === "delete" ? row.descendants : 0 };
  });
}

/**
 * Locks the folder row against deletion for the rest of the transaction (a concurrent DELETE waits),
 * so memberships are never inserted for a folder that vanished meanwhile.
 */
async function lockFolder(tx: Tx, workspaceId: string, folderId: string): Promise<void> {
  const rows = await sql<{ id: string }>(
    Prisma.sql`SELECT id FROM folders WHERE id = ${folderId}::uuid AND workspace_id = ${workspaceId}::uuid FOR KEY SHARE`,
    { tx },
  );
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
