/**
 * Tracked videos: track by URL, list, read, bulk untrack. Videos are global (one row per platform
 * video, shared by every workspace that tracks it, scraped once); a workspace's tracking of a video
 * is a TrackedVideo row, at most one per workspace and video.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { prisma, sql } from "../../infra/db.ts";
import { logger } from "../../infra/logger.ts";
import { DomainError, notFound } from "../shared/errors.ts";
import { pageSql, type PageRequest, type Page } from "../shared/pages.ts";
import type { BulkItemResult } from "../shared/inputs.ts";
import { HELD_VIDEO, heldVideos, type Changer } from "../actors/payout-holds.ts";
import { announceTracking } from "./events.ts";
import { enqueueVideoScrape } from "./jobs.ts";
import { ADDITIONS_REMAINING, LIMITS_FROM, limitReachedFor } from "./limits.ts";
import { parseVideoUrl } from "./urls.ts";
import {
  ownerRead,
  type OwnerFields,
  type OwnerRead,
  TRACKED_VIDEO_COLUMNS,
  trackedVideosOrder,
  videoFilterSql,
  type TrackedVideoRecord,
  type VideoListOptions,
} from "./views.ts";

export interface TrackVideoResult {
  trackedVideoId: string;
  videoId: string;
  /** True when this call created the (global) video record, or found one nobody tracks that was never scraped
   *  (its scrape is queued now); false when it already existed otherwise. */
  isNew: boolean;
}

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
  const [state] = await sql<{
    videoId: string | null;
    scrapeStatus: string | null;
    tracked: boolean;
    videoLimit: number;
    additionsRemaining: number;
  }>(Prisma.sql`
    SELECT v.id AS "videoId", v.scrape_status::text AS "scrapeStatus", p.video_limit AS "videoLimit",
           ${ADDITIONS_REMAINING} AS "additionsRemaining",
           EXISTS (SELECT 1 FROM tracked_videos tv WHERE tv.workspace_id = w.id AND tv.video_id = v.id) AS tracked
      FROM ${LIMITS_FROM}
      LEFT JOIN videos v ON v.platform = ${ref.platform}::"Platform" AND v.platform_video_id = ${ref.platformVideoId}
     WHERE w.id = ${workspaceId}::uuid`);
  if (!state) throw notFound("Workspace");
  if (state.tracked) throw alreadyTracked();
  if (state.additionsRemaining === 0) throw await limitReachedFor(workspaceId, state.videoLimit);

  // One transaction: the global video row and the workspace's tracking commit together, or neither (a
  // crash or a refusal in between leaves no video that nobody tracks and nobody scrapes).
  const outcome = await prisma
    .$transaction(async (tx) => {
      // Videos are global: another workspace may insert the same one at this moment; the unique key
      // decides who creates it, and the loser reads the winner's row. Linked to its account when that
      // account is known.
      const [inserted] = await sql<{ id: string }>(
        Prisma.sql`
      INSERT INTO videos (platform, platform_video_id, url, username, account_id)
      VALUES (${ref.platform}::"Platform", ${ref.platformVideoId}, ${ref.canonicalUrl}, ${ref.username ?? ""},
              (SELECT id FROM accounts WHERE platform = ${ref.platform}::"Platform" AND username = ${ref.username ?? ""}))
      ON CONFLICT (platform, platform_video_id) DO NOTHING
      RETURNING id`,
        { tx },
      );
      // An existing video nobody tracks and that was never scraped (left by an earlier version's crash between
      // its two statements, or untracked before its first scrape) has no scrape coming: it is new to this call.
      const [video] = inserted
        ? [{ id: inserted.id, unscraped: true }]
        : await sql<{ id: string; unscraped: boolean }>(
            Prisma.sql`
          SELECT v.id, (v.last_scraped_at IS NULL AND NOT EXISTS (SELECT 1 FROM tracked_videos tv WHERE tv.video_id = v.id)) AS unscraped
            FROM videos v WHERE v.platform = ${ref.platform}::"Platform" AND v.platform_video_id = ${ref.platformVideoId}`,
            { tx },
          );
      // The limit, race-free: one statement locks the workspace row, evaluates the rule under the lock
      // and inserts only while additions remain. Concurrent additions serialise on the lock until the commit.
      const [tracked] = await sql<{ id: string }>(
        Prisma.sql`
      WITH w AS (
        SELECT w.id FROM ${LIMITS_FROM}
         WHERE w.id = ${workspaceId}::uuid AND ${ADDITIONS_REMAINING} > 0
           FOR UPDATE OF w
      )
      INSERT INTO tracked_videos (workspace_id, video_id)
      SELECT w.id, ${video!.id}::uuid FROM w
      ON CONFLICT (workspace_id, video_id) DO NOTHING
      RETURNING id`,
        { tx },
      );
      // Lost a race (a concurrent request tracked this video, or took the last slot): nothing is kept.
      if (!tracked) throw new NotTracked("not tracked");
      return { videoId: video!.id, trackedVideoId: tracked.id, isNew: video!.unscraped };
    })
    .catch(async (e: unknown) => {
      if (!(e instanceof NotTracked)) throw e;
      const again = await sql<{ id: string }>(
        Prisma.sql`SELECT tv.id FROM tracked_videos tv JOIN videos v ON v.id = tv.video_id
                  WHERE tv.workspace_id = ${workspaceId}::uuid AND v.platform = ${ref.platform}::"Platform" AND v.platform_video_id = ${ref.platformVideoId}`,
      );
      throw again.length ? alreadyTracked() : await limitReachedFor(workspaceId, state.videoLimit);
    });
  const { videoId, trackedVideoId, isNew } = outcome;
  await announceTracking(workspaceId, [videoId], "added");
  if (isNew || state.scrapeStatus === "failed") {
    // After commit; if Redis is down the periodic refresh picks the video up later.
    await enqueueVideoScrape(videoId, `track-${trackedVideoId}`).catch((e) =>
      logger.warn({ err: (e as Error).message, videoId }, "could not enqueue scrape-video"),
    );
  }
  return { trackedVideoId, videoId, isNew };
}

/** Thrown inside trackVideo's transaction to roll it back when the tracking row was not inserted. */
class NotTracked extends Error {}

const alreadyTracked = () => new DomainError("ALREADY_TRACKED", "This video is already tracked in the workspace.");

/**
 * A page of the workspace's tracked videos (TRACKED_VIDEOS_ORDER), with the total: one statement
 * (the hottest read of the service, bench/tracking.ts), served by the index tracked_videos
 * (workspace_id, created_at DESC, id); the total is the workspace's trigger-maintained count, and
 * the LEFT JOIN LATERAL still answers it when the page is empty.
 *
 * `list` (GET /videos' platform, q, sort, order) changes only the order (trackedVideosOrder) and
 * adds predicates (videoFilterSql); with a filter the total counts the matching videos. Without
 * `list` it is the statement above, and answers as before. `read.owners` reads each video's owner
 * account in the same statement: all of it (as `accountsByIds` answers it), or only the fields asked for
 * (`ownerRead`); `readOwner` (./views.ts) answers it.
 */
export async function listTrackedVideos(
  workspaceId: string,
  page: PageRequest,
  list: VideoListOptions = {},
  read: { owners?: OwnerFields } = {},
): Promise<Page<TrackedVideoRecord>> {
  const p = pageSql(trackedVideosOrder(list.sort, list.order), page);
  const filter = videoFilterSql(list);
  // With a filter, the total is the matching videos, counted once (a lateral, not a per-row subquery).
  const [count, counted] =
    filter === Prisma.empty
      ? [Prisma.sql`w.tracked_video_count`, Prisma.empty]
      : [
          Prisma.sql`c.n`,
          Prisma.sql`CROSS JOIN LATERAL (SELECT count(*)::int AS n FROM tracked_videos tv JOIN videos v ON v.id = tv.video_id WHERE tv.workspace_id = w.id ${filter}) c`,
        ];
  // Each video's owner account, when asked, joined after the page is cut (one lookup per row of the
  // page; LIMIT 1 keeps it a nested loop, so the page's order is kept).
  const [ownerColumns, owners] = read.owners ? ownerJoin(ownerRead(read.owners)) : [Prisma.empty, Prisma.empty];
  const rows = await sql<TrackedVideoRecord & { total: number }>(
    Prisma.sql`SELECT ${count} AS total, p.* ${ownerColumns}
       FROM workspaces w ${counted}
       LEFT JOIN LATERAL (
         SELECT ${TRACKED_VIDEO_COLUMNS}
           FROM tracked_videos tv JOIN videos v ON v.id = tv.video_id
          WHERE tv.workspace_id = w.id ${filter} ${p.where}
          ${p.orderBy} ${p.limit}
       ) p ON true
       ${owners}
      WHERE w.id = ${workspaceId}::uuid`,
    { prepare: true },
  );
  const total = rows[0]?.total ?? 0;
  // The rows are the records (each keeps the `total` column, and the owner's, which no door reads): no copy per row.
  const items: TrackedVideoRecord[] = rows[0]?.id === null ? [] : rows;
  return { items, total };
}

/** The owner's columns and the lateral join that reads them (the workspace's tracking of it only when asked). */
function ownerJoin(read: OwnerRead): [Prisma.Sql, Prisma.Sql] {
  const tracking = read.tracking
    ? Prisma.sql`LEFT JOIN tracked_accounts ta ON ta.account_id = a.id AND ta.workspace_id = w.id`
    : Prisma.empty;
  return [
    Prisma.sql`, o.*`,
    Prisma.sql`LEFT JOIN LATERAL (
       SELECT ${read.columns} FROM accounts a ${tracking}
        WHERE a.id = p."accountId" LIMIT 1
     ) o ON true`,
  ];
}

/** Tracked videos by id, in any order; ids the workspace does not track are left out. */
export async function trackedVideosByIds(workspaceId: string, videoIds: readonly string[]): Promise<TrackedVideoRecord[]> {
  if (videoIds.length === 0) return [];
  return sql<TrackedVideoRecord>(
    Prisma.sql`SELECT ${TRACKED_VIDEO_COLUMNS} FROM tracked_videos tv JOIN videos v ON v.id = tv.video_id
      WHERE tv.workspace_id = ${workspaceId}::uuid AND tv.video_id = ANY(${videoIds as string[]}::uuid[])`,
    { prepare: true },
  );
}

/** One video the workspace tracks; NOT_FOUND for any other id (another workspace's included). */
export async function getTrackedVideo(workspaceId: string, videoId: string): Promise<TrackedVideoRecord> {
  const [video] = await trackedVideosByIds(workspaceId, [videoId]);
  if (!video) throw notFound("Video");
  return video;
}

/**
 * Untracks each id independently; one result per id, in the order given. An id the workspace does
 * not track fails with "Video not found."; a repeated id fails with a duplicate note (the first
 * occurrence did the work). The global video record stays (other workspaces may track it).
 */
export async function untrackVideos(actor: Changer, ids: string[]): Promise<BulkItemResult[]> {
  const workspaceId = actor.workspaceId;
  // UUIDs compare case-insensitively (PostgreSQL answers lower case).
  const asked = [...new Set(ids.map((id) => id.toLowerCase()))];
  // A video an active campaign may pay for stays tracked unless an owner asks (actors/payout-holds.ts).
  const held = await heldVideos(actor, asked);
  const distinct = asked.filter((id) => !held.has(id));
  const removed = distinct.length
    ? await sql<{ videoId: string }>(Prisma.sql`
        DELETE FROM tracked_videos WHERE workspace_id = ${workspaceId}::uuid AND video_id = ANY(${distinct}::uuid[])
        RETURNING video_id AS "videoId"`)
    : [];
  const gone = new Set(removed.map((r) => r.videoId));
  await announceTracking(workspaceId, [...gone], "removed");
  const seen = new Set<string>();
  return ids.map((id) => {
    const key = id.toLowerCase();
    if (seen.has(key)) return { id, success: false, error: "Duplicate id in this request: it was processed once." };
    seen.add(key);
    if (held.has(key)) return { id, success: false, error: HELD_VIDEO };
    return gone.has(key) ? { id, success: true } : { id, success: false, error: "Video not found." };
  });
}
