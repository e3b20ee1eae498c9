/**
 * GraphQL: folders, their contents and aggregates, through the same folder services as REST.
 *
 * `Folder` is a node loaded per request through a DataLoader; the counts, the accounts, the
 * sub-folders and the ancestors of every folder of a response are one statement each (batched),
 * whatever the number of folders. Folders nest (src/domain/folders/tree.ts).
 */
import { createContextCache } from "@pothos/core";
import DataLoader from "dataloader";
import { z } from "zod";
import { builder, type GraphQLContext } from "../builder.ts";
import { batchedConnection, entityId, keysetConnection, nodeUuid, pagedConnection, seriesConnection } from "../connections.ts";
import { AccountRef, BulkItemResultRef, SortOrderEnum, VideoRef } from "./tracking.ts";
import { GrowthPeriodEnum, GrowthPointRef } from "./analytics.ts";
import { parseInput } from "../../../domain/shared/inputs.ts";
import {
  addAccountsToFolder,
  addVideosToFolder,
  CHILD_FOLDERS_ORDER,
  childrenOfFolders,
  createFolder,
  deleteFolder,
  folderCounts,
  foldersByIds,
  FOLDERS_ORDER,
  FOLDERS_OLDEST_FIRST,
  listFolders,
  NO_COUNTS,
  removeAccountsFromFolder,
  removeVideosFromFolder,
  requireFolder,
  updateFolder,
  type FolderCounts,
  type FolderRecord,
} from "../../../domain/folders/service.ts";
import { folderAncestors, MAX_FOLDER_DEPTH } from "../../../domain/folders/tree.ts";
import {
  accountsOfFolders,
  countFolderVideos,
  folderAnalytics,
  folderGrowth,
  folderVideosOrder,
  FOLDER_ACCOUNTS_ORDER,
  listFolderVideos,
  type FolderAccount,
  type FolderAnalytics,
  type FolderTopVideo,
} from "../../../domain/folders/contents.ts";
import {
  folderAccountIdsInput,
  folderAnalyticsQuery,
  folderGrowthQuery,
  folderName,
  folderParentId,
  folderVideoIdsInput,
  folderVideosFilter,
  listFoldersQuery,
} from "../../../domain/folders/inputs.ts";

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
      return ids.map((id) => counts.get(id) ?? NO_COUNTS);
    }),
);

/** The ancestors of every folder of a response, in one statement. */
const ancestorsLoader = createContextCache(
  (ctx: GraphQLContext) =>
    new DataLoader<string, FolderRecord[]>(async (ids) => {
      const byId = await folderAncestors(ctx.auth.workspaceId, ids);
      return ids.map((id) => byId.get(id) ?? []);
    }),
);

const FolderChildrenEnum = builder.enumType("FolderChildren", {
  description: "What deleting a folder does to its sub-folders.",
  values: {
    MOVE_UP: { value: "move_up", description: "They move to the deleted folder's parent (top-level when it had none). The default." },
    DELETE: { value: "delete", description: "They are deleted with it, at every level (their videos and accounts stay tracked)." },
  } as const,
});

const DESCENDANTS = "true: also the videos and accounts of every sub-folder, at every level (each once). Default false.";

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
      addedAt: t.field({
        type: "DateTime",
        description: "When the account was added to the folder.",
        resolve: (e) => (e.node as FolderAccount).addedAt,
      }),
    }),
  },
);

const FolderVideosConnection = builder.connectionObject({ type: VideoRef, name: "FolderVideosConnection" });
const FolderChildrenConnection = builder.connectionObject({ type: FolderRef, name: "FolderChildrenConnection" });
const FolderGrowthConnection = builder.connectionObject({ type: GrowthPointRef, name: "FolderGrowthConnection" });

FolderRef.implement({
  description:
    "A folder of tracked accounts and tracked videos. Its video set is the videos added directly plus the tracked videos of its " +
    "accounts, each counted once. Removing from a folder or deleting it never untracks anything.",
  fields: (t) => ({
    uuid: t.exposeID("id", { description: "The folder's UUID, as REST writes it." }),
    name: t.exposeString("name"),
    parent: t.field({
      type: FolderRef,
      nullable: true,
      description: "The folder this one is in; null for a top-level folder.",
      resolve: (f) => f.parentId,
    }),
    parentUuid: t.exposeID("parentId", {
      nullable: true,
      description: "The parent folder's UUID (REST `parentId`); null for a top-level folder.",
    }),
    ancestors: t.field({
      type: [FolderRef],
      description: `The folders above this one, the top-level folder first (breadcrumbs); empty for a top-level folder. At most ${MAX_FOLDER_DEPTH - 1}.`,
      resolve: (f, _a, ctx) => ancestorsLoader(ctx).load(f.id),
    }),
    childCount: t.field({
      type: "Count",
      description: "Direct sub-folders.",
      resolve: async (f, _a, ctx) => (await countsLoader(ctx).load(f.id)).childCount,
    }),
    children: t.loadable({
      type: FolderChildrenConnection,
      byPath: true,
      description: "The folder's direct sub-folders, by name.",
      args: { ...t.arg.connectionArgs() },
      load: async (ids: string[], ctx, args) => {
        const { window, build } = batchedConnection(args, CHILD_FOLDERS_ORDER);
        const rows = await childrenOfFolders(ctx.auth.workspaceId, ids, window);
        return ids.map((id) => build(rows.get(id) ?? [], async () => (await countsLoader(ctx).load(id)).childCount));
      },
      resolve: (f) => f.id,
    }),
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
        includeDescendants: t.arg.boolean({ description: DESCENDANTS, defaultValue: false }),
        tagIds: t.arg.idList({ description: "Only videos carrying any of these tags (global IDs or UUIDs, at most 20)." }),
      },
      resolve: async (f, args, ctx) => {
        const filter = parseInput(folderVideosFilter, {
          tag: args.tagIds?.length ? args.tagIds.map((id, i) => entityId(id, "Tag", `tagIds.${i}`)) : undefined,
          sort: args.sort ?? undefined,
          sort_order: args.order ?? undefined,
          start_date: args.startDate ?? undefined,
          end_date: args.endDate ?? undefined,
          includeDescendants: args.includeDescendants ?? undefined,
        });
        return keysetConnection(
          args,
          folderVideosOrder(filter.sort, filter.sort_order),
          async (window) => (await listFolderVideos(ctx.auth.workspaceId, f.id, window, filter)).items,
          () => countFolderVideos(ctx.auth.workspaceId, f.id, filter),
        );
      },
    }),
    growth: t.field({
      type: FolderGrowthConnection,
      description:
        "Daily totals of followers, views and videos over the folder's tracked accounts, newest day first (REST " +
        "/folders/{id}/growth; the rules of `growth`); with includeDescendants, over its sub-folders' accounts too, each once. Cursors are days.",
      args: {
        ...t.arg.connectionArgs(),
        period: t.arg({ type: GrowthPeriodEnum, defaultValue: "30d" }),
        includeDescendants: t.arg.boolean({ description: DESCENDANTS, defaultValue: false }),
      },
      resolve: async (f, args, ctx) => {
        const q = parseInput(folderGrowthQuery, {
          period: args.period ?? undefined,
          includeDescendants: args.includeDescendants ?? undefined,
        });
        return seriesConnection(args, await folderGrowth(ctx.auth.workspaceId, f.id, q.period, q), (p) => p.date, true);
      },
    }),
    analytics: t.field({
      type: FolderAnalyticsRef,
      description: "Aggregates of the folder's video set; with includeDescendants, of the folder and all its sub-folders (one statement).",
      args: { includeDescendants: t.arg.boolean({ description: DESCENDANTS, defaultValue: false }) },
      resolve: (f, args, ctx) =>
        folderAnalytics(
          ctx.auth.workspaceId,
          f.id,
          parseInput(folderAnalyticsQuery, { includeDescendants: args.includeDescendants ?? undefined }),
        ),
    }),
  }),
});

const FolderOrderEnum = builder.enumType("FolderOrder", {
  values: {
    NEWEST_FIRST: { value: "newest", description: "Newest first (the default)." },
    OLDEST_FIRST: {
      value: "oldest",
      description:
        "Creation order: a folder's parent was made before it (unless the folder was moved under a newer one since), so each page holds its " +
        "folders' parents: for a tree shown page by page.",
    },
  } as const,
});

builder.queryFields((t) => ({
  folders: t.connection(
    {
      type: FolderRef,
      description:
        "The workspace's folders at every level, newest first (or `order`); with parentId, the direct sub-folders of that folder; " +
        "with q, those whose name holds its words (totalCount counts them).",
      args: {
        parentId: t.arg.id({ description: "Only the direct sub-folders of this folder (global ID or UUID)." }),
        order: t.arg({ type: FolderOrderEnum, defaultValue: "newest" }),
        q: t.arg.string({ description: listFoldersQuery.shape.q.description }),
      },
      resolve: (_r, args, ctx) => {
        const parentId = args.parentId == null ? undefined : entityId(args.parentId, "Folder", "parentId");
        const { q } = parseInput(listFoldersQuery.pick({ q: true }), { q: args.q ?? undefined });
        const order = args.order === "oldest" ? FOLDERS_OLDEST_FIRST : FOLDERS_ORDER;
        return pagedConnection(args, order, (window) => listFolders(ctx.auth.workspaceId, window, { parentId, q }, order));
      },
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

/** A parent folder given as a global ID or UUID, validated as REST validates `parentId`. */
const parentOf = (id: string | number): string => parseInput(folderParentId, entityId(id, "Folder", "parentId"), "parentId")!;

/** Video or account ids given as global IDs or UUIDs, validated as REST validates its id lists. */
function idsOf<K extends "video_ids" | "account_ids">(
  schema: z.ZodType<Record<K, string[]>>,
  field: K,
  typename: string,
  ids: (string | number)[],
): string[] {
  return parseInput(schema, { [field]: ids.map((id, i) => entityId(id, typename, `${field}.${i}`)) })[field];
}

builder.mutationFields((t) => ({
  createFolder: t.field({
    type: FolderRef,
    description:
      `Creates a folder; the name is trimmed and must then be 1 to 255 characters. With parentId, inside that folder (at most ` +
      `${MAX_FOLDER_DEPTH} levels deep: FOLDER_TOO_DEEP).`,
    args: {
      name: t.arg.string({ required: true }),
      parentId: t.arg.id({ description: "The parent folder (global ID or UUID); none: top-level." }),
    },
    resolve: (_r, args, ctx) =>
      createFolder(ctx.auth.workspaceId, parseInput(folderName, args.name, "name"), args.parentId == null ? null : parentOf(args.parentId)),
  }),
  renameFolder: t.field({
    type: FolderRef,
    description: "Renames a folder; answers the folder with the name this call wrote.",
    args: { id: t.arg.id({ required: true }), name: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) =>
      updateFolder(ctx.auth.workspaceId, entityId(args.id, "Folder", "id"), { name: parseInput(folderName, args.name, "name") }),
  }),
  moveFolder: t.field({
    type: FolderRef,
    description:
      `Moves a folder, with its sub-folders and contents, into another folder (parentId) or to the top level (parentId null). At most ` +
      `${MAX_FOLDER_DEPTH} levels deep (FOLDER_TOO_DEEP); never into itself or one of its sub-folders (FOLDER_CYCLE).`,
    args: { id: t.arg.id({ required: true }), parentId: t.arg.id({ description: "The new parent (global ID or UUID); null: top-level." }) },
    resolve: (_r, args, ctx) =>
      updateFolder(ctx.auth.workspaceId, entityId(args.id, "Folder", "id"), {
        parentId: args.parentId == null ? null : parentOf(args.parentId),
      }),
  }),
  deleteFolder: t.id({
    description:
      "Deletes the folder and answers its UUID; its accounts and videos stay tracked. Its sub-folders move up to its parent unless " +
      "`children` is DELETE (then they are deleted too, at every level).",
    args: { id: t.arg.id({ required: true }), children: t.arg({ type: FolderChildrenEnum, defaultValue: "move_up" }) },
    resolve: async (_r, args, ctx) =>
      (await deleteFolder(ctx.auth.workspaceId, entityId(args.id, "Folder", "id"), args.children ?? "move_up")).id,
  }),
  addVideosToFolder: t.field({
    type: [BulkItemResultRef],
    description: "Adds tracked videos (1 to 50 ids); per-id results, `Video not found` for videos the workspace does not track.",
    args: { folderId: t.arg.id({ required: true }), videoIds: t.arg.idList({ required: true }) },
    resolve: (_r, args, ctx) =>
      addVideosToFolder(
        ctx.auth.workspaceId,
        entityId(args.folderId, "Folder", "folderId"),
        idsOf(folderVideoIdsInput, "video_ids", "Video", args.videoIds),
      ),
  }),
  removeVideosFromFolder: t.int({
    description: "Removes videos added directly (1 to 50 ids); answers how many were removed. They stay tracked.",
    args: { folderId: t.arg.id({ required: true }), videoIds: t.arg.idList({ required: true }) },
    resolve: async (_r, args, ctx) =>
      (
        await removeVideosFromFolder(
          ctx.auth.workspaceId,
          entityId(args.folderId, "Folder", "folderId"),
          idsOf(folderVideoIdsInput, "video_ids", "Video", args.videoIds),
        )
      ).removed,
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
