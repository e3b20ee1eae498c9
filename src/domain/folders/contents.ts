/**
 * What is in a folder: its videos (sorted, filtered, paged), its accounts, and its aggregates.
 * Everything is computed by PostgreSQL over the folder's video set (see video-set.ts): counts, sums
 * and averages are SQL aggregates, never loops over rows in JavaScript.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { sql } from "../../infra/db.ts";
import { checkDayRange } from "../shared/inputs.ts";
import { orderBySql, pageSql, rowNumberRange, type Order, type PageRequest, type Page } from "../shared/pages.ts";
import {
  ACCOUNT_COLUMNS,
  postedDaysSql,
  TRACKED_VIDEO_COLUMNS,
  TRACKING_COLUMNS,
  type TrackedAccountView,
  type TrackedVideoRecord,
} from "../tracking/views.ts";
import type { FolderVideoSort, FolderVideosFilter } from "./inputs.ts";
import { requireFolder } from "./service.ts";
import { folderAccountIds, folderVideoIds } from "./video-set.ts";
import { videoIdTagsSql } from "../tags/filter.ts";
import { PERIOD_DAYS, type GrowthPeriod, type GrowthPoint } from "../analytics/service.ts";

export interface FolderTopVideo {
  id: string;
  description: string;
  viewCount: number | null;
  username: string;
}

export interface FolderAnalytics {
  totalAccounts: number;
  totalVideos: number;
  totalViews: number;
  totalLikes: number;
  totalComments: number;
  totalShares: number;
  avgEngagementRate: number;
  topVideos: FolderTopVideo[];
}

/** Number of the folder's top videos in its analytics. */
const FOLDER_TOP_VIDEOS = 5;

/** Each sort key's column (a fixed map: user input never reaches the SQL text) and value. */
const SORT_KEYS: Record<
  FolderVideoSort,
  { sql: string; type: "float8" | "int8" | "timestamptz"; value: (v: TrackedVideoRecord) => unknown }
> = {
  views: { sql: "v.view_count", type: "int8", value: (v) => v.viewCount },
  likes: { sql: "v.like_count", type: "int8", value: (v) => v.likeCount },
  comments: { sql: "v.comment_count", type: "int8", value: (v) => v.commentCount },
  shares: { sql: "v.share_count", type: "int8", value: (v) => v.shareCount },
  engagement_rate: { sql: "v.engagement_rate", type: "float8", value: (v) => v.engagementRate },
  uploaded: { sql: "v.posted_at", type: "timestamptz", value: (v) => v.postedAt },
};

/**
 * The order of a folder's videos: the sort value in the asked direction, videos without a value
 * (not scraped yet, or no posting date) last in both directions, then id ascending, so equal values
 * keep one order and pages never overlap.
 */
export function folderVideosOrder(sort: FolderVideoSort, direction: "asc" | "desc"): Order<TrackedVideoRecord> {
  return [
    { ...SORT_KEYS[sort], desc: direction === "desc", nullsLast: true },
    { sql: "v.id", type: "uuid", value: (v) => v.id },
  ];
}

/**
 * A page of the folder's videos with the total of the videos matching the date filters. For an
 * offset page the total comes with the page (a window count), counted apart only past the last page.
 */
export async function listFolderVideos(
  workspaceId: string,
  folderId: string,
  page: PageRequest,
  f: FolderVideosFilter,
): Promise<Page<TrackedVideoRecord>> {
  checkDayRange(f.start_date, f.end_date);
  await requireFolder(workspaceId, folderId);
  const order = folderVideosOrder(f.sort, f.sort_order);
  const p = pageSql(order, page);
  // Sort narrow rows (the set can hold tens of thousands), then read the page's records only.
  const rows = await sql<TrackedVideoRecord & { total: number }>(Prisma.sql`
    WITH page AS (
      SELECT v.id, count(*) OVER () AS total
        FROM (${folderVideoIds(folderId, f.includeDescendants)}) s JOIN videos v ON v.id = s.video_id
       WHERE true ${postedDaysSql(f)} ${tagsSql(workspaceId, f)} ${p.where}
       ${p.orderBy} ${p.limit}
    )
    SELECT ${TRACKED_VIDEO_COLUMNS}, page.total
      FROM page JOIN videos v ON v.id = page.id
      JOIN tracked_videos tv ON tv.video_id = v.id AND tv.workspace_id = ${workspaceId}::uuid
     ${orderBySql(order, "inverted" in page && page.inverted)}`);
  const items = rows.map(({ total: _t, ...v }) => v as TrackedVideoRecord);
  const offsetPage = "offset" in page;
  const total =
    offsetPage && rows.length > 0
      ? rows[0]!.total
      : offsetPage && page.offset === 0
        ? 0
        : await countFolderVideos(workspaceId, folderId, f);
  return { items, total };
}

/** The tag filter of a folder's videos (src/domain/tags/filter.ts), as `AND …`. */
function tagsSql(workspaceId: string, f: FolderVideosFilter): Prisma.Sql {
  const tags = videoIdTagsSql(workspaceId, f.tag);
  return tags ? Prisma.sql`AND ${tags}` : Prisma.empty;
}

/** How many of the folder's videos match the filters (the folder already known to belong to the caller's workspace). */
export async function countFolderVideos(workspaceId: string, folderId: string, f: FolderVideosFilter): Promise<number> {
  const [row] = await sql<{ n: number }>(Prisma.sql`
    SELECT count(*) AS n FROM (${folderVideoIds(folderId, f.includeDescendants)}) s JOIN videos v ON v.id = s.video_id
     WHERE true ${postedDaysSql(f)} ${tagsSql(workspaceId, f)}`);
  return row?.n ?? 0;
}

/** The accounts of folders: most recently added first, ties by tracking id. */
const FOLDER_ACCOUNTS_ORDER: Order<TrackedAccountView & { addedAt: Date }> = [
  { sql: "fa.added_at", type: "timestamptz", desc: true, value: (a) => a.addedAt },
  { sql: "fa.tracked_account_id", type: "uuid", value: (a) => a.trackedAccountId },
];
export type FolderAccount = TrackedAccountView & { addedAt: Date };
export { FOLDER_ACCOUNTS_ORDER };

/**
 * A page of each folder's tracked accounts (FOLDER_ACCOUNTS_ORDER), for several folders of the
 * workspace in one statement. Items are the same records as GET /accounts.
 */
export async function accountsOfFolders(
  workspaceId: string,
  folderIds: readonly string[],
  page: PageRequest,
): Promise<Map<string, FolderAccount[]>> {
  const out = new Map<string, FolderAccount[]>(folderIds.map((id) => [id, []]));
  if (folderIds.length === 0) return out;
  const p = pageSql(FOLDER_ACCOUNTS_ORDER, page);
  const { from, to } = rowNumberRange(page);
  const rows = await sql<FolderAccount & { folderId: string; n: number }>(Prisma.sql`
    SELECT * FROM (
      SELECT ${ACCOUNT_COLUMNS}, ${TRACKING_COLUMNS}, fa.added_at AS "addedAt", fa.folder_id AS "folderId",
             row_number() OVER (PARTITION BY fa.folder_id ${p.orderBy}) AS n
        FROM folder_accounts fa
        JOIN folders f ON f.id = fa.folder_id AND f.workspace_id = ${workspaceId}::uuid
        JOIN tracked_accounts ta ON ta.id = fa.tracked_account_id
        JOIN accounts a ON a.id = ta.account_id
       WHERE fa.folder_id = ANY(${folderIds as string[]}::uuid[]) ${p.where}
    ) x WHERE n BETWEEN ${from} AND ${to} ORDER BY "folderId", n`);
  for (const { folderId, n: _n, ...a } of rows) out.get(folderId)?.push(a as FolderAccount);
  return out;
}

/** The folder's tracked accounts, a page with the total. */
export async function listFolderAccounts(workspaceId: string, folderId: string, page: PageRequest): Promise<Page<FolderAccount>> {
  await requireFolder(workspaceId, folderId);
  const [items, [count]] = await Promise.all([
    accountsOfFolders(workspaceId, [folderId], page),
    sql<{ n: number }>(Prisma.sql`SELECT count(*) AS n FROM folder_accounts WHERE folder_id = ${folderId}::uuid`),
  ]);
  return { items: items.get(folderId) ?? [], total: count!.n };
}

/**
 * Aggregates over the folder's video set, in one statement. Sums treat a metric that is not known
 * yet (video not scraped) as 0. `avgEngagementRate` is the mean engagement rate (percent) of the
 * videos that have been scraped (known view count), 0 when there are none. `topVideos`: the 5
 * videos with the most views (ties by id), scraped videos only. With `includeDescendants`, over the
 * folder and all its sub-folders (each video and account once), still one statement (a recursive CTE).
 */
export async function folderAnalytics(
  workspaceId: string,
  folderId: string,
  opts: { includeDescendants?: boolean } = {},
): Promise<FolderAnalytics> {
  await requireFolder(workspaceId, folderId);
  const descendants = opts.includeDescendants ?? false;
  const [row] = await sql<FolderAnalytics>(Prisma.sql`
    WITH fv AS MATERIALIZED (
      SELECT v.id, v.description, v.username, v.view_count, v.like_count, v.comment_count, v.share_count, v.engagement_rate
        FROM (${folderVideoIds(folderId, descendants)}) s JOIN videos v ON v.id = s.video_id
    )
    SELECT (SELECT count(*) FROM (${folderAccountIds(folderId, descendants)}) fa)::int AS "totalAccounts",
           count(*)::int AS "totalVideos",
           coalesce(sum(view_count), 0)::int8 AS "totalViews",
           coalesce(sum(like_count), 0)::int8 AS "totalLikes",
           coalesce(sum(comment_count), 0)::int8 AS "totalComments",
           coalesce(sum(share_count), 0)::int8 AS "totalShares",
           coalesce(avg(engagement_rate) FILTER (WHERE view_count IS NOT NULL), 0)::float8 AS "avgEngagementRate",
           (SELECT coalesce(json_agg(t ORDER BY t."viewCount" DESC, t.id), '[]'::json) FROM (
              SELECT id::text, description, view_count AS "viewCount", username FROM fv
               WHERE view_count IS NOT NULL ORDER BY view_count DESC, id LIMIT ${FOLDER_TOP_VIDEOS}) t) AS "topVideos"
      FROM fv`);
  return row!;
}

/**
 * Daily totals of followers, views and videos over the folder's tracked accounts (with
 * `includeDescendants`, those of all its sub-folders, each account once), newest UTC day first, with
 * the rules of the workspace's growth (src/domain/analytics/service.ts `growth`): every day of the
 * window; an account counts with its latest snapshot on or before the day (0 before its first, a
 * metric the platform does not give counts 0); `all` starts at the first snapshot of those accounts.
 * One statement: the folder's accounts (a recursive CTE for the sub-tree), the window's days, and each
 * account's latest snapshot per day through the (account_id, day) index. A folder holds at most the
 * workspace's tracked accounts, so days × accounts stays small (90 × a few hundred).
 */
export async function folderGrowth(
  workspaceId: string,
  folderId: string,
  period: GrowthPeriod,
  opts: { includeDescendants?: boolean } = {},
  now: Date = new Date(),
): Promise<GrowthPoint[]> {
  await requireFolder(workspaceId, folderId);
  const windowDays = period === "all" ? null : PERIOD_DAYS[period];
  return sql<GrowthPoint>(Prisma.sql`
    WITH accts AS (
      SELECT DISTINCT ta.account_id FROM (${folderAccountIds(folderId, opts.includeDescendants ?? false)}) f
        JOIN tracked_accounts ta ON ta.id = f.tracked_account_id
    ), bounds AS (
      SELECT CASE WHEN ${windowDays}::int IS NULL
                  THEN (SELECT min(s.day) FROM account_snapshots s JOIN accts a ON a.account_id = s.account_id)
                  ELSE (${now}::timestamptz AT TIME ZONE 'UTC')::date - (${windowDays}::int - 1) END AS first_day,
             (${now}::timestamptz AT TIME ZONE 'UTC')::date AS last_day
    ), days AS (
      SELECT g.day::date AS day FROM bounds b CROSS JOIN generate_series(b.first_day, b.last_day, interval '1 day') AS g(day)
    )
    SELECT to_char(d.day, 'YYYY-MM-DD') AS date,
           coalesce(sum(s.follower_count), 0)::int8 AS "totalFollowers",
           coalesce(sum(s.total_views), 0)::int8 AS "totalViews",
           coalesce(sum(s.video_count), 0)::int8 AS "totalVideos"
      FROM days d LEFT JOIN accts a ON true
      LEFT JOIN LATERAL (
        SELECT s.follower_count, s.total_views, s.video_count FROM account_snapshots s
         WHERE s.account_id = a.account_id AND s.day <= d.day ORDER BY s.day DESC LIMIT 1
      ) s ON true
     GROUP BY d.day ORDER BY d.day DESC`);
}
