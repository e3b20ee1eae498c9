/**
 * Inputs of the folder use cases, one schema each, shared by REST and GraphQL so both refuse the
 * same things with the same 400 VALIDATION_ERROR. Field names are the REST contract's.
 */
import { z } from "zod";
import { idList, page, pageLimit, pageOffset, postedDays, sortOrder } from "../shared/inputs.ts";

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

export const folderNameInput = z.strictObject({ name: folderName });
export const folderVideoIdsInput = z.strictObject({ video_ids: idList("video_ids").meta({ description: "1 to 50 video UUIDs." }) });
export const folderAccountIdsInput = z.strictObject({
  account_ids: idList("account_ids").meta({ description: "1 to 50 account UUIDs (canonical account IDs)." }),
});

const FOLDER_VIDEO_SORTS = ["views", "likes", "comments", "shares", "engagement_rate", "uploaded"] as const;
export type FolderVideoSort = (typeof FOLDER_VIDEO_SORTS)[number];

const folderVideoSort = z.enum(FOLDER_VIDEO_SORTS, { message: `sort must be one of ${FOLDER_VIDEO_SORTS.join(", ")}` });

export const listFoldersQuery = page(20);
export const folderAccountsQuery = page(30);

/** How a folder's videos are shown: sort, direction and posting days (both included, UTC). */
export const folderVideosFilter = z.object({
  sort: folderVideoSort.default("uploaded").meta({ description: "views, likes, comments, shares, engagement_rate or uploaded (posting time). Default uploaded." }),
  sort_order: sortOrder("sort_order").default("desc").meta({ description: "asc or desc, default desc." }),
  ...postedDays.shape,
});
export type FolderVideosFilter = z.output<typeof folderVideosFilter>;

export const folderVideosQuery = folderVideosFilter.extend({ limit: pageLimit(20), offset: pageOffset });
