/**
 * Storing what scrapes find: video and account records, their daily snapshots, scrape states and
 * failures, the videos an account scrape tracks for each workspace, and what is due for refresh.
 * Called by the scrape jobs (./scrape-jobs.ts); every write is idempotent, so a retried job or
 * a job of a killed worker run again never duplicates a row.
 *
 * Scrape states: queued → scraping → ready; a scrape that fails is retried with backoff (state back
 * to queued, `scrapeError` says why) and after the last attempt, or at once when the provider says
 * retrying cannot help, the state is `failed` with the reason kept. A video that was `ready` keeps
 * its numbers and stays `ready` when a later refresh fails; `scrapeError` then says why.
 *
 * Snapshots: one row per record and UTC day (unique key), written by every scrape (the last scrape
 * of the day wins; an older, retried result never overwrites a newer one) and filled daily for
 * records not scraped that day from their latest numbers. Each snapshot records the provider
 * (`source`) and when the numbers were captured (`capturedAt`).
 */
import { Prisma, type Platform } from "../../generated/prisma/client.js";
import { prisma, sql, sqlExec } from "../../infra/db.js";
import type { AccountRef, ScrapedAccount, ScrapedVideo, VideoRef } from "./ports.js";
import { engagementRate } from "./engagement.js";
import { trackingLimits } from "./limits.js";
import { canonicalAccountUrl, canonicalVideoUrl } from "../shared/platform.js";

/** `YYYY-MM-DD` of the UTC day of `at`: the snapshot day. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

const big = (v: number | null) => (v === null ? null : BigInt(Math.max(0, Math.round(v))));

export interface ScrapeTarget<R> {
  ref: R;
  scrapeStatus: "queued" | "scraping" | "ready" | "failed";
}

/**
 * Starts a video's scrape, in one round trip: moves it queued/failed → scraping (a ready video
 * stays ready while it is refreshed) and returns what to hand the provider, the canonical URL
 * rebuilt from its stored ids (platform A links need the username; a video found through an
 * account has it from the account). Null when the video no longer exists.
 */
export async function startVideoScrape(videoId: string): Promise<(ScrapeTarget<VideoRef> & { started: boolean }) | null> {
  const rows = await sql<{ platform: Platform; platformVideoId: string; username: string; accountUsername: string | null; scrapeStatus: ScrapeTarget<VideoRef>["scrapeStatus"]; started: boolean }>(Prisma.sql`
    WITH started AS (
      UPDATE videos SET scrape_status = 'scraping', scrape_attempts = scrape_attempts + 1, updated_at = now()
       WHERE id = ${videoId}::uuid AND scrape_status IN ('queued', 'failed')
      RETURNING id
    )
    SELECT v.platform::text AS platform, v.platform_video_id AS "platformVideoId", v.username, a.username AS "accountUsername",
           v.scrape_status::text AS "scrapeStatus", EXISTS (SELECT 1 FROM started) AS started
      FROM videos v LEFT JOIN accounts a ON a.id = v.account_id
     WHERE v.id = ${videoId}::uuid`, { prepare: true });
  const v = rows[0];
  if (!v) return null;
  const username = v.username || v.accountUsername || undefined;
  const ids = { platform: v.platform, platformVideoId: v.platformVideoId, ...(username ? { username } : {}) };
  return { ref: { ...ids, canonicalUrl: canonicalVideoUrl(ids) }, scrapeStatus: v.scrapeStatus, started: v.started };
}

export async function accountScrapeTarget(accountId: string): Promise<ScrapeTarget<AccountRef> | null> {
  const a = await prisma.account.findUnique({ where: { id: accountId }, select: { platform: true, username: true, scrapeStatus: true } });
  if (!a) return null;
  const ids = { platform: a.platform, username: a.username };
  return { ref: { ...ids, canonicalUrl: canonicalAccountUrl(ids) }, scrapeStatus: a.scrapeStatus };
}

export async function markAccountScraping(accountId: string): Promise<boolean> {
  const n = await sqlExec(Prisma.sql`
    UPDATE accounts SET scrape_status = 'scraping', updated_at = now()
     WHERE id = ${accountId}::uuid AND scrape_status IN ('queued', 'failed')`);
  return n > 0;
}

/**
 * A failed attempt. Not final: back to `queued` (a retry is scheduled) with the reason. Final:
 * `failed` with the reason, except that a `ready` record keeps its state and numbers.
 */
export async function recordVideoScrapeFailure(videoId: string, reason: string, final: boolean): Promise<void> {
  const next = final ? "failed" : "queued";
  await sqlExec(Prisma.sql`
    UPDATE videos SET scrape_error = ${reason.slice(0, 2000)}, updated_at = now(),
           scrape_status = CASE WHEN scrape_status = 'ready' THEN 'ready'::"ScrapeStatus" ELSE ${next}::"ScrapeStatus" END
     WHERE id = ${videoId}::uuid`);
}

export async function recordAccountScrapeFailure(accountId: string, reason: string, final: boolean): Promise<void> {
  const next = final ? "failed" : "queued";
  await sqlExec(Prisma.sql`
    UPDATE accounts SET scrape_error = ${reason.slice(0, 2000)}, updated_at = now(),
           scrape_status = CASE WHEN scrape_status = 'ready' THEN 'ready'::"ScrapeStatus" ELSE ${next}::"ScrapeStatus" END
     WHERE id = ${accountId}::uuid`);
}

export interface StoredVideo {
  id: string;
  /** The row was created by this write. */
  inserted: boolean;
  /** The row needs a scrape of the video itself (it was only listed and is not ready). */
  needsScrape: boolean;
}

/**
 * Writes a scraped video, in one statement (atomic without a transaction): the record, keyed by
 * (platform, platformVideoId), and, for a full scrape, its snapshot of the day.
 *
 * - Full scrape: metrics are the source's (null where it gives none), engagement recomputed,
 *   metadata kept when the source now omits it, state `ready`. Skipped when the stored numbers
 *   are newer (a retried, older job finishing late).
 * - Partial (an account's flat listing): creates the record if new (state `queued`, to be scraped
 *   itself), otherwise only links it to the account and fills in metadata still unknown; metrics of
 *   a listing never overwrite those of a scrape.
 */
export async function storeScrapedVideo(
  s: ScrapedVideo,
  opts: { source: string; now: Date; accountId?: string; ids?: { platform: Platform; platformVideoId: string } },
): Promise<StoredVideo | null> {
  const platform = opts.ids?.platform ?? s.platform;
  const platformVideoId = opts.ids?.platformVideoId ?? s.platformVideoId;
  const username = s.username.toLowerCase();
  const url = canonicalVideoUrl({ platform, platformVideoId, ...(username ? { username } : {}) });
  const partial = s.partial === true;
  const rate = engagementRate(s);
  const accountId = opts.accountId ?? null;
  const counts = [big(s.viewCount), big(s.likeCount), big(s.commentCount), big(s.shareCount), big(s.bookmarkCount)];
  const values = Prisma.sql`(
    ${platform}::"Platform", ${platformVideoId}, ${url}, ${s.description}, ${s.hashtags}::text[],
    ${counts[0]}::bigint, ${counts[1]}::bigint, ${counts[2]}::bigint, ${counts[3]}::bigint, ${counts[4]}::bigint, ${rate}::float8,
    ${s.postedAt}::timestamptz, ${s.durationSeconds === null ? null : Math.round(s.durationSeconds)}::int, ${s.thumbnailUrl}, ${username}, ${s.displayName},
    COALESCE(${accountId}::uuid, (SELECT a.id FROM accounts a WHERE a.platform = ${platform}::"Platform" AND a.username = ${username} AND ${username} <> '')),
    ${s.musicName}, ${s.musicAuthor}, ${s.musicCoverUrl}, ${s.language}, ${opts.source},
    ${partial ? "queued" : "ready"}::"ScrapeStatus", NULL, 0, ${partial ? null : opts.now}::timestamptz, ${opts.now}::timestamptz)`;
  const columns = Prisma.sql`(platform, platform_video_id, url, description, hashtags,
    view_count, like_count, comment_count, share_count, bookmark_count, engagement_rate,
    posted_at, duration_seconds, thumbnail_url, username, display_name, account_id,
    music_name, music_author, music_cover_url, language, data_source,
    scrape_status, scrape_error, scrape_attempts, last_scraped_at, updated_at)`;
  const keep = (col: string) => Prisma.raw(`${col} = CASE WHEN EXCLUDED.${col} <> '' THEN EXCLUDED.${col} ELSE v.${col} END`);
  const fill = (col: string) => Prisma.raw(`${col} = CASE WHEN v.${col} = '' THEN EXCLUDED.${col} ELSE v.${col} END`);
  const onConflict = partial
    ? Prisma.sql`DO UPDATE SET
        account_id = COALESCE(EXCLUDED.account_id, v.account_id),
        url = CASE WHEN v.username = '' THEN EXCLUDED.url ELSE v.url END,
        ${fill("username")}, ${fill("description")}, ${fill("thumbnail_url")}, ${fill("display_name")},
        posted_at = COALESCE(v.posted_at, EXCLUDED.posted_at),
        duration_seconds = COALESCE(v.duration_seconds, EXCLUDED.duration_seconds),
        hashtags = CASE WHEN cardinality(v.hashtags) = 0 THEN EXCLUDED.hashtags ELSE v.hashtags END,
        updated_at = EXCLUDED.updated_at`
    : Prisma.sql`DO UPDATE SET
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
        last_scraped_at = EXCLUDED.last_scraped_at, updated_at = EXCLUDED.updated_at
      WHERE v.last_scraped_at IS NULL OR v.last_scraped_at <= EXCLUDED.last_scraped_at`;
  const snapshot = partial
    ? Prisma.sql`SELECT 0`
    : Prisma.sql`INSERT INTO video_snapshots (video_id, day, captured_at, source, view_count, like_count, comment_count, share_count, bookmark_count)
        SELECT id, ${utcDay(opts.now)}::date, ${opts.now}::timestamptz, ${opts.source},
               ${counts[0]}::bigint, ${counts[1]}::bigint, ${counts[2]}::bigint, ${counts[3]}::bigint, ${counts[4]}::bigint
          FROM up
        ON CONFLICT (video_id, day) DO UPDATE SET
          captured_at = EXCLUDED.captured_at, source = EXCLUDED.source, view_count = EXCLUDED.view_count,
          like_count = EXCLUDED.like_count, comment_count = EXCLUDED.comment_count,
          share_count = EXCLUDED.share_count, bookmark_count = EXCLUDED.bookmark_count
        WHERE video_snapshots.captured_at <= EXCLUDED.captured_at`;
  const rows = await sql<{ id: string; inserted: boolean; scrapeStatus: string }>(Prisma.sql`
    WITH up AS (
      INSERT INTO videos AS v ${columns} VALUES ${values}
      ON CONFLICT (platform, platform_video_id) ${onConflict}
      RETURNING id, (xmax = 0) AS inserted, scrape_status
    ), snap AS (${snapshot})
    SELECT id, inserted, scrape_status::text AS "scrapeStatus" FROM up`);
  const row = rows[0];
  if (!row) return null; // a newer scrape already stored newer numbers
  return { id: row.id, inserted: row.inserted, needsScrape: row.scrapeStatus !== "ready" };
}

/** Writes an account scrape (profile metrics) and its snapshot of the day, in one statement. */
export async function storeScrapedAccount(accountId: string, s: ScrapedAccount, opts: { source: string; now: Date }): Promise<boolean> {
  const [followers, videos, views] = [big(s.followerCount), big(s.videoCount), big(s.totalViews)];
  const rows = await sql<{ id: string }>(Prisma.sql`
    WITH up AS (
      UPDATE accounts a SET
        platform_account_id = COALESCE(${s.platformAccountId}, a.platform_account_id),
        display_name = CASE WHEN ${s.displayName} <> '' THEN ${s.displayName} ELSE a.display_name END,
        avatar_url = CASE WHEN ${s.avatarUrl} <> '' THEN ${s.avatarUrl} ELSE a.avatar_url END,
        follower_count = ${followers}::bigint, video_count = ${videos}::bigint, total_views = ${views}::bigint,
        data_source = ${opts.source}, scrape_status = 'ready', scrape_error = NULL,
        last_scraped_at = ${opts.now}::timestamptz, updated_at = ${opts.now}::timestamptz
      WHERE a.id = ${accountId}::uuid AND (a.last_scraped_at IS NULL OR a.last_scraped_at <= ${opts.now}::timestamptz)
      RETURNING a.id
    ), snap AS (
      INSERT INTO account_snapshots (account_id, day, captured_at, source, follower_count, total_views, video_count)
      SELECT id, ${utcDay(opts.now)}::date, ${opts.now}::timestamptz, ${opts.source}, ${followers}::bigint, ${views}::bigint, ${videos}::bigint FROM up
      ON CONFLICT (account_id, day) DO UPDATE SET
        captured_at = EXCLUDED.captured_at, source = EXCLUDED.source, follower_count = EXCLUDED.follower_count,
        total_views = EXCLUDED.total_views, video_count = EXCLUDED.video_count
      WHERE account_snapshots.captured_at <= EXCLUDED.captured_at
    )
    SELECT id FROM up`);
  return rows.length > 0;
}

/** The most videos any workspace tracking the account wants from it (0 when none tracks it). */
export async function accountVideoDemand(accountId: string): Promise<number> {
  const agg = await prisma.trackedAccount.aggregate({ where: { accountId }, _max: { videoLimit: true } });
  return agg._max.videoLimit ?? 0;
}

/**
 * For every workspace tracking the account: tracks the newest of `videoIds` (given newest first)
 * so that the workspace tracks at most the account's `videoLimit` of its videos, adding at most the
 * workspace's `additions_remaining` (under its row lock, so concurrent additions never exceed the
 * plan).
 * Returns the video ids newly tracked, per workspace.
 */
export async function trackAccountVideos(accountId: string, videoIds: string[]): Promise<{ workspaceId: string; added: string[] }[]> {
  const trackers = await prisma.trackedAccount.findMany({ where: { accountId }, select: { workspaceId: true, videoLimit: true }, orderBy: { createdAt: "asc" } });
  const results: { workspaceId: string; added: string[] }[] = [];
  for (const { workspaceId, videoLimit } of trackers) {
    const added = await prisma.$transaction(async (tx) => {
      const limits = await trackingLimits(workspaceId, { tx, lock: true });
      const wanted = videoIds.slice(0, videoLimit);
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
      const rows = await sql<{ videoId: string }>(
        Prisma.sql`INSERT INTO tracked_videos (workspace_id, video_id, via_account_id)
          SELECT ${workspaceId}::uuid, id, ${accountId}::uuid FROM unnest(${toAdd}::uuid[]) AS id
          ON CONFLICT (workspace_id, video_id) DO NOTHING
          RETURNING video_id AS "videoId"`,
        { tx },
      );
      return rows.map((r) => r.videoId);
    });
    results.push({ workspaceId, added });
  }
  return results;
}

/**
 * Fills today's snapshot, from the latest numbers, for every tracked video and account that has
 * been scraped but has no snapshot for the day yet (its capturedAt and source are those of the
 * scrape that produced the numbers). Idempotent.
 */
export async function fillDailySnapshots(now: Date): Promise<{ videos: number; accounts: number }> {
  const day = utcDay(now);
  const videos = await sqlExec(Prisma.sql`
    INSERT INTO video_snapshots (video_id, day, captured_at, source, view_count, like_count, comment_count, share_count, bookmark_count)
    SELECT v.id, ${day}::date, v.last_scraped_at, v.data_source, v.view_count, v.like_count, v.comment_count, v.share_count, v.bookmark_count
      FROM videos v
     WHERE v.last_scraped_at IS NOT NULL AND v.data_source IS NOT NULL
       AND EXISTS (SELECT 1 FROM tracked_videos tv WHERE tv.video_id = v.id)
    ON CONFLICT (video_id, day) DO NOTHING`);
  const accounts = await sqlExec(Prisma.sql`
    INSERT INTO account_snapshots (account_id, day, captured_at, source, follower_count, total_views, video_count)
    SELECT a.id, ${day}::date, a.last_scraped_at, a.data_source, a.follower_count, a.total_views, a.video_count
      FROM accounts a
     WHERE a.last_scraped_at IS NOT NULL AND a.data_source IS NOT NULL
       AND EXISTS (SELECT 1 FROM tracked_accounts ta WHERE ta.account_id = a.id)
    ON CONFLICT (account_id, day) DO NOTHING`);
  return { videos, accounts };
}

/**
 * Ids of tracked videos (by any workspace) not scraped since `before`, in id order, in batches
 * (keyset pagination, so a large service never loads them all at once).
 */
export async function* trackedVideosDue(before: Date, batchSize = 1000): AsyncGenerator<string[]> {
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    const rows = await sql<{ id: string }>(Prisma.sql`
      SELECT v.id FROM videos v
       WHERE v.id > ${after}::uuid
         AND (v.last_scraped_at IS NULL OR v.last_scraped_at < ${before}::timestamptz)
         AND EXISTS (SELECT 1 FROM tracked_videos tv WHERE tv.video_id = v.id)
       ORDER BY v.id LIMIT ${batchSize}`);
    if (rows.length === 0) return;
    yield rows.map((r) => r.id);
    after = rows[rows.length - 1]!.id;
  }
}

export async function* trackedAccountsDue(before: Date, batchSize = 1000): AsyncGenerator<string[]> {
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    const rows = await sql<{ id: string }>(Prisma.sql`
      SELECT a.id FROM accounts a
       WHERE a.id > ${after}::uuid
         AND (a.last_scraped_at IS NULL OR a.last_scraped_at < ${before}::timestamptz)
         AND EXISTS (SELECT 1 FROM tracked_accounts ta WHERE ta.account_id = a.id)
       ORDER BY a.id LIMIT ${batchSize}`);
    if (rows.length === 0) return;
    yield rows.map((r) => r.id);
    after = rows[rows.length - 1]!.id;
  }
}
