/**
 * Nested folders: where a folder sits in its workspace's tree. A folder may have a parent in the same
 * workspace (a composite foreign key in the database), the tree is at most MAX_FOLDER_DEPTH levels
 * deep and has no cycles. `placeFolder` is the one rule every change of a parent goes through
 * (creating under a parent, moving): it runs inside the change's transaction after `lockFolderTree`,
 * so two moves at once are checked one after the other and can never build a cycle between them.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { sql, type Tx } from "../../infra/db.ts";
import { DomainError, notFound } from "../shared/errors.ts";

/** A top-level folder is at depth 1; its deepest sub-folder may be at depth 5. */
export const MAX_FOLDER_DEPTH = 5;

/**
 * Serialises the changes of one workspace's folder tree (a transaction-scoped advisory lock): a check
 * and the write it allows cannot be interleaved with another change of the same tree.
 */
export async function lockFolderTree(tx: Tx, workspaceId: string): Promise<void> {
  await sql(Prisma.sql`SELECT pg_advisory_xact_lock(hashtextextended(${`folder-tree:${workspaceId}`}, 0)) IS NULL AS locked`, { tx });
}

/**
 * Checks, in one statement, that the folder `folderId` (null: a folder about to be created) may sit
 * under `parentId`: the parent is a folder of the workspace (NOT_FOUND otherwise), it is neither the
 * folder nor one of its sub-folders (FOLDER_CYCLE), and the parent's depth plus the height of the
 * folder's own sub-tree stays within MAX_FOLDER_DEPTH (FOLDER_TOO_DEEP). Call it after lockFolderTree.
 */
export async function placeFolder(tx: Tx, workspaceId: string, folderId: string | null, parentId: string): Promise<void> {
  // The recursions stop past MAX_FOLDER_DEPTH + 1 levels: the answer is "too deep" beyond that anyway.
  const [row] = await sql<{ parentDepth: number; height: number; cycle: boolean }>(
    Prisma.sql`
    WITH RECURSIVE up AS (
      SELECT id, parent_id, 1 AS depth FROM folders WHERE id = ${parentId}::uuid AND workspace_id = ${workspaceId}::uuid
      UNION ALL
      SELECT f.id, f.parent_id, up.depth + 1 FROM folders f JOIN up ON f.id = up.parent_id WHERE up.depth <= ${MAX_FOLDER_DEPTH}
    ), down AS (
      SELECT id, 1 AS level FROM folders WHERE id = ${folderId}::uuid AND workspace_id = ${workspaceId}::uuid
      UNION ALL
      SELECT f.id, down.level + 1 FROM folders f JOIN down ON f.parent_id = down.id WHERE down.level <= ${MAX_FOLDER_DEPTH}
    )
    SELECT (SELECT count(*) FROM up)::int AS "parentDepth",
           (SELECT coalesce(max(level), 1) FROM down)::int AS height,
           EXISTS (SELECT 1 FROM up WHERE id = ${folderId}::uuid) AS cycle`,
    { tx },
  );
  if (row!.parentDepth === 0) throw notFound("Parent folder");
  if (row!.cycle) throw new DomainError("FOLDER_CYCLE", "A folder cannot be moved into itself or into one of its sub-folders.");
  if (row!.parentDepth + row!.height > MAX_FOLDER_DEPTH) {
    throw new DomainError(
      "FOLDER_TOO_DEEP",
      `Folders nest at most ${MAX_FOLDER_DEPTH} levels deep: this would put a folder at level ${row!.parentDepth + row!.height}.`,
    );
  }
}

/**
 * `SELECT id` rows of a folder and all its sub-folders, at every level (one recursive CTE; the folder
 * must already belong to the caller's workspace, and the composite parent key keeps sub-folders in it).
 */
export function folderTreeIds(folderId: string | Prisma.Sql): Prisma.Sql {
  const id = typeof folderId === "string" ? Prisma.sql`${folderId}::uuid` : folderId;
  return Prisma.sql`WITH RECURSIVE tree(id) AS (SELECT ${id} UNION SELECT c.id FROM folders c JOIN tree t ON c.parent_id = t.id) SELECT id FROM tree`;
}

/** A folder on the path from the top of the tree to another folder (the fields of a folder record). */
export interface FolderAncestor {
  id: string;
  name: string;
  parentId: string | null;
  createdAt: Date;
}

/**
 * The ancestors of several folders of the workspace, top-level first (empty for a top-level folder),
 * in one statement whatever the number of folders and levels.
 */
export async function folderAncestors(workspaceId: string, folderIds: readonly string[]): Promise<Map<string, FolderAncestor[]>> {
  const out = new Map<string, FolderAncestor[]>(folderIds.map((id) => [id, []]));
  if (folderIds.length === 0) return out;
  const rows = await sql<FolderAncestor & { folderId: string; level: number }>(Prisma.sql`
    WITH RECURSIVE up AS (
      SELECT f.id AS folder_id, f.parent_id AS ancestor_id, 1 AS level
        FROM folders f WHERE f.workspace_id = ${workspaceId}::uuid AND f.id = ANY(${folderIds as string[]}::uuid[]) AND f.parent_id IS NOT NULL
      UNION ALL
      SELECT up.folder_id, a.parent_id, up.level + 1 FROM up JOIN folders a ON a.id = up.ancestor_id
       WHERE a.parent_id IS NOT NULL AND up.level <= ${MAX_FOLDER_DEPTH}
    )
    SELECT up.folder_id::text AS "folderId", a.id::text AS id, a.name, a.parent_id::text AS "parentId", a.created_at AS "createdAt", up.level
      FROM up JOIN folders a ON a.id = up.ancestor_id
     ORDER BY up.folder_id, up.level DESC`);
  for (const { folderId, level: _l, ...a } of rows) out.get(folderId)?.push(a);
  return out;
}
