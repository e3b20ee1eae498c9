/**
 * Workspace analytics: the top videos of everything the workspace tracks, and growth over time
 * from the accounts' daily snapshots. Both are single SQL statements; PostgreSQL does the ranking,
 * the carrying forward and the sums.
 */
import { z } from "zod";
import { prisma } from "../../infra/db.js";

export interface TopVideo {
  id: string;
  platformVideoId: string;
  description: string;
  viewCount: number;
  likeCount: number | null;
  commentCount: number | null;
  shareCount: number | null;
  engagementRate: number;
  postedAt: Date | null;
  url: string;
  type: string;
  thumbnailUrl: string;
  username: string;
  displayName: string;
}

export interface GrowthPoint {
  /** YYYY-MM-DD (UTC day). */
  date: string;
  totalFollowers: number;
  totalViews: number;
  totalVideos: number;
}

export const GROWTH_PERIODS = ["7d", "30d", "90d", "all"] as const;
export type GrowthPeriod = (typeof GROWTH_PERIODS)[number];
export const growthPeriod = z.enum(GROWTH_PERIODS, { message: "period must be one of 7d, 30d, 90d, all" });
const PERIOD_DAYS: Record<Exclude<GrowthPeriod, "all">, number> = { "7d": 7, "30d": 30, "90d": 90 };

const num = (v: bigint | number | null): number | null => (v === null ? null : Number(v));

/**
 * The workspace's tracked videos ranked by engagement rate (highest first), ties by view count
 * (highest first), then by id. Only videos that have been scraped (known view count) are ranked: a
 * video never scraped has no metrics to rank. Scraped videos with 0 views are included (engagement
 * rate 0, so they come last).
 */
export async function topVideos(workspaceId: string, limit: number): Promise<TopVideo[]> {
  const rows = await prisma.$queryRaw<
    {
      id: string;
      platform_video_id: string;
      description: string;
      view_count: bigint;
      like_count: bigint | null;
      comment_count: bigint | null;
      share_count: bigint | null;
      engagement_rate: number;
      posted_at: Date | null;
      url: string;
      type: string;
      thumbnail_url: string;
      username: string;
      display_name: string;
    }[]
  >`
    SELECT v.id::text, v.platform_video_id, v.description, v.view_count, v.like_count, v.comment_count, v.share_count,
           v.engagement_rate, v.posted_at, v.url, v.platform::text AS type, v.thumbnail_url, v.username,
           coalesce(nullif(v.display_name, ''), a.display_name, '') AS display_name
      FROM videos v
      JOIN tracked_videos tv ON tv.video_id = v.id AND tv.workspace_id = ${workspaceId}::uuid
      LEFT JOIN accounts a ON a.id = v.account_id
     WHERE v.view_count IS NOT NULL
     ORDER BY v.engagement_rate DESC, v.view_count DESC, v.id
     LIMIT ${limit}`;
  return rows.map((r) => ({
    id: r.id,
    platformVideoId: r.platform_video_id,
    description: r.description,
    viewCount: Number(r.view_count),
    likeCount: num(r.like_count),
    commentCount: num(r.comment_count),
    shareCount: num(r.share_count),
    engagementRate: r.engagement_rate,
    postedAt: r.posted_at,
    url: r.url,
    type: r.type,
    thumbnailUrl: r.thumbnail_url,
    username: r.username,
    displayName: r.display_name,
  }));
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
  const rows = await prisma.$queryRaw<{ date: string; followers: bigint; views: bigint; videos: bigint }[]>`
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
    SELECT to_char(day, 'YYYY-MM-DD') AS date, followers::bigint AS followers, views::bigint AS views, videos::bigint AS videos
      FROM series ORDER BY day DESC`;
  return rows.map((r) => ({ date: r.date, totalFollowers: Number(r.followers), totalViews: Number(r.views), totalVideos: Number(r.videos) }));
}
