/**
 * The lists an export can take out, one registry (docs/exports.md): each kind names its filter (the
 * list's own zod schema from its area, so an export takes exactly the filters, sort and tag filter the
 * list takes on every door), its columns (named as the REST record's fields), and how it reads its rows.
 *
 * Every kind reads in KEYSET order (the list's own order from its area, src/domain/shared/pages.ts), in
 * batches of EXPORT_BATCH_SIZE rows, through an async generator: each batch starts strictly after the
 * last row of the one before, so a row is never read twice and a row that existed when the export began
 * is never skipped, whatever scrapes insert or delete meanwhile (inserted rows that sort before the
 * position already read are not in the export; those after it are). One batch is in memory at a time.
 * A sort on a metric that scrapes change (views, likes …) can move a row across the position while the
 * export runs; the default orders (tracked_at, added, time, rank) never move.
 *
 * `open` checks the request (the folder, video, account or search belongs to the workspace, the day
 * range) before any byte is written, so a refusal is a proper `{code, message}` answer.
 */
import { z } from "zod";
import { Prisma } from "../../generated/prisma/client.ts";
import { sql } from "../../infra/db.ts";
import { config } from "../../config.ts";
import { checkDayRange, uuid } from "../shared/inputs.ts";
import { cursorOf, pageSql, type CursorWindow, type Order } from "../shared/pages.ts";
import { notFound } from "../shared/errors.ts";
import { canonicalAccountUrl } from "../shared/platform.ts";
import type { Permission } from "../actors/roles.ts";
import { accountListFilter, historyQuery, videoListFilter } from "../tracking/inputs.ts";
import {
  accountFilterSql,
  postedDaysSql,
  TRACKED_VIDEO_COLUMNS,
  ACCOUNT_COLUMNS,
  TRACKING_COLUMNS,
  trackedAccountsOrder,
  trackedVideosOrder,
  videoFilterSql,
  type TrackedAccountView,
  type TrackedVideoRecord,
} from "../tracking/views.ts";
import { storedRules } from "../tracking/rules.ts";
import {
  accountHistories,
  countAccountHistories,
  countVideoHistories,
  historyOrder,
  historyRange,
  videoHistories,
  type AccountPoint,
  type VideoPoint,
} from "../tracking/history.ts";
import { folderVideosFilter } from "../folders/inputs.ts";
import { accountsOfFolders, countFolderVideos, FOLDER_ACCOUNTS_ORDER, folderVideosOrder, type FolderAccount } from "../folders/contents.ts";
import { requireFolder } from "../folders/service.ts";
import { folderVideoIds } from "../folders/video-set.ts";
import { videoIdTagsSql } from "../tags/filter.ts";
import { getSearchSummary, resultsOfSearches, RESULTS_ORDER, type RadarResultItem } from "../radar/service.ts";
import { countLedger, LEDGER_ORDER, listLedger, type LedgerEntry } from "../credits/service.ts";
import { AUDIT_ORDER, countAudit, listAudit, type AuditRecord } from "../actors/audit.ts";
import type { Column } from "./writers.ts";
import { requireCampaign } from "../campaigns/service.ts";
import { campaignRowsWindow, countCampaignVideoRows, PAYOUT_EXPORT_ORDER, type PayoutRow } from "../campaigns/earnings.ts";

export const EXPORT_KINDS = [
  "videos",
  "accounts",
  "folder_videos",
  "folder_accounts",
  "video_history",
  "account_history",
  "radar_results",
  "credit_ledger",
  "audit_log",
  "campaign_payouts",
] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

/** Batches of rows, in the list's order. */
export type Batches<Row> = AsyncGenerator<Row[], void, undefined>;

export interface KindDefinition<Row, F extends z.ZodType = z.ZodType> {
  /** What the file is called (before `-<date>.<ext>`) and the sheet's name. */
  title: string;
  /** The filter: the list's own schema (the fields of the list's query or arguments), plus the id of the list's owner. */
  filter: F;
  /** An owner-only list (the audit log): the role rule. */
  permission?: Permission;
  columns: readonly Column<Row>[];
  /** Checks the request, then answers the rows' batches. */
  open(workspaceId: string, filter: z.output<F>, batchSize: number): Promise<Batches<Row>>;
  /** How many rows the export will have (as the export starts: an export job's progress). */
  count(workspaceId: string, filter: z.output<F>): Promise<number>;
}

/** Reads a list in keyset windows of `batchSize` rows: each window strictly after the last row of the one before. */
export async function* keysetBatches<Row>(
  order: Order<Row>,
  batchSize: number,
  read: (window: CursorWindow) => Promise<Row[]>,
): Batches<Row> {
  let after: string | undefined;
  for (;;) {
    const rows = await read({ after, limit: batchSize, inverted: false });
    if (rows.length > 0) yield rows;
    if (rows.length < batchSize) return;
    after = cursorOf(order, rows[rows.length - 1]!);
  }
}

// ---------------------------------------------------------------------------------------------
// Columns: the REST records' field names, in their order.

const text = <R>(name: string, value: (r: R) => unknown): Column<R> => ({ name, type: "text", value });
const num = <R>(name: string, value: (r: R) => unknown): Column<R> => ({ name, type: "number", value });
const date = <R>(name: string, value: (r: R) => unknown): Column<R> => ({ name, type: "date", value });
const bool = <R>(name: string, value: (r: R) => unknown): Column<R> => ({ name, type: "boolean", value });

/** GET /videos' TrackedVideo record. */
export const VIDEO_COLUMNS: readonly Column<TrackedVideoRecord>[] = [
  text("id", (v) => v.id),
  text("platformVideoId", (v) => v.platformVideoId),
  text("url", (v) => v.url),
  text("type", (v) => v.platform),
  text("description", (v) => v.description),
  text("hashtags", (v) => v.hashtags),
  num("viewCount", (v) => v.viewCount),
  num("likeCount", (v) => v.likeCount),
  num("commentCount", (v) => v.commentCount),
  num("shareCount", (v) => v.shareCount),
  num("bookmarkCount", (v) => v.bookmarkCount),
  num("engagementRate", (v) => v.engagementRate),
  date("postedAt", (v) => v.postedAt),
  text("thumbnailUrl", (v) => v.thumbnailUrl),
  text("username", (v) => v.username),
  text("displayName", (v) => v.displayName),
  text("canonicalAccountId", (v) => v.accountId),
  text("musicName", (v) => v.musicName),
  text("musicAuthor", (v) => v.musicAuthor),
  text("musicCoverUrl", (v) => v.musicCoverUrl),
  num("durationSeconds", (v) => v.durationSeconds),
  text("scrapeStatus", (v) => v.scrapeStatus),
  text("scrapeError", (v) => v.scrapeError),
  date("lastScrapedAt", (v) => v.lastScrapedAt),
  text("dataSource", (v) => v.dataSource),
  date("nextRefreshAt", (v) => v.nextRefreshAt),
  num("views24h", (v) => v.views24h),
  num("outlierScore", (v) => v.outlierScore),
  text("trackedVideoId", (v) => v.trackedVideoId),
  date("trackedAt", (v) => v.trackedAt),
];

/** GET /accounts' Account record (`rules` as JSON). */
export const ACCOUNT_EXPORT_COLUMNS: readonly Column<TrackedAccountView>[] = [
  text("id", (a) => a.id),
  text("trackedAccountId", (a) => a.trackedAccountId),
  text("type", (a) => a.platform),
  text("username", (a) => a.username),
  text("url", (a) => canonicalAccountUrl(a)),
  text("displayName", (a) => a.displayName),
  text("avatarUrl", (a) => a.avatarUrl),
  num("followerCount", (a) => a.followerCount),
  num("videoCount", (a) => a.videoCount),
  num("totalViews", (a) => a.totalViews),
  num("videoLimit", (a) => a.videoLimit),
  text("scrapeStatus", (a) => a.scrapeStatus),
  text("scrapeError", (a) => a.scrapeError),
  date("lastScrapedAt", (a) => a.lastScrapedAt),
  text("dataSource", (a) => a.dataSource),
  date("createdAt", (a) => a.trackedAt),
  date("nextRefreshAt", (a) => a.nextRefreshAt),
  text("rules", (a) => storedRules(a.rules)),
  date("pausedAt", (a) => a.pausedAt),
];

const FOLDER_ACCOUNT_COLUMNS: readonly Column<FolderAccount>[] = [...ACCOUNT_EXPORT_COLUMNS, date("addedAt", (a) => a.addedAt)];

/** GET /videos/{id}/history's points. */
export const VIDEO_POINT_COLUMNS: readonly Column<VideoPoint>[] = [
  date("capturedAt", (p) => p.capturedAt),
  num("viewCount", (p) => p.viewCount),
  num("likeCount", (p) => p.likeCount),
  num("commentCount", (p) => p.commentCount),
  num("shareCount", (p) => p.shareCount),
  num("bookmarkCount", (p) => p.bookmarkCount),
  text("source", (p) => p.source),
];

/** GET /accounts/{id}/history's points. */
export const ACCOUNT_POINT_COLUMNS: readonly Column<AccountPoint>[] = [
  date("capturedAt", (p) => p.capturedAt),
  num("followerCount", (p) => p.followerCount),
  num("totalViews", (p) => p.totalViews),
  num("videoCount", (p) => p.videoCount),
  text("source", (p) => p.source),
];

/** GET /radar/search/{id}'s results (with their rank). */
export const RADAR_RESULT_COLUMNS: readonly Column<RadarResultItem>[] = [
  num("rank", (r) => r.rank),
  text("videoId", (r) => r.videoId),
  text("url", (r) => r.url),
  text("type", (r) => r.type),
  text("platformVideoId", (r) => r.platformVideoId),
  text("description", (r) => r.description),
  text("username", (r) => r.username),
  num("viewCount", (r) => r.viewCount),
  num("likeCount", (r) => r.likeCount),
  num("commentCount", (r) => r.commentCount),
  num("shareCount", (r) => r.shareCount),
  num("engagementRate", (r) => r.engagementRate),
  date("postedAt", (r) => r.postedAt),
  text("thumbnailUrl", (r) => r.thumbnailUrl),
  num("score", (r) => r.score),
  text("matchedQuery", (r) => r.matchedQuery),
  bool("tracked", (r) => r.tracked),
];

/** GET /credits' ledger entries. */
export const LEDGER_COLUMNS: readonly Column<LedgerEntry>[] = [
  text("id", (e) => e.id),
  text("kind", (e) => e.kind),
  num("amount", (e) => e.amount),
  num("balanceAfter", (e) => e.balanceAfter),
  text("reason", (e) => e.reason),
  date("createdAt", (e) => e.createdAt),
];

/** GET /settings/audit-log's entries (`actor` flattened into three columns, `details` as JSON). */
export const AUDIT_COLUMNS: readonly Column<AuditRecord>[] = [
  text("id", (a) => a.id),
  date("at", (a) => a.at),
  text("action", (a) => a.action),
  text("actor.kind", (a) => a.actorKind),
  text("actor.id", (a) => a.actorId),
  text("actor.label", (a) => a.actorLabel),
  text("target", (a) => a.target),
  text("ipAddress", (a) => a.ipAddress),
  text("details", (a) => a.details),
];

/**
 * GET /campaigns/{id}/payouts/videos' rows for finance (issue 35): the evidence flattened (`start.at` …),
 * money in integer minor units of `currency`, one row per video, by payee (docs/campaigns.md).
 */
export const CAMPAIGN_PAYOUT_COLUMNS: readonly Column<PayoutRow & { currency: string }>[] = [
  text("payeeName", (r) => r.payeeName),
  text("creatorId", (r) => r.creatorId),
  text("accountId", (r) => r.accountId),
  text("videoId", (r) => r.videoId),
  text("platform", (r) => r.platform),
  text("url", (r) => r.url),
  text("username", (r) => r.username),
  date("postedAt", (r) => r.postedAt),
  date("start.at", (r) => r.startAt),
  num("start.views", (r) => r.startViews),
  text("start.source", (r) => r.startSource),
  bool("start.simulated", (r) => r.startSource === "simulated"),
  date("end.at", (r) => r.endAt),
  num("end.views", (r) => r.endViews),
  text("end.source", (r) => r.endSource),
  bool("end.simulated", (r) => r.endSource === "simulated"),
  num("viewsEarned", (r) => r.viewsEarned),
  num("cpmAmount", (r) => r.cpmAmount),
  num("perVideoCapCut", (r) => r.perVideoCapCut),
  num("feeAmount", (r) => r.feeAmount),
  num("amountBeforeCreatorCap", (r) => r.amountBeforeCreatorCap),
  num("creatorCapCut", (r) => r.creatorCapCut),
  num("payout", (r) => r.payout),
  text("currency", (r) => r.currency),
];

// ---------------------------------------------------------------------------------------------
// The filters: each list's own schema.

const folderId = uuid.meta({ description: "The folder." });
const filters = {
  videos: videoListFilter,
  accounts: accountListFilter,
  folder_videos: folderVideosFilter.extend({ folderId }),
  folder_accounts: z.object({ folderId }),
  video_history: historyQuery.extend({ videoId: uuid.meta({ description: "The tracked video." }) }),
  account_history: historyQuery.extend({ accountId: uuid.meta({ description: "The tracked account (canonical account id)." }) }),
  radar_results: z.object({ searchId: uuid.meta({ description: "The radar search." }) }),
  credit_ledger: z.object({}),
  audit_log: z.object({}),
  campaign_payouts: z.object({
    campaignId: uuid.meta({ description: "The campaign." }),
    creator_id: uuid.optional().meta({ description: "Only this creator's videos." }),
  }),
};
export type ExportFilter<K extends ExportKind> = z.output<(typeof filters)[K]>;

const tagsAnd = (sqlOrNull: Prisma.Sql | null) => (sqlOrNull ? Prisma.sql`AND ${sqlOrNull}` : Prisma.empty);

function define<Row, F extends z.ZodType>(k: KindDefinition<Row, F>): KindDefinition<Row, F> {
  return k;
}

export const KINDS = {
  videos: define({
    title: "videos",
    filter: filters.videos,
    columns: VIDEO_COLUMNS,
    async count(workspaceId, f) {
      const [row] = await sql<{ n: number }>(Prisma.sql`
        SELECT count(*)::int AS n FROM tracked_videos tv JOIN videos v ON v.id = tv.video_id WHERE tv.workspace_id = ${workspaceId}::uuid ${videoFilterSql(f)}`);
      return row!.n;
    },
    async open(workspaceId, f, batchSize) {
      const order = trackedVideosOrder(f.sort, f.order);
      const filter = videoFilterSql(f);
      return keysetBatches(order, batchSize, (w) => {
        const p = pageSql(order, w);
        return sql<TrackedVideoRecord>(Prisma.sql`
          SELECT ${TRACKED_VIDEO_COLUMNS} FROM tracked_videos tv JOIN videos v ON v.id = tv.video_id
           WHERE tv.workspace_id = ${workspaceId}::uuid ${filter} ${p.where} ${p.orderBy} ${p.limit}`);
      });
    },
  }),
  accounts: define({
    title: "accounts",
    filter: filters.accounts,
    columns: ACCOUNT_EXPORT_COLUMNS,
    async count(workspaceId, f) {
      const [row] = await sql<{ n: number }>(Prisma.sql`
        SELECT count(*)::int AS n FROM tracked_accounts ta JOIN accounts a ON a.id = ta.account_id WHERE ta.workspace_id = ${workspaceId}::uuid ${accountFilterSql(f)}`);
      return row!.n;
    },
    async open(workspaceId, f, batchSize) {
      const order = trackedAccountsOrder(f.sort, f.order);
      const filter = accountFilterSql(f);
      return keysetBatches(order, batchSize, (w) => {
        const p = pageSql(order, w);
        return sql<TrackedAccountView>(Prisma.sql`
          SELECT ${ACCOUNT_COLUMNS}, ${TRACKING_COLUMNS} FROM tracked_accounts ta JOIN accounts a ON a.id = ta.account_id
           WHERE ta.workspace_id = ${workspaceId}::uuid ${filter} ${p.where} ${p.orderBy} ${p.limit}`);
      });
    },
  }),
  folder_videos: define({
    title: "folder-videos",
    filter: filters.folder_videos,
    columns: VIDEO_COLUMNS,
    count: (workspaceId, f) => countFolderVideos(workspaceId, f.folderId, f),
    async open(workspaceId, f, batchSize) {
      checkDayRange(f.start_date, f.end_date);
      await requireFolder(workspaceId, f.folderId);
      const order = folderVideosOrder(f.sort, f.sort_order);
      const where = Prisma.sql`${postedDaysSql(f)} ${tagsAnd(videoIdTagsSql(workspaceId, f.tag))}`;
      return keysetBatches(order, batchSize, (w) => {
        const p = pageSql(order, w);
        return sql<TrackedVideoRecord>(Prisma.sql`
          SELECT ${TRACKED_VIDEO_COLUMNS}
            FROM (${folderVideoIds(f.folderId, f.includeDescendants)}) s JOIN videos v ON v.id = s.video_id
            JOIN tracked_videos tv ON tv.video_id = v.id AND tv.workspace_id = ${workspaceId}::uuid
           WHERE true ${where} ${p.where} ${p.orderBy} ${p.limit}`);
      });
    },
  }),
  folder_accounts: define({
    title: "folder-accounts",
    filter: filters.folder_accounts,
    columns: FOLDER_ACCOUNT_COLUMNS,
    async count(_workspaceId, f) {
      const [row] = await sql<{ n: number }>(
        Prisma.sql`SELECT count(*)::int AS n FROM folder_accounts WHERE folder_id = ${f.folderId}::uuid`,
      );
      return row!.n;
    },
    async open(workspaceId, f, batchSize) {
      await requireFolder(workspaceId, f.folderId);
      return keysetBatches(
        FOLDER_ACCOUNTS_ORDER,
        batchSize,
        async (w) => (await accountsOfFolders(workspaceId, [f.folderId], w)).get(f.folderId) ?? [],
      );
    },
  }),
  video_history: define({
    title: "video-history",
    filter: filters.video_history,
    columns: VIDEO_POINT_COLUMNS,
    count: async (workspaceId, f) => (await countVideoHistories(workspaceId, [f.videoId], historyRange(f))).get(f.videoId) ?? 0,
    async open(workspaceId, f, batchSize) {
      const range = historyRange(f);
      const read = async (w: CursorWindow) => (await videoHistories(workspaceId, [f.videoId], range, w)).get(f.videoId) ?? null;
      if ((await read({ limit: 1, inverted: false })) === null) throw notFound("Video");
      return keysetBatches(historyOrder<VideoPoint>(), batchSize, async (w) => (await read(w)) ?? []);
    },
  }),
  account_history: define({
    title: "account-history",
    filter: filters.account_history,
    columns: ACCOUNT_POINT_COLUMNS,
    count: async (workspaceId, f) => (await countAccountHistories(workspaceId, [f.accountId], historyRange(f))).get(f.accountId) ?? 0,
    async open(workspaceId, f, batchSize) {
      const range = historyRange(f);
      const read = async (w: CursorWindow) => (await accountHistories(workspaceId, [f.accountId], range, w)).get(f.accountId) ?? null;
      if ((await read({ limit: 1, inverted: false })) === null) throw notFound("Account");
      return keysetBatches(historyOrder<AccountPoint>(), batchSize, async (w) => (await read(w)) ?? []);
    },
  }),
  radar_results: define({
    title: "radar-results",
    filter: filters.radar_results,
    columns: RADAR_RESULT_COLUMNS,
    count: async (workspaceId, f) => (await getSearchSummary(workspaceId, f.searchId)).resultCount,
    async open(workspaceId, f, batchSize) {
      await getSearchSummary(workspaceId, f.searchId);
      return keysetBatches(
        RESULTS_ORDER,
        batchSize,
        async (w) => (await resultsOfSearches(workspaceId, [f.searchId], w)).get(f.searchId) ?? [],
      );
    },
  }),
  credit_ledger: define({
    title: "credit-ledger",
    filter: filters.credit_ledger,
    columns: LEDGER_COLUMNS,
    count: (workspaceId) => countLedger(workspaceId),
    async open(workspaceId, _f, batchSize) {
      return keysetBatches(LEDGER_ORDER, batchSize, (w) => listLedger(workspaceId, w));
    },
  }),
  audit_log: define({
    title: "audit-log",
    filter: filters.audit_log,
    permission: "auditLog.read",
    columns: AUDIT_COLUMNS,
    count: (workspaceId) => countAudit(workspaceId),
    async open(workspaceId, _f, batchSize) {
      return keysetBatches(AUDIT_ORDER, batchSize, (w) => listAudit(workspaceId, w));
    },
  }),
  campaign_payouts: define({
    title: "campaign-payouts",
    filter: filters.campaign_payouts,
    columns: CAMPAIGN_PAYOUT_COLUMNS,
    count: async (workspaceId, f) =>
      countCampaignVideoRows(workspaceId, await requireCampaign(workspaceId, f.campaignId), { creatorId: f.creator_id }),
    async open(workspaceId, f, batchSize) {
      const c = await requireCampaign(workspaceId, f.campaignId);
      return keysetBatches(PAYOUT_EXPORT_ORDER, batchSize, async (w) =>
        (await campaignRowsWindow(workspaceId, c, w, { creatorId: f.creator_id })).map((r) => ({ ...r, currency: c.currency })),
      );
    },
  }),
} satisfies { [K in ExportKind]: KindDefinition<never, (typeof filters)[K]> | KindDefinition<any, (typeof filters)[K]> };

/** The kind's definition (the registry's one lookup). */
export function kindOf(kind: ExportKind): KindDefinition<unknown> {
  return KINDS[kind] as unknown as KindDefinition<unknown>;
}

/** The rows per keyset batch (EXPORT_BATCH_SIZE). */
export const batchSize = () => config.exports.batchSize;
