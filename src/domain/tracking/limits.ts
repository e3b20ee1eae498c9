/**
 * The plan's tracking limit, checked race-free: every addition of tracked videos for a workspace
 * runs in a transaction that first locks the workspace row, so two concurrent additions at the
 * limit are serialised and the second sees the first one's row (and its count).
 * `tracked_video_count` is kept exact by database triggers (migration 20261122020000).
 */
import type { Tx } from "../../infra/db.js";
import { notFound } from "../shared/errors.js";
import { trackingLimits } from "../workspace/service.js";

export interface LockedLimits {
  videoLimit: number;
  videoSlotsUsed: number;
  additionsRemaining: number;
}

/** Locks the workspace row until the end of `tx` and returns its tracking limits. */
export async function lockTrackingLimits(tx: Tx, workspaceId: string): Promise<LockedLimits> {
  const rows = await tx.$queryRaw<{ video_limit: number; used: number }[]>`
    SELECT p.video_limit, w.tracked_video_count AS used
      FROM workspaces w JOIN plans p ON p.name = w.plan_name
     WHERE w.id = ${workspaceId}::uuid
       FOR UPDATE OF w`;
  const row = rows[0];
  if (!row) throw notFound("Workspace");
  return trackingLimits(row.video_limit, row.used);
}
