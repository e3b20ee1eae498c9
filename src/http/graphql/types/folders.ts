/**
 * GraphQL: folders, their contents and aggregates, through the same folder services as REST.
 *
 * `Folder` is a node loaded per request through a DataLoader; the counts and the accounts of every
 * folder of a response are one statement each (batched), whatever the number of folders.
 */
import { createContextCache } from "@pothos/core";
import DataLoader from "dataloader";
import { z } from "zod";
import { builder, type GraphQLContext } from "../builder.ts";
import { batchedConnection, entityId, keysetConnection, nodeUuid, pagedConnection } from "../connections.ts";
import { AccountRef, BulkItemResultRef, SortOrderEnum, VideoRef } from "./tracking.ts";
import { parseInput } from "../../../domain/shared/inputs.ts";
import {
  addAccountsToFolder,
  addVideosToFolder,
  createFolder,
  deleteFolder,
  folderCounts,
  foldersByIds,
  FOLDERS_ORDER,
  listFolders,
  removeAccountsFromFolder,
  removeVideosFromFolder,
  renameFolder,
  requireFolder,
  type FolderCounts,
  type FolderRecord,
} from "../../../domain/folders/service.ts";
import {
  accountsOfFolders,
  countFolderVideos,
  folderAnalytics,
  folderVideosOrder,
  FOLDER_ACCOUNTS_ORDER,
  listFolderVideos,
  type FolderAccount,
  type FolderAnalytics,
  type FolderTopVideo,
} from "../../../domain/folders/contents.ts";
import { folderAccountIdsInput, folderName, folderVideoIdsInput, folderVideosFilter } from "../../../domain/folders/inputs.ts";

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


const FolderTopVideoRef = builder.objectRef<FolderTopVideo>("FolderTopVideo").implement({
  description: "One of a folder's most viewed videos, as its analytics summarise it.",
  fields: (t) => ({
    uuid: t.exposeID("id", { description: "The video's UUID." }),
    description: t.exposeString("description"),
    viewCount: t.expose("viewCount", { type: "Count", nullable: true }),
    username: t.exposeString("username"),
    video: t.field({ type: VideoRef, description: "The video itself.", resolve: (v) => v.id }),
  }),
});

const FolderAnalyticsRef = builder.objectRef<FolderAnalytics>("FolderAnalytics").implement({
  description:
    "Aggregates over the folder's video set (direct videos plus its accounts' tracked videos). Sums count unknown metrics as 0; " +
    "avgEngagementRate is the mean over scraped videos; topVideos: the 5 most viewed (a fixed summary, not a paged list).",
  fields: (t) => ({
    totalAccounts: t.expose("totalAccounts", { type: "Count" }),
    totalVideos: t.expose("totalVideos", { type: "Count" }),
    totalViews: t.expose("totalViews", { type: "Count" }),
    totalLikes: t.expose("totalLikes", { type: "Count" }),
    totalComments: t.expose("totalComments", { type: "Count" }),
    totalShares: t.expose("totalShares", { type: "Count" }),
    avgEngagementRate: t.exposeFloat("avgEngagementRate"),
    topVideos: t.field({ type: [FolderTopVideoRef], resolve: (a) => a.topVideos }),
  }),
});

/** Both counts of every folder of a response, in one statement (videoCount and accountCount share it). */
const countsLoader = createContextCache(
  (ctx: GraphQLContext) =>
    new DataLoader<string, FolderCounts>(async (ids) => {
      const counts = await folderCounts(ctx.auth.workspaceId, ids);
      return ids.map((id) => counts.get(id) ?? { videoCount: 0, accountCount: 0 });
    }),
);

const FolderRef = builder.loadableNodeRef("Folder", {
  id: { resolve: (f: FolderRecord) => f.id, parse: nodeUuid },
  load: (ids: string[], ctx) => foldersByIds(ctx.auth.workspaceId, ids),
  sort: (f) => f.id,
  cacheResolved: (f) => f.id,
});

const FolderAccountsConnection = builder.connectionObject(
  { type: AccountRef, name: "FolderAccountsConnection" },
  {
    name: "FolderAccountsEdge",
    fields: (t) => ({
      addedAt: t.field({ type: "DateTime", description: "When the account was added to the folder.", resolve: (e) => (e.node as FolderAccount).addedAt }),
    }),
  },
);

const FolderVideosConnection = builder.connectionObject({ type: VideoRef, name: "FolderVideosConnection" });

FolderRef.implement({
  description:
    "A folder of tracked accounts and tracked videos. Its video set is the videos added directly plus the tracked videos of its " +
    "accounts, each counted once. Removing from a folder or deleting it never untracks anything.",
  fields: (t) => ({
    uuid: t.exposeID("id", { description: "The folder's UUID, as REST writes it." }),
    name: t.exposeString("name"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    videoCount: t.field({
      type: "Count",
      description: "Distinct videos of the folder's video set.",
      resolve: async (f, _a, ctx) => (await countsLoader(ctx).load(f.id)).videoCount,
    }),
    accountCount: t.field({ type: "Count", resolve: async (f, _a, ctx) => (await countsLoader(ctx).load(f.id)).accountCount }),
    accounts: t.loadable({
      type: FolderAccountsConnection,
      byPath: true,
      description: "The folder's tracked accounts, most recently added first.",
      args: { ...t.arg.connectionArgs() },
      load: async (ids: string[], ctx, args) => {
        const { window, build } = batchedConnection(args, FOLDER_ACCOUNTS_ORDER);
        const rows = await accountsOfFolders(ctx.auth.workspaceId, ids, window);
        return ids.map((id) => build(rows.get(id) ?? [], async () => (await countsLoader(ctx).load(id)).accountCount));
      },
      resolve: (f) => f.id,
    }),
    videos: t.field({
      type: FolderVideosConnection,
      description:
        "The folder's videos, sorted (missing values last, then id ascending), filtered by posting day (YYYY-MM-DD, both days included, UTC).",
      args: {
        ...t.arg.connectionArgs(),
        sort: t.arg({ type: FolderVideoSortEnum, defaultValue: "uploaded" }),
        order: t.arg({ type: SortOrderEnum, defaultValue: "desc" }),
        startDate: t.arg.string({ description: "YYYY-MM-DD" }),
        endDate: t.arg.string({ description: "YYYY-MM-DD" }),
      },
      resolve: async (f, args, ctx) => {
        const filter = parseInput(folderVideosFilter, {
          sort: args.sort ?? undefined,
          sort_order: args.order ?? undefined,
          start_date: args.startDate ?? undefined,
          end_date: args.endDate ?? undefined,
        });
        return keysetConnection(
          args,
          folderVideosOrder(filter.sort, filter.sort_order),
          async (window) => (await listFolderVideos(ctx.auth.workspaceId, f.id, window, filter)).items,
          () => countFolderVideos(f.id, filter),
        );
      },
    }),
    analytics: t.field({ type: FolderAnalyticsRef, resolve: (f, _a, ctx) => folderAnalytics(ctx.auth.workspaceId, f.id) }),
  }),
});

builder.queryFields((t) => ({
  folders: t.connection(
    {
      type: FolderRef,
      description: "The workspace's folders, newest first.",
      resolve: (_r, args, ctx) => pagedConnection(args, FOLDERS_ORDER, (window) => listFolders(ctx.auth.workspaceId, window)),
    },
    { name: "FolderConnection" },
    { name: "FolderEdge" },
  ),
  folder: t.field({
    type: FolderRef,
    description: "One folder of the workspace, by its global ID or UUID (NOT_FOUND otherwise).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => requireFolder(ctx.auth.workspaceId, entityId(args.id, "Folder", "id")),
  }),
}));

/** Video or account ids given as global IDs or UUIDs, validated as REST validates its id lists. */
function idsOf<K extends "video_ids" | "account_ids">(schema: z.ZodType<Record<K, string[]>>, field: K, typename: string, ids: (string | number)[]): string[] {
  return parseInput(schema, { [field]: ids.map((id, i) => entityId(id, typename, `${field}.${i}`)) })[field];
}

builder.mutationFields((t) => ({
  createFolder: t.field({
    type: FolderRef,
    description: "Creates a folder; the name is trimmed and must then be 1 to 255 characters.",
    args: { name: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => createFolder(ctx.auth.workspaceId, parseInput(folderName, args.name, "name")),
  }),
  renameFolder: t.field({
    type: FolderRef,
    description: "Renames a folder; answers the folder with the name this call wrote.",
    args: { id: t.arg.id({ required: true }), name: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => renameFolder(ctx.auth.workspaceId, entityId(args.id, "Folder", "id"), parseInput(folderName, args.name, "name")),
  }),
  deleteFolder: t.id({
    description: "Deletes the folder and answers its UUID; its accounts and videos stay tracked.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => (await deleteFolder(ctx.auth.workspaceId, entityId(args.id, "Folder", "id"))).id,
  }),
  addVideosToFolder: t.field({
    type: [BulkItemResultRef],
    description: "Adds tracked videos (1 to 50 ids); per-id results, `Video not found` for videos the workspace does not track.",
    args: { folderId: t.arg.id({ required: true }), videoIds: t.arg.idList({ required: true }) },
    resolve: (_r, args, ctx) =>
      addVideosToFolder(ctx.auth.workspaceId, entityId(args.folderId, "Folder", "folderId"), idsOf(folderVideoIdsInput, "video_ids", "Video", args.videoIds)),
  }),
  removeVideosFromFolder: t.int({
    description: "Removes videos added directly (1 to 50 ids); answers how many were removed. They stay tracked.",
    args: { folderId: t.arg.id({ required: true }), videoIds: t.arg.idList({ required: true }) },
    resolve: async (_r, args, ctx) =>
      (await removeVideosFromFolder(ctx.auth.workspaceId, entityId(args.folderId, "Folder", "folderId"), idsOf(folderVideoIdsInput, "video_ids", "Video", args.videoIds)))
        .removed,
  }),
  addAccountsToFolder: t.field({
    type: [BulkItemResultRef],
    description: "Adds tracked accounts (1 to 50 ids); per-id results, `Account not found` when not tracked.",
    args: { folderId: t.arg.id({ required: true }), accountIds: t.arg.idList({ required: true }) },
    resolve: (_r, args, ctx) =>
      addAccountsToFolder(
        ctx.auth.workspaceId,
        entityId(args.folderId, "Folder", "folderId"),
        idsOf(folderAccountIdsInput, "account_ids", "Account", args.accountIds),
      ),
  }),
  removeAccountsFromFolder: t.field({
    type: [BulkItemResultRef],
    description: "Removes accounts from the folder (1 to 50 ids); they stay tracked.",
    args: { folderId: t.arg.id({ required: true }), accountIds: t.arg.idList({ required: true }) },
    resolve: (_r, args, ctx) =>
      removeAccountsFromFolder(
        ctx.auth.workspaceId,
        entityId(args.folderId, "Folder", "folderId"),
        idsOf(folderAccountIdsInput, "account_ids", "Account", args.accountIds),
      ),
  }),
}));
