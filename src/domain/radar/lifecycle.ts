/**
 * State changes of a radar search, each a compare-and-set on `status` so that a retried job, a
 * second worker and the sweep can race without harm:
 *
 *   pending ──start──► searching ──complete──► completed
 *      │                   │
 *      └──────fail─────────┴──────────────────► failed   (+ refund of the 100 credits, same transaction)
 *
 * - `complete` writes the results (delete-and-insert), `resultCount` and `completedAt` in one
 *   transaction, and only if the search is still `searching`: a search the sweep has failed (and
 *   refunded) is never completed afterwards.
 * - `fail` moves the status and refunds in one transaction; the refund's idempotency key
 *   (`radar:<id>:refund`) makes it once-only even if two processes fail the same search.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { prisma, sql } from "../../infra/db.ts";
import { creditsChanged, refund } from "../credits/service.ts";
import { logger } from "../../infra/logger.ts";
import type { RankedResult } from "./ranking.ts";
import { chargeKey, refundKey } from "./service.ts";
import { announceSearch } from "./events.ts";
import { enqueueSearch } from "./jobs.ts";
import { recordWorkspaceEvents, relayWorkspaceEvents } from "../webhooks/outbox.ts";

/** Longest error text stored on a search. */
const MAX_ERROR_LENGTH = 2000;
const clip = (s: string) => (s.length > MAX_ERROR_LENGTH ? `${s.slice(0, MAX_ERROR_LENGTH - 1)}…` : s);

/** pending → searching. Returns false when the search is gone or already finished (nothing to do). */
export async function startSearch(searchId: string): Promise<boolean> {
  const moved = await prisma.radarSearch.updateMany({ where: { id: searchId, status: "pending" }, data: { status: "searching" } });
  if (moved.count === 1) {
    announceSearch({ id: searchId, status: "searching", resultCount: 0, error: null });
    return true;
  }
  const s = await prisma.radarSearch.findUnique({ where: { id: searchId }, select: { status: true } });
  // A retry (or a job re-run after a killed worker) finds it `searching` and carries on.
  return s?.status === "searching";
}

/** Stores the generated queries once: a retry reuses them, so the search stays one search. */
export async function saveQueries(searchId: string, queries: string[]): Promise<void> {
  await prisma.radarSearch.updateMany({ where: { id: searchId, status: "searching" }, data: { queries } });
}

/**
 * searching → completed with the ranked results. `note` (e.g. a provider that failed while others
 * answered) is kept in `error`. Returns false when the search was no longer `searching`.
 */
export async function completeSearch(searchId: string, results: RankedResult[], note: string | null): Promise<boolean> {
  const completedAt = new Date();
  let eventIds: string[] = [];
  const done = await prisma.$transaction(async (tx) => {
    // Lock the row first: the sweep's fail takes the same lock, so exactly one of them wins.
    const locked = await sql<{ status: string; workspaceId: string; query: string }>(
      Prisma.sql`SELECT status::text AS status, workspace_id AS "workspaceId", query FROM radar_searches WHERE id = ${searchId}::uuid FOR UPDATE`,
      { tx },
    );
    if (locked[0]?.status !== "searching") return false;
    const { workspaceId, query } = locked[0];
    await tx.radarResult.deleteMany({ where: { searchId } });
    if (results.length > 0) {
      await tx.radarResult.createMany({
        data: results.map((r, i) => ({
          searchId,
          rank: i + 1,
          videoId: r.videoId,
          platform: r.platform,
          platformVideoId: r.platformVideoId,
          url: r.url,
          description: r.description,
          username: r.username,
          viewCount: r.viewCount === null ? null : BigInt(Math.round(r.viewCount)),
          likeCount: r.likeCount === null ? null : BigInt(Math.round(r.likeCount)),
          commentCount: r.commentCount === null ? null : BigInt(Math.round(r.commentCount)),
          shareCount: r.shareCount === null ? null : BigInt(Math.round(r.shareCount)),
          engagementRate: r.engagementRate,
          postedAt: r.postedAt,
          thumbnailUrl: r.thumbnailUrl,
          score: r.score,
          matchedQuery: r.matchedQuery,
        })),
      });
    }
    await tx.radarSearch.update({
      where: { id: searchId },
      data: { status: "completed", resultCount: results.length, completedAt, error: note === null ? null : clip(note) },
    });
    eventIds = await recordWorkspaceEvents(
      [
        {
          workspaceId,
          type: "radar.completed",
          data: { searchId, query, status: "completed", resultCount: results.length, note, completedAt: completedAt.toISOString() },
        },
      ],
      tx,
    );
    return true;
  });
  if (done) {
    announceSearch({ id: searchId, status: "completed", resultCount: results.length, error: note });
    await relayWorkspaceEvents(eventIds);
  }
  return done;
}

/**
 * pending|searching → failed with `error`, refunding the 100 credits in the same transaction.
 * Idempotent: failing a failed search changes nothing and refunds nothing; a completed search is
 * never failed. Returns true when this call made the change.
 */
export async function failSearch(searchId: string, error: string): Promise<boolean> {
  let workspaceId = "";
  let eventIds: string[] = [];
  const failed = await prisma.$transaction(async (tx) => {
    const [row] = await sql<{ status: string; workspaceId: string; query: string }>(
      Prisma.sql`SELECT status::text AS status, workspace_id AS "workspaceId", query FROM radar_searches WHERE id = ${searchId}::uuid FOR UPDATE`,
      { tx },
    );
    if (!row || (row.status !== "pending" && row.status !== "searching")) return false;
    workspaceId = row.workspaceId;
    const failedAt = new Date();
    await tx.radarSearch.update({ where: { id: searchId }, data: { status: "failed", error: clip(error), completedAt: failedAt } });
    await refund(
      { workspaceId, chargeKey: chargeKey(searchId), refundKey: refundKey(searchId), reason: `radar search ${searchId} failed` },
      tx,
    );
    eventIds = await recordWorkspaceEvents(
      [
        {
          workspaceId,
          type: "radar.failed",
          data: { searchId, query: row.query, status: "failed", error: clip(error), refunded: true, failedAt: failedAt.toISOString() },
        },
      ],
      tx,
    );
    return true;
  });
  if (failed) {
    announceSearch({ id: searchId, status: "failed", resultCount: 0, error: clip(error) });
    creditsChanged(workspaceId);
    await relayWorkspaceEvents(eventIds);
  }
  return failed;
}

/** A search not finished this long after creation is failed and refunded by the sweep. */
export const RADAR_DEADLINE_MS = 30 * 60_000;

/** A search still `pending` this long after creation is put on the queue again (its job may have been lost). */
const REQUEUE_PENDING_AFTER_MS = 60_000;

/**
 * The sweep (a job scheduler on the radar queue): re-enqueues searches stuck in `pending` (lost
 * enqueue: the job id is the search id, so this never runs a search twice) and fails, with the
 * refund, every search not finished `deadlineMs` after creation (a job that exhausted its attempts
 * through stalls, a worker killed more often than BullMQ's stalled-job limit, a hung provider).
 */
export async function sweepStaleSearches(deadlineMs: number, now = new Date()): Promise<{ requeued: number; failed: number }> {
  const overdue = await prisma.radarSearch.findMany({
    where: { status: { in: ["pending", "searching"] }, createdAt: { lt: new Date(now.getTime() - deadlineMs) } },
    select: { id: true },
    take: 500,
  });
  let failed = 0;
  for (const { id } of overdue) {
    if (
      await failSearch(
        id,
        `The search did not finish within ${Math.round(deadlineMs / 1000)} seconds and was stopped; its credits were refunded.`,
      )
    )
      failed++;
  }
  const pending = await prisma.radarSearch.findMany({
    where: { status: "pending", createdAt: { lt: new Date(now.getTime() - REQUEUE_PENDING_AFTER_MS) } },
    select: { id: true },
    take: 500,
  });
  for (const { id } of pending) await enqueueSearch(id);
  if (failed > 0 || pending.length > 0) logger.info({ failed, requeued: pending.length }, "radar sweep");
  return { requeued: pending.length, failed };
}
