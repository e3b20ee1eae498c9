/**
 * Tracked videos: track by URL, list, read, bulk untrack. Videos are global (one row per platform
 * video, shared by every workspace that tracks it, scraped once); a workspace's tracking of a video
 * is a TrackedVideo row, at most one per workspace and video.
 */
import type { Prisma, Video } from "../../generated/prisma/client.js";
import { prisma } from "../../infra/db.js";
import { logger } from "../../infra/logger.js";
import { DomainError, notFound } from "../errors.js";
import { enqueueVideoScrape } from "./jobs.js";
import { parseVideoUrl } from "./urls.js";

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
  const key = { platform: ref.platform, platformVideoId: ref.platformVideoId };
  // Fast answers without writing: already tracked, or no slot left (re-checked under the lock below).
  const [existing, limits] = await Promise.all([
    prisma.video.findUnique({
      where: { platform_platformVideoId: key },
      select: { id: true, scrapeStatus: true, tracked: { where: { workspaceId }, select: { id: true } } },
    }),
    getLimits(workspaceId),
  ]);
  if (existing?.tracked.length) throw alreadyTracked();
  if (limits.additionsRemaining === 0) throw limitReached(limits.videoLimit);

  let videoId = existing?.id;
  let isNew = false;
  if (!videoId) {
    // Videos are global: another workspace may insert the same one at this moment; the unique key
    // decides who creates it. Linked to its account when that account is known.
    const inserted = await prisma.$queryRaw<{ id: string }[]>`
      INSERT INTO videos (platform, platform_video_id, url, username, account_id)
      VALUES (${ref.platform}::"Platform", ${ref.platformVideoId}, ${ref.canonicalUrl}, ${ref.username ?? ""},
              (SELECT id FROM accounts WHERE platform = ${ref.platform}::"Platform" AND username = ${ref.username ?? ""}))
      ON CONFLICT (platform, platform_video_id) DO NOTHING
      RETURNING id`;
    isNew = inserted.length === 1;
    videoId = inserted[0]?.id ?? (await prisma.video.findUniqueOrThrow({ where: { platform_platformVideoId: key }, select: { id: true } })).id;
  }

  // The limit, race-free: one statement locks the workspace row, reads the trigger-maintained
  // count under the lock and inserts only below the limit. Concurrent additions serialise on the
  // lock for this one statement only.
  const tracked = await prisma.$queryRaw<{ id: string }[]>`
    WITH w AS (
      SELECT w.id FROM workspaces w JOIN plans p ON p.name = w.plan_name
       WHERE w.id = ${workspaceId}::uuid AND w.tracked_video_count < p.video_limit
         FOR UPDATE OF w
    )
    INSERT INTO tracked_videos (workspace_id, video_id)
    SELECT w.id, ${videoId}::uuid FROM w
    ON CONFLICT (workspace_id, video_id) DO NOTHING
    RETURNING id`;
  if (!tracked[0]) {
    // Lost a race: a concurrent request tracked this video, or took the last slot.
    const again = await prisma.trackedVideo.findUnique({ where: { workspaceId_videoId: { workspaceId, videoId } }, select: { id: true } });
    throw again ? alreadyTracked() : limitReached(limits.videoLimit);
  }
  if (isNew || existing?.scrapeStatus === "failed") {
    // After commit; if Redis is down the periodic refresh picks the video up later.
    await enqueueVideoScrape(videoId, `track-${tracked[0].id}`).catch((e) =>
      logger.warn({ err: (e as Error).message, videoId }, "could not enqueue scrape-video"),
    );
  }
  return { trackedVideoId: tracked[0].id, videoId, isNew };
}

const alreadyTracked = () => new DomainError("ALREADY_TRACKED", "This video is already tracked in the workspace.");

/** The workspace's limit and slots, read without locking (the insert re-checks under the lock). */
async function getLimits(workspaceId: string) {
  const ws = await prisma.workspace.findUnique({ where: { id: workspaceId }, select: { trackedVideoCount: true, plan: { select: { videoLimit: true } } } });
  if (!ws) throw notFound("Workspace");
  return { videoLimit: ws.plan.videoLimit, additionsRemaining: Math.max(ws.plan.videoLimit - ws.trackedVideoCount, 0) };
}

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
  const [rows, ws] = await Promise.all([
    prisma.trackedVideo.findMany({
      where: { workspaceId },
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      take: page.limit,
      skip: page.offset,
      select: { id: true, createdAt: true, video: relationQuery(videoQuery) },
    }),
    prisma.workspace.findUnique({ where: { id: workspaceId }, select: { trackedVideoCount: true } }),
  ]);
  return { items: rows.map((r) => ({ ...r.video, trackedVideoId: r.id, trackedAt: r.createdAt })), total: ws?.trackedVideoCount ?? 0 };
}

/** One video the workspace tracks; NOT_FOUND for any other id (another workspace's included). */
export async function getTrackedVideo(workspaceId: string, videoId: string, videoQuery?: VideoQuery): Promise<TrackedVideoView> {
  const row = await prisma.trackedVideo.findUnique({
    where: { workspaceId_videoId: { workspaceId, videoId } },
    select: { id: true, createdAt: true, video: relationQuery(videoQuery) },
  });
  if (!row) throw notFound("Video");
  return { ...row.video, trackedVideoId: row.id, trackedAt: row.createdAt };
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
