/**
 * The folders' MCP tools: the tree, what a folder holds and its analytics (as REST /folders).
 */
import { z } from "zod";
import { uuid } from "../../../domain/shared/inputs.ts";
import {
  createFolderInput,
  folderAnalyticsQuery,
  folderGrowthQuery,
  folderParentId,
  listFoldersQuery,
} from "../../../domain/folders/inputs.ts";
import { createFolder, listFolderSummaries, updateFolder } from "../../../domain/folders/service.ts";
import { folderAnalytics, folderGrowth } from "../../../domain/folders/contents.ts";
import { pagination } from "../../records/common.ts";
import { folderRecordItem, folderSummaryItem } from "../../records/folders.ts";
import { ORGANISE, READ, WRITE, defineTool, type AnyTool } from "../tool.ts";

const folderId = uuid.meta({ description: "The folder's id (from list_folders)." });

export const folderTools: AnyTool[] = [
  defineTool({
    name: "list_folders",
    title: "List folders",
    description:
      "A page of the workspace's folders (newest first, every level; `parentId`: only that folder's sub-folders; `q`: only those whose " +
      "name holds its words) with their video, " +
      "account and sub-folder counts and their `parentId` (null: top-level); their ids serve get_folder_analytics. Free.",
    input: listFoldersQuery,
    annotations: READ,
    run: async ({ auth }, input) => {
      const { items, total } = await listFolderSummaries(auth.workspaceId, input, { parentId: input.parentId, q: input.q });
      return { data: items.map(folderSummaryItem), pagination: pagination(total, input.limit, input.offset) };
    },
  }),
  defineTool({
    name: "get_folder_analytics",
    title: "Folder analytics",
    description:
      "Aggregates of a folder (its videos added directly plus the tracked videos of its accounts): totals of views, likes, comments, " +
      "shares, mean engagement rate and the 5 most viewed videos. includeDescendants=true: over the folder and all its sub-folders " +
      "(each video and account once). NOT_FOUND for a folder of another workspace. Free.",
    input: folderAnalyticsQuery.extend({ folder_id: folderId }),
    annotations: READ,
    run: async ({ auth }, input) => ({ data: await folderAnalytics(auth.workspaceId, input.folder_id, input) }),
  }),
  defineTool({
    name: "get_folder_growth",
    title: "Growth of a folder's accounts",
    description:
      "Daily totals of followers, views and videos over a folder's tracked accounts, newest UTC day first, for the last 7, 30 or 90 " +
      "days or `all` (as get_growth does for the workspace). includeDescendants=true: its sub-folders' accounts too, each once. Free.",
    input: folderGrowthQuery.extend({ folder_id: folderId }),
    annotations: READ,
    run: async ({ auth }, input) => ({ data: await folderGrowth(auth.workspaceId, input.folder_id, input.period, input) }),
  }),
  defineTool({
    name: "create_folder",
    title: "Create a folder",
    description: "Creates a folder, top-level or inside `parentId` (folders nest at most 5 levels: FOLDER_TOO_DEEP). Free.",
    input: createFolderInput,
    annotations: WRITE,
    idempotent: true,
    run: async ({ auth }, input) => ({ data: folderRecordItem(await createFolder(auth.workspaceId, input.name, input.parentId ?? null)) }),
  }),
  defineTool({
    name: "move_folder",
    title: "Move a folder",
    description:
      "Moves a folder, with its sub-folders and contents, into `parentId` (null: top level). At most 5 levels deep (FOLDER_TOO_DEEP), " +
      "never into itself or its own sub-folders (FOLDER_CYCLE). Free.",
    input: z.strictObject({ folder_id: folderId, parentId: folderParentId }),
    annotations: ORGANISE,
    run: async ({ auth }, input) => {
      const f = await updateFolder(auth.workspaceId, input.folder_id, { parentId: input.parentId });
      return { data: { id: f.id, name: f.name, parentId: f.parentId } };
    },
  }),
];
