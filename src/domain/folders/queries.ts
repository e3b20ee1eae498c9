/**
 * Folder reads that take a Prisma query fragment (`include`/`select`) from the caller, so the
 * GraphQL layer can pass the Prisma plugin's planned selection and load nested relations in the
 * same round trips. Scoping by workspace stays here, in the domain.
 */
import type { Prisma } from "../../generated/prisma/client.js";
import { prisma } from "../../infra/db.js";
import { notFound } from "../shared/errors.js";

type FolderQuery = { include?: Prisma.FolderInclude; select?: Prisma.FolderSelect };

/** The folder with the caller's selection, if it belongs to the workspace; else NOT_FOUND. */
export async function findFolder<Q extends FolderQuery>(workspaceId: string, folderId: string, query?: Q) {
  const folder = await prisma.folder.findFirst({ ...(query ?? ({} as Q)), where: { id: folderId, workspaceId } });
  if (!folder) throw notFound("Folder");
  return folder;
}

/** Videos by id with the caller's selection, in the order of `ids` (a ranking computed elsewhere). */
export async function videosInOrder<Q extends { include?: Prisma.VideoInclude; select?: Prisma.VideoSelect }>(ids: string[], query?: Q) {
  if (ids.length === 0) return [];
  const rows = await prisma.video.findMany({ ...(query ?? ({} as Q)), where: { id: { in: ids } } });
  const byId = new Map(rows.map((r) => [(r as unknown as { id: string }).id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is (typeof rows)[number] => r !== undefined);
}
