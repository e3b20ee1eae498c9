/**
 * GraphQL: exports of a list to a CSV or XLSX file (docs/exports.md), through the same
 * services as REST's /exports: `startExport` (the list's kind, the format, and the list's filter as the
 * list's GraphQL arguments name it, mapped onto the list's own domain schema, so both doors check alike),
 * the `exports` connection, and `exportUpdated` (the export's state now, then each change, until it ends).
 */
import { builder } from "../builder.ts";
import { sharedPerEvent } from "../subscriptions.ts";
import { entityId, nodeUuid, pagedConnection } from "../connections.ts";
import { PlatformEnum, SortOrderEnum } from "./tracking.ts";
import {
  exportsByIds,
  EXPORTS_ORDER,
  getExport,
  listExports,
  progressOf,
  startExport,
  type ExportRecord,
} from "../../../domain/exports/service.ts";
import { watchExport } from "../../../domain/exports/watch.ts";
import { downloadUrl } from "../../../domain/exports/links.ts";
import { EXPORT_KINDS, type ExportKind } from "../../../domain/exports/kinds.ts";
import { EXPORT_STATUSES } from "../../../domain/exports/inputs.ts";

const upper = (s: string) => s.toUpperCase();
const ExportKindEnum = builder.enumType("ExportKind", {
  description: "The list an export takes out (docs/exports.md).",
  values: Object.fromEntries(EXPORT_KINDS.map((k) => [upper(k), { value: k }])) as Record<string, { value: ExportKind }>,
});
const ExportFormatEnum = builder.enumType("ExportFormat", {
  values: { CSV: { value: "csv" }, XLSX: { value: "xlsx" } } as const,
});
const ExportStatusEnum = builder.enumType("ExportStatus", {
  description: "QUEUED → RUNNING → COMPLETED (downloadUrl until expiresAt) or FAILED; EXPIRED once the file is deleted.",
  values: Object.fromEntries(EXPORT_STATUSES.map((s) => [upper(s), { value: s }])) as Record<
    string,
    { value: (typeof EXPORT_STATUSES)[number] }
  >,
});

const ExportRef = builder.loadableNodeRef("Export", {
  id: { resolve: (e: ExportRecord) => e.id, parse: nodeUuid },
  load: (ids: string[], ctx) => exportsByIds(ctx.auth, ids),
  sort: (e) => e.id,
  cacheResolved: (e) => e.id,
});

ExportRef.implement({
  description: "An export job of a list to a CSV or XLSX file of the workspace.",
  fields: (t) => ({
    uuid: t.exposeID("id", { description: "The export's UUID (REST's id)." }),
    kind: t.field({ type: ExportKindEnum, resolve: (e) => e.kind }),
    format: t.field({ type: ExportFormatEnum, resolve: (e) => e.format }),
    bom: t.exposeBoolean("bom"),
    filter: t.field({
      type: "JSONObject",
      description: "The list's filter, with the REST query's names, as checked.",
      resolve: (e) => e.filter,
    }),
    status: t.field({ type: ExportStatusEnum, resolve: (e) => e.status }),
    rowsWritten: t.exposeInt("rowsWritten", {
      description: "Rows written so far (updated every EXPORT_PROGRESS_EVERY rows while it runs).",
    }),
    totalRows: t.exposeInt("totalRows", { nullable: true, description: "The rows the list had when the job started (null while queued)." }),
    progress: t.float({
      nullable: true,
      description:
        "0 to 1: rowsWritten / totalRows while running (at most 1), 1 once completed, 0 while queued; null once failed or expired.",
      resolve: (e) => progressOf(e),
    }),
    bytes: t.expose("bytes", { type: "Count", nullable: true }),
    error: t.exposeString("error", { nullable: true }),
    fileName: t.exposeString("fileName", { nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    startedAt: t.expose("startedAt", { type: "DateTime", nullable: true }),
    finishedAt: t.expose("finishedAt", { type: "DateTime", nullable: true }),
    expiresAt: t.expose("expiresAt", { type: "DateTime", nullable: true, description: "When the file is deleted." }),
    downloadUrl: t.string({
      nullable: true,
      description:
        "Once completed: a signed link to the file, valid for EXPORT_URL_TTL_MINUTES (15) and needing no other credential. Ask again for a fresh one.",
      resolve: async (e) => (e.status === "completed" ? (await downloadUrl(e)).url : null),
    }),
  }),
});

const ExportFilterInput = builder.inputType("ExportFilterInput", {
  description:
    "The list's filter, named as the list's GraphQL arguments name it; fields a list does not take are ignored. videos: platform, q, sort " +
    "(VideoSort), order, tagIds. accounts: platform, q, sort (AccountSort), order, tagIds. folderVideos: folderId, sort (FolderVideoSort), order, " +
    "startDate, endDate, includeDescendants, tagIds. folderAccounts: folderId. videoHistory: videoId, startDate, endDate, interval. " +
    "accountHistory: accountId, startDate, endDate, interval. radarResults: searchId. campaignPayouts: campaignId, creatorId (one creator's rows). " +
    "creditLedger, auditLog: none.",
  fields: (t) => ({
    folderId: t.id(),
    videoId: t.id(),
    accountId: t.id(),
    searchId: t.id(),
    campaignId: t.id(),
    creatorId: t.id(),
    platform: t.field({ type: PlatformEnum }),
    q: t.string(),
    sort: t.string({ description: "The list's sort, as its enum value or REST's word (VIEWS or views)." }),
    order: t.field({ type: SortOrderEnum }),
    tagIds: t.idList({ description: "Tags (global IDs or UUIDs): rows carrying any of them." }),
    startDate: t.string({ description: "YYYY-MM-DD" }),
    endDate: t.string({ description: "YYYY-MM-DD" }),
    interval: t.string({ description: "History: DAY or HOUR." }),
    includeDescendants: t.boolean(),
  }),
});

type FilterArg = {
  folderId?: string | number | null;
  videoId?: string | number | null;
  accountId?: string | number | null;
  searchId?: string | number | null;
  campaignId?: string | number | null;
  creatorId?: string | number | null;
  platform?: string | null;
  q?: string | null;
  sort?: string | null;
  order?: string | null;
  tagIds?: (string | number)[] | null;
  startDate?: string | null;
  endDate?: string | null;
  interval?: string | null;
  includeDescendants?: boolean | null;
};

const opt = <T>(v: T | null | undefined) => v ?? undefined;
const lower = (v: string | null | undefined) => (v == null ? undefined : v.toLowerCase());

/** The GraphQL filter onto the list's REST names (the domain schema's), per kind. */
function filterOf(kind: ExportKind, f: FilterArg = {}): Record<string, unknown> {
  const tag = f.tagIds?.length ? f.tagIds.map((id, i) => entityId(id, "Tag", `filter.tagIds.${i}`)) : undefined;
  const days = { start_date: opt(f.startDate), end_date: opt(f.endDate) };
  switch (kind) {
    case "videos":
    case "accounts":
      return { platform: opt(f.platform), q: opt(f.q), sort: lower(f.sort), order: opt(f.order), tag };
    case "folder_videos":
      return {
        folderId: f.folderId == null ? undefined : entityId(f.folderId, "Folder", "filter.folderId"),
        sort: lower(f.sort),
        sort_order: opt(f.order),
        ...days,
        includeDescendants: opt(f.includeDescendants),
        tag,
      };
    case "folder_accounts":
      return { folderId: f.folderId == null ? undefined : entityId(f.folderId, "Folder", "filter.folderId") };
    case "video_history":
      return {
        videoId: f.videoId == null ? undefined : entityId(f.videoId, "Video", "filter.videoId"),
        ...days,
        interval: lower(f.interval),
      };
    case "account_history":
      return {
        accountId: f.accountId == null ? undefined : entityId(f.accountId, "Account", "filter.accountId"),
        ...days,
        interval: lower(f.interval),
      };
    case "radar_results":
      return { searchId: f.searchId == null ? undefined : entityId(f.searchId, "RadarSearch", "filter.searchId") };
    case "campaign_payouts":
      return {
        campaignId: f.campaignId == null ? undefined : entityId(f.campaignId, "Campaign", "filter.campaignId"),
        creator_id: f.creatorId == null ? undefined : entityId(f.creatorId, "Creator", "filter.creatorId"),
      };
    case "credit_ledger":
    case "audit_log":
      return {};
  }
}

builder.queryFields((t) => ({
  exports: t.connection(
    {
      type: ExportRef,
      description: "The workspace's exports, newest first.",
      resolve: (_r, args, ctx) => pagedConnection(args, EXPORTS_ORDER, (window) => listExports(ctx.auth, window)),
    },
    { name: "ExportConnection" },
    { name: "ExportEdge" },
  ),
  export: t.field({
    type: ExportRef,
    description: "One export of the workspace, by its global ID or UUID (NOT_FOUND for another workspace's id).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => getExport(ctx.auth, entityId(args.id, "Export", "id")),
  }),
}));

builder.mutationFields((t) => ({
  startExport: t.field({
    type: ExportRef,
    description:
      "Starts an export of a list with its filter (checked at once: NOT_FOUND, VALIDATION_ERROR, FORBIDDEN for the audit log of a member) and " +
      "queues its job; follow it with exportUpdated, then download from downloadUrl. At most EXPORT_MAX_CONCURRENT (2) exports of a workspace " +
      "are queued or running: EXPORT_LIMIT_REACHED otherwise.",
    args: {
      kind: t.arg({ type: ExportKindEnum, required: true }),
      format: t.arg({ type: ExportFormatEnum, required: true }),
      bom: t.arg.boolean({ description: "CSV: begin with a UTF-8 byte order mark. Default false." }),
      filter: t.arg({ type: ExportFilterInput }),
    },
    resolve: (_r, args, ctx) =>
      startExport(ctx.auth, {
        kind: args.kind,
        format: args.format,
        bom: args.bom ?? undefined,
        filter: filterOf(args.kind, args.filter ?? undefined),
      }),
  }),
}));

builder.subscriptionFields((t) => ({
  exportUpdated: t.field({
    type: ExportRef,
    description:
      "The export's state (status, rowsWritten) now and each time it changes, ending once completed, failed or expired. Only the workspace's own exports.",
    args: { id: t.arg.id({ required: true }) },
    subscribe: (_r, args, ctx) => sharedPerEvent(ctx, watchExport(ctx.auth, entityId(args.id, "Export", "id"))),
    resolve: (e: ExportRecord) => e,
  }),
}));
