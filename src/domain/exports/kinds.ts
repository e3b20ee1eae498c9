/**
 * The lists an export can take out, one registry (docs/exports.md): each kind names its filter (the
 * list's own zod schema from its area, so an export takes exactly the filters, sort and tag filter the
 * list takes on every door), its file's columns (the record the list's doors answer with: ./columns.ts),
 * and how it reads its rows.
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
import { int, iso, timestamp } from "../shared/records.ts";
import type { Permission } from "../actors/roles.ts";
import { canonicalAccountUrl } from "../shared/platform.ts";
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
import {
  accountItem,
  accountPointSchema,
  accountSchema,
  trackedVideoItem,
  trackedVideoSchema,
  videoPointSchema,
} from "../tracking/records.ts";
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
import { resultItem, toResult } from "../radar/records.ts";
import { countLedger, LEDGER_ORDER, listLedger } from "../credits/service.ts";
import { ledgerEntry, ledgerEntryItem } from "../credits/records.ts";
import { AUDIT_ORDER, countAudit, listAudit } from "../actors/audit.ts";
import { auditEntry, toAuditEntry } from "../actors/records.ts";
import { recordColumns, type RecordColumns } from "./columns.ts";
import { requireCampaign } from "../campaigns/service.ts";
import { campaignRowsWindow, countCampaignVideoRows, PAYOUT_EXPORT_ORDER, type PayoutRow } from "../campaigns/earnings.ts";
import { payoutRowItem, payoutRowSchema } from "../campaigns/records.ts";

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
  /** The file's columns: the list's record (./columns.ts). */
  file: RecordColumns<Row>;
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
// Files: each list's rows as the record its doors answer with (src/domain/<area>/records.ts), and
// what only a file adds to it.

const folderAccountSchema = accountSchema.extend({ addedAt: timestamp.meta({ description: "When the account was put in the folder." }) });
const rankedResultSchema = z.object({ rank: int().meta({ description: "The result's place, best first." }) }).extend(resultItem.shape);
/** Finance's file: by payee first, without the last scrape's time, with the currency its money is in. */
const { videoId, accountId, creatorId, payeeName, lastScrapedAt: _lastScrapedAt, ...payout } = payoutRowSchema.shape;
const payoutFileSchema = z.object({ payeeName, creatorId, accountId, videoId, ...payout, currency: z.string() });

const FILES = {
  videos: recordColumns(trackedVideoSchema, trackedVideoItem),
  accounts: recordColumns(accountSchema, accountItem),
  folderAccounts: recordColumns(folderAccountSchema, (a: FolderAccount) => ({ ...accountItem(a), addedAt: iso(a.addedAt) })),
  // The domain's points are the REST items (src/domain/tracking/history.ts).
  videoPoints: recordColumns(videoPointSchema, (p: VideoPoint) => p),
  accountPoints: recordColumns(accountPointSchema, (p: AccountPoint) => p),
  radarResults: recordColumns(rankedResultSchema, (r: RadarResultItem) => ({ rank: r.rank, ...toResult(r) })),
  ledger: recordColumns(ledgerEntry, ledgerEntryItem),
  audit: recordColumns(auditEntry, toAuditEntry, { flatten: ["actor"] }),
  payouts: recordColumns(payoutFileSchema, (r: PayoutRow & { currency: string }) => ({ ...payoutRowItem(r), currency: r.currency }), {
    flatten: ["start", "end"],
  }),
};

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
    file: FILES.videos,
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
    file: FILES.accounts,
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
    file: FILES.videos,
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
    file: FILES.folderAccounts,
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
    file: FILES.videoPoints,
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
    file: FILES.accountPoints,
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
    file: FILES.radarResults,
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
    file: FILES.ledger,
    count: (workspaceId) => countLedger(workspaceId),
    async open(workspaceId, _f, batchSize) {
      return keysetBatches(LEDGER_ORDER, batchSize, (w) => listLedger(workspaceId, w));
    },
  }),
  audit_log: define({
    title: "audit-log",
    filter: filters.audit_log,
    permission: "auditLog.read",
    file: FILES.audit,
    count: (workspaceId) => countAudit(workspaceId),
    async open(workspaceId, _f, batchSize) {
      return keysetBatches(AUDIT_ORDER, batchSize, (w) => listAudit(workspaceId, w));
    },
  }),
  campaign_payouts: define({
    title: "campaign-payouts",
    filter: filters.campaign_payouts,
    file: FILES.payouts,
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
