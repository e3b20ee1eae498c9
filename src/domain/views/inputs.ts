/**
 * Saved views: a list's filters, sort, columns and tags under a name. The content of a
 * view is a document validated here per list (`videos`, `accounts`), shared by every door: unknown
 * keys are refused (VALIDATION_ERROR), so a view never stores what the list cannot apply.
 *
 * Column ids are the dashboard tables' (web/src/pages/videos/VideosTable.tsx, accounts/AccountsTable.tsx);
 * sorts and filters are the lists' own (GraphQL `videos`, `accounts`: src/domain/tracking/views.ts).
 */
import { z } from "zod";
import { sortOrder } from "../shared/inputs.ts";
import { PLATFORMS } from "../shared/platform.ts";
import { ACCOUNT_SORTS, VIDEO_SORTS } from "../tracking/views.ts";

export const SAVED_VIEW_LISTS = ["videos", "accounts"] as const;
export type SavedViewList = (typeof SAVED_VIEW_LISTS)[number];

/** The videos table's columns a person may show or hide (the row's checkbox is always there). */
export const VIDEO_LIST_COLUMNS = [
  "platform",
  "video",
  "creator",
  "views",
  "likes",
  "engagement",
  "views24h",
  "outlier",
  "posted",
  "status",
] as const;
/** The accounts table's columns a person may show or hide (the account's name is always there). */
export const ACCOUNT_LIST_COLUMNS = ["platform", "followers", "views", "videos", "limit", "tracked", "status"] as const;

const MAX_NAME = 100;
export const savedViewName = z
  .string({ message: "name must be a string" })
  .trim()
  .min(1, "name must not be empty")
  .max(MAX_NAME, `name must be at most ${MAX_NAME} characters`)
  .meta({ description: `1 to ${MAX_NAME} characters after trimming surrounding whitespace.` });

const columns = <C extends readonly [string, ...string[]]>(ids: C) =>
  z
    .array(z.enum(ids, { message: `a column is one of ${ids.join(", ")}` }), { message: "columns must be a list" })
    .min(1, "columns must name at least one column")
    .refine((list) => new Set(list).size === list.length, "columns must not repeat a column")
    .default([...ids])
    .meta({ description: `The columns shown, in order: ${ids.join(", ")} (default: all).` });

/** Tags the list is filtered by (the workspace's tag ids or names, as the tags feature writes them). */
const tags = z
  .array(
    z.string({ message: "a tag must be a string" }).trim().min(1, "a tag must not be empty").max(100, "a tag is at most 100 characters"),
    { message: "tags must be a list" },
  )
  .max(20, "tags holds at most 20 tags")
  .default([]);

const filters = z
  .strictObject({
    platform: z
      .enum(PLATFORMS, { message: `platform must be one of ${PLATFORMS.join(", ")}` })
      .nullable()
      .default(null),
    q: z.string({ message: "q must be a string" }).max(200, "q is at most 200 characters").nullable().default(null),
    tags,
  })
  .default({ platform: null, q: null, tags: [] });

export const videosViewContent = z.strictObject({
  filters,
  sort: z.enum(VIDEO_SORTS, { message: `sort must be one of ${VIDEO_SORTS.join(", ")}` }).default("tracked_at"),
  order: sortOrder("order").default("desc"),
  columns: columns(VIDEO_LIST_COLUMNS),
});

export const accountsViewContent = z.strictObject({
  filters,
  sort: z.enum(ACCOUNT_SORTS, { message: `sort must be one of ${ACCOUNT_SORTS.join(", ")}` }).default("tracked_at"),
  order: sortOrder("order").default("desc"),
  columns: columns(ACCOUNT_LIST_COLUMNS),
});

/** Each list's content schema. */
export const VIEW_CONTENT = { videos: videosViewContent, accounts: accountsViewContent } as const;
export type SavedViewContent = z.output<typeof videosViewContent> | z.output<typeof accountsViewContent>;

export const createSavedViewInput = z.strictObject({
  list: z.enum(SAVED_VIEW_LISTS, { message: "list must be videos or accounts" }),
  name: savedViewName,
  shared: z.boolean({ message: "shared must be true or false" }).default(false),
  /** Validated against the list's schema by the service (VIEW_CONTENT). */
  content: z.unknown(),
});

export const updateSavedViewInput = z.strictObject({
  name: savedViewName.optional(),
  shared: z.boolean({ message: "shared must be true or false" }).optional(),
  content: z.unknown().optional(),
});
