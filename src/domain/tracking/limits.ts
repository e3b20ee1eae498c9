/**
 * The plan's tracking limit, written once: additions remaining = the plan's `video_limit` minus
 * the slots used, never below 0. Slots used = the distinct videos the workspace tracks, added
 * directly or found through a tracked account (one TrackedVideo row per video), read from
 * `workspaces.tracked_video_count`, which database triggers keep exact (migration 20261122020000).
 *
 * The rule is the SQL expression ADDITIONS_REMAINING: every reader (GET /workspace, the fast
 * answers of POST /videos) and every writer (the locked insert of a tracked video, account
 * scrapes) evaluates that same expression, so there is nothing to keep in step.
 *
 * Race-free: an addition locks the workspace row (`FOR UPDATE`) in the statement or transaction
 * that inserts, so two concurrent additions at the limit serialise and the second sees the first
 * one's row and count.
 */
import { Prisma } from "../../generated/prisma/client.js";
import { sql, type Tx } from "../../infra/db.js";
import { DomainError, notFound } from "../shared/errors.js";

/** `FROM` of the rule: the workspace `w` and its plan `p`. */
export const LIMITS_FROM = Prisma.sql`workspaces w JOIN plans p ON p.name = w.plan_name`;
/** The rule, over LIMITS_FROM. */
export const ADDITIONS_REMAINING = Prisma.sql`GREATEST(p.video_limit - w.tracked_video_count, 0)`;

export interface TrackingLimits {
  videoLimit: number;
  videoSlotsUsed: number;
  additionsRemaining: number;
}

const LIMIT_COLUMNS = Prisma.sql`p.video_limit AS "videoLimit", w.tracked_video_count AS "videoSlotsUsed", ${ADDITIONS_REMAINING} AS "additionsRemaining"`;

/**
 * The workspace's tracking limits. With `lock` (inside `tx`), the workspace row stays locked until
 * the end of the transaction: what an addition checks is then what it may add.
 */
export async function trackingLimits(workspaceId: string, opts: { tx?: Tx; lock?: boolean } = {}): Promise<TrackingLimits> {
  const lock = opts.lock ? Prisma.sql`FOR UPDATE OF w` : Prisma.empty;
  const [row] = await sql<TrackingLimits>(Prisma.sql`SELECT ${LIMIT_COLUMNS} FROM ${LIMITS_FROM} WHERE w.id = ${workspaceId}::uuid ${lock}`, { tx: opts.tx });
  if (!row) throw notFound("Workspace");
  return row;
}

export function limitReached(videoLimit: number): DomainError {
  return new DomainError(
    "VIDEO_LIMIT_REACHED",
    `The plan's video tracking limit (${videoLimit} videos) is reached: untrack videos or change plan to add more.`,
  );
}
