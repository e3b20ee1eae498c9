/**
 * Workspace analytics: the top videos of everything the workspace tracks, and growth over time
 * from the accounts' daily snapshots. Both are single SQL statements; PostgreSQL does the ranking,
 * the carrying forward and the sums.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { sql } from "../../infra/db.ts";
import { pageSql, type Order, type PageRequest } from "../shared/pages.ts";
import { TRACKED_VIDEO_COLUMNS, type TrackedVideoRecord } from "../tracking/views.ts";
import { GROWTH_PERIODS } from "./inputs.ts";

/** A ranked video: the tracked video's record, and its account's display name for lists that show one. */
export interface TopVideo extends TrackedVideoRecord {
  accountDisplayName: string;
}

/** The name shown for a top video: the video's own display name, else its account's (the spec's `displayName`). */
export const topVideoDisplayName = (v: TopVideo) => v.displayName || v.accountDisplayName;

export interface GrowthPoint {
  /** YYYY-MM-DD (UTC day). */
  date: string;
  totalFollowers: number;
  totalViews: number;
  totalVideos: number;
}

export type GrowthPeriod = (typeof GROWTH_PERIODS)[number];
/** The days of each growth window (today included); `all` starts at the first snapshot. Also read by folder growth. */
export const PERIOD_DAYS: Record<Exclude<GrowthPeriod, "all">, number> = { "7d": 7, "30d": 30, "90d": 90 };

/** The ranking of top videos: engagement rate, then views (both highest first), then id. */
export const TOP_VIDEOS_ORDER: Order<TopVideo> = [
  { sql: "v.engagement_rate", type: "float8", desc: true, value: (v) => v.engagementRate },
  { sql: "v.view_count", type: "int8", desc: true, value: (v) => v.viewCount },
  { sql: "v.id", type: "uuid", value: (v) => v.id },
];

/**
 * The workspace's tracked videos ranked by engagement rate (highest first), ties by view count
 * (highest first), then by id. Only videos that have been scraped (known view count) are ranked: a
 * video never scraped has no metrics to rank. Scraped videos with 0 views are included (engagement
 * rate 0, so they come last).
 */
export async function topVideos(workspaceId: string, page: PageRequest): Promise<TopVideo[]> {
  const p = pageSql(TOP_VIDEOS_ORDER, page);
  return sql<TopVideo>(Prisma.sql`
    SELECT ${TRACKED_VIDEO_COLUMNS}, coalesce(a.display_name, '') AS "accountDisplayName"
      FROM videos v
      JOIN tracked_videos tv ON tv.video_id = v.id AND tv.workspace_id = ${workspaceId}::uuid
      LEFT JOIN accounts a ON a.id = v.account_id
     WHERE v.view_count IS NOT NULL ${p.where}
     ${p.orderBy} ${p.limit}`);
}

/** How many videos the ranking holds (the workspace's scraped tracked videos). */
export async function countTopVideos(workspaceId: string): Promise<number> {
  const [row] = await sql<{ n: number }>(Prisma.sql`
    SELECT count(*) AS n FROM videos v JOIN tracked_videos tv ON tv.video_id = v.id AND tv.workspace_id = ${workspaceId}::uuid
     WHERE v.view_count IS NOT NULL`);
  return row!.n;
}

/**
 * Daily totals of followers, views and videos over all the workspace's tracked accounts, newest day
 * first. Days are UTC; the window ends today (UTC, from `now`). `7d`/`30d`/`90d`: that many days,
 * today included. `all`: from the first day any tracked account has a snapshot (no points when none
 * has one). Every day of the window is present: an account without a snapshot on a day counts with
 * its last known values (carried forward from its latest earlier snapshot, also one taken before
 * the window); before an account's first snapshot it counts 0. A metric the platform does not give
 * (null in the snapshot) counts 0.
 *
 * How: `workspace_growth_deltas` holds, per workspace and day, the change of the workspace total on
 * that day (kept exact by triggers on account_snapshots and tracked_accounts, migration
 * 20261122060000_growth_deltas). The total on a day is the running sum of the changes up to it: the
 * rows before the window give the starting total, then a window sum over the days of the window
 * (generate_series for the days without a change). At most one row per day is read, whatever the
 * number of tracked accounts.
 */
export async function growth(workspaceId: string, period: GrowthPeriod, now: Date = new Date()): Promise<GrowthPoint[]> {
  const windowDays = period === "all" ? null : PERIOD_DAYS[period];
  return sql<GrowthPoint>(Prisma.sql`
    WITH bounds AS (
      SELECT CASE WHEN ${windowDays}::int IS NULL
                  -- rows exist only on days with a snapshot of a tracked account: the first is the start
                  THEN (SELECT min(d.day) FROM workspace_growth_deltas d WHERE d.workspace_id = ${workspaceId}::uuid)
                  ELSE (${now}::timestamptz AT TIME ZONE 'UTC')::date - (${windowDays}::int - 1) END AS first_day,
             (${now}::timestamptz AT TIME ZONE 'UTC')::date AS last_day
    ), start AS (
      -- The totals entering the window: every change before its first day.
      SELECT coalesce(sum(d.followers), 0) AS f, coalesce(sum(d.views), 0) AS v, coalesce(sum(d.videos), 0) AS n
        FROM workspace_growth_deltas d CROSS JOIN bounds b
       WHERE d.workspace_id = ${workspaceId}::uuid AND d.day < b.first_day
    ), series AS (
      SELECT g.day::date AS day,
             s.f + sum(coalesce(d.followers, 0)) OVER w AS followers,
             s.v + sum(coalesce(d.views, 0)) OVER w AS views,
             s.n + sum(coalesce(d.videos, 0)) OVER w AS videos
        FROM bounds b CROSS JOIN start s
        CROSS JOIN generate_series(b.first_day, b.last_day, interval '1 day') AS g(day)
        LEFT JOIN workspace_growth_deltas d ON d.workspace_id = ${workspaceId}::uuid AND d.day = g.day::date
      WINDOW w AS (ORDER BY g.day)
    )
    SELECT to_char(day, 'YYYY-MM-DD') AS date, followers::int8 AS "totalFollowers", views::int8 AS "totalViews", videos::int8 AS "totalVideos"
      FROM series ORDER BY day DESC`);
}
