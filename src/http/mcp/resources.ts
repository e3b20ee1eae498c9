/**
 * Read-only context an MCP client may attach to a conversation: the workspace summary (plan,
 * credits, tracking limits) and, per folder, the folder's analytics. Same records as the tools
 * get_workspace and get_folder_analytics (and REST GET /workspace, GET /folders/{id}/analytics).
 */
import { z } from "zod";
import { uuid, MAX_OFFSET, MAX_PAGE_SIZE, parseInput } from "../../domain/shared/inputs.ts";
import { notFound, validationError } from "../../domain/shared/errors.ts";
import { listFolders } from "../../domain/folders/service.ts";
import { folderAnalytics } from "../../domain/folders/contents.ts";
import { getWorkspaceInfo } from "../../domain/workspace/service.ts";
import { workspaceInfoItem } from "../records/workspace.ts";
import type { ToolContext } from "./tool.ts";

const SCHEME = "video-service";
const WORKSPACE_URI = `${SCHEME}://workspace`;
const FOLDER_ANALYTICS_TEMPLATE = `${SCHEME}://folders/{folder_id}/analytics`;
const folderAnalyticsUri = (id: string) => `${SCHEME}://folders/${id}/analytics`;
const FOLDER_ANALYTICS_URI = new RegExp(`^${SCHEME}://folders/([^/]*)/analytics$`);
const JSON_TYPE = "application/json";

export interface ResourceEntry {
  uri: string;
  name: string;
  title: string;
  description?: string;
  mimeType: string;
}

export const resourceTemplates = [
  {
    uriTemplate: FOLDER_ANALYTICS_TEMPLATE,
    name: "folder-analytics",
    title: "Folder analytics",
    description: "Totals of views, likes, comments, shares, mean engagement rate and the 5 most viewed videos of one folder.",
    mimeType: JSON_TYPE,
  },
];

const workspaceEntry: ResourceEntry = {
  uri: WORKSPACE_URI,
  name: "workspace",
  title: "Workspace summary",
  description: "Plan, credit balance and video tracking limits of the workspace.",
  mimeType: JSON_TYPE,
};

/** The list cursor is the offset of the next page of folders (a page is MAX_PAGE_SIZE folders). */
const cursorInput = z.coerce.number().int().min(0).max(MAX_OFFSET);

/** The workspace summary, then one analytics resource per folder, newest folder first, paged. */
export async function listResources(
  ctx: ToolContext,
  cursor: string | undefined,
): Promise<{ resources: ResourceEntry[]; nextCursor?: string }> {
  const offset = cursor === undefined ? 0 : cursorInput.safeParse(cursor).data;
  if (offset === undefined) throw validationError("cursor is not a cursor of this list.");
  const { items, total } = await listFolders(ctx.auth.workspaceId, { limit: MAX_PAGE_SIZE, offset });
  const folders = items.map((f) => ({
    uri: folderAnalyticsUri(f.id),
    name: `folder-analytics-${f.id}`,
    title: `Folder analytics: ${f.name}`,
    mimeType: JSON_TYPE,
  }));
  const next = offset + MAX_PAGE_SIZE;
  return { resources: offset === 0 ? [workspaceEntry, ...folders] : folders, ...(next < total ? { nextCursor: String(next) } : {}) };
}

/** Reads one resource: its JSON text, or NOT_FOUND for an address this server does not serve. */
export async function readResource(ctx: ToolContext, uri: string): Promise<{ uri: string; mimeType: string; text: string }> {
  const json = (value: unknown) => ({ uri, mimeType: JSON_TYPE, text: JSON.stringify(value) });
  if (uri === WORKSPACE_URI) return json({ data: workspaceInfoItem(await getWorkspaceInfo(ctx.auth.workspaceId)) });
  const match = FOLDER_ANALYTICS_URI.exec(uri);
  if (match) {
    const { folder_id } = parseInput(z.object({ folder_id: uuid }), { folder_id: decodeURIComponentSafe(match[1]!) });
    return json({ data: await folderAnalytics(ctx.auth.workspaceId, folder_id) });
  }
  throw notFound(`Resource ${uri.slice(0, 200)}`);
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s; // not valid percent-encoding: the UUID check refuses it
  }
}
