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
import { Prisma } from "../../generated/prisma/client.ts";
import { sql, type Tx } from "../../infra/db.ts";
import { DomainError, notFound } from "../shared/errors.ts";
import { relayWorkspaceEvents, workspaceEventsInsertSql } from "../webhooks/outbox.ts";

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
  const [row] = await sql<TrackingLimits>(
    Prisma.sql`SELECT ${LIMIT_COLUMNS} FROM ${LIMITS_FROM} WHERE w.id = ${workspaceId}::uuid ${lock}`,
    { tx: opts.tx },
  );
  if (!row) throw notFound("Workspace");
  return row;
}

/**
 * Accounts bounded by the plan (README "Plans and credits"): the videos an account brings
 * take slots like any other, so what a workspace may make the service scrape through an account is
 * what it may still track.
 *
 * - ACCOUNT_VIDEO_ALLOWANCE, over LIMITS_FROM and a tracked account `ta`: how many of the account's
 *   newest videos the workspace may end up tracking: its `videoLimit`, and at most the videos of the
 *   account it tracks already plus its additions remaining. An account scrape lists, stores and queues
 *   no more than the largest allowance among the workspaces tracking it (scrape.ts,
 *   `accountVideoDemand`): a workspace with one slot left makes it list one video, not 500.
 * - PENDING_ACCOUNTS, over a workspace `w`: its tracked accounts none of whose videos it tracks yet
 *   (queued, or listed nothing). Each holds one of the additions remaining, so a new account is only
 *   accepted while additions remain beyond them: four parallel POST /accounts on a workspace with one
 *   slot left add one account, not four.
 */
/** The rule in words, for every door's description of tracking an account (REST, GraphQL, MCP). */
export const ACCOUNT_PLAN_BOUND =
  "An account's videos take tracking slots like any other video, and the account brings only what the plan still allows: its scrape lists, " +
  "stores and scrapes at most min(video_limit, additions_remaining) of its newest videos (counting those of the account the workspace tracks " +
  "already), never videos the workspace could not track. An account none of whose videos are tracked yet (queued, or its listing was empty) " +
  "holds one of the additions remaining, so a new account is `failed` unless additions remain beyond such pending accounts.";

const ACCOUNT_VIDEOS_TRACKED = Prisma.sql`(SELECT count(*) FROM tracked_videos tv JOIN videos v ON v.id = tv.video_id
  WHERE tv.workspace_id = ta.workspace_id AND v.account_id = ta.account_id)`;
export const ACCOUNT_VIDEO_ALLOWANCE = Prisma.sql`LEAST(ta.video_limit, ${ACCOUNT_VIDEOS_TRACKED} + ${ADDITIONS_REMAINING})`;
export const PENDING_ACCOUNTS = Prisma.sql`(SELECT count(*) FROM tracked_accounts ta WHERE ta.workspace_id = w.id AND NOT EXISTS (
  SELECT 1 FROM tracked_videos tv JOIN videos v ON v.id = tv.video_id WHERE tv.workspace_id = ta.workspace_id AND v.account_id = ta.account_id))`;

/**
 * How many more accounts the workspace may start tracking now: additions remaining beyond its
 * pending accounts. Locks the workspace row in `tx` first, then counts in a statement of its own: its
 * snapshot then sees the accounts that concurrent additions committed while this one waited.
 */
export async function accountAdditionsRemaining(workspaceId: string, tx: Tx): Promise<number> {
  await trackingLimits(workspaceId, { tx, lock: true });
  const [row] = await sql<{ n: number }>(
    Prisma.sql`SELECT GREATEST(${ADDITIONS_REMAINING} - ${PENDING_ACCOUNTS}, 0) AS n FROM ${LIMITS_FROM} WHERE w.id = ${workspaceId}::uuid`,
    { tx },
  );
  return row!.n;
}

/**
 * VIDEO_LIMIT_REACHED for a refused addition, recorded as the workspace event `plan.limit_reached`
 * (its owners' alert, its webhooks) at most once a day per workspace: one statement inserts it only
 * when the workspace has none from the last 24 hours. The refusal itself is answered whatever happens here.
 */
export async function limitReachedFor(workspaceId: string, videoLimit: number): Promise<DomainError> {
  try {
    const rows = await sql<{ id: string }>(Prisma.sql`
      WITH e AS (${workspaceEventsInsertSql(Prisma.sql`
        SELECT ${workspaceId}::uuid, 'plan.limit_reached', jsonb_build_object('limit', 'videos', 'videoLimit', ${videoLimit}::int)
         WHERE NOT EXISTS (SELECT 1 FROM workspace_events WHERE workspace_id = ${workspaceId}::uuid AND type = 'plan.limit_reached'
                                                           AND created_at > clock_timestamp() - interval '1 day')`)})
      SELECT id FROM e`);
    await relayWorkspaceEvents(rows.map((r) => r.id));
  } catch {
    // The event is a notice; the answer (403) does not depend on it.
  }
  return limitReached(videoLimit);
}

export function limitReached(videoLimit: number): DomainError {
  return new DomainError(
    "VIDEO_LIMIT_REACHED",
    `The plan's video tracking limit (${videoLimit} videos) is reached: untrack videos or change plan to add more.`,
  );
}
