/**
 * Earnings, exact and explained (docs/campaigns.md). ONE SQL function of the
 * history, `payoutRowsSql`, answers a campaign's rows at one or more cut-off instants ("cuts"), and
 * every read aggregates its rows in the database: the video rows with their evidence, the payees'
 * rows, the totals, the spend over time, the stale videos. A closed campaign answers its frozen rows
 * (`campaign_payout_rows`, written by ./close.ts from the same function), so later scrapes change
 * nothing of it.
 *
 * For each qualifying video (./service.ts) at a cut T (the window's end E for the payouts):
 * - end point: the last history point (video_metric_points, with a view count) at or before T;
 * - start point: 0 views at posting when the video was posted at or after the window's start S;
 *   else the last point at or before S; else (no history before S) the first point after S;
 * - views earned = end views − start views (never below 0; 0 without an end point, or when the end
 *   point is older than the start point);
 * - CPM part = round half-up (views earned × CPM / 1000) = floor((views × CPM + 500) / 1000), then
 *   capped per video; plus the fixed fee;
 * - the per-creator cap applies to the payee's total (fees included), spread over the payee's rows in
 *   posting order (ties by video id): each row is paid what is left of the cap, so the rows before
 *   the cap is reached are paid in full, the row that reaches it the remainder, the later rows 0.
 *   Totals are sums of the rows, always.
 * A payee is the creator of the video's account in the workspace, else the account itself.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { sql, type Tx } from "../../infra/db.ts";
import { pageSql, type CursorWindow, type Order, type Page, type PageRequest } from "../shared/pages.ts";
import type { CampaignRecord } from "./service.ts";

/** One video's row: the evidence (the two history points used) and the payout, money in minor units. */
export interface PayoutRow {
  videoId: string;
  accountId: string | null;
  creatorId: string | null;
  /** The creator's name, else `@username` of the account. */
  payeeName: string;
  platform: string | null;
  url: string;
  username: string;
  postedAt: Date | null;
  /** Start evidence: the point used (`posting`: 0 views at posting), null when none. */
  startAt: Date | null;
  startViews: number | null;
  startSource: string | null;
  endAt: Date | null;
  endViews: number | null;
  endSource: string | null;
  viewsEarned: number;
  /** The CPM part after the per-video cap. */
  cpmAmount: number;
  /** What the per-video cap took off the CPM part. */
  perVideoCapCut: number;
  feeAmount: number;
  amountBeforeCreatorCap: number;
  /** What the per-creator cap took off this row. */
  creatorCapCut: number;
  payout: number;
  lastScrapedAt: Date | null;
}

/** A payee's row (a creator, or an account in the campaign without a creator): sums of its video rows. */
export interface PayeeRow {
  creatorId: string | null;
  accountId: string | null;
  payeeName: string;
  videos: number;
  viewsEarned: number;
  amountBeforeCreatorCap: number;
  creatorCapCut: number;
  payout: number;
}

export interface CampaignTotals {
  videos: number;
  viewsEarned: number;
  payout: number;
  budgetMinor: number | null;
  /** payout / budget × 100, two decimals (null without a budget or with a budget of 0). */
  budgetUsedPercent: number | null;
  remainingMinor: number | null;
  currency: string;
  /** True when the figures are the frozen snapshot of a closed campaign. */
  frozen: boolean;
}

export interface SpendPoint {
  at: Date;
  viewsEarned: number;
  payout: number;
}
export interface PayeeSpendPoint extends SpendPoint {
  creatorId: string | null;
  accountId: string | null;
}

/**
 * The rows of the campaign at each cut (`cuts` selects a column `at`), columns named as PayoutRow
 * plus `cut` and `payeeKey`. Rows of videos not yet posted at a cut before the window's end are left
 * out of that cut (the spend over time grows as videos appear).
 */
/** The most a video's CPM part pays, in minor units (the bound of every money input, docs/campaigns.md). */
export const MAX_VIDEO_CPM_MINOR = 1_000_000_000_000;

export function payoutRowsSql(workspaceId: string, campaignId: string, cuts: Prisma.Sql): Prisma.Sql {
  const cid = Prisma.sql`${campaignId}::uuid`;
  return Prisma.sql`
  WITH c AS (
    SELECT c.id, c.workspace_id, c.starts_local AT TIME ZONE c.time_zone AS s, c.ends_local AT TIME ZONE c.time_zone AS e, c.hashtag, c.tag_id,
           c.cpm_minor, c.cap_per_video_minor, c.cap_per_creator_minor, c.fee_per_video_minor
      FROM campaigns c WHERE c.id = ${cid} AND c.workspace_id = ${workspaceId}::uuid
  ), cuts AS (${cuts}),
  member_accounts AS (
    SELECT ca.account_id FROM campaign_members m JOIN creator_accounts ca ON ca.creator_id = m.creator_id AND ca.workspace_id = ${workspaceId}::uuid
     WHERE m.campaign_id = ${cid}
    UNION
    SELECT m.account_id FROM campaign_members m WHERE m.campaign_id = ${cid} AND m.account_id IS NOT NULL
  ), candidates AS (
    SELECT v.id AS video_id, false AS by_hand FROM c, member_accounts ma JOIN videos v ON v.account_id = ma.account_id
     WHERE v.posted_at >= c.s AND v.posted_at < c.e
    UNION ALL
    SELECT x.video_id, true FROM campaign_videos x WHERE x.campaign_id = ${cid} AND x.mode = 'added'
  ), q AS (
    SELECT v.id AS video_id, v.account_id, v.posted_at, v.platform::text AS platform, v.url, v.username, v.last_scraped_at, ca.creator_id,
           coalesce(cr.name, CASE WHEN a.username IS NOT NULL THEN '@' || a.username ELSE '@' || v.username END) AS payee_name
      FROM (SELECT video_id, bool_or(by_hand) AS by_hand FROM candidates GROUP BY video_id) k
      JOIN videos v ON v.id = k.video_id
      JOIN tracked_videos tv ON tv.video_id = v.id AND tv.workspace_id = ${workspaceId}::uuid
      CROSS JOIN c
      LEFT JOIN creator_accounts ca ON ca.workspace_id = ${workspaceId}::uuid AND ca.account_id = v.account_id
      LEFT JOIN creators cr ON cr.id = ca.creator_id
      LEFT JOIN accounts a ON a.id = v.account_id
     WHERE NOT EXISTS (SELECT 1 FROM campaign_videos x WHERE x.campaign_id = ${cid} AND x.video_id = v.id AND x.mode = 'excluded')
       AND (k.by_hand OR (
             (c.hashtag IS NULL OR EXISTS (SELECT 1 FROM unnest(v.hashtags) h WHERE lower(ltrim(h, '#')) = c.hashtag))
         AND (c.tag_id IS NULL OR EXISTS (SELECT 1 FROM video_tags vt WHERE vt.tracked_video_id = tv.id AND vt.tag_id = c.tag_id))))
  ), qs AS (
    SELECT q.*, sp.captured_at AS start_at, sp.view_count AS start_views, sp.source AS start_source
      FROM q CROSS JOIN c
      LEFT JOIN LATERAL (
        SELECT * FROM (
          SELECT q.posted_at AS captured_at, 0::int8 AS view_count, 'posting'::text AS source, 1 AS pref WHERE q.posted_at >= c.s
          UNION ALL
          (SELECT p.captured_at, p.view_count, p.source, 2 FROM video_metric_points p
            WHERE p.video_id = q.video_id AND p.captured_at <= c.s AND p.view_count IS NOT NULL ORDER BY p.captured_at DESC LIMIT 1)
          UNION ALL
          (SELECT p.captured_at, p.view_count, p.source, 3 FROM video_metric_points p
            WHERE p.video_id = q.video_id AND p.captured_at > c.s AND p.view_count IS NOT NULL ORDER BY p.captured_at LIMIT 1)
        ) o ORDER BY pref LIMIT 1) sp ON true
  ), pts AS (
    SELECT qs.*, cut.at AS cut, ep.captured_at AS end_at, ep.view_count AS end_views, ep.source AS end_source,
           CASE WHEN ep.captured_at IS NULL OR qs.start_at IS NULL OR ep.captured_at < qs.start_at THEN 0
                ELSE greatest(0, ep.view_count - qs.start_views) END::int8 AS views_earned
      FROM qs CROSS JOIN cuts cut CROSS JOIN c
      LEFT JOIN LATERAL (
        SELECT p.captured_at, p.view_count, p.source FROM video_metric_points p
         WHERE p.video_id = qs.video_id AND p.captured_at <= cut.at AND p.view_count IS NOT NULL ORDER BY p.captured_at DESC LIMIT 1) ep ON true
     WHERE cut.at >= c.e OR qs.posted_at IS NULL OR qs.posted_at <= cut.at
  ), ruled AS (
    SELECT pts.*,
           CASE WHEN r.creator_id IS NULL THEN c.cpm_minor ELSE r.cpm_minor END AS cpm,
           CASE WHEN r.creator_id IS NULL THEN c.cap_per_video_minor ELSE r.cap_per_video_minor END AS cap_video,
           CASE WHEN r.creator_id IS NULL THEN c.cap_per_creator_minor ELSE r.cap_per_creator_minor END AS cap_creator,
           coalesce(CASE WHEN r.creator_id IS NULL THEN c.fee_per_video_minor ELSE r.fee_per_video_minor END, 0) AS fee,
           coalesce(pts.creator_id, pts.account_id, pts.video_id) AS payee_key
      FROM pts CROSS JOIN c LEFT JOIN campaign_creator_rules r ON r.campaign_id = ${cid} AND r.creator_id = pts.creator_id
  ), raw AS (
    -- At most MAX_VIDEO_CPM_MINOR (10^12) per video: a CPM and a view count past any real payout stay a number
    -- (not an int8 overflow, a 500), and sums of thousands of rows stay exact in JavaScript.
    SELECT ruled.*, least(coalesce(floor((views_earned::numeric * cpm + 500) / 1000), 0), ${MAX_VIDEO_CPM_MINOR})::int8 AS cpm_raw FROM ruled
  ), amounts AS (
    SELECT raw.*, least(cpm_raw, coalesce(cap_video, cpm_raw)) AS cpm_amount, least(cpm_raw, coalesce(cap_video, cpm_raw)) + fee AS amount FROM raw
  ), capped AS (
    SELECT amounts.*,
           sum(amount) OVER (PARTITION BY cut, payee_key ORDER BY posted_at NULLS LAST, video_id ROWS UNBOUNDED PRECEDING) AS running
      FROM amounts
  )
  SELECT cut, payee_key AS "payeeKey", video_id::text AS "videoId", account_id::text AS "accountId", creator_id::text AS "creatorId",
         payee_name AS "payeeName", platform, url, username, posted_at AS "postedAt",
         start_at AS "startAt", start_views AS "startViews", start_source AS "startSource",
         end_at AS "endAt", end_views AS "endViews", end_source AS "endSource", views_earned AS "viewsEarned",
         cpm_amount AS "cpmAmount", (cpm_raw - cpm_amount)::int8 AS "perVideoCapCut", fee::int8 AS "feeAmount",
         amount::int8 AS "amountBeforeCreatorCap",
         (amount - CASE WHEN cap_creator IS NULL THEN amount ELSE greatest(0, least(amount, cap_creator - (running - amount))) END)::int8 AS "creatorCapCut",
         (CASE WHEN cap_creator IS NULL THEN amount ELSE greatest(0, least(amount, cap_creator - (running - amount))) END)::int8 AS payout,
         last_scraped_at AS "lastScrapedAt"
    FROM capped`;
}

/** The cut at the window's end (the payouts). */
const endCut = Prisma.sql`SELECT e AS at FROM c`;

/** The campaign's rows as a relation: live at the window's end, or the frozen rows of a closed campaign. */
function rowsOf(workspaceId: string, c: Pick<CampaignRecord, "id" | "status">): Prisma.Sql {
  if (c.status === "closed") {
    return Prisma.sql`SELECT r.video_id::text AS "videoId", r.account_id::text AS "accountId", r.creator_id::text AS "creatorId", r.payee_name AS "payeeName",
        r.platform, r.url, r.username, r.posted_at AS "postedAt", r.start_at AS "startAt", r.start_views AS "startViews", r.start_source AS "startSource",
        r.end_at AS "endAt", r.end_views AS "endViews", r.end_source AS "endSource", r.views_earned AS "viewsEarned", r.cpm_amount AS "cpmAmount",
        r.per_video_cap_cut AS "perVideoCapCut", r.fee_amount AS "feeAmount", r.amount_before_creator_cap AS "amountBeforeCreatorCap",
        r.creator_cap_cut AS "creatorCapCut", r.payout, r.last_scraped_at AS "lastScrapedAt"
      FROM campaign_payout_rows r JOIN campaigns c ON c.id = r.campaign_id WHERE c.id = ${c.id}::uuid AND c.workspace_id = ${workspaceId}::uuid`;
  }
  return payoutRowsSql(workspaceId, c.id, endCut);
}

export const PAYOUT_ROW_COLUMNS = [
  "videoId",
  "accountId",
  "creatorId",
  "payeeName",
  "platform",
  "url",
  "username",
  "postedAt",
  "startAt",
  "startViews",
  "startSource",
  "endAt",
  "endViews",
  "endSource",
  "viewsEarned",
  "cpmAmount",
  "perVideoCapCut",
  "feeAmount",
  "amountBeforeCreatorCap",
  "creatorCapCut",
  "payout",
  "lastScrapedAt",
] as const;
const selectColumns = Prisma.raw(PAYOUT_ROW_COLUMNS.map((k) => `r."${k}"`).join(", "));

/** The video rows, highest payout first (then views earned, then video id): the campaign's top videos. */
export const PAYOUT_ROWS_ORDER: Order<PayoutRow> = [
  { sql: `r."payout"`, type: "int8", desc: true, value: (r) => r.payout },
  { sql: `r."viewsEarned"`, type: "int8", desc: true, value: (r) => r.viewsEarned },
  { sql: `r."videoId"`, type: "text", value: (r) => r.videoId },
];

/** A page of the video rows (PAYOUT_ROWS_ORDER), optionally of one creator's videos only, with the total. */
export async function campaignVideoRows(
  workspaceId: string,
  c: Pick<CampaignRecord, "id" | "status">,
  page: PageRequest,
  filter: { creatorId?: string } = {},
): Promise<Page<PayoutRow>> {
  const p = pageSql(PAYOUT_ROWS_ORDER, page);
  const only = filter.creatorId ? Prisma.sql`AND r."creatorId" = lower(${filter.creatorId})` : Prisma.empty;
  const rows = await sql<PayoutRow & { total: number }>(Prisma.sql`
    SELECT ${selectColumns}, r.total FROM (SELECT r.*, count(*) OVER () AS total FROM (${rowsOf(workspaceId, c)}) r WHERE true ${only}) r
     WHERE true ${p.where} ${p.orderBy} ${p.limit}`);
  const total = rows[0]?.total ?? (await countCampaignVideoRows(workspaceId, c, filter));
  return { items: rows.map(({ total: _t, ...r }) => r), total };
}

/** How many video rows the campaign has (optionally one creator's): a page past the end, an export's progress. */
export async function countCampaignVideoRows(
  workspaceId: string,
  c: Pick<CampaignRecord, "id" | "status">,
  filter: { creatorId?: string } = {},
): Promise<number> {
  const only = filter.creatorId ? Prisma.sql`AND r."creatorId" = lower(${filter.creatorId})` : Prisma.empty;
  const [n] = await sql<{ n: number }>(Prisma.sql`SELECT count(*) AS n FROM (${rowsOf(workspaceId, c)}) r WHERE true ${only}`);
  return n!.n;
}

/** The export's order (src/domain/exports/kinds.ts, `campaign_payouts`): by payee, then video id; frozen rows never move. */
export const PAYOUT_EXPORT_ORDER: Order<PayoutRow> = [
  { sql: `r."payeeName"`, type: "text", value: (r) => r.payeeName },
  { sql: `r."videoId"`, type: "text", value: (r) => r.videoId },
];

/** A keyset window of the video rows in PAYOUT_EXPORT_ORDER, optionally one creator's only. */
export async function campaignRowsWindow(
  workspaceId: string,
  c: Pick<CampaignRecord, "id" | "status">,
  window: CursorWindow,
  filter: { creatorId?: string } = {},
): Promise<PayoutRow[]> {
  const p = pageSql(PAYOUT_EXPORT_ORDER, window);
  const only = filter.creatorId ? Prisma.sql`AND r."creatorId" = lower(${filter.creatorId})` : Prisma.empty;
  return sql<PayoutRow>(
    Prisma.sql`SELECT ${selectColumns} FROM (${rowsOf(workspaceId, c)}) r WHERE true ${only} ${p.where} ${p.orderBy} ${p.limit}`,
  );
}

/** Every video row in posting order (the export, the hand-check). */
export async function allCampaignVideoRows(workspaceId: string, c: Pick<CampaignRecord, "id" | "status">): Promise<PayoutRow[]> {
  return sql<PayoutRow>(
    Prisma.sql`SELECT ${selectColumns} FROM (${rowsOf(workspaceId, c)}) r ORDER BY r."payeeName", r."postedAt" NULLS LAST, r."videoId"`,
  );
}

/** The payees' rows, highest payout first, summed in the database. */
export async function campaignPayeeRows(workspaceId: string, c: Pick<CampaignRecord, "id" | "status">): Promise<PayeeRow[]> {
  return sql<PayeeRow>(Prisma.sql`
    SELECT r."creatorId", CASE WHEN r."creatorId" IS NULL THEN r."accountId" END AS "accountId", min(r."payeeName") AS "payeeName",
           count(*)::int8 AS videos, sum(r."viewsEarned")::int8 AS "viewsEarned", sum(r."amountBeforeCreatorCap")::int8 AS "amountBeforeCreatorCap",
           sum(r."creatorCapCut")::int8 AS "creatorCapCut", sum(r.payout)::int8 AS payout
      FROM (${rowsOf(workspaceId, c)}) r
     GROUP BY r."creatorId", CASE WHEN r."creatorId" IS NULL THEN r."accountId" END, CASE WHEN r."creatorId" IS NULL AND r."accountId" IS NULL THEN r."videoId" END
     ORDER BY payout DESC, "viewsEarned" DESC, min(r."payeeName"), min(r."videoId")`);
}

export async function campaignTotals(
  workspaceId: string,
  c: Pick<CampaignRecord, "id" | "status" | "budgetMinor" | "currency">,
): Promise<CampaignTotals> {
  const [t] = await sql<{ videos: number; viewsEarned: number; payout: number }>(Prisma.sql`
    SELECT count(*)::int8 AS videos, coalesce(sum(r."viewsEarned"), 0)::int8 AS "viewsEarned", coalesce(sum(r.payout), 0)::int8 AS payout
      FROM (${rowsOf(workspaceId, c)}) r`);
  return totalsOf(c, t!);
}

export function totalsOf(
  c: Pick<CampaignRecord, "status" | "budgetMinor" | "currency">,
  t: { videos: number; viewsEarned: number; payout: number },
): CampaignTotals {
  const budget = c.budgetMinor;
  return {
    ...t,
    budgetMinor: budget,
    budgetUsedPercent: budget ? Math.round((t.payout * 10000) / budget) / 100 : null,
    remainingMinor: budget === null ? null : budget - t.payout,
    currency: c.currency,
    frozen: c.status === "closed",
  };
}

/**
 * The cuts of the spend over time: the end of each local day of the campaign's zone from its start
 * to its end (the last one is the window's end), up to the day that holds now (a period is at most 366 days).
 */
function dailyCuts(): Prisma.Sql {
  return Prisma.sql`
    SELECT DISTINCT least(x.at, c.e) AS at
      FROM c JOIN campaigns cc ON cc.id = c.id
      CROSS JOIN LATERAL generate_series(date_trunc('day', cc.starts_local), date_trunc('day', cc.ends_local - interval '1 second'), interval '1 day') d
      CROSS JOIN LATERAL (SELECT ((d + interval '1 day') AT TIME ZONE cc.time_zone) AS at) x
     WHERE x.at - interval '1 day' <= now()`;
}

/** Per cut and payee, summed in the database (one statement over every cut). */
export async function spendSeries(workspaceId: string, campaignId: string, tx?: Tx): Promise<PayeeSpendPoint[]> {
  return sql<PayeeSpendPoint>(
    Prisma.sql`
    SELECT r.cut AS at, min(r."creatorId") AS "creatorId", CASE WHEN min(r."creatorId") IS NULL THEN min(r."accountId") END AS "accountId",
           sum(r."viewsEarned")::int8 AS "viewsEarned", sum(r.payout)::int8 AS payout
      FROM (${payoutRowsSql(workspaceId, campaignId, dailyCuts())}) r
     GROUP BY r.cut, r."payeeKey" ORDER BY r.cut, min(r."payeeName")`,
    { tx },
  );
}

/** The spend over time (each cut's totals) and each payee's: live, or frozen at closing. */
export async function campaignSpendOverTime(
  workspaceId: string,
  c: Pick<CampaignRecord, "id" | "status">,
): Promise<{ total: SpendPoint[]; byPayee: PayeeSpendPoint[] }> {
  let byPayee: PayeeSpendPoint[];
  if (c.status === "closed") {
    const [row] = await sql<{ series: PayeeSpendPoint[] | null }>(
      Prisma.sql`SELECT closed_series AS series FROM campaigns WHERE id = ${c.id}::uuid AND workspace_id = ${workspaceId}::uuid`,
    );
    byPayee = (row?.series ?? []).map((p) => ({ ...p, at: new Date(p.at) }));
  } else {
    byPayee = await spendSeries(workspaceId, c.id);
  }
  const total = new Map<number, SpendPoint>();
  for (const p of byPayee) {
    const t = total.get(p.at.getTime()) ?? { at: p.at, viewsEarned: 0, payout: 0 };
    t.viewsEarned += p.viewsEarned;
    t.payout += p.payout;
    total.set(p.at.getTime(), t);
  }
  return { total: [...total.values()].sort((a, b) => a.at.getTime() - b.at.getTime()), byPayee };
}

/** Qualifying videos without a scrape in the last 24 hours (never scraped included), oldest scrape first; none once closed. */
export async function campaignStaleVideos(
  workspaceId: string,
  c: Pick<CampaignRecord, "id" | "status">,
  now = new Date(),
): Promise<PayoutRow[]> {
  if (c.status === "closed") return [];
  return sql<PayoutRow>(Prisma.sql`
    SELECT ${selectColumns} FROM (${rowsOf(workspaceId, c)}) r
     WHERE r."lastScrapedAt" IS NULL OR r."lastScrapedAt" < ${now}::timestamptz - interval '24 hours'
     ORDER BY r."lastScrapedAt" NULLS FIRST, r."videoId" LIMIT 500`);
}
