/**
 * Inputs of the folder use cases, one schema each, shared by REST and GraphQL so both refuse the
 * same things with the same 400 VALIDATION_ERROR. Field names are the REST contract's.
 */
import { z } from "zod";
import { idList, page, pageLimit, pageOffset, postedDays, sortOrder, uuid } from "../shared/inputs.ts";
import { searchText } from "../shared/search.ts";
import { MAX_FOLDER_DEPTH } from "./tree.ts";
import { growthQuery } from "../analytics/inputs.ts";
import { tagFilter } from "../tags/inputs.ts";

const MAX_FOLDER_NAME = 255;

/**
 * Folder name: surrounding whitespace is trimmed, then 1 to 255 characters must remain (a name of
 * only spaces is refused). Names need not be unique: folders are identified by id.
 */
export const folderName = z
  .string({ message: "name must be a string" })
  .trim()
  .min(1, "name must not be empty")
  .max(MAX_FOLDER_NAME, `name must be at most ${MAX_FOLDER_NAME} characters`)
  .meta({ description: "1 to 255 characters after trimming surrounding whitespace." });

/** A folder's parent: a folder of the same workspace, or null for a top-level folder. */
export const folderParentId = uuid.nullable().meta({
  description: `The parent folder's id, or null for a top-level folder. Folders nest at most ${MAX_FOLDER_DEPTH} levels deep, without cycles.`,
});

/** POST /folders: a name, and optionally a parent. */
export const createFolderInput = z.strictObject({ name: folderName, parentId: folderParentId.optional() });

/** PATCH /folders/{id}: a new name, a new parent (a move), or both; at least one of them. */
export const updateFolderInput = z
  .strictObject({ name: folderName.optional(), parentId: folderParentId.optional() })
  .refine((b) => b.name !== undefined || b.parentId !== undefined, { message: "give name, parentId or both", path: ["name"] });

/** What deleting a folder does to its sub-folders: move them up to its parent (default) or delete them too. */
export const DELETE_CHILDREN = ["move_up", "delete"] as const;
export type DeleteChildren = (typeof DELETE_CHILDREN)[number];
export const deleteFolderQuery = z.object({
  children: z.enum(DELETE_CHILDREN, { message: "children must be move_up or delete" }).default("move_up").meta({
    description:
      "What happens to the folder's sub-folders: move_up (default: they move to the deleted folder's parent) or delete (deleted with it, at every level).",
  }),
});

/** `includeDescendants`: a folder's contents and aggregates with those of all its sub-folders (each video and account once). */
export const includeDescendants = z
  .boolean({ message: "includeDescendants must be true or false" })
  .default(false)
  .meta({ description: "true: also the videos and accounts of every sub-folder, at every level (each counted once). Default false." });

export const folderAnalyticsQuery = z.object({ includeDescendants });

/** GET /folders/{id}/growth: the workspace growth's period, and includeDescendants. */
export const folderGrowthQuery = growthQuery.extend({ includeDescendants });
export const folderVideoIdsInput = z.strictObject({ video_ids: idList("video_ids").meta({ description: "1 to 50 video UUIDs." }) });
export const folderAccountIdsInput = z.strictObject({
  account_ids: idList("account_ids").meta({ description: "1 to 50 account UUIDs (canonical account IDs)." }),
});

const FOLDER_VIDEO_SORTS = ["views", "likes", "comments", "shares", "engagement_rate", "uploaded"] as const;
export type FolderVideoSort = (typeof FOLDER_VIDEO_SORTS)[number];

const folderVideoSort = z.enum(FOLDER_VIDEO_SORTS, { message: `sort must be one of ${FOLDER_VIDEO_SORTS.join(", ")}` });

export const listFoldersQuery = page(20).extend({
  parentId: uuid
    .optional()
    .meta({ description: "Only the direct sub-folders of this folder. Without it: every folder of the workspace, at every level." }),
  q: searchText("the folder's name"),
});
export const folderAccountsQuery = page(30);

/** How a folder's videos are shown: sort, direction and posting days (both included, UTC). */
export const folderVideosFilter = z.object({
  sort: folderVideoSort
    .default("uploaded")
    .meta({ description: "views, likes, comments, shares, engagement_rate or uploaded (posting time). Default uploaded." }),
  sort_order: sortOrder("sort_order").default("desc").meta({ description: "asc or desc, default desc." }),
  ...postedDays.shape,
  includeDescendants,
  tag: tagFilter,
});
export type FolderVideosFilter = z.output<typeof folderVideosFilter>;

export const folderVideosQuery = folderVideosFilter.extend({ limit: pageLimit(20), offset: pageOffset });
