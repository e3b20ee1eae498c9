/**
 * Refresh requests (POST /videos/{id}/refresh, POST /accounts/{id}/refresh, GraphQL refreshVideo,
 * refreshAccount): docs/contract/decisions.md, "Metric history and refresh".
 *
 * A request makes the item due now (next_refresh_at = now) and queues its scrape at once, as the job
 * of that due time (`<kind>-<id>-due-<ms>`, ./jobs.ts): if the scheduler claims the item in the same
 * minute it names the same job, which BullMQ adds once; if Redis is unreachable the scheduler takes
 * the due item within its next run. Spacing: a request within REFRESH_MIN_INTERVAL_SECONDS of the
 * item's last scrape or last refresh request is 429 REFRESH_TOO_SOON, with the seconds to wait.
 * The check and the write are one conditional UPDATE, so two simultaneous requests queue one scrape.
 * Items are global: a request by any workspace tracking the item refreshes it for all of them, and
 * counts for all of them.
 */
import { config } from "../../config.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { sql } from "../../infra/db.ts";
import { logger } from "../../infra/logger.ts";
import { DomainError, notFound } from "../shared/errors.ts";
import { dueJobReason, enqueueAccountScrape, enqueueVideoScrape, REFRESH_JOB_OPTIONS } from "./jobs.ts";

/** 429: the item was scraped or refreshed too recently; `retryAfterSeconds` says when to ask again. */
export class RefreshTooSoonError extends DomainError {
  override readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number, what: string) {
    super(
      "REFRESH_TOO_SOON",
      `This ${what} was scraped or refreshed less than ${Math.round(config.refresh.minIntervalMs / 1000)} seconds ago: retry in ${retryAfterSeconds} seconds.`,
    );
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export interface RefreshQueued {
  id: string;
  /** When the refresh is due: now (its scrape is queued). */
  nextRefreshAt: Date;
}

interface Refreshable {
  table: "videos" | "accounts";
  what: "video" | "account";
  tracked: (workspaceId: string) => Prisma.Sql;
  enqueue: (id: string, reason: string) => Promise<void>;
}

const VIDEOS: Refreshable = {
  table: "videos",
  what: "video",
  tracked: (ws) => Prisma.sql`SELECT 1 FROM tracked_videos t WHERE t.workspace_id = ${ws}::uuid AND t.video_id = r.id`,
  enqueue: (id, reason) => enqueueVideoScrape(id, reason, REFRESH_JOB_OPTIONS),
};
const ACCOUNTS: Refreshable = {
  table: "accounts",
  what: "account",
  tracked: (ws) => Prisma.sql`SELECT 1 FROM tracked_accounts t WHERE t.workspace_id = ${ws}::uuid AND t.account_id = r.id`,
  enqueue: (id, reason) => enqueueAccountScrape(id, reason, REFRESH_JOB_OPTIONS),
};

async function requestRefresh(
  kind: Refreshable,
  workspaceId: string,
  id: string,
  now: Date,
  minIntervalMs: number,
): Promise<RefreshQueued> {
  const table = Prisma.raw(kind.table);
  const [row] = await sql<{ id: string; nextRefreshAt: Date }>(Prisma.sql`
    UPDATE ${table} r SET refresh_requested_at = ${now}::timestamptz, next_refresh_at = ${now}::timestamptz
     WHERE r.id = ${id}::uuid AND EXISTS (${kind.tracked(workspaceId)})
       AND COALESCE(GREATEST(r.last_scraped_at, r.refresh_requested_at), '-infinity') <= ${new Date(now.getTime() - minIntervalMs)}::timestamptz
    RETURNING r.id, r.next_refresh_at AS "nextRefreshAt"`);
  if (!row) {
    const [seen] = await sql<{ last: Date | null }>(Prisma.sql`
      SELECT GREATEST(r.last_scraped_at, r.refresh_requested_at) AS last FROM ${table} r
       WHERE r.id = ${id}::uuid AND EXISTS (${kind.tracked(workspaceId)})`);
    if (!seen) throw notFound(kind.what === "video" ? "Video" : "Account");
    const waitMs = (seen.last?.getTime() ?? now.getTime()) + minIntervalMs - now.getTime();
    throw new RefreshTooSoonError(Math.max(1, Math.ceil(waitMs / 1000)), kind.what);
  }
  await kind
    .enqueue(row.id, dueJobReason(row.nextRefreshAt))
    .catch((e) =>
      logger.warn(
        { err: (e as Error).message, id: row.id },
        `could not enqueue the ${kind.what} refresh: the scheduler takes it (it is due)`,
      ),
    );
  return row;
}

/** Queues a scrape of a video the workspace tracks (NOT_FOUND otherwise; REFRESH_TOO_SOON within the spacing). */
export function requestVideoRefresh(
  workspaceId: string,
  videoId: string,
  now = new Date(),
  minIntervalMs = config.refresh.minIntervalMs,
): Promise<RefreshQueued> {
  return requestRefresh(VIDEOS, workspaceId, videoId, now, minIntervalMs);
}

/** Queues a scrape of an account the workspace tracks (an owner account it does not track is NOT_FOUND). */
export function requestAccountRefresh(
  workspaceId: string,
  accountId: string,
  now = new Date(),
  minIntervalMs = config.refresh.minIntervalMs,
): Promise<RefreshQueued> {
  return requestRefresh(ACCOUNTS, workspaceId, accountId, now, minIntervalMs);
}
