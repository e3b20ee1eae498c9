/**
 * Inputs of the folder use cases, shared by REST and GraphQL so both refuse the same things with
 * the same 400 VALIDATION_ERROR.
 */
import { z } from "zod";

export const MAX_IDS_PER_REQUEST = 50;
export const MAX_FOLDER_NAME = 255;

/**
 * Folder name: surrounding whitespace is trimmed, then 1 to 255 characters must remain (a name of
 * only spaces is refused). Names need not be unique: folders are identified by id.
 */
export const folderName = z
  .string({ message: "name must be a string" })
  .trim()
  .min(1, "name must not be empty")
  .max(MAX_FOLDER_NAME, `name must be at most ${MAX_FOLDER_NAME} characters`);

const uuidItem = z.guid({ message: "must be a UUID" });

/** 1 to 50 UUIDs. Duplicates are allowed and each is reported on its own. */
export const idList = (field: string) =>
  z
    .array(uuidItem, { message: `${field} must be an array of UUIDs` })
    .min(1, `${field} must hold at least one id`)
    .max(MAX_IDS_PER_REQUEST, `${field} holds at most ${MAX_IDS_PER_REQUEST} ids`);

export const FOLDER_VIDEO_SORTS = ["views", "likes", "comments", "shares", "engagement_rate", "uploaded"] as const;
export type FolderVideoSort = (typeof FOLDER_VIDEO_SORTS)[number];
export const SORT_ORDERS = ["asc", "desc"] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export const folderVideoSort = z.enum(FOLDER_VIDEO_SORTS, { message: `sort must be one of ${FOLDER_VIDEO_SORTS.join(", ")}` });
export const sortOrder = z.enum(SORT_ORDERS, { message: "sort_order must be asc or desc" });

export interface Page {
  limit: number;
  offset: number;
}

export const pageInput = (defaultLimit: number) =>
  z.object({
    limit: z.number().int().min(1, "limit must be an integer from 1 to 100").max(100, "limit must be an integer from 1 to 100").default(defaultLimit),
    offset: z.number().int().min(0, "offset must be a non-negative integer").max(1_000_000_000, "offset is too large").default(0),
  });

export interface FolderVideoQuery extends Page {
  sort: FolderVideoSort;
  order: SortOrder;
  /** UTC midnight of the first day included (posted on or after it). */
  startDate?: Date;
  /** UTC midnight of the last day included (posted before the end of that day). */
  endDate?: Date;
}
