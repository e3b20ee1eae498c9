/**
 * Storing what scrapes find: video and account records, their history (a point per scrape and the
 * daily roll-up), scrape states and failures with their backoff, owner accounts, the videos an
 * account scrape tracks for each workspace, and the refresh schedule (what is due, claimed in
 * batches). Called by the scrape jobs (./scrape-jobs.ts); every write is idempotent, so a retried
 * job or a job of a killed worker run again never duplicates a row.
 *
 * Scrape states: queued → scraping → ready; a scrape that fails is retried with backoff (state back
 * to queued, `scrapeError` says why) and after the job's last attempt, or at once when the provider
 * says retrying cannot help, the state is `failed` with the reason kept. A video that was `ready`
 * keeps its numbers and stays `ready` when a later refresh fails (`scrapeError` then says why),
 * until its refreshes have failed REFRESH_MAX_FAILURES times in a row (./cadence.ts): then it is
 * `failed` and leaves the schedule.
 *
 * History: every stored scrape appends one point (video_metric_points, account_metric_points: item,
 * capture time, provider, counts; keyed by item and capture time) and upserts the day's row of the
 * per-day table (video_snapshots, account_snapshots: the last point of each UTC day, the later
 * scrape wins, an older retried result never overwrites a newer one), in the same statement as the
 * record. Points older than HISTORY_FULL_RESOLUTION_DAYS leave with their monthly partition
 * (./history-partitions.ts); the day's row stays. Account days without a scrape are filled from the latest numbers (growth
 * carries values forward through them); video days are not (nothing reads a copied number).
 *
 * Refresh schedule: `next_refresh_at` on each record (a partial index holds the scheduled ones).
 * A stored scrape sets it from the cadence (null when no workspace tracks the item); the scheduler
 * claims due items by pushing it a lease ahead (claimDue), so a lost job only delays the item.
 */
import { Prisma, type Platform } from "../../generated/prisma/client.ts";
import { prisma, sql, sqlExec, type Tx } from "../../infra/db.ts";
import type { AccountRef, ScrapedAccount, ScrapedVideo, VideoRef } from "./ports.ts";
import { engagementRate } from "./engagement.ts";
import { ACCOUNT_VIDEO_ALLOWANCE, LIMITS_FROM, trackingLimits } from "./limits.ts";
import { canonicalAccountUrl, canonicalVideoUrl, isPlatformUsername } from "../shared/platform.ts";
import { DAY_MS } from "../shared/inputs.ts";
import { recordWorkspaceEvents, workspaceEventsInsertSql, type NewWorkspaceEvent } from "../webhooks/outbox.ts";
import { hasRules, judgeVideo, storedRules, type AccountRules, type JudgedVideo, type Refusal } from "./rules.ts";

/** `YYYY-MM-DD` of the UTC day of `at`: the snapshot day. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

const big = (v: number | null) => (v === null ? null : BigInt(Math.max(0, Math.round(v))));

/** The number of the account's other videos the outlier score compares with, and the fewest it needs. */
export const OUTLIER_SAMPLE = 20;
export const OUTLIER_MIN_SAMPLE = 3;

/**
 * The handle of a video's owner account, or "" when the source names none usable: it must have the
 * platform's form (an account link is rebuilt from it), and platform A's "_" is the placeholder of
 * links whose author is unknown, not a handle.
 */
export function ownerHandle(platform: Platform, username: string): string {
  const handle = username.toLowerCase();
  if (!handle || (platform === "platformA" && handle === "_")) return "";
  return isPlatformUsername(platform, handle) ? handle : "";
}

export interface ScrapeTarget<R> {
  ref: R;
  scrapeStatus: "queued" | "scraping" | "ready" | "failed";
  /** What the record held before this scrape: the cadence's velocity and the failure count. */
  previous: { count: number | null; at: Date | null };
  refreshFailures: number;
  /** The smallest refresh factor among the plans tracking the item; null when none tracks it. */
  planFactor: number | null;
}

/**
 * Starts a video's scrape, in one round trip: moves it queued/failed → scraping (a ready video
 * stays ready while it is refreshed) and returns what to hand the provider, the canonical URL
 * rebuilt from its stored ids (platform A links need the username; a video found through an
 * account has it from the account), and what the cadence needs. Null when the video no longer exists.
 */
export async function startVideoScrape(
  videoId: string,
): Promise<(ScrapeTarget<VideoRef> & { started: boolean; postedAt: Date | null }) | null> {
  const rows = await sql<{
    platform: Platform;
    platformVideoId: string;
    username: string;
    accountUsername: string | null;
    scrapeStatus: ScrapeTarget<VideoRef>["scrapeStatus"];
    started: boolean;
    viewCount: number | null;
    lastScrapedAt: Date | null;
    postedAt: Date | null;
    refreshFailures: number;
    planFactor: number | null;
  }>(
    Prisma.sql`
    WITH started AS (
      UPDATE videos SET scrape_status = 'scraping', scrape_attempts = scrape_attempts + 1, updated_at = now()
       WHERE id = ${videoId}::uuid AND scrape_status IN ('queued', 'failed')
      RETURNING id
    )
    SELECT v.platform::text AS platform, v.platform_video_id AS "platformVideoId", v.username, a.username AS "accountUsername",
           v.scrape_status::text AS "scrapeStatus", EXISTS (SELECT 1 FROM started) AS started,
           v.view_count AS "viewCount", v.last_scraped_at AS "lastScrapedAt", v.posted_at AS "postedAt",
           v.refresh_failures AS "refreshFailures",
           (SELECT min(p.refresh_factor) FROM tracked_videos tv JOIN workspaces w ON w.id = tv.workspace_id
              JOIN plans p ON p.name = w.plan_name WHERE tv.video_id = v.id) AS "planFactor"
      FROM videos v LEFT JOIN accounts a ON a.id = v.account_id
     WHERE v.id = ${videoId}::uuid`,
    { prepare: true },
  );
  const v = rows[0];
  if (!v) return null;
  const username = v.username || v.accountUsername || undefined;
  const ids = { platform: v.platform, platformVideoId: v.platformVideoId, ...(username ? { username } : {}) };
  return {
    ref: { ...ids, canonicalUrl: canonicalVideoUrl(ids) },
    scrapeStatus: v.scrapeStatus,
    started: v.started,
    previous: { count: v.viewCount, at: v.lastScrapedAt },
    postedAt: v.postedAt,
    refreshFailures: v.refreshFailures,
    planFactor: v.planFactor,
  };
}

/** An account's scrape: what to hand the provider and what the cadence needs (null when it is gone). */
export async function accountScrapeTarget(accountId: string): Promise<(ScrapeTarget<AccountRef> & { newestPostedAt: Date | null }) | null> {
  const [a] = await sql<{
    platform: Platform;
    username: string;
    scrapeStatus: ScrapeTarget<AccountRef>["scrapeStatus"];
    totalViews: number | null;
    lastScrapedAt: Date | null;
    refreshFailures: number;
    planFactor: number | null;
    newestPostedAt: Date | null;
  }>(Prisma.sql`
    SELECT a.platform::text AS platform, a.username, a.scrape_status::text AS "scrapeStatus", a.total_views AS "totalViews",
           a.last_scraped_at AS "lastScrapedAt", a.refresh_failures AS "refreshFailures",
           (SELECT min(p.refresh_factor) FROM tracked_accounts ta JOIN workspaces w ON w.id = ta.workspace_id
              JOIN plans p ON p.name = w.plan_name WHERE ta.account_id = a.id) AS "planFactor",
           (SELECT v.posted_at FROM videos v WHERE v.account_id = a.id AND v.posted_at IS NOT NULL
             ORDER BY v.posted_at DESC LIMIT 1) AS "newestPostedAt"
      FROM accounts a WHERE a.id = ${accountId}::uuid`);
  if (!a) return null;
  const ids = { platform: a.platform, username: a.username };
  return {
    ref: { ...ids, canonicalUrl: canonicalAccountUrl(ids) },
    scrapeStatus: a.scrapeStatus,
    previous: { count: a.totalViews, at: a.lastScrapedAt },
    refreshFailures: a.refreshFailures,
    planFactor: a.planFactor,
    newestPostedAt: a.newestPostedAt,
  };
}

export async function markAccountScraping(accountId: string): Promise<boolean> {
  const n = await sqlExec(Prisma.sql`
    UPDATE accounts SET scrape_status = 'scraping', updated_at = now()
     WHERE id = ${accountId}::uuid AND scrape_status IN ('queued', 'failed')`);
  return n > 0;
}

/**
 * A failed scrape attempt, recorded with its reason.
 * - `outcome` null: not the job's last attempt (a retry is scheduled): state back to `queued`
 *   (a ready record stays ready), the schedule untouched.
 * - Otherwise the refresh failed: one more consecutive failure; `givesUp` makes the record
 *   `failed` (even a ready one, which keeps its numbers) and takes it off the schedule; else a
 *   never-scraped record is `failed` for now (a ready one stays ready) and is retried at `retryAt`
 *   if a workspace still tracks it.
 */
export interface FailureOutcome {
  givesUp: boolean;
  retryAt: Date | null;
}

function failureSql(
  table: "videos" | "accounts",
  trackedBy: Prisma.Sql,
  id: string,
  reason: string,
  outcome: FailureOutcome | null,
): Prisma.Sql {
  const final = outcome !== null;
  const givesUp = outcome?.givesUp === true;
  const next = final ? "failed" : "queued";
  return Prisma.sql`
    UPDATE ${Prisma.raw(table)} r SET scrape_error = ${reason.slice(0, 2000)}, updated_at = now(),
           scrape_status = CASE WHEN ${givesUp} THEN 'failed'::"ScrapeStatus"
                                WHEN r.scrape_status = 'ready' THEN 'ready'::"ScrapeStatus" ELSE ${next}::"ScrapeStatus" END,
           refresh_failures = r.refresh_failures + ${final ? 1 : 0}::int,
           next_refresh_at = CASE WHEN NOT ${final} THEN r.next_refresh_at
                                  WHEN ${givesUp} THEN NULL
                                  WHEN EXISTS (${trackedBy}) THEN ${outcome?.retryAt ?? null}::timestamptz END
     WHERE r.id = ${id}::uuid`;
}

export async function recordVideoScrapeFailure(videoId: string, reason: string, outcome: FailureOutcome | null): Promise<void> {
  await sqlExec(failureSql("videos", Prisma.sql`SELECT 1 FROM tracked_videos tv WHERE tv.video_id = r.id`, videoId, reason, outcome));
}

export async function recordAccountScrapeFailure(accountId: string, reason: string, outcome: FailureOutcome | null): Promise<void> {
  await sqlExec(
    failureSql(
      "accounts",
      Prisma.sql`SELECT 1 FROM tracked_accounts ta WHERE ta.account_id = r.id AND ta.paused_at IS NULL`,
      accountId,
      reason,
      outcome,
    ),
  );
}

export interface StoredVideo {
  id: string;
  /** The row was created by this write. */
  inserted: boolean;
  /** The row needs a scrape of the video itself (it was only listed and is not ready). */
  needsScrape: boolean;
  /** The owner account the video is linked to (null when the source names no usable author). */
  accountId: string | null;
  viewCount: number | null;
  views24h: number | null;
  outlierScore: number | null;
  /** The outlier score before this write (a spike is a crossing). */
  previousOutlierScore: number | null;
  postedAt: Date | null;
  /** The `video.spike` events this write recorded in its own statement (relayed after it). */
  eventIds: string[];
}

/**
 * Writes a scraped video, in one statement (atomic without a transaction): the owner account
 * (created, untracked, when missing), the record keyed by (platform, platformVideoId), and, for a
 * full scrape, the day's row, the point, views24h, the outlier score and the next refresh.
 *
 * - Full scrape: metrics are the source's (null where it gives none), engagement recomputed,
 *   metadata kept when the source now omits it, state `ready`, failures reset, `next_refresh_at`
 *   = `nextRefreshAt` while a workspace tracks the video (else null). Skipped when the stored
 *   numbers are newer (a retried, older job finishing late).
 * - Partial (an account's flat listing): creates the record if new (state `queued`, to be scraped
 *   itself), otherwise only links it to the account and fills in metadata still unknown; metrics of
 *   a listing never overwrite those of a scrape.
 *
 * Owner: `accountId` when given (the account being scraped), else the account of the author's
 * handle (ownerHandle), created when missing. When a concurrent statement creates that account at
 * the same moment, this statement's snapshot cannot see it: the video is linked by a second
 * statement (linkOwner), so a stored full scrape always leaves the video linked.
 *
 * views24h: the views gained over the 24 hours before this scrape, from the history: the view count
 * 24 h ago is read from the stored points around that instant (the latest at or before it, raw or
 * daily, and the next one, or this scrape), linearly interpolated between them; a video posted
 * less than 24 h ago gained all its views in that time; null when the history does not reach back.
 * outlierScore: views / the median views of the owner's OUTLIER_SAMPLE most recently posted other
 * videos (known views and posting date, at least OUTLIER_MIN_SAMPLE of them), 4 decimals; null
 * otherwise or when that median is 0.
 *
 * `video.spike` (with `spikeThreshold`, full scrapes): when this write moves the outlier score from
 * below the threshold (or none) to at or above it, one event per workspace tracking the video is
 * recorded in the outbox by the same statement (spikeEventsSql), so a job that dies after the store
 * and is then served by it (`fresh`) has not lost the event: the sweep relays it.
 */
export async function storeScrapedVideo(
  s: ScrapedVideo,
  opts: {
    source: string;
    now: Date;
    accountId?: string;
    ids?: { platform: Platform; platformVideoId: string };
    nextRefreshAt?: Date | null;
    spikeThreshold?: number;
  },
): Promise<StoredVideo | null> {
  const w = videoWrite(s, opts);
  const rows = await sql<StoredVideo & { scrapeStatus: string }>(Prisma.sql`
    WITH prev AS (
      SELECT id, outlier_score, posted_at FROM videos WHERE platform = ${w.platform}::"Platform" AND platform_video_id = ${w.platformVideoId}
    ), owner_new AS (
      INSERT INTO accounts (platform, username)
      SELECT ${w.platform}::"Platform", ${w.owner} WHERE ${w.owner} <> ''
      ON CONFLICT (platform, username) DO NOTHING
      RETURNING id
    ), owner AS (
      SELECT COALESCE(${w.accountId}::uuid, (SELECT id FROM owner_new),
                      (SELECT a.id FROM accounts a WHERE a.platform = ${w.platform}::"Platform" AND a.username = ${w.owner} AND ${w.owner} <> '')) AS id
    ), metrics AS (${w.partial ? NO_DERIVED_METRICS : derivedMetricsSql(s, w)}
    ), up AS (
      INSERT INTO videos AS v ${VIDEO_WRITE_COLUMNS}
      SELECT ${videoValuesSql(s, w)} FROM owner CROSS JOIN metrics
      ON CONFLICT (platform, platform_video_id) ${w.partial ? LISTING_MERGE : scrapeMergeSql(w.nextRefreshAt)}
      RETURNING id, (xmax = 0) AS inserted, scrape_status, account_id, view_count, views_24h, outlier_score, posted_at
    ), ${w.partial ? NO_HISTORY : videoHistorySql(w)},
    spike AS (${w.partial || opts.spikeThreshold === undefined ? Prisma.sql`SELECT NULL::uuid AS id WHERE false` : spikeEventsSql(opts.spikeThreshold)})
    SELECT up.id, up.inserted, up.scrape_status::text AS "scrapeStatus", up.account_id AS "accountId", up.view_count AS "viewCount",
           up.views_24h AS "views24h", up.outlier_score AS "outlierScore", up.posted_at AS "postedAt",
           (SELECT outlier_score FROM prev) AS "previousOutlierScore", ARRAY(SELECT id::text FROM spike) AS "eventIds"
      FROM up`);
  const row = rows[0];
  if (!row) return null; // a newer scrape already stored newer numbers
  const stored = { ...row, needsScrape: row.scrapeStatus !== "ready" };
  delete (stored as { scrapeStatus?: string }).scrapeStatus;
  if (stored.accountId === null && w.owner !== "") stored.accountId = await linkOwner(stored.id, w.platform, w.owner);
  return stored;
}

/**
 * `video.spike` to every workspace tracking the video, when the row written (`up`) crossed
 * `threshold` from below (`prev`: the row before). A part of storeScrapedVideo's statement.
 */
function spikeEventsSql(threshold: number): Prisma.Sql {
  return workspaceEventsInsertSql(Prisma.sql`
    SELECT tv.workspace_id, 'video.spike',
           jsonb_build_object('videoId', up.id, 'accountId', up.account_id, 'outlierScore', up.outlier_score,
                              'previousOutlierScore', (SELECT outlier_score FROM prev), 'threshold', ${threshold}::float8,
                              'viewCount', up.view_count, 'views24h', up.views_24h, 'trackedVideoId', tv.id)
      FROM up JOIN tracked_videos tv ON tv.video_id = up.id
     WHERE up.outlier_score >= ${threshold}::float8
       AND COALESCE((SELECT outlier_score FROM prev) < ${threshold}::float8, true)`);
}

/** What one write of a scraped video needs besides the scrape itself: its key, link, owner and numbers. */
interface VideoWrite {
  platform: Platform;
  platformVideoId: string;
  username: string;
  url: string;
  /** An account's flat listing rather than a scrape of the video (ScrapedVideo.partial). */
  partial: boolean;
  /** The account being scraped, when the video comes from its listing. */
  accountId: string | null;
  /** The author's handle whose account owns the video (when no accountId is given), or "". */
  owner: string;
  /** view, like, comment, share, bookmark counts as stored (BIGINT, never negative). */
  counts: (bigint | null)[];
  source: string;
  now: Date;
  /** 24 hours before `now`: where views24h is measured from. */
  dayAgo: Date;
  nextRefreshAt: Date | null;
}

function videoWrite(s: ScrapedVideo, opts: Parameters<typeof storeScrapedVideo>[1]): VideoWrite {
  const platform = opts.ids?.platform ?? s.platform;
  const platformVideoId = opts.ids?.platformVideoId ?? s.platformVideoId;
  const username = s.username.toLowerCase();
  const accountId = opts.accountId ?? null;
  return {
    platform,
    platformVideoId,
    username,
    url: canonicalVideoUrl({ platform, platformVideoId, ...(username ? { username } : {}) }),
    partial: s.partial === true,
    accountId,
    owner: accountId === null ? ownerHandle(platform, username) : "",
    counts: [big(s.viewCount), big(s.likeCount), big(s.commentCount), big(s.shareCount), big(s.bookmarkCount)],
    source: opts.source,
    now: opts.now,
    dayAgo: new Date(opts.now.getTime() - DAY_MS),
    nextRefreshAt: opts.nextRefreshAt ?? null,
  };
}

/** A listing derives nothing: views24h and the outlier score come from full scrapes only. */
const NO_DERIVED_METRICS = Prisma.sql`SELECT NULL::bigint AS views_24h, NULL::float8 AS outlier_score`;

/**
 * views24h and the outlier score of a full scrape (see storeScrapedVideo), read from the stored
 * history (`prev`: the video's row before this write) and the owner's other videos (`owner`).
 */
function derivedMetricsSql(s: ScrapedVideo, w: VideoWrite): Prisma.Sql {
  const views = w.counts[0]!;
  const prevId = Prisma.sql`(SELECT id FROM prev)`;
  return Prisma.sql`
      SELECT CASE WHEN ${views}::bigint IS NULL THEN NULL
                  WHEN b.t IS NOT NULL THEN ${views}::bigint - round(b.v + (COALESCE(a.v, ${views}::bigint) - b.v)
                         * extract(epoch FROM (${w.dayAgo}::timestamptz - b.t)) / extract(epoch FROM (COALESCE(a.t, ${w.now}::timestamptz) - b.t)))::bigint
                  WHEN COALESCE(${s.postedAt}::timestamptz, (SELECT posted_at FROM prev)) > ${w.dayAgo}::timestamptz THEN ${views}::bigint
             END AS views_24h,
             CASE WHEN ${views}::bigint IS NULL OR m.median IS NULL OR m.median <= 0 THEN NULL
                  ELSE round((${views}::bigint / m.median)::numeric, 4)::float8 END AS outlier_score
        FROM (SELECT 1) one
        LEFT JOIN LATERAL (
          SELECT x.t, x.v FROM (
            (SELECT p.captured_at AS t, p.view_count AS v FROM video_metric_points p
              WHERE p.video_id = ${prevId} AND p.captured_at <= ${w.dayAgo}::timestamptz AND p.view_count IS NOT NULL
              ORDER BY p.captured_at DESC LIMIT 1)
            UNION ALL
            (SELECT d.captured_at, d.view_count FROM video_snapshots d
              WHERE d.video_id = ${prevId} AND d.day <= ${utcDay(w.dayAgo)}::date AND d.captured_at <= ${w.dayAgo}::timestamptz
                AND d.view_count IS NOT NULL
              ORDER BY d.day DESC LIMIT 1)
          ) x ORDER BY x.t DESC LIMIT 1
        ) b ON true
        LEFT JOIN LATERAL (
          SELECT p.captured_at AS t, p.view_count AS v FROM video_metric_points p
           WHERE p.video_id = ${prevId} AND p.captured_at > ${w.dayAgo}::timestamptz AND p.captured_at < ${w.now}::timestamptz
             AND p.view_count IS NOT NULL
           ORDER BY p.captured_at LIMIT 1
        ) a ON true
        CROSS JOIN LATERAL (
          SELECT CASE WHEN count(*) >= ${OUTLIER_MIN_SAMPLE}::int THEN percentile_cont(0.5) WITHIN GROUP (ORDER BY o.view_count::float8) END AS median
            FROM (SELECT o.view_count FROM videos o
                   WHERE o.account_id = (SELECT id FROM owner) AND o.id IS DISTINCT FROM ${prevId}
                     AND o.posted_at IS NOT NULL AND o.view_count IS NOT NULL
                   ORDER BY o.posted_at DESC LIMIT ${OUTLIER_SAMPLE}::int) o
        ) m`;
}

/** The columns a video write sets, in the order of videoValuesSql. */
const VIDEO_WRITE_COLUMNS = Prisma.sql`(platform, platform_video_id, url, description, hashtags,
    view_count, like_count, comment_count, share_count, bookmark_count, engagement_rate,
    posted_at, duration_seconds, thumbnail_url, username, display_name, account_id,
    music_name, music_author, music_cover_url, language, data_source,
    scrape_status, scrape_error, scrape_attempts, last_scraped_at, updated_at, views_24h, outlier_score)`;

/** The new row, from the scrape, the `owner` and the `metrics` of the statement. */
function videoValuesSql(s: ScrapedVideo, w: VideoWrite): Prisma.Sql {
  const [views, likes, comments, shares, bookmarks] = w.counts;
  return Prisma.sql`
    ${w.platform}::"Platform", ${w.platformVideoId}, ${w.url}, ${s.description}, ${s.hashtags}::text[],
    ${views}::bigint, ${likes}::bigint, ${comments}::bigint, ${shares}::bigint, ${bookmarks}::bigint, ${engagementRate(s)}::float8,
    ${s.postedAt}::timestamptz, ${s.durationSeconds === null ? null : Math.round(s.durationSeconds)}::int, ${s.thumbnailUrl}, ${w.username}, ${s.displayName},
    owner.id, ${s.musicName}, ${s.musicAuthor}, ${s.musicCoverUrl}, ${s.language}, ${w.source},
    ${w.partial ? "queued" : "ready"}::"ScrapeStatus", NULL, 0, ${w.partial ? null : w.now}::timestamptz, ${w.now}::timestamptz,
    metrics.views_24h, metrics.outlier_score`;
}

/** A text column the new value replaces unless the source gave none (a scrape keeps what it now omits). */
const keep = (col: string) => Prisma.raw(`${col} = CASE WHEN EXCLUDED.${col} <> '' THEN EXCLUDED.${col} ELSE v.${col} END`);
/** A text column the new value fills only while it is unknown (a listing never overwrites). */
const fill = (col: string) => Prisma.raw(`${col} = CASE WHEN v.${col} = '' THEN EXCLUDED.${col} ELSE v.${col} END`);

/** A listing over a known video: links it to the account and fills in metadata still unknown; never its metrics. */
const LISTING_MERGE = Prisma.sql`DO UPDATE SET
        account_id = COALESCE(EXCLUDED.account_id, v.account_id),
        url = CASE WHEN v.username = '' THEN EXCLUDED.url ELSE v.url END,
        ${fill("username")}, ${fill("description")}, ${fill("thumbnail_url")}, ${fill("display_name")},
        posted_at = COALESCE(v.posted_at, EXCLUDED.posted_at),
        duration_seconds = COALESCE(v.duration_seconds, EXCLUDED.duration_seconds),
        hashtags = CASE WHEN cardinality(v.hashtags) = 0 THEN EXCLUDED.hashtags ELSE v.hashtags END,
        updated_at = EXCLUDED.updated_at`;

/** A full scrape over a known video: its numbers and state, unless the stored ones are newer (a late retried job). */
function scrapeMergeSql(nextRefreshAt: Date | null): Prisma.Sql {
  return Prisma.sql`DO UPDATE SET
        url = CASE WHEN EXCLUDED.username <> '' OR v.username = '' THEN EXCLUDED.url ELSE v.url END,
        ${keep("description")}, ${keep("thumbnail_url")}, ${keep("username")}, ${keep("display_name")},
        ${keep("music_name")}, ${keep("music_author")}, ${keep("music_cover_url")},
        hashtags = CASE WHEN EXCLUDED.description <> '' OR cardinality(EXCLUDED.hashtags) > 0 THEN EXCLUDED.hashtags ELSE v.hashtags END,
        view_count = EXCLUDED.view_count, like_count = EXCLUDED.like_count, comment_count = EXCLUDED.comment_count,
        share_count = EXCLUDED.share_count, bookmark_count = EXCLUDED.bookmark_count, engagement_rate = EXCLUDED.engagement_rate,
        posted_at = COALESCE(EXCLUDED.posted_at, v.posted_at),
        duration_seconds = COALESCE(EXCLUDED.duration_seconds, v.duration_seconds),
        language = COALESCE(EXCLUDED.language, v.language),
        account_id = COALESCE(EXCLUDED.account_id, v.account_id),
        data_source = EXCLUDED.data_source, scrape_status = 'ready', scrape_error = NULL, scrape_attempts = 0,
        last_scraped_at = EXCLUDED.last_scraped_at, updated_at = EXCLUDED.updated_at,
        views_24h = EXCLUDED.views_24h, outlier_score = EXCLUDED.outlier_score, refresh_failures = 0,
        next_refresh_at = CASE WHEN EXISTS (SELECT 1 FROM tracked_videos tv WHERE tv.video_id = v.id)
                               THEN ${nextRefreshAt}::timestamptz END
      WHERE v.last_scraped_at IS NULL OR v.last_scraped_at <= EXCLUDED.last_scraped_at`;
}

/** A listing writes no history. */
const NO_HISTORY = Prisma.sql`snap AS (SELECT 0), point AS (SELECT 0)`;

/** A full scrape's history: the day's row (the later capture wins) and the point, of the row written (`up`). */
function videoHistorySql(w: VideoWrite): Prisma.Sql {
  const [views, likes, comments, shares, bookmarks] = w.counts;
  return Prisma.sql`snap AS (
        INSERT INTO video_snapshots (video_id, day, captured_at, source, view_count, like_count, comment_count, share_count, bookmark_count)
        SELECT id, ${utcDay(w.now)}::date, ${w.now}::timestamptz, ${w.source},
               ${views}::bigint, ${likes}::bigint, ${comments}::bigint, ${shares}::bigint, ${bookmarks}::bigint
          FROM up
        ON CONFLICT (video_id, day) DO UPDATE SET
          captured_at = EXCLUDED.captured_at, source = EXCLUDED.source, view_count = EXCLUDED.view_count,
          like_count = EXCLUDED.like_count, comment_count = EXCLUDED.comment_count,
          share_count = EXCLUDED.share_count, bookmark_count = EXCLUDED.bookmark_count
        WHERE video_snapshots.captured_at <= EXCLUDED.captured_at
      ), point AS (
        INSERT INTO video_metric_points (video_id, captured_at, source, view_count, like_count, comment_count, share_count, bookmark_count)
        SELECT id, ${w.now}::timestamptz, ${w.source},
               ${views}::bigint, ${likes}::bigint, ${comments}::bigint, ${shares}::bigint, ${bookmarks}::bigint
          FROM up
        ON CONFLICT (video_id, captured_at) DO NOTHING
      )`;
}

/**
 * Links a video to the account of `handle` (created when missing), for the rare write whose
 * statement could not see an account created by a concurrent one at the same moment.
 */
async function linkOwner(videoId: string, platform: Platform, handle: string): Promise<string> {
  const [row] = await sql<{ id: string }>(Prisma.sql`
    WITH created AS (
      INSERT INTO accounts (platform, username) VALUES (${platform}::"Platform", ${handle})
      ON CONFLICT (platform, username) DO NOTHING RETURNING id
    ), owner AS (
      SELECT id FROM created UNION ALL SELECT id FROM accounts WHERE platform = ${platform}::"Platform" AND username = ${handle}
    )
    UPDATE videos SET account_id = (SELECT id FROM owner LIMIT 1) WHERE id = ${videoId}::uuid AND account_id IS NULL
    RETURNING account_id AS id`);
  if (row) return row.id;
  const [linked] = await sql<{ id: string }>(Prisma.sql`SELECT account_id AS id FROM videos WHERE id = ${videoId}::uuid`);
  return linked!.id;
}

/**
 * Writes an account scrape (profile metrics), its point and its day's row, in one statement, and
 * schedules its next refresh (`nextRefreshAt` while a workspace tracks it without pausing it, else null).
 */
export async function storeScrapedAccount(
  accountId: string,
  s: ScrapedAccount,
  opts: { source: string; now: Date; nextRefreshAt?: Date | null },
): Promise<boolean> {
  const [followers, videos, views] = [big(s.followerCount), big(s.videoCount), big(s.totalViews)];
  const rows = await sql<{ id: string }>(Prisma.sql`
    WITH up AS (
      UPDATE accounts a SET
        platform_account_id = COALESCE(${s.platformAccountId}, a.platform_account_id),
        display_name = CASE WHEN ${s.displayName} <> '' THEN ${s.displayName} ELSE a.display_name END,
        avatar_url = CASE WHEN ${s.avatarUrl} <> '' THEN ${s.avatarUrl} ELSE a.avatar_url END,
        follower_count = ${followers}::bigint, video_count = ${videos}::bigint, total_views = ${views}::bigint,
        data_source = ${opts.source}, scrape_status = 'ready', scrape_error = NULL,
        last_scraped_at = ${opts.now}::timestamptz, updated_at = ${opts.now}::timestamptz, refresh_failures = 0,
        next_refresh_at = CASE WHEN EXISTS (SELECT 1 FROM tracked_accounts ta WHERE ta.account_id = a.id AND ta.paused_at IS NULL)
                               THEN ${opts.nextRefreshAt ?? null}::timestamptz END
      WHERE a.id = ${accountId}::uuid AND (a.last_scraped_at IS NULL OR a.last_scraped_at <= ${opts.now}::timestamptz)
      RETURNING a.id
    ), snap AS (
      INSERT INTO account_snapshots (account_id, day, captured_at, source, follower_count, total_views, video_count)
      SELECT id, ${utcDay(opts.now)}::date, ${opts.now}::timestamptz, ${opts.source}, ${followers}::bigint, ${views}::bigint, ${videos}::bigint FROM up
      ON CONFLICT (account_id, day) DO UPDATE SET
        captured_at = EXCLUDED.captured_at, source = EXCLUDED.source, follower_count = EXCLUDED.follower_count,
        total_views = EXCLUDED.total_views, video_count = EXCLUDED.video_count
      WHERE account_snapshots.captured_at <= EXCLUDED.captured_at
    ), point AS (
      INSERT INTO account_metric_points (account_id, captured_at, source, follower_count, total_views, video_count)
      SELECT id, ${opts.now}::timestamptz, ${opts.source}, ${followers}::bigint, ${views}::bigint, ${videos}::bigint FROM up
      ON CONFLICT (account_id, captured_at) DO NOTHING
    )
    SELECT id FROM up`);
  return rows.length > 0;
}

/**
 * The most of the account's newest videos any workspace tracking it may track (0 when none tracks
 * it, or all have paused it): its videoLimit, within what its plan still allows
 * (ACCOUNT_VIDEO_ALLOWANCE, ./limits.ts). An account scrape lists and stores no more than this. A
 * workspace's rules (./rules.ts) choose among these newest videos; they do not make the listing deeper.
 */
export async function accountVideoDemand(accountId: string): Promise<number> {
  const [row] = await sql<{ n: number | null }>(
    Prisma.sql`SELECT max(${ACCOUNT_VIDEO_ALLOWANCE}) AS n FROM tracked_accounts ta JOIN ${LIMITS_FROM} ON w.id = ta.workspace_id
      WHERE ta.account_id = ${accountId}::uuid AND ta.paused_at IS NULL`,
  );
  return Number(row?.n ?? 0);
}

/** Which of these videos some workspace tracks (a listed video nobody could track is not scraped). */
export async function trackedAmong(videoIds: readonly string[]): Promise<string[]> {
  if (videoIds.length === 0) return [];
  const rows = await sql<{ id: string }>(
    Prisma.sql`SELECT v.id::text AS id FROM unnest(${videoIds as string[]}::uuid[]) AS v(id) WHERE EXISTS (SELECT 1 FROM tracked_videos tv WHERE tv.video_id = v.id)`,
  );
  return rows.map((r) => r.id);
}

/** trackAccountVideos for one workspace, in its transaction: the newest `wanted` within its limits. */
async function addAccountVideos(tx: Tx, accountId: string, workspaceId: string, wanted: string[], videoLimit: number) {
  const limits = await trackingLimits(workspaceId, { tx, lock: true });
  if (wanted.length === 0 || limits.additionsRemaining === 0) return [];
  const [already, ofAccount] = await Promise.all([
    tx.trackedVideo.findMany({ where: { workspaceId, videoId: { in: wanted } }, select: { videoId: true } }),
    tx.trackedVideo.count({ where: { workspaceId, video: { accountId } } }),
  ]);
  const have = new Set(already.map((r) => r.videoId));
  // videoLimit caps the account's tracked videos in the workspace, also as the account posts
  // more over time (older ones stay tracked until the user untracks them).
  const room = Math.max(0, videoLimit - ofAccount);
  const toAdd = wanted.filter((id) => !have.has(id)).slice(0, Math.min(room, limits.additionsRemaining));
  if (toAdd.length === 0) return [];
  return sql<{ videoId: string; trackedVideoId: string }>(
    Prisma.sql`INSERT INTO tracked_videos (workspace_id, video_id, via_account_id)
      SELECT ${workspaceId}::uuid, id, ${accountId}::uuid FROM unnest(${toAdd}::uuid[]) AS id
      ON CONFLICT (workspace_id, video_id) DO NOTHING
      RETURNING video_id AS "videoId", id AS "trackedVideoId"`,
    { tx },
  );
}

export interface AccountVideosTracked {
  workspaceId: string;
  trackedSince: Date;
  added: { videoId: string; trackedVideoId: string }[];
  /** The events `eventsOf` gave for these additions, recorded in their transaction (relayed after it). */
  eventIds: string[];
}

/**
 * For every workspace tracking the account: tracks the newest of `videoIds` (given newest first)
 * so that the workspace tracks at most the account's `videoLimit` of its videos, adding at most the
 * workspace's `additions_remaining` (under its row lock, so concurrent additions never exceed the
 * plan).
 * Returns the video ids newly tracked, per workspace, with when the workspace started tracking the
 * account (discovery events are for workspaces that already had the account's earlier videos). The
 * events `eventsOf` makes of a workspace's additions are recorded in the outbox in the transaction
 * that adds them: a job that dies after it finds those videos tracked on its retry (nothing new to
 * announce), and the sweep relays the events already committed.
 */
export async function trackAccountVideos(
  accountId: string,
  videoIds: string[],
  eventsOf: (tracked: Omit<AccountVideosTracked, "eventIds">) => NewWorkspaceEvent[] = () => [],
  now: Date = new Date(),
): Promise<AccountVideosTracked[]> {
  // A workspace that paused the account's tracking discovers nothing until it resumes.
  const trackers = await prisma.trackedAccount.findMany({
    where: { accountId, pausedAt: null },
    select: { id: true, workspaceId: true, videoLimit: true, createdAt: true, rules: true },
    orderBy: { createdAt: "asc" },
  });
  const facts = trackers.some((t) => hasRules(storedRules(t.rules))) ? await videoFacts(videoIds) : new Map<string, JudgedVideo>();
  const results: AccountVideosTracked[] = [];
  for (const { id: trackedAccountId, workspaceId, videoLimit, createdAt, rules } of trackers) {
    const ruled = storedRules(rules);
    const { passing, refused } = applyRules(ruled, videoIds, facts);
    results.push(
      await prisma.$transaction(async (tx) => {
        const added = await addAccountVideos(tx, accountId, workspaceId, passing.slice(0, videoLimit), videoLimit);
        // Without rules nothing is skipped (setting empty rules forgets the skips: ./account-controls.ts).
        if (hasRules(ruled)) await recordSkips(tx, trackedAccountId, workspaceId, passing, refused, now);
        const eventIds = await recordWorkspaceEvents(eventsOf({ workspaceId, trackedSince: createdAt, added }), tx);
        return { workspaceId, trackedSince: createdAt, added, eventIds };
      }),
    );
  }
  return results;
}

/** What the rules judge of each listed video: its stored row (the listing merged with what was known). */
async function videoFacts(videoIds: readonly string[]): Promise<Map<string, JudgedVideo>> {
  if (videoIds.length === 0) return new Map();
  const rows = await sql<JudgedVideo & { id: string }>(Prisma.sql`
    SELECT id, description, hashtags, duration_seconds AS "durationSeconds", posted_at AS "postedAt"
      FROM videos WHERE id = ANY(${videoIds as string[]}::uuid[])`);
  return new Map(rows.map((r) => [r.id, r]));
}

type Skip = { videoId: string } & Refusal;

/** The listed videos (newest first) the rules let in, and those they refuse with why. */
function applyRules(
  rules: AccountRules,
  videoIds: readonly string[],
  facts: ReadonlyMap<string, JudgedVideo>,
): { passing: string[]; refused: Skip[] } {
  if (!hasRules(rules)) return { passing: [...videoIds], refused: [] };
  const passing: string[] = [];
  const refused: Skip[] = [];
  for (const videoId of videoIds) {
    const v = facts.get(videoId);
    const refusal = v ? judgeVideo(rules, v) : null;
    if (refusal) refused.push({ videoId, ...refusal });
    else passing.push(videoId);
  }
  return { passing, refused };
}

/** The most skipped videos kept per tracked account (the newest), so a busy account's list stays bounded. */
export const MAX_SKIPPED_PER_ACCOUNT = 200;

/**
 * Records what the workspace's rules refused (a video it tracks already, e.g. by URL, is not a skip),
 * keeping when each was first skipped; forgets skips of videos the rules now let in (rules changed);
 * keeps the newest MAX_SKIPPED_PER_ACCOUNT. Idempotent: a retried scrape writes the same rows.
 */
async function recordSkips(
  tx: Tx,
  trackedAccountId: string,
  workspaceId: string,
  passing: string[],
  refused: Skip[],
  now: Date,
): Promise<void> {
  if (passing.length > 0) {
    await sqlExec(
      Prisma.sql`DELETE FROM account_skipped_videos WHERE tracked_account_id = ${trackedAccountId}::uuid AND video_id = ANY(${passing}::uuid[])`,
      { tx },
    );
  }
  if (refused.length === 0) return;
  await sqlExec(
    Prisma.sql`
    INSERT INTO account_skipped_videos (tracked_account_id, video_id, rule, reason, skipped_at)
    SELECT ${trackedAccountId}::uuid, s.video_id, s.rule, s.reason, ${now}::timestamptz
      FROM unnest(${refused.map((r) => r.videoId)}::uuid[], ${refused.map((r) => r.rule)}::text[], ${refused.map((r) => r.reason)}::text[]) AS s(video_id, rule, reason)
     WHERE NOT EXISTS (SELECT 1 FROM tracked_videos tv WHERE tv.workspace_id = ${workspaceId}::uuid AND tv.video_id = s.video_id)
    ON CONFLICT (tracked_account_id, video_id) DO UPDATE SET rule = EXCLUDED.rule, reason = EXCLUDED.reason`,
    { tx },
  );
  // A statement of its own: a data-modifying CTE's rows are not seen by the rest of its statement.
  await sqlExec(
    Prisma.sql`
    DELETE FROM account_skipped_videos d
     WHERE d.tracked_account_id = ${trackedAccountId}::uuid
       AND (d.skipped_at, d.video_id) < (
         SELECT k.skipped_at, k.video_id FROM account_skipped_videos k WHERE k.tracked_account_id = ${trackedAccountId}::uuid
          ORDER BY k.skipped_at DESC, k.video_id DESC OFFSET ${MAX_SKIPPED_PER_ACCOUNT - 1} LIMIT 1)`,
    { tx },
  );
}

/**
 * Fills today's snapshot, from the latest numbers, for every tracked account that has been scraped
 * but has no snapshot for the day yet (its capturedAt and source are those of the scrape that
 * produced the numbers; history reads leave such copies out, they are not points). Growth reads
 * account days (carrying values forward); nothing reads copied video days, so videos are not filled
 * (with weekly refreshes of old videos that would be six copies a week per video). Idempotent.
 */
export async function fillDailySnapshots(now: Date): Promise<{ accounts: number }> {
  const day = utcDay(now);
  const accounts = await sqlExec(Prisma.sql`
    INSERT INTO account_snapshots (account_id, day, captured_at, source, follower_count, total_views, video_count)
    SELECT a.id, ${day}::date, a.last_scraped_at, a.data_source, a.follower_count, a.total_views, a.video_count
      FROM accounts a
     WHERE a.last_scraped_at IS NOT NULL AND a.data_source IS NOT NULL
       AND EXISTS (SELECT 1 FROM tracked_accounts ta WHERE ta.account_id = a.id)
    ON CONFLICT (account_id, day) DO NOTHING`);
  return { accounts };
}

export type ScheduledKind = "video" | "account";
const SCHEDULED_TABLE: Record<ScheduledKind, Prisma.Sql> = { video: Prisma.raw("videos"), account: Prisma.raw("accounts") };

/**
 * Claims up to `limit` items due at `now`, earliest first, through the partial index on
 * next_refresh_at (never a scan of every item): each claimed item's next_refresh_at moves a lease
 * ahead, so a concurrent scheduler skips it (SKIP LOCKED) and takes the next ones, and an item whose
 * scrape job is lost is due again when the lease ends. Returns each item with the due time it was
 * claimed for (the scrape job's id names it, so one due time is enqueued once).
 */
export async function claimDue(kind: ScheduledKind, now: Date, limit: number, leaseMs: number): Promise<{ id: string; dueAt: Date }[]> {
  const table = SCHEDULED_TABLE[kind];
  return sql<{ id: string; dueAt: Date }>(
    Prisma.sql`
    WITH due AS (
      SELECT id, next_refresh_at FROM ${table}
       WHERE next_refresh_at <= ${now}::timestamptz
       ORDER BY next_refresh_at
       LIMIT ${limit}::int
       FOR UPDATE SKIP LOCKED
    )
    UPDATE ${table} r SET next_refresh_at = ${new Date(now.getTime() + leaseMs)}::timestamptz
      FROM due WHERE r.id = due.id
    RETURNING r.id, due.next_refresh_at AS "dueAt"`,
    { prepare: true },
  );
}
