/**
 * The video set of a folder, as SQL: the videos added to it directly UNION the tracked videos of
 * the tracked accounts in it (deduplicated). A folder holds accounts and videos, and a user who puts
 * an account in a folder expects that account's videos in the folder's listing and totals.
 * "Tracked videos of an account" are the workspace's tracked videos whose video belongs to the
 * account (`videos.account_id`), however they came to be tracked (directly or through the account).
 * Only tracked videos count: an account's videos that this workspace does not track are not in it.
 * With `descendants`, the set is that of the folder and all its sub-folders (./tree.ts), each video once.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { folderTreeIds } from "./tree.ts";

/** `SELECT video_id` rows of the folder's video set; the folder must already belong to the workspace. */
export function folderVideoIds(folderId: string | Prisma.Sql, descendants = false): Prisma.Sql {
  const id = typeof folderId === "string" ? Prisma.sql`${folderId}::uuid` : folderId;
  // One folder: an equality the primary keys serve; a tree: the folder ids of one recursive CTE.
  const inFolder = (column: Prisma.Sql) => (descendants ? Prisma.sql`${column} IN (${folderTreeIds(id)})` : Prisma.sql`${column} = ${id}`);
  return Prisma.sql`
    SELECT tv.video_id FROM folder_videos fv
      JOIN tracked_videos tv ON tv.id = fv.tracked_video_id
     WHERE ${inFolder(Prisma.sql`fv.folder_id`)}
    UNION
    SELECT tv.video_id FROM folder_accounts fa
      JOIN tracked_accounts ta ON ta.id = fa.tracked_account_id
      JOIN videos av ON av.account_id = ta.account_id
      JOIN tracked_videos tv ON tv.workspace_id = ta.workspace_id AND tv.video_id = av.id
     WHERE ${inFolder(Prisma.sql`fa.folder_id`)}`;
}

/** `SELECT tracked_account_id` rows of the accounts in the folder (and, with `descendants`, in its sub-folders), each once. */
export function folderAccountIds(folderId: string, descendants = false): Prisma.Sql {
  return descendants
    ? Prisma.sql`SELECT DISTINCT fa.tracked_account_id FROM folder_accounts fa WHERE fa.folder_id IN (${folderTreeIds(folderId)})`
    : Prisma.sql`SELECT fa.tracked_account_id FROM folder_accounts fa WHERE fa.folder_id = ${folderId}::uuid`;
}
