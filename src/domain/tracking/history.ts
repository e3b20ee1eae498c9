/**
 * Metric history of videos and accounts (GET /videos/{id}/history, GET /accounts/{id}/history,
 * GraphQL `Video.history`, `Account.history`): docs/contract/decisions.md, "Metric history and
 * refresh".
 *
 * Where the points come from (./scrape-store.ts writes both in one statement per scrape):
 * - the points at scrape resolution (video_metric_points, account_metric_points), kept for the
 *   days of the full-resolution window: today and the HISTORY_FULL_RESOLUTION_DAYS - 1 days before;
 * - the daily roll-up (video_snapshots, account_snapshots): the last point of each UTC day, kept for
 *   good. A row whose capture falls on another day (the daily account fill copies the latest
 *   numbers into days without a scrape) is not a point and is never returned.
 *
 * `interval=hour`: every point at scrape resolution inside the window, and each day's last point
 * before it. `interval=day`: the last point of each UTC day. Both oldest first; `capturedAt` is
 * always the point's real capture time. The range is inclusive UTC days (default: the last 30 days,
 * today included); `start_date` after `end_date` is 400 VALIDATION_ERROR, and so is a range longer than
 * MAX_HISTORY_DAYS (366 days with `interval=hour`, 3653 days, ten years, with `interval=day`).
 *
 * Reads are one statement: the tenancy check (the workspace tracks the item, else 404) and the
 * points, through the primary key (item, captured_at) of the points and the unique (item, day) key
 * of the daily rows.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { sql } from "../../infra/db.ts";
import { notFound, validationError } from "../shared/errors.ts";
import { checkDayRange, DAY_MS } from "../shared/inputs.ts";
import { utcDay } from "./scrape-store.ts";
import { pageSql, type CursorWindow, type Order } from "../shared/pages.ts";
import { config } from "../../config.ts";
import type { HistoryInterval } from "./views.ts";
import type { HistoryQuery } from "./inputs.ts";

/** Days in the default range (today and the 29 before it). */
const DEFAULT_HISTORY_DAYS = 30;

/**
 * The most days one history request spans, per interval (a bounded answer on every door): a year and
 * a day of points at scrape resolution, ten years (with their leap days) of daily points.
 */
export const MAX_HISTORY_DAYS: Record<HistoryInterval, number> = { hour: 366, day: 3653 };

/**
 * When a point was measured: ISO 8601 UTC with milliseconds, as PostgreSQL writes it (`to_char`):
 * a history is hundreds of points, and parsing each into a Date only to print it back was most of
 * a request's CPU (bench/history.ts).
 */
export type PointTime = string;

export interface VideoPoint {
  capturedAt: PointTime;
  viewCount: number | null;
  likeCount: number | null;
  commentCount: number | null;
  shareCount: number | null;
  bookmarkCount: number | null;
  /** The provider that measured it (`ytdlp`, `simulated`). */
  source: string;
}

export interface AccountPoint {
  capturedAt: PointTime;
  followerCount: number | null;
  totalViews: number | null;
  videoCount: number | null;
  source: string;
}

/** 00:00 UTC of the first day kept at scrape resolution: today and the `days - 1` days before it. */
export function fullResolutionStart(now: Date, days = config.history.fullResolutionDays): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS);
}

/** A resolved range: [from, to) in time, and where full resolution starts. */
export interface HistoryRange {
  interval: HistoryInterval;
  /** 00:00 UTC of the first day. */
  from: Date;
  /** 00:00 UTC of the day after the last. */
  to: Date;
  /** 00:00 UTC of the first day kept at scrape resolution. */
  fullFrom: Date;
}

/**
 * The range of a history request (./inputs.ts historyQuery, as every door parses it): both days
 * inclusive (UTC); a missing end is today, a missing start the 29 days before the end (30 days in all).
 * At most MAX_HISTORY_DAYS days (else 400 VALIDATION_ERROR naming the cap).
 */
export function historyRange(q: Partial<HistoryQuery>, now = new Date()): HistoryRange {
  checkDayRange(q.start_date, q.end_date);
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const last = q.end_date ?? (q.start_date && q.start_date > today ? q.start_date : today);
  const first = q.start_date ?? new Date(last.getTime() - (DEFAULT_HISTORY_DAYS - 1) * DAY_MS);
  const interval = q.interval ?? "day";
  const days = Math.round((last.getTime() - first.getTime()) / DAY_MS) + 1;
  if (days > MAX_HISTORY_DAYS[interval]) {
    const cap = MAX_HISTORY_DAYS[interval];
    throw validationError(
      `A history range with interval=${interval} spans at most ${cap} days; this one spans ${days} (start_date to end_date, inclusive). ` +
        (interval === "hour" ? "Narrow the range or ask for interval=day." : "Narrow the range."),
      [{ path: "start_date", message: `at most ${cap} days before end_date with interval=${interval}` }],
    );
  }
  return { interval, from: first, to: new Date(last.getTime() + DAY_MS), fullFrom: fullResolutionStart(now) };
}

/** Oldest first: a point's capture time is unique within its item's history (the cursor of a page). */
export const historyOrder = <P extends { capturedAt: PointTime }>(): Order<P> => [
  { sql: "h.captured_at", type: "timestamptz", value: (p) => p.capturedAt },
];

interface HistoryTables {
  points: string;
  daily: string;
  /** Which workspace tracks which item: the tenancy of every read. */
  tracked: string;
  key: string;
  /** Metric columns, as `col AS "alias"` from the row alias `x`. */
  metrics: string;
}

const VIDEO_TABLES: HistoryTables = {
  points: "video_metric_points",
  daily: "video_snapshots",
  tracked: "tracked_videos",
  key: "video_id",
  metrics: `x.view_count AS "viewCount", x.like_count AS "likeCount", x.comment_count AS "commentCount",
    x.share_count AS "shareCount", x.bookmark_count AS "bookmarkCount"`,
};
const ACCOUNT_TABLES: HistoryTables = {
  points: "account_metric_points",
  daily: "account_snapshots",
  tracked: "tracked_accounts",
  key: "account_id",
  metrics: `x.follower_count AS "followerCount", x.total_views AS "totalViews", x.video_count AS "videoCount"`,
};

/** The ids among `ids` the workspace tracks, as an SQL array (evaluated once per statement). */
const trackedIdsSql = (t: HistoryTables, workspaceId: string, ids: readonly string[]) =>
  Prisma.sql`ARRAY(SELECT tt.${Prisma.raw(t.key)} FROM ${Prisma.raw(t.tracked)} tt
                    WHERE tt.workspace_id = ${workspaceId}::uuid AND tt.${Prisma.raw(t.key)} = ANY(${ids as string[]}::uuid[]))`;

/**
 * The history rows of the items `ids` (an SQL uuid array) in the range, as `h` (item id, captured_at,
 * metrics, source): the daily rows before full resolution (every day for `day`), then the points (for `hour`).
 */
function historyFrom(t: HistoryTables, ids: Prisma.Sql, r: HistoryRange): Prisma.Sql {
  const dailyTo = r.interval === "hour" ? new Date(Math.min(r.to.getTime(), r.fullFrom.getTime())) : r.to;
  const pointsFrom = new Date(Math.max(r.from.getTime(), r.fullFrom.getTime()));
  const key = Prisma.raw(t.key);
  const metrics = Prisma.raw(t.metrics);
  const daily = Prisma.sql`
    SELECT x.${key} AS "itemId", x.captured_at, ${metrics}, x.source
      FROM ${Prisma.raw(t.daily)} x
     WHERE x.${key} = ANY(${ids}) AND x.day >= ${utcDay(r.from)}::date AND x.day < ${utcDay(dailyTo)}::date
       AND (x.captured_at AT TIME ZONE 'UTC')::date = x.day`;
  if (r.interval === "day" || pointsFrom >= r.to) return Prisma.sql`(${daily}) h`;
  return Prisma.sql`(${daily}
    UNION ALL
    SELECT x.${key}, x.captured_at, ${metrics}, x.source
      FROM ${Prisma.raw(t.points)} x
     WHERE x.${key} = ANY(${ids}) AND x.captured_at >= ${pointsFrom}::timestamptz AND x.captured_at < ${r.to}::timestamptz) h`;
}

/** A point's columns from `h`, named and ordered as the records (and REST) write them; with the item's id first for batches. */
const POINT_COLUMNS = (t: HistoryTables, withItem: boolean) =>
  Prisma.raw(
    `${withItem ? `h."itemId", ` : ""}to_char(h.captured_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "capturedAt", ` +
      `${t.metrics.replace(/x\.(\w+) AS ("\w+")/g, "h.$2")}, h.source`,
  );

/** The same columns, all null: a row that is not a point (whether the workspace tracks the item, below). */
const NOT_TRACKED_ROW = (t: HistoryTables) =>
  Prisma.raw(`NULL::text AS "capturedAt", ${t.metrics.replace(/x\.(\w+) AS ("\w+")/g, "NULL::int8 AS $2")}, NULL::text AS source`);

/**
 * One tracked item's whole history in the range; NOT_FOUND unless the workspace tracks it. One
 * statement whose rows are the points themselves (no per-row copy on the way out: a history is
 * hundreds of points); when the item is not tracked it answers a single all-null row instead (a
 * point always has its capture time).
 */
async function trackedHistory<P>(t: HistoryTables, tracked: Prisma.Sql, what: string, id: string, r: HistoryRange): Promise<P[]> {
  const rows = await sql<P & { capturedAt: PointTime | null }>(
    Prisma.sql`SELECT ${NOT_TRACKED_ROW(t)} WHERE NOT EXISTS (${tracked})
      UNION ALL
      (SELECT ${POINT_COLUMNS(t, false)} FROM ${historyFrom(t, Prisma.sql`ARRAY[${id}::uuid]`, r)} WHERE EXISTS (${tracked}) ORDER BY h.captured_at)`,
    { prepare: true },
  );
  if (rows.length === 1 && rows[0]!.capturedAt === null) throw notFound(what);
  return rows as P[];
}

/** A video's history (the workspace must track it). */
export async function videoHistory(
  workspaceId: string,
  videoId: string,
  r: HistoryRange,
): Promise<{ interval: HistoryInterval; points: VideoPoint[] }> {
  const tracked = Prisma.sql`SELECT 1 FROM tracked_videos WHERE workspace_id = ${workspaceId}::uuid AND video_id = ${videoId}::uuid`;
  return { interval: r.interval, points: await trackedHistory<VideoPoint>(VIDEO_TABLES, tracked, "Video", videoId, r) };
}

/** An account's history (the workspace must track it: an owner account it does not track is NOT_FOUND). */
export async function accountHistory(
  workspaceId: string,
  accountId: string,
  r: HistoryRange,
): Promise<{ interval: HistoryInterval; points: AccountPoint[] }> {
  const tracked = Prisma.sql`SELECT 1 FROM tracked_accounts WHERE workspace_id = ${workspaceId}::uuid AND account_id = ${accountId}::uuid`;
  return { interval: r.interval, points: await trackedHistory<AccountPoint>(ACCOUNT_TABLES, tracked, "Account", accountId, r) };
}

/**
 * A keyset window of the histories of several items in one statement (GraphQL connections over a
 * page of videos or accounts), for the workspace: an item it does not track (an account that only
 * owns a video it tracks) answers null, here rather than in each door.
 */
async function windowOfHistories<P extends { capturedAt: PointTime }>(
  t: HistoryTables,
  workspaceId: string,
  ids: readonly string[],
  r: HistoryRange,
  window: CursorWindow,
): Promise<Map<string, P[] | null>> {
  const out = new Map<string, P[] | null>(ids.map((id) => [id, null]));
  if (ids.length === 0) return out;
  const p = pageSql(historyOrder<P>(), window);
  const key = Prisma.raw(t.key);
  // One statement: the window of each tracked item's points, and a marker row (n = 0) per tracked item.
  const rows = await sql<P & { itemId: string; n: number }>(Prisma.sql`
    SELECT * FROM (
      SELECT ${POINT_COLUMNS(t, true)}, row_number() OVER (PARTITION BY h."itemId" ${p.orderBy}) AS n
        FROM ${historyFrom(t, trackedIdsSql(t, workspaceId, ids), r)} WHERE true ${p.where}
    ) y WHERE n <= ${window.limit}::int
    UNION ALL
    SELECT tt.${key}, ${NOT_TRACKED_ROW(t)}, 0::bigint FROM ${Prisma.raw(t.tracked)} tt
     WHERE tt.workspace_id = ${workspaceId}::uuid AND tt.${key} = ANY(${ids as string[]}::uuid[])
    ORDER BY "itemId", n`);
  for (const { itemId, n, ...point } of rows) {
    const points = out.get(itemId) ?? [];
    out.set(itemId, points);
    if (n > 0) points.push(point as unknown as P);
  }
  return out;
}

/** How many points each item the workspace tracks has in the range (a connection's totalCount). */
async function countHistories(
  t: HistoryTables,
  workspaceId: string,
  ids: readonly string[],
  r: HistoryRange,
): Promise<Map<string, number>> {
  const out = new Map<string, number>(ids.map((id) => [id, 0]));
  if (ids.length === 0) return out;
  const rows = await sql<{ itemId: string; n: number }>(
    Prisma.sql`SELECT h."itemId", count(*)::int AS n FROM ${historyFrom(t, trackedIdsSql(t, workspaceId, ids), r)} GROUP BY h."itemId"`,
  );
  for (const row of rows) out.set(row.itemId, row.n);
  return out;
}

export const videoHistories = (workspaceId: string, ids: readonly string[], r: HistoryRange, w: CursorWindow) =>
  windowOfHistories<VideoPoint>(VIDEO_TABLES, workspaceId, ids, r, w);
export const accountHistories = (workspaceId: string, ids: readonly string[], r: HistoryRange, w: CursorWindow) =>
  windowOfHistories<AccountPoint>(ACCOUNT_TABLES, workspaceId, ids, r, w);
export const countVideoHistories = (workspaceId: string, ids: readonly string[], r: HistoryRange) =>
  countHistories(VIDEO_TABLES, workspaceId, ids, r);
export const countAccountHistories = (workspaceId: string, ids: readonly string[], r: HistoryRange) =>
  countHistories(ACCOUNT_TABLES, workspaceId, ids, r);
