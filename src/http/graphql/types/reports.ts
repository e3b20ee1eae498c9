/**
 * GraphQL: folder reports (docs/reports.md), through src/domain/reports/: a folder's
 * read-only share links (owners only: `folderShareLinks`, `createFolderShareLink` answering the URL
 * once, `revokeFolderShareLink`), its report schedules (every member reads them, owners change them)
 * and the reports they produced. The shared page itself reads a separate, narrow entry point
 * (POST /graphql/shared, src/http/shared-report/), not this schema.
 */
import { builder, type GraphQLContext } from "../builder.ts";
import { entityId, nodeUuid, seriesConnection } from "../connections.ts";
import { parseInput } from "../../../domain/shared/inputs.ts";
import { authorize } from "../../../domain/actors/roles.ts";
import { createReportScheduleInput, createShareLinkInput, updateReportScheduleInput } from "../../../domain/reports/inputs.ts";
import { createShareLink, listShareLinks, revokeShareLink, shareLinksByIds, type ShareLink } from "../../../domain/reports/share-links.ts";
import {
  createReportSchedule,
  deleteReportSchedule,
  folderReportsByIds,
  listFolderReports,
  listReportSchedules,
  reportSchedulesByIds,
  scheduleShareUrl,
  updateReportSchedule,
  type FolderReport,
  type ReportSchedule,
  type ReportTopVideo,
} from "../../../domain/reports/schedules.ts";

const ownersOnly = (ctx: GraphQLContext) => authorize(ctx.auth, "reports.manage");

const ShareLinkStatusEnum = builder.enumType("ShareLinkStatus", {
  values: {
    ACTIVE: { value: "active", description: "Its page opens." },
    EXPIRED: { value: "expired", description: "Past its expiry: its page answers 404." },
    REVOKED: { value: "revoked", description: "Revoked: its page answers 404." },
  } as const,
});

const ReportFrequencyEnum = builder.enumType("ReportFrequency", {
  values: {
    WEEKLY: { value: "weekly", description: "The last whole ISO week (Monday to Sunday) before its day." },
    MONTHLY: { value: "monthly", description: "The calendar month before its day." },
  } as const,
});

const FolderShareLinkRef = builder.loadableNodeRef("FolderShareLink", {
  id: { resolve: (l: ShareLink) => l.id, parse: nodeUuid },
  load: (ids: string[], ctx) => {
    ownersOnly(ctx);
    return shareLinksByIds(ctx.auth.workspaceId, ids);
  },
  sort: (l) => l.id,
  cacheResolved: (l) => l.id,
});

FolderShareLinkRef.implement({
  description:
    "A folder's read-only share link (owners only). Its token is never answered again after `createFolderShareLink`; only its SHA-256 is kept.",
  fields: (t) => ({
    uuid: t.exposeID("id", { description: "The link's UUID." }),
    folderUuid: t.exposeID("folderId", { description: "The folder's UUID." }),
    folderName: t.exposeString("folderName"),
    createdBy: t.exposeString("createdByLabel", { description: "Who made it: a person's email, an API key's name, or `report schedule`." }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    expiresAt: t.expose("expiresAt", { type: "DateTime" }),
    revokedAt: t.expose("revokedAt", { type: "DateTime", nullable: true }),
    lastViewedAt: t.expose("lastViewedAt", {
      type: "DateTime",
      nullable: true,
      description: "When its page was last opened (to the minute).",
    }),
    forSchedule: t.exposeBoolean("forSchedule", { description: "A report schedule's own link (its mails carry it)." }),
    status: t.field({ type: ShareLinkStatusEnum, resolve: (l) => l.status }),
  }),
});

const ReportScheduleRef = builder.loadableNodeRef("ReportSchedule", {
  id: { resolve: (s: ReportSchedule) => s.id, parse: nodeUuid },
  load: (ids: string[], ctx) => reportSchedulesByIds(ctx.auth.workspaceId, ids),
  sort: (s) => s.id,
  cacheResolved: (s) => s.id,
});

ReportScheduleRef.implement({
  description:
    "A folder's scheduled report: produced once per period at a local day and hour, listed with the folder and mailed with a link to its shared page.",
  fields: (t) => ({
    uuid: t.exposeID("id", { description: "The schedule's UUID." }),
    folderUuid: t.exposeID("folderId"),
    frequency: t.field({ type: ReportFrequencyEnum, resolve: (s) => s.frequency }),
    weekday: t.exposeInt("weekday", { description: "WEEKLY: the local day, Sunday 0 … Saturday 6." }),
    dayOfMonth: t.exposeInt("dayOfMonth", { description: "MONTHLY: the local day of the month, 1 to 28." }),
    hour: t.exposeInt("hour", { description: "The local hour, 0 to 23." }),
    timeZone: t.exposeString("timeZone", { description: "IANA time zone." }),
    recipients: t.exposeStringList("recipients"),
    attachCsv: t.exposeBoolean("attachCsv", { description: "Attach the folder's videos as CSV." }),
    enabled: t.exposeBoolean("enabled"),
    shareUrl: t.string({
      nullable: true,
      description:
        "The shared page its mails link to: owners only (null for members, before the first report, or once its link was revoked).",
      resolve: (s, _a, ctx) => scheduleShareUrl(ctx.auth, s),
    }),
    createdBy: t.exposeString("createdByLabel"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

const ReportTopVideoRef = builder.objectRef<ReportTopVideo>("ReportTopVideo").implement({
  description: "One of a period's top videos by views gained.",
  fields: (t) => ({
    rank: t.exposeInt("rank"),
    username: t.exposeString("username"),
    description: t.exposeString("description"),
    viewsGained: t.expose("viewsGained", { type: "Count" }),
  }),
});

const FolderReportRef = builder.loadableNodeRef("FolderReport", {
  id: { resolve: (r: FolderReport) => r.id, parse: nodeUuid },
  load: (ids: string[], ctx) => folderReportsByIds(ctx.auth.workspaceId, ids),
  sort: (r) => r.id,
  cacheResolved: (r) => r.id,
});

FolderReportRef.implement({
  description: "A report a schedule produced: the period's numbers, as computed then.",
  fields: (t) => ({
    uuid: t.exposeID("id"),
    scheduleUuid: t.exposeID("scheduleId"),
    schedule: t.field({
      type: ReportScheduleRef,
      nullable: true,
      description: "The schedule that produced it (its shareUrl is the page the report's mail linked to); null once it is gone.",
      resolve: (r) => r.scheduleId,
    }),
    period: t.exposeString("period", { description: "`2026-W47` (ISO week) or `2026-10` (month), of the schedule's time zone." }),
    periodStart: t.exposeString("periodStart", { description: "The first local day, YYYY-MM-DD." }),
    periodEnd: t.exposeString("periodEnd", { description: "The last local day, YYYY-MM-DD." }),
    viewsGained: t.expose("viewsGained", { type: "Count", description: "Views the folder's videos gained in the period (daily history)." }),
    newVideos: t.exposeInt("newVideos", { description: "The folder's videos posted in the period." }),
    totalVideos: t.exposeInt("totalVideos"),
    totalViews: t.expose("totalViews", { type: "Count" }),
    topVideos: t.field({ type: [ReportTopVideoRef], resolve: (r) => r.topVideos }),
    recipients: t.exposeInt("recipients", { description: "How many addresses it was mailed to." }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

const CreatedShareLinkRef = builder.objectRef<{ link: ShareLink; url: string }>("CreatedFolderShareLink").implement({
  description: "A new share link and its page's URL, shown this once.",
  fields: (t) => ({
    link: t.field({ type: FolderShareLinkRef, resolve: (r) => r.link }),
    url: t.exposeString("url", { description: "`<PUBLIC_URL>/r/<token>`: store it now, it is never answered again." }),
  }),
});

const folderArg = (value: string | number) => entityId(value, "Folder", "folderId");

builder.queryFields((t) => ({
  folderShareLinks: t.connection(
    {
      type: FolderShareLinkRef,
      description:
        "The workspace's folder share links (of one folder when `folderId` is given), newest first, active, expired and revoked. Owners only.",
      args: { folderId: t.arg.id({ description: "Only this folder's links." }) },
      resolve: async (_r, args, ctx) =>
        seriesConnection(
          args,
          await listShareLinks(ctx.auth, args.folderId ? folderArg(args.folderId) : undefined),
          (l) => l.sortKey,
          true,
        ),
    },
    { name: "FolderShareLinkConnection" },
    { name: "FolderShareLinkEdge" },
  ),
  reportSchedules: t.connection(
    {
      type: ReportScheduleRef,
      description: "A folder's report schedules, oldest first.",
      args: { folderId: t.arg.id({ required: true }) },
      resolve: async (_r, args, ctx) =>
        seriesConnection(args, await listReportSchedules(ctx.auth, folderArg(args.folderId)), (s) => s.sortKey, false),
    },
    { name: "ReportScheduleConnection" },
    { name: "ReportScheduleEdge" },
  ),
  folderReports: t.connection(
    {
      type: FolderReportRef,
      description: "The reports a folder's schedules produced, newest first (at most 100).",
      args: { folderId: t.arg.id({ required: true }) },
      resolve: async (_r, args, ctx) =>
        seriesConnection(args, await listFolderReports(ctx.auth, folderArg(args.folderId)), (r) => r.sortKey, true),
    },
    { name: "FolderReportConnection" },
    { name: "FolderReportEdge" },
  ),
}));

const ReportFrequencyArg = ReportFrequencyEnum;

builder.mutationFields((t) => ({
  createFolderShareLink: t.field({
    type: CreatedShareLinkRef,
    description:
      "Makes a read-only link to a folder's report page (signed out: the folder's name, analytics, growth, top videos and accounts, nothing else). " +
      "Expires after `expiresInDays` (7, 30 or 90; default 30) or at `expiresAt` (at most a year away). Owners only; audited.",
    args: { folderId: t.arg.id({ required: true }), expiresInDays: t.arg.int(), expiresAt: t.arg({ type: "DateTime" }) },
    resolve: (_r, args, ctx) =>
      createShareLink(
        ctx.auth,
        folderArg(args.folderId),
        parseInput(createShareLinkInput, {
          expiresInDays: args.expiresInDays ?? undefined,
          expiresAt: args.expiresAt ? new Date(args.expiresAt).toISOString() : undefined,
        }),
      ),
  }),
  revokeFolderShareLink: t.field({
    type: FolderShareLinkRef,
    description: "Revokes a share link: its page answers 404 from the next request. Owners only; audited.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => revokeShareLink(ctx.auth, entityId(args.id, "FolderShareLink", "id")),
  }),
  createReportSchedule: t.field({
    type: ReportScheduleRef,
    description: "Schedules a folder's report, weekly or monthly, to 1 to 20 addresses. Owners only; audited.",
    args: {
      folderId: t.arg.id({ required: true }),
      frequency: t.arg({ type: ReportFrequencyArg, required: true }),
      weekday: t.arg.int({ description: "WEEKLY: Sunday 0 … Saturday 6 (default 1, Monday)." }),
      dayOfMonth: t.arg.int({ description: "MONTHLY: 1 to 28 (default 1)." }),
      hour: t.arg.int({ description: "0 to 23 (default 8)." }),
      timeZone: t.arg.string({ description: "IANA time zone (default: the person's, else UTC)." }),
      recipients: t.arg.stringList({ required: true }),
      attachCsv: t.arg.boolean(),
    },
    resolve: (_r, args, ctx) =>
      createReportSchedule(
        ctx.auth,
        folderArg(args.folderId),
        parseInput(createReportScheduleInput, {
          frequency: args.frequency,
          weekday: args.weekday ?? undefined,
          dayOfMonth: args.dayOfMonth ?? undefined,
          hour: args.hour ?? undefined,
          timeZone: args.timeZone ?? undefined,
          recipients: args.recipients,
          attachCsv: args.attachCsv ?? undefined,
        }),
      ),
  }),
  updateReportSchedule: t.field({
    type: ReportScheduleRef,
    description: "Changes, pauses (`enabled: false`) or resumes a schedule; arguments left out stay as they are. Owners only.",
    args: {
      id: t.arg.id({ required: true }),
      frequency: t.arg({ type: ReportFrequencyArg }),
      weekday: t.arg.int(),
      dayOfMonth: t.arg.int(),
      hour: t.arg.int(),
      timeZone: t.arg.string(),
      recipients: t.arg.stringList(),
      attachCsv: t.arg.boolean(),
      enabled: t.arg.boolean(),
    },
    resolve: (_r, args, ctx) =>
      updateReportSchedule(
        ctx.auth,
        entityId(args.id, "ReportSchedule", "id"),
        parseInput(updateReportScheduleInput, {
          frequency: args.frequency ?? undefined,
          weekday: args.weekday ?? undefined,
          dayOfMonth: args.dayOfMonth ?? undefined,
          hour: args.hour ?? undefined,
          timeZone: args.timeZone ?? undefined,
          recipients: args.recipients ?? undefined,
          attachCsv: args.attachCsv ?? undefined,
          enabled: args.enabled ?? undefined,
        }),
      ),
  }),
  deleteReportSchedule: t.id({
    description: "Deletes a schedule with its produced reports (its share link is revoked) and answers its UUID. Owners only; audited.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => deleteReportSchedule(ctx.auth, entityId(args.id, "ReportSchedule", "id")),
  }),
}));
