/**
 * GraphQL: folders, their contents and aggregates, through the same folder services as REST.
 *
 * `Folder` is Prisma-backed: `folders`/`folder` pass the Prisma plugin's planned selection to the
 * service, so `accountCount` and `accounts { account { … } }` load with the folders themselves (no
 * N+1). `videoCount` is not a relation count (a folder's video set includes its accounts' videos):
 * it is batched per request into one SQL statement for all folders of the response.
 */
import { z } from "zod";
import { builder, type GraphQLContext } from "../builder.js";
import { TrackedAccountRef, VideoRef } from "./tracking.js";
import { parseInput } from "../../../domain/shared/inputs.js";
import {
  addAccountsToFolder,
  addVideosToFolder,
  createFolder,
  deleteFolder,
  folderCounts,
  listFolders,
  removeAccountsFromFolder,
  removeVideosFromFolder,
  renameFolder,
  type FolderCounts,
  type ItemResult,
} from "../../../domain/folders/service.js";
import { folderAnalytics, listFolderVideos, type FolderAnalytics, type FolderTopVideo } from "../../../domain/folders/contents.js";
import { findFolder, videosInOrder } from "../../../domain/folders/queries.js";
import { folderName, folderVideoSort, idList, pageInput, sortOrder, type FolderVideoQuery } from "../../../domain/folders/inputs.js";
import { dateParam } from "../../rest/schemas.js";

const uuid = z.guid({ message: "must be a UUID" });

/**
 * Per-request batching of folder counts: every `videoCount` asked for in the same
 * tick is answered by one `folderCounts` statement.
 */
const countBatches = new WeakMap<GraphQLContext, { ids: Set<string>; result: Promise<Map<string, FolderCounts>> }>();
function loadFolderCounts(ctx: GraphQLContext, folderId: string): Promise<FolderCounts> {
  let batch = countBatches.get(ctx);
  if (!batch) {
    const ids = new Set<string>();
    const result = new Promise<Map<string, FolderCounts>>((resolve, reject) => {
      // Let every sibling resolver of this tick register its id first (as DataLoader does).
      void Promise.resolve().then(() =>
        process.nextTick(() => {
          countBatches.delete(ctx);
          folderCounts(ctx.auth.workspaceId, [...ids]).then(resolve, reject);
        }),
      );
    });
    batch = { ids, result };
    countBatches.set(ctx, batch);
  }
  batch.ids.add(folderId);
  return batch.result.then((m) => m.get(folderId) ?? { videoCount: 0, accountCount: 0 });
}

const FolderVideoSortEnum = builder.enumType("FolderVideoSort", {
  values: {
    VIEWS: { value: "views" },
    LIKES: { value: "likes" },
    COMMENTS: { value: "comments" },
    SHARES: { value: "shares" },
    ENGAGEMENT_RATE: { value: "engagement_rate" },
    UPLOADED: { value: "uploaded", description: "Posting time." },
  } as const,
});

const SortOrderEnum = builder.enumType("SortOrder", { values: { ASC: { value: "asc" }, DESC: { value: "desc" } } as const });

const BulkItemResultRef = builder.objectRef<ItemResult>("BulkItemResult").implement({
  description: "Outcome of one id of a bulk change.",
  fields: (t) => ({
    id: t.exposeID("id"),
    success: t.exposeBoolean("success"),
    error: t.exposeString("error", { nullable: true, description: "Why it failed, e.g. `Video not found`." }),
  }),
});

const FolderTopVideoRef = builder.objectRef<FolderTopVideo>("FolderTopVideo").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    description: t.exposeString("description"),
    viewCount: t.exposeFloat("viewCount", { nullable: true }),
    username: t.exposeString("username"),
  }),
});

const FolderAnalyticsRef = builder.objectRef<FolderAnalytics>("FolderAnalytics").implement({
  description:
    "Aggregates over the folder's video set (direct videos plus its accounts' tracked videos). Sums count unknown metrics as 0 " +
    "(Float: sums can exceed 2^31); avgEngagementRate is the mean over scraped videos; topVideos: 5 most viewed.",
  fields: (t) => ({
    totalAccounts: t.exposeInt("totalAccounts"),
    totalVideos: t.exposeInt("totalVideos"),
    totalViews: t.exposeFloat("totalViews"),
    totalLikes: t.exposeFloat("totalLikes"),
    totalComments: t.exposeFloat("totalComments"),
    totalShares: t.exposeFloat("totalShares"),
    avgEngagementRate: t.exposeFloat("avgEngagementRate"),
    topVideos: t.field({ type: [FolderTopVideoRef], resolve: (a) => a.topVideos }),
  }),
});

interface FolderVideoPage {
  ids: string[];
  total: number;
  limit: number;
  offset: number;
}

const FolderVideoPageRef = builder.objectRef<FolderVideoPage>("FolderVideoPage").implement({
  description: "A page of a folder's videos. currentPage = floor(offset / limit) + 1; totalPages = ceil(total / limit).",
  fields: (t) => ({
    total: t.exposeInt("total"),
    currentPage: t.int({ resolve: (p) => Math.floor(p.offset / p.limit) + 1 }),
    totalPages: t.int({ resolve: (p) => Math.ceil(p.total / p.limit) }),
    videos: t.prismaField({
      type: [VideoRef],
      resolve: (query, page) => videosInOrder(page.ids, query),
    }),
  }),
});

const videosQueryInput = z.object({
  sort: folderVideoSort,
  order: sortOrder,
  startDate: dateParam.optional(),
  endDate: dateParam.optional(),
});

export const FolderRef = builder.prismaObject("Folder", {
  description:
    "A folder of tracked accounts and tracked videos. Its video set is the videos added directly plus the tracked videos of its " +
    "accounts, each counted once. Removing from a folder or deleting it never untracks anything.",
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    accountCount: t.relationCount("accounts"),
    videoCount: t.int({
      description: "Distinct videos of the folder's video set.",
      resolve: async (f, _a, ctx) => (await loadFolderCounts(ctx, f.id)).videoCount,
    }),
    accounts: t.field({
      type: [TrackedAccountRef],
      description: "The folder's tracked accounts, most recently added first.",
      args: { limit: t.arg.int({ defaultValue: 30, description: "1 to 100." }), offset: t.arg.int({ defaultValue: 0 }) },
      select: (args, _ctx, nestedSelection) => {
        const page = parseInput(pageInput(30), { limit: args.limit ?? undefined, offset: args.offset ?? undefined });
        return {
          accounts: {
            select: { trackedAccount: nestedSelection(true) },
            orderBy: [{ addedAt: "desc" }, { trackedAccountId: "asc" }],
            take: page.limit,
            skip: page.offset,
          },
        };
      },
      resolve: (f) => f.accounts.map((a) => a.trackedAccount),
    }),
    videos: t.field({
      type: FolderVideoPageRef,
      description:
        "The folder's videos, sorted (missing values last, then id ascending), filtered by posting day (YYYY-MM-DD, both days included, UTC).",
      args: {
        sort: t.arg({ type: FolderVideoSortEnum, defaultValue: "uploaded" }),
        order: t.arg({ type: SortOrderEnum, defaultValue: "desc" }),
        limit: t.arg.int({ defaultValue: 20, description: "1 to 100." }),
        offset: t.arg.int({ defaultValue: 0 }),
        startDate: t.arg.string({ description: "YYYY-MM-DD" }),
        endDate: t.arg.string({ description: "YYYY-MM-DD" }),
      },
      resolve: async (f, args, ctx) => {
        const page = parseInput(pageInput(20), { limit: args.limit ?? undefined, offset: args.offset ?? undefined });
        const q = parseInput(videosQueryInput, {
          sort: args.sort ?? "uploaded",
          order: args.order ?? "desc",
          startDate: args.startDate ?? undefined,
          endDate: args.endDate ?? undefined,
        });
        const query: FolderVideoQuery = { ...page, ...q };
        const { items, total } = await listFolderVideos(ctx.auth.workspaceId, f.id, query);
        return { ids: items.map((v) => v.id), total, limit: page.limit, offset: page.offset };
      },
    }),
    analytics: t.field({ type: FolderAnalyticsRef, resolve: (f, _a, ctx) => folderAnalytics(ctx.auth.workspaceId, f.id) }),
  }),
});

builder.queryFields((t) => ({
  folders: t.prismaField({
    type: [FolderRef],
    description: "The workspace's folders, newest first.",
    args: { limit: t.arg.int({ defaultValue: 20, description: "1 to 100." }), offset: t.arg.int({ defaultValue: 0 }) },
    resolve: async (query, _r, args, ctx) => {
      const page = parseInput(pageInput(20), { limit: args.limit ?? undefined, offset: args.offset ?? undefined });
      return (await listFolders(ctx.auth.workspaceId, page, query)).items;
    },
  }),
  folder: t.prismaField({
    type: FolderRef,
    description: "One folder of the workspace (NOT_FOUND otherwise).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) => findFolder(ctx.auth.workspaceId, parseInput(uuid, String(args.id), "id"), query),
  }),
}));

const idsArg = (field: string, value: unknown) => parseInput(idList(field), value, field);

builder.mutationFields((t) => ({
  createFolder: t.prismaField({
    type: FolderRef,
    description: "Creates a folder; the name is trimmed and must then be 1 to 255 characters.",
    args: { name: t.arg.string({ required: true }) },
    resolve: async (query, _r, args, ctx) => {
      const f = await createFolder(ctx.auth.workspaceId, parseInput(folderName, args.name, "name"));
      return findFolder(ctx.auth.workspaceId, f.id, query);
    },
  }),
  renameFolder: t.prismaField({
    type: FolderRef,
    args: { id: t.arg.id({ required: true }), name: t.arg.string({ required: true }) },
    resolve: async (query, _r, args, ctx) => {
      const id = parseInput(uuid, String(args.id), "id");
      await renameFolder(ctx.auth.workspaceId, id, parseInput(folderName, args.name, "name"));
      return findFolder(ctx.auth.workspaceId, id, query);
    },
  }),
  deleteFolder: t.id({
    description: "Deletes the folder and answers its id; its accounts and videos stay tracked.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => (await deleteFolder(ctx.auth.workspaceId, parseInput(uuid, String(args.id), "id"))).id,
  }),
  addVideosToFolder: t.field({
    type: [BulkItemResultRef],
    description: "Adds tracked videos (1 to 50 video ids); per-id results, `Video not found` for videos the workspace does not track.",
    args: { folderId: t.arg.id({ required: true }), videoIds: t.arg.idList({ required: true }) },
    resolve: (_r, args, ctx) =>
      addVideosToFolder(ctx.auth.workspaceId, parseInput(uuid, String(args.folderId), "folderId"), idsArg("videoIds", args.videoIds.map(String))),
  }),
  removeVideosFromFolder: t.int({
    description: "Removes videos added directly (1 to 50 video ids); answers how many were removed. They stay tracked.",
    args: { folderId: t.arg.id({ required: true }), videoIds: t.arg.idList({ required: true }) },
    resolve: async (_r, args, ctx) =>
      (await removeVideosFromFolder(ctx.auth.workspaceId, parseInput(uuid, String(args.folderId), "folderId"), idsArg("videoIds", args.videoIds.map(String))))
        .removed,
  }),
  addAccountsToFolder: t.field({
    type: [BulkItemResultRef],
    description: "Adds tracked accounts (1 to 50 canonical account ids); per-id results, `Account not found` when not tracked.",
    args: { folderId: t.arg.id({ required: true }), accountIds: t.arg.idList({ required: true }) },
    resolve: (_r, args, ctx) =>
      addAccountsToFolder(ctx.auth.workspaceId, parseInput(uuid, String(args.folderId), "folderId"), idsArg("accountIds", args.accountIds.map(String))),
  }),
  removeAccountsFromFolder: t.field({
    type: [BulkItemResultRef],
    description: "Removes accounts from the folder (1 to 50 ids); they stay tracked.",
    args: { folderId: t.arg.id({ required: true }), accountIds: t.arg.idList({ required: true }) },
    resolve: (_r, args, ctx) =>
      removeAccountsFromFolder(ctx.auth.workspaceId, parseInput(uuid, String(args.folderId), "folderId"), idsArg("accountIds", args.accountIds.map(String))),
  }),
}));
