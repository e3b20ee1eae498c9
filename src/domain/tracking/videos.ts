/**
 * Tracked videos: track by URL, list, read, bulk untrack. Videos are global (one row per platform
 * video, shared by every workspace that tracks it, scraped once); a workspace's tracking of a video
 * is a TrackedVideo row, at most one per workspace and video.
 */
import { Prisma, type Video } from "../../generated/prisma/client.js";
import { pgPool, prisma } from "../../infra/db.js";
import { logger } from "../../infra/logger.js";
import { DomainError, notFound } from "../shared/errors.js";
import { enqueueVideoScrape } from "./jobs.js";
import { parseVideoUrl } from "./urls.js";
import { sqlRows } from "./sql-old.js";

export interface TrackVideoResult {
  trackedVideoId: string;
  videoId: string;
  /** True when this call created the (global) video record, false when it already existed. */
  isNew: boolean;
}

/** A video as a workspace sees it: the global record plus the workspace's tracking record. */
export type TrackedVideoView = Video & { trackedVideoId: string; trackedAt: Date };

/**
 * Starts tracking the video at `url` for the workspace.
 * INVALID_URL (400) when the link is not an accepted video link; ALREADY_TRACKED (409) when the
 * workspace tracks it already; VIDEO_LIMIT_REACHED (403) when the plan's limit is used up.
 * A new video is queued for scraping; an existing one is not scraped again (its metrics serve
 * every workspace), unless its last scrape failed.
 */
export async function trackVideo(workspaceId: string, url: string): Promise<TrackVideoResult> {
  const ref = parseVideoUrl(url);
  // Fast answers without writing, in one round trip: already tracked, or no slot left (re-checked
  // under the lock below).
  const [state] = await sqlRows<{ video_id: string | null; scrape_status: string | null; tracked: boolean; video_limit: number; used: number }>(Prisma.sql`
    SELECT v.id AS video_id, v.scrape_status::text AS scrape_status, p.video_limit, w.tracked_video_count AS used,
           EXISTS (SELECT 1 FROM tracked_videos tv WHERE tv.workspace_id = w.id AND tv.video_id = v.id) AS tracked
      FROM workspaces w JOIN plans p ON p.name = w.plan_name
      LEFT JOIN videos v ON v.platform = ${ref.platform}::"Platform" AND v.platform_video_id = ${ref.platformVideoId}
     WHERE w.id = ${workspaceId}::uuid`);
  if (!state) throw notFound("Workspace");
  if (state.tracked) throw alreadyTracked();
  if (state.used >= state.video_limit) throw limitReached(state.video_limit);

  let videoId = state.video_id;
  let isNew = false;
  if (!videoId) {
    // Videos are global: another workspace may insert the same one at this moment; the unique key
    // decides who creates it. Linked to its account when that account is known.
    const inserted = await sqlRows<{ id: string }>(Prisma.sql`
      INSERT INTO videos (platform, platform_video_id, url, username, account_id)
      VALUES (${ref.platform}::"Platform", ${ref.platformVideoId}, ${ref.canonicalUrl}, ${ref.username ?? ""},
              (SELECT id FROM accounts WHERE platform = ${ref.platform}::"Platform" AND username = ${ref.username ?? ""}))
      ON CONFLICT (platform, platform_video_id) DO NOTHING
      RETURNING id`);
    isNew = inserted.length === 1;
    videoId =
      inserted[0]?.id ??
      (await prisma.video.findUniqueOrThrow({
        where: { platform_platformVideoId: { platform: ref.platform, platformVideoId: ref.platformVideoId } },
        select: { id: true },
      })).id;
  }

  // The limit, race-free: one statement locks the workspace row, reads the trigger-maintained
  // count under the lock and inserts only below the limit. Concurrent additions serialise on the
  // lock for this one statement only. (The SQL below restates trackingLimits() in
  // src/domain/workspace/service.ts: additions remain while the count is under the plan's limit.)
  const tracked = await sqlRows<{ id: string }>(Prisma.sql`
    WITH w AS (
      SELECT w.id FROM workspaces w JOIN plans p ON p.name = w.plan_name
       WHERE w.id = ${workspaceId}::uuid AND w.tracked_video_count < p.video_limit
         FOR UPDATE OF w
    )
    INSERT INTO tracked_videos (workspace_id, video_id)
    SELECT w.id, ${videoId}::uuid FROM w
    ON CONFLICT (workspace_id, video_id) DO NOTHING
    RETURNING id`);
  if (!tracked[0]) {
    // Lost a race: a concurrent request tracked this video, or took the last slot.
    const again = await prisma.trackedVideo.findUnique({ where: { workspaceId_videoId: { workspaceId, videoId } }, select: { id: true } });
    throw again ? alreadyTracked() : limitReached(state.video_limit);
  }
  if (isNew || state.scrape_status === "failed") {
    // After commit; if Redis is down the periodic refresh picks the video up later.
    await enqueueVideoScrape(videoId, `track-${tracked[0].id}`).catch((e) =>
      logger.warn({ err: (e as Error).message, videoId }, "could not enqueue scrape-video"),
    );
  }
  return { trackedVideoId: tracked[0].id, videoId, isNew };
}

const alreadyTracked = () => new DomainError("ALREADY_TRACKED", "This video is already tracked in the workspace.");

export function limitReached(videoLimit: number): DomainError {
  return new DomainError(
    "VIDEO_LIMIT_REACHED",
    `The plan's video tracking limit (${videoLimit} videos) is reached: untrack videos or change plan to add more.`,
  );
}

/**
 * Extra relations or a narrower selection of the video, as GraphQL's query planner asks for them
 * (so nested fields load in the same query); REST passes nothing and gets the whole record.
 */
export type VideoQuery = { include?: Prisma.VideoInclude; select?: Prisma.VideoSelect };

/** `true` (every column) unless a query selects or includes something. */
export const relationQuery = <Q extends { include?: unknown; select?: unknown }>(q?: Q): Q | true =>
  q && (q.include || q.select) ? q : true;

export interface Page<T> {
  items: T[];
  total: number;
}

/**
 * The workspace's tracked videos, newest tracked first (ties by tracking id), `limit`/`offset`
 * paginated. Served by the index tracked_videos (workspace_id, created_at DESC, id); the total is
 * the workspace's trigger-maintained count.
 */
export async function listTrackedVideos(
  workspaceId: string,
  page: { limit: number; offset: number },
  videoQuery?: VideoQuery,
): Promise<Page<TrackedVideoView>> {
  // The hottest read of the service (bench/tracking.ts): one statement, one round trip, through
  // node-postgres directly (Prisma's per-row result mapping costs more CPU than the query itself).
  // The LEFT JOIN LATERAL still answers the total when the page is empty.
  // Named: each pooled connection parses and plans it once.
  const { rows } = await pgPool.query({
    name: "tracked-videos-page",
    text: `SELECT w.tracked_video_count AS total, p.*
       FROM workspaces w
       LEFT JOIN LATERAL (
         SELECT ${TRACKED_VIDEO_COLUMNS}
           FROM tracked_videos tv JOIN videos v ON v.id = tv.video_id
          WHERE tv.workspace_id = w.id
          ORDER BY tv.created_at DESC, tv.id
          LIMIT $2 OFFSET $3
       ) p ON true
      WHERE w.id = $1`,
    values: [workspaceId, page.limit, page.offset],
  });
  const items = rows.filter((r) => r.id !== null).map(trackedVideoFromRow);
  return { items: await withRelations(items, videoQuery), total: rows[0]?.total ?? 0 };
}

/** One video the workspace tracks; NOT_FOUND for any other id (another workspace's included). */
export async function getTrackedVideo(workspaceId: string, videoId: string, videoQuery?: VideoQuery): Promise<TrackedVideoView> {
  const { rows } = await pgPool.query({
    name: "tracked-video-one",
    text: `SELECT ${TRACKED_VIDEO_COLUMNS} FROM tracked_videos tv JOIN videos v ON v.id = tv.video_id
      WHERE tv.workspace_id = $1 AND tv.video_id = $2`,
    values: [workspaceId, videoId],
  });
  if (!rows[0]) throw notFound("Video");
  return (await withRelations([trackedVideoFromRow(rows[0])], videoQuery))[0]!;
}

/** Every column of the Video model (alias `v`) and of the tracking record (alias `tv`). */
const TRACKED_VIDEO_COLUMNS = `tv.id AS tracked_video_id, tv.created_at AS tracked_at,
  v.id, v.platform::text AS platform, v.platform_video_id, v.url, v.description, v.hashtags, v.view_count, v.like_count,
  v.comment_count, v.share_count, v.bookmark_count, v.engagement_rate, v.posted_at, v.duration_seconds, v.thumbnail_url,
  v.username, v.display_name, v.account_id, v.music_name, v.music_author, v.music_cover_url, v.language, v.data_source,
  v.scrape_status::text AS scrape_status, v.scrape_error, v.scrape_attempts, v.last_scraped_at, v.created_at, v.updated_at`;

/** node-postgres gives BIGINT as a string: the model's type is bigint. */
const bigOrNull = (v: string | null): bigint | null => (v === null ? null : BigInt(v));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function trackedVideoFromRow(r: any): TrackedVideoView {
  return {
    trackedVideoId: r.tracked_video_id,
    trackedAt: r.tracked_at,
    id: r.id,
    platform: r.platform,
    platformVideoId: r.platform_video_id,
    url: r.url,
    description: r.description,
    hashtags: r.hashtags,
    viewCount: bigOrNull(r.view_count),
    likeCount: bigOrNull(r.like_count),
    commentCount: bigOrNull(r.comment_count),
    shareCount: bigOrNull(r.share_count),
    bookmarkCount: bigOrNull(r.bookmark_count),
    engagementRate: r.engagement_rate,
    postedAt: r.posted_at,
    durationSeconds: r.duration_seconds,
    thumbnailUrl: r.thumbnail_url,
    username: r.username,
    displayName: r.display_name,
    accountId: r.account_id,
    musicName: r.music_name,
    musicAuthor: r.music_author,
    musicCoverUrl: r.music_cover_url,
    language: r.language,
    dataSource: r.data_source,
    scrapeStatus: r.scrape_status,
    scrapeError: r.scrape_error,
    scrapeAttempts: r.scrape_attempts,
    lastScrapedAt: r.last_scraped_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/**
 * GraphQL asks for relations of the videos (their account …): loaded in one query for the whole
 * page (never one per video) and merged in page order.
 */
async function withRelations(items: TrackedVideoView[], videoQuery?: VideoQuery): Promise<TrackedVideoView[]> {
  if (!videoQuery || (!videoQuery.include && !videoQuery.select) || items.length === 0) return items;
  const loaded = (await prisma.video.findMany({ ...videoQuery, where: { id: { in: items.map((v) => v.id) } } })) as Video[];
  const byId = new Map(loaded.map((v) => [v.id, v]));
  return items.map((v) => ({ ...v, ...byId.get(v.id) }));
}

export const MAX_BULK_IDS = 50;

export interface BulkItemResult {
  id: string;
  success: boolean;
  error?: string;
}

/**
 * Untracks each id independently; one result per id, in the order given. An id the workspace does
 * not track fails with "Video not found."; a repeated id fails with a duplicate note (the first
 * occurrence did the work). The global video record stays (other workspaces may track it).
 */
export async function untrackVideos(workspaceId: string, ids: string[]): Promise<BulkItemResult[]> {
  // UUIDs compare case-insensitively (PostgreSQL answers lower case).
  const distinct = [...new Set(ids.map((id) => id.toLowerCase()))];
  const removed = distinct.length
    ? await prisma.$queryRaw<{ video_id: string }[]>`
        DELETE FROM tracked_videos WHERE workspace_id = ${workspaceId}::uuid AND video_id = ANY(${distinct}::uuid[])
        RETURNING video_id`
    : [];
  const gone = new Set(removed.map((r) => r.video_id));
  const seen = new Set<string>();
  return ids.map((id) => {
    const key = id.toLowerCase();
    if (seen.has(key)) return { id, success: false, error: "Duplicate id in this request: it was processed once." };
    seen.add(key);
    return gone.has(key) ? { id, success: true } : { id, success: false, error: "Video not found." };
  });
}
