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
 * How: each account contributes the change of its values at each of its snapshots (window function
 * `lag`); summing the changes per day and then running a cumulative sum over the days gives, for
 * every day, the sum of each account's latest values, without materialising days x accounts.
 */
export async function growth(workspaceId: string, period: GrowthPeriod, now: Date = new Date()): Promise<GrowthPoint[]> {
  const windowDays = period === "all" ? null : PERIOD_DAYS[period];
  const rows = await prisma.$queryRaw<{ date: string; followers: bigint; views: bigint; videos: bigint }[]>`
    WITH acc AS (
      SELECT account_id FROM tracked_accounts WHERE workspace_id = ${workspaceId}::uuid
    ), bounds AS (
      SELECT CASE WHEN ${windowDays}::int IS NULL
                  -- each account's first snapshot through the index: one probe per account
                  THEN (SELECT min(f.day) FROM acc CROSS JOIN LATERAL (
                          SELECT s.day FROM account_snapshots s WHERE s.account_id = acc.account_id ORDER BY s.day LIMIT 1) f)
                  ELSE (${now}::timestamptz AT TIME ZONE 'UTC')::date - (${windowDays}::int - 1) END AS first_day,
             (${now}::timestamptz AT TIME ZONE 'UTC')::date AS last_day
    ), carried AS (
      -- Each account's values entering the window: its latest snapshot before the first day.
      SELECT acc.account_id, coalesce(p.follower_count, 0) AS f, coalesce(p.total_views, 0) AS v, coalesce(p.video_count, 0) AS n
        FROM acc CROSS JOIN bounds b
        LEFT JOIN LATERAL (
          SELECT s.follower_count, s.total_views, s.video_count FROM account_snapshots s
           WHERE s.account_id = acc.account_id AND s.day < b.first_day ORDER BY s.day DESC LIMIT 1
        ) p ON true
    ), per_day AS (
      -- Per account (LATERAL), its snapshots in the window in day order straight from the covering
      -- index (no sort), each minus the one before (the carried value for the first); then summed by day.
      SELECT d.day, sum(d.df) AS df, sum(d.dv) AS dv, sum(d.dn) AS dn
        FROM carried c CROSS JOIN bounds b
        CROSS JOIN LATERAL (
          SELECT s.day,
                 coalesce(s.follower_count, 0) - lag(coalesce(s.follower_count, 0), 1, c.f) OVER w AS df,
                 coalesce(s.total_views, 0) - lag(coalesce(s.total_views, 0), 1, c.v) OVER w AS dv,
                 coalesce(s.video_count, 0) - lag(coalesce(s.video_count, 0), 1, c.n) OVER w AS dn
            FROM account_snapshots s
           WHERE s.account_id = c.account_id AND s.day BETWEEN b.first_day AND b.last_day
          WINDOW w AS (ORDER BY s.day)
        ) d
       GROUP BY d.day
    ), series AS (
      SELECT g.day::date AS day,
             (SELECT sum(f) FROM carried) + sum(coalesce(p.df, 0)) OVER (ORDER BY g.day) AS followers,
             (SELECT sum(v) FROM carried) + sum(coalesce(p.dv, 0)) OVER (ORDER BY g.day) AS views,
             (SELECT sum(n) FROM carried) + sum(coalesce(p.dn, 0)) OVER (ORDER BY g.day) AS videos
        FROM bounds b
        CROSS JOIN generate_series(b.first_day, b.last_day, interval '1 day') AS g(day)
        LEFT JOIN per_day p ON p.day = g.day::date
    )
    SELECT to_char(day, 'YYYY-MM-DD') AS date,
           coalesce(followers, 0)::bigint AS followers, coalesce(views, 0)::bigint AS views, coalesce(videos, 0)::bigint AS videos
      FROM series ORDER BY day DESC`;
  return rows.map((r) => ({ date: r.date, totalFollowers: Number(r.followers), totalViews: Number(r.views), totalVideos: Number(r.videos) }));
}
