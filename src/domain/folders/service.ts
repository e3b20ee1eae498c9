/**
 * Folders: create, list, read, rename, delete, and membership of tracked videos and tracked
 * accounts. Every function is scoped by the workspace: a folder of another workspace is NOT_FOUND,
 * exactly like an unknown id. Memberships point at tracking records, so removing an item from a
 * folder, or deleting the folder, never untracks anything.
 */
import { Prisma } from "../../generated/prisma/client.js";
import { prisma, type Tx } from "../../infra/db.js";
import { notFound } from "../shared/errors.js";
import type { Page } from "./inputs.js";
import { folderVideoIds } from "./video-set.js";

export interface FolderInfo {
  id: string;
  name: string;
  createdAt: Date;
}

export interface FolderCounts {
  /** Distinct videos of the folder: added directly or tracked videos of its accounts. */
  videoCount: number;
  accountCount: number;
}

export type FolderSummary = FolderInfo & FolderCounts;

/** Outcome of one id of a bulk membership change (HTTP status stays 200). */
export interface ItemResult {
  id: string;
  success: boolean;
  error?: string;
}

const info = (f: FolderInfo): FolderInfo => ({ id: f.id, name: f.name, createdAt: f.createdAt });

export async function createFolder(workspaceId: string, name: string): Promise<FolderInfo> {
  return info(await prisma.folder.create({ data: { workspaceId, name } }));
}

/**
 * The workspace's folders, newest first (ties by id), with the total. `query` lets GraphQL pass the
 * Prisma plugin's planned `include`/`select` so nested relations load in the same round trips.
 */
export async function listFolders<Q extends { include?: Prisma.FolderInclude; select?: Prisma.FolderSelect }>(
  workspaceId: string,
  page: Page,
  query?: Q,
) {
  const where = { workspaceId };
  const [items, total] = await Promise.all([
    prisma.folder.findMany({ ...(query ?? {}), where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: page.limit, skip: page.offset }),
    prisma.folder.count({ where }),
  ]);
  return { items, total };
}

/** Video and account counts of many folders of the workspace in one statement (no N+1). */
export async function folderCounts(workspaceId: string, folderIds: string[]): Promise<Map<string, FolderCounts>> {
  if (folderIds.length === 0) return new Map();
  const rows = await prisma.$queryRaw<{ id: string; video_count: number; account_count: number }[]>`
    SELECT f.id::text AS id,
           (SELECT count(*) FROM (${folderVideoIds(Prisma.sql`f.id`)}) s)::int AS video_count,
           (SELECT count(*) FROM folder_accounts fa WHERE fa.folder_id = f.id)::int AS account_count
      FROM folders f
     WHERE f.workspace_id = ${workspaceId}::uuid AND f.id = ANY(${folderIds}::uuid[])`;
  return new Map(rows.map((r) => [r.id, { videoCount: r.video_count, accountCount: r.account_count }]));
}

export async function listFolderSummaries(workspaceId: string, page: Page): Promise<{ items: FolderSummary[]; total: number }> {
  const { items, total } = await listFolders(workspaceId, page);
  const counts = await folderCounts(workspaceId, items.map((f) => f.id));
  return { items: items.map((f) => ({ ...info(f), ...(counts.get(f.id) ?? { videoCount: 0, accountCount: 0 }) })), total };
}

/** The folder if it belongs to the workspace, else NOT_FOUND. */
export async function requireFolder(workspaceId: string, folderId: string, db: Tx | typeof prisma = prisma): Promise<FolderInfo> {
  const folder = await db.folder.findFirst({ where: { id: folderId, workspaceId } });
  if (!folder) throw notFound("Folder");
  return info(folder);
}

export async function getFolder(workspaceId: string, folderId: string): Promise<FolderSummary> {
  const folder = await requireFolder(workspaceId, folderId);
  const counts = await folderCounts(workspaceId, [folderId]);
  return { ...folder, ...(counts.get(folderId) ?? { videoCount: 0, accountCount: 0 }) };
}

export async function renameFolder(workspaceId: string, folderId: string, name: string): Promise<FolderInfo> {
  const { count } = await prisma.folder.updateMany({ where: { id: folderId, workspaceId }, data: { name } });
  if (count === 0) throw notFound("Folder");
  return requireFolder(workspaceId, folderId);
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
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text FROM folders WHERE id = ${folderId}::uuid AND workspace_id = ${workspaceId}::uuid FOR KEY SHARE`;
  if (rows.length === 0) throw notFound("Folder");
}

/**
 * Adds tracked videos (by video id) to the folder. Per id: success when the video is in the folder
 * afterwards (already being there is a success); "Video not found" when the workspace does not
 * track it (another workspace's video included).
 */
export async function addVideosToFolder(workspaceId: string, folderId: string, videoIds: string[]): Promise<ItemResult[]> {
  return prisma.$transaction(async (tx) => {
    await lockFolder(tx, workspaceId, folderId);
    const found = await tx.$queryRaw<{ video_id: string }[]>`
      WITH tracked AS (
        SELECT id, video_id FROM tracked_videos WHERE workspace_id = ${workspaceId}::uuid AND video_id = ANY(${videoIds}::uuid[])
      ), added AS (
        INSERT INTO folder_videos (folder_id, tracked_video_id)
        SELECT ${folderId}::uuid, id FROM tracked
        ON CONFLICT DO NOTHING
      )
      SELECT video_id::text FROM tracked`;
    const tracked = new Set(found.map((r) => r.video_id));
    // PostgreSQL answers UUIDs in lower case; a client may send them in any case.
    return videoIds.map((id) => (tracked.has(id.toLowerCase()) ? { id, success: true } : { id, success: false, error: "Video not found" }));
  });
}

/**
 * Removes videos added directly to the folder; answers how many memberships were removed. A video
 * that is in the folder only through one of its accounts stays (remove the account instead).
 */
export async function removeVideosFromFolder(workspaceId: string, folderId: string, videoIds: string[]): Promise<{ removed: number }> {
  await requireFolder(workspaceId, folderId);
  const removed = await prisma.$executeRaw`
    DELETE FROM folder_videos fv USING tracked_videos tv
     WHERE fv.folder_id = ${folderId}::uuid AND fv.tracked_video_id = tv.id
       AND tv.workspace_id = ${workspaceId}::uuid AND tv.video_id = ANY(${videoIds}::uuid[])`;
  return { removed };
}

/** Adds tracked accounts (by canonical account id). Same per-id rules as videos: "Account not found". */
export async function addAccountsToFolder(workspaceId: string, folderId: string, accountIds: string[]): Promise<ItemResult[]> {
  return prisma.$transaction(async (tx) => {
    await lockFolder(tx, workspaceId, folderId);
    const found = await tx.$queryRaw<{ account_id: string }[]>`
      WITH tracked AS (
        SELECT id, account_id FROM tracked_accounts WHERE workspace_id = ${workspaceId}::uuid AND account_id = ANY(${accountIds}::uuid[])
      ), added AS (
        INSERT INTO folder_accounts (folder_id, tracked_account_id)
        SELECT ${folderId}::uuid, id FROM tracked
        ON CONFLICT DO NOTHING
      )
      SELECT account_id::text FROM tracked`;
    const tracked = new Set(found.map((r) => r.account_id));
    return accountIds.map((id) => (tracked.has(id.toLowerCase()) ? { id, success: true } : { id, success: false, error: "Account not found" }));
  });
}

/**
 * Removes accounts from the folder. Per id: success when it was in the folder and is removed;
 * "Account not found" when the workspace does not track it; "Account is not in this folder" when
 * it is tracked but was not in the folder (so a repeated request reports what it did).
 */
export async function removeAccountsFromFolder(workspaceId: string, folderId: string, accountIds: string[]): Promise<ItemResult[]> {
  await requireFolder(workspaceId, folderId);
  const rows = await prisma.$queryRaw<{ account_id: string; removed: boolean }[]>`
    WITH tracked AS (
      SELECT id, account_id FROM tracked_accounts WHERE workspace_id = ${workspaceId}::uuid AND account_id = ANY(${accountIds}::uuid[])
    ), removed AS (
      DELETE FROM folder_accounts fa USING tracked t
       WHERE fa.folder_id = ${folderId}::uuid AND fa.tracked_account_id = t.id
      RETURNING fa.tracked_account_id
    )
    SELECT t.account_id::text, EXISTS (SELECT 1 FROM removed r WHERE r.tracked_account_id = t.id) AS removed FROM tracked t`;
  const state = new Map(rows.map((r) => [r.account_id, r.removed]));
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
