/**
 * /folders: folders of tracked videos and accounts, their contents and aggregates. Shapes follow
 * the spec (docs/contract/interface-spec.md, Folders) and docs/contract/decisions.md (the folder endpoints the spec lacks).
 */
import { z } from "zod";
import {
  addAccountsToFolder,
  addVideosToFolder,
  createFolder,
  deleteFolder,
  getFolder,
  listFolderSummaries,
  removeAccountsFromFolder,
  removeVideosFromFolder,
  updateFolder,
} from "../../../domain/folders/service.ts";
import { folderAnalytics, folderGrowth, listFolderAccounts, listFolderVideos } from "../../../domain/folders/contents.ts";
import { folderAncestors, MAX_FOLDER_DEPTH } from "../../../domain/folders/tree.ts";
import {
  createFolderInput,
  deleteFolderQuery,
  folderAccountIdsInput,
  folderAccountsQuery,
  folderAnalyticsQuery,
  folderGrowthQuery,
  folderVideoIdsInput,
  folderVideosQuery,
  listFoldersQuery,
  updateFolderInput,
} from "../../../domain/folders/inputs.ts";
import { defineRoute } from "../route.ts";
import { idParams, queryParams } from "../schemas.ts";
import { int } from "../../../domain/shared/records.ts";
import { bulkItemResult, pagination, paginationSchema } from "../../records/common.ts";
import { accountItem, accountSchema } from "../../../domain/tracking/records.ts";
import { growthPoint } from "../../records/analytics.ts";
import {
  folderAnalyticsSchema,
  folderDetail,
  folderDetailItem,
  folderRecordItem,
  folderRecordSchema,
  folderSummary,
  folderSummaryItem,
  folderVideoItem,
  folderVideoItemOf,
} from "../../records/folders.ts";

const MEMBERSHIP_NOTE =
  "A folder holds tracked accounts and tracked videos. Its video set is the videos added directly plus the tracked videos of its " +
  "accounts (a video counted once even when it is in the folder both ways); listings, counts and analytics all use that set.";
const NESTING_NOTE =
  `Folders nest: \`parentId\` names a folder of the same workspace (null: top-level), at most ${MAX_FOLDER_DEPTH} levels deep; a move ` +
  "that would put a folder inside itself is 409 FOLDER_CYCLE, one that would go deeper is 409 FOLDER_TOO_DEEP, an unknown parent 404 NOT_FOUND.";
const DESCENDANTS_NOTE =
  "With includeDescendants=true, the set is that of the folder and all its sub-folders at every level, each video and account once.";

export const folderRoutes = [
  defineRoute({
    method: "post",
    path: "/folders",
    operationId: "createFolder",
    summary: "Create a folder",
    description: `Names are trimmed and must then be 1 to 255 characters; they need not be unique. ${NESTING_NOTE}`,
    tags: ["Folders"],
    body: createFolderInput,
    errors: ["NOT_FOUND", "FOLDER_TOO_DEEP"],
    responses: { 201: { description: "The new folder.", schema: z.object({ data: folderRecordSchema, message: z.string() }) } },
    async handler({ auth, body }) {
      const f = await createFolder(auth.workspaceId, body.name, body.parentId ?? null);
      return { status: 201, body: { data: folderRecordItem(f), message: "Folder created." } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/folders",
    operationId: "listFolders",
    summary: "List the workspace's folders",
    description:
      "Newest first (ties by id): every folder at every level, or with parentId the direct sub-folders of that folder; with q, only " +
      `those whose name holds its words (\`pagination.total\` counts them). ${MEMBERSHIP_NOTE}`,
    tags: ["Folders"],
    query: queryParams(listFoldersQuery),
    responses: {
      200: { description: "A page of folders.", schema: z.object({ data: z.array(folderSummary), pagination: paginationSchema }) },
    },
    async handler({ auth, query }) {
      const { items, total } = await listFolderSummaries(auth.workspaceId, query, { parentId: query.parentId, q: query.q });
      return { body: { data: items.map(folderSummaryItem), pagination: pagination(total, query.limit, query.offset) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/folders/{id}",
    operationId: "getFolder",
    summary: "Get one folder",
    description: `${MEMBERSHIP_NOTE} \`ancestors\` is the path from the top of the tree down to the folder's parent (breadcrumbs).`,
    tags: ["Folders"],
    params: idParams,
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "The folder.", schema: z.object({ data: folderDetail }) } },
    async handler({ auth, params }) {
      const f = await getFolder(auth.workspaceId, params.id);
      const ancestors = (await folderAncestors(auth.workspaceId, [f.id])).get(f.id) ?? [];
      return { body: { data: folderDetailItem(f, ancestors) } };
    },
  }),
  defineRoute({
    method: "patch",
    path: "/folders/{id}",
    operationId: "renameFolder",
    summary: "Rename or move a folder",
    description:
      `Give name (trimmed, then 1 to 255 characters), parentId (a move; null makes it top-level) or both. The folder moves with its ` +
      `sub-folders and contents. ${NESTING_NOTE}`,
    tags: ["Folders"],
    params: idParams,
    body: updateFolderInput,
    errors: ["NOT_FOUND", "FOLDER_CYCLE", "FOLDER_TOO_DEEP"],
    responses: {
      200: {
        description: "The folder as this request wrote it.",
        schema: z.object({
          data: z.object({ id: z.string(), name: z.string(), parentId: folderRecordSchema.shape.parentId }),
          message: z.string(),
        }),
      },
    },
    async handler({ auth, params, body }) {
      const f = await updateFolder(auth.workspaceId, params.id, body);
      return { body: { data: { id: f.id, name: f.name, parentId: f.parentId }, message: "Folder updated." } };
    },
  }),
  defineRoute({
    method: "delete",
    path: "/folders/{id}",
    operationId: "deleteFolder",
    summary: "Delete a folder",
    description:
      "The accounts and videos in the folder stay tracked. Its sub-folders: children=move_up (the default) moves them to the deleted " +
      "folder's parent (top-level when it had none); children=delete deletes them with it, at every level (their items stay tracked too).",
    tags: ["Folders"],
    params: idParams,
    query: queryParams(deleteFolderQuery),
    errors: ["NOT_FOUND"],
    responses: {
      200: {
        description: "The folder is deleted.",
        schema: z.object({
          data: z.object({
            id: z.string(),
            movedUp: int().meta({ description: "Sub-folders moved up to the deleted folder's parent." }),
            deletedDescendants: int().meta({ description: "Sub-folders deleted with it, at every level." }),
          }),
          message: z.string(),
        }),
      },
    },
    async handler({ auth, params, query }) {
      const r = await deleteFolder(auth.workspaceId, params.id, query.children);
      return { body: { data: r, message: "Folder deleted. Its accounts and videos stay tracked." } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/folders/{id}/videos",
    operationId: "listFolderVideos",
    exportAs: { kind: "folder_videos", params: (p) => ({ folderId: p.id }) },
    summary: "Videos in a folder",
    description:
      `${MEMBERSHIP_NOTE} Order: the sort value in sort_order, videos without that value (not scraped yet, or no posting date) last ` +
      "in both directions, then video id ascending, so equal values keep a stable order across pages. " +
      "`total` counts the videos matching the date filters; `currentPage` = floor(offset / limit) + 1; `totalPages` = ceil(total / limit) " +
      "(0 when there are none). With a date filter, videos without a posting date are left out; start_date after end_date is a VALIDATION_ERROR. " +
      "tag: only videos carrying any of these tags (see /tags). " +
      DESCENDANTS_NOTE,
    tags: ["Folders"],
    params: idParams,
    query: queryParams(folderVideosQuery),
    errors: ["NOT_FOUND"],
    responses: {
      200: {
        description: "A page of the folder's videos (no `pagination` object, as in the spec).",
        schema: z.object({ data: z.array(folderVideoItem), total: int(), currentPage: int(), totalPages: int() }),
      },
    },
    async handler({ auth, params, query }) {
      const { items, total } = await listFolderVideos(auth.workspaceId, params.id, query, query);
      return {
        body: {
          data: items.map(folderVideoItemOf),
          total,
          currentPage: Math.floor(query.offset / query.limit) + 1,
          totalPages: Math.ceil(total / query.limit),
        },
      };
    },
  }),
  defineRoute({
    method: "post",
    path: "/folders/{id}/videos",
    operationId: "addFolderVideos",
    summary: "Add tracked videos to a folder",
    description:
      "Each id is processed on its own: `success` is true when the video is in the folder afterwards (already there included); " +
      'a video the workspace does not track gives `success: false, error: "Video not found"`. The HTTP status stays 200.',
    tags: ["Folders"],
    params: idParams,
    body: folderVideoIdsInput,
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "One result per id, in request order.", schema: z.object({ data: z.array(bulkItemResult) }) } },
    async handler({ auth, params, body }) {
      return { body: { data: await addVideosToFolder(auth.workspaceId, params.id, body.video_ids) } };
    },
  }),
  defineRoute({
    method: "delete",
    path: "/folders/{id}/videos",
    operationId: "removeFolderVideos",
    summary: "Remove videos from a folder",
    description:
      "Removes videos added directly to the folder; they stay tracked. `removed` counts the memberships removed. A video that is in " +
      "the folder only through one of its accounts stays (remove the account instead). Ids not in the folder are ignored.",
    tags: ["Folders"],
    params: idParams,
    body: folderVideoIdsInput,
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "How many videos were removed.", schema: z.object({ data: z.object({ removed: int() }) }) } },
    async handler({ auth, params, body }) {
      return { body: { data: await removeVideosFromFolder(auth.workspaceId, params.id, body.video_ids) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/folders/{id}/accounts",
    operationId: "listFolderAccounts",
    exportAs: { kind: "folder_accounts", params: (p) => ({ folderId: p.id }) },
    summary: "Accounts in a folder",
    description:
      "Most recently added first (ties by tracking id). Items exactly as in GET /accounts (`createdAt`: when the workspace started tracking the account).",
    tags: ["Folders"],
    params: idParams,
    query: queryParams(folderAccountsQuery),
    errors: ["NOT_FOUND"],
    responses: {
      200: {
        description: "A page of the folder's accounts.",
        schema: z.object({ data: z.array(accountSchema), pagination: paginationSchema }),
      },
    },
    async handler({ auth, params, query }) {
      const { items, total } = await listFolderAccounts(auth.workspaceId, params.id, query);
      return {
        body: {
          data: items.map(accountItem),
          pagination: pagination(total, query.limit, query.offset),
        },
      };
    },
  }),
  defineRoute({
    method: "post",
    path: "/folders/{id}/accounts",
    operationId: "addFolderAccounts",
    summary: "Add tracked accounts to a folder",
    description:
      "Each id (canonical account UUID) is processed on its own: `success` is true when the account is in the folder afterwards " +
      '(already there included); an account the workspace does not track gives `success: false, error: "Account not found"`. ' +
      "The account's tracked videos join the folder's video set.",
    tags: ["Folders"],
    params: idParams,
    body: folderAccountIdsInput,
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "One result per id, in request order.", schema: z.object({ data: z.array(bulkItemResult) }) } },
    async handler({ auth, params, body }) {
      return { body: { data: await addAccountsToFolder(auth.workspaceId, params.id, body.account_ids) } };
    },
  }),
  defineRoute({
    method: "delete",
    path: "/folders/{id}/accounts",
    operationId: "removeFolderAccounts",
    summary: "Remove accounts from a folder",
    description:
      "Accounts are removed from the folder only; they stay tracked. Per id: `success` true when it was in the folder and is removed; " +
      "`Account not found` when the workspace does not track it; `Account is not in this folder` otherwise.",
    tags: ["Folders"],
    params: idParams,
    body: folderAccountIdsInput,
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "One result per id, in request order.", schema: z.object({ data: z.array(bulkItemResult) }) } },
    async handler({ auth, params, body }) {
      return { body: { data: await removeAccountsFromFolder(auth.workspaceId, params.id, body.account_ids) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/folders/{id}/analytics",
    operationId: "getFolderAnalytics",
    summary: "Aggregates of a folder",
    description:
      `${MEMBERSHIP_NOTE} Sums count a metric not known yet (video not scraped) as 0. avgEngagementRate is the mean engagement rate ` +
      `(percent) of the scraped videos, 0 when none. topVideos: the 5 scraped videos with the most views (ties by id). ${DESCENDANTS_NOTE}`,
    tags: ["Folders"],
    params: idParams,
    query: queryParams(folderAnalyticsQuery),
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "The folder's aggregates.", schema: z.object({ data: folderAnalyticsSchema }) } },
    async handler({ auth, params, query }) {
      return { body: { data: await folderAnalytics(auth.workspaceId, params.id, query) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/folders/{id}/growth",
    operationId: "getFolderGrowth",
    summary: "Growth of a folder's accounts",
    description:
      "Daily totals of followers, views and videos over the folder's tracked accounts, newest UTC day first, with the rules of " +
      "GET /analytics/growth (period 7d, 30d, 90d or all; every day of the window; an account counts with its last known values). " +
      "With includeDescendants=true, over the accounts of the folder and all its sub-folders, each once.",
    tags: ["Folders"],
    params: idParams,
    query: queryParams(folderGrowthQuery),
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "One point per day, newest first.", schema: z.object({ data: z.array(growthPoint) }) } },
    async handler({ auth, params, query }) {
      return { body: { data: await folderGrowth(auth.workspaceId, params.id, query.period, query) } };
    },
  }),
];
