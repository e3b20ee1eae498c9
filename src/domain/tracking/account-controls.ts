/**
 * A workspace's controls over an account it tracks: its rules on the videos the account
 * brings (./rules.ts, judged where the listing becomes tracked videos: ./scrape-store.ts), the videos
 * those rules skipped, pausing and resuming its tracking, and retrying a failed sync. Every door
 * (REST, GraphQL, MCP) calls these; each answers NOT_FOUND unless the workspace tracks the account.
 *
 * Pause: the workspace's tracking stops asking for scrapes. An account is global (scraped once for
 * every workspace), so it leaves the refresh schedule only when no workspace tracks it unpaused; a
 * scrape another workspace causes discovers nothing for the paused one. The videos it already
 * tracks stay tracked and keep refreshing (they are tracked videos: untrack them to stop that).
 * Resume makes the account due at once and queues its scrape, which lists what was posted meanwhile.
 *
 * Retry: a failed sync is an account whose last scrape failed (`scrapeError` says why, state
 * `failed`, or `ready` with older numbers). A retry puts it back to `queued`, due now, with its failure
 * count reset, and queues its scrape: one conditional UPDATE, so two retries (or a retry repeated by
 * a client) queue one scrape; a retry of an account that is queued, scraping or healthy queues nothing.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { sql } from "../../infra/db.ts";
import { logger } from "../../infra/logger.ts";
import { notFound } from "../shared/errors.ts";
import { pageSql, type Order, type Page, type PageRequest } from "../shared/pages.ts";
import { getTrackedAccount } from "./accounts.ts";
import { announceAccount } from "./events.ts";
import type { AccountRules } from "./inputs.ts";
import { dueJobReason, enqueueAccountScrape, REFRESH_JOB_OPTIONS } from "./jobs.ts";
import { hasRules, type AccountRule } from "./rules.ts";
import type { TrackedAccountView } from "./views.ts";

const tracked = (workspaceId: string, accountId: string) =>
  Prisma.sql`ta.workspace_id = ${workspaceId}::uuid AND ta.account_id = ${accountId}::uuid`;

/**
 * Replaces the workspace's rules for the account (validated by `accountRules`); the next scrape
 * applies them. Rules emptied skip nothing any more: their skipped videos are forgotten with them.
 */
export async function setAccountRules(workspaceId: string, accountId: string, rules: AccountRules): Promise<TrackedAccountView> {
  const [row] = await sql<{ id: string }>(Prisma.sql`
    WITH ruled AS (
      UPDATE tracked_accounts ta SET rules = ${JSON.stringify(rules)}::jsonb WHERE ${tracked(workspaceId, accountId)} RETURNING ta.id
    ), forgotten AS (
      DELETE FROM account_skipped_videos s USING ruled r WHERE s.tracked_account_id = r.id AND NOT ${hasRules(rules)}::boolean
    )
    SELECT id FROM ruled`);
  if (!row) throw notFound("Account");
  return getTrackedAccount(workspaceId, accountId);
}

/**
 * Pauses the workspace's tracking of the account (a no-op when paused already) and takes the
 * account off the schedule when no workspace tracks it unpaused.
 */
export async function pauseAccount(workspaceId: string, accountId: string, now = new Date()): Promise<TrackedAccountView> {
  const [row] = await sql<{ id: string }>(Prisma.sql`
    WITH paused AS (
      UPDATE tracked_accounts ta SET paused_at = COALESCE(ta.paused_at, ${now}::timestamptz)
       WHERE ${tracked(workspaceId, accountId)} RETURNING ta.id, ta.account_id
    ), unscheduled AS (
      UPDATE accounts a SET next_refresh_at = NULL
        FROM paused p
       WHERE a.id = p.account_id
         AND NOT EXISTS (SELECT 1 FROM tracked_accounts o WHERE o.account_id = a.id AND o.paused_at IS NULL AND o.id <> p.id)
    )
    SELECT id FROM paused`);
  if (!row) throw notFound("Account");
  return getTrackedAccount(workspaceId, accountId);
}

/**
 * Resumes the workspace's tracking of the account: when it was paused, the account is due now (if
 * it was off the schedule) and its scrape is queued, as the job of that due time (./jobs.ts).
 */
export async function resumeAccount(workspaceId: string, accountId: string, now = new Date()): Promise<TrackedAccountView> {
  const [row] = await sql<{ wasPaused: boolean; dueAt: Date | null }>(Prisma.sql`
    WITH before AS (
      SELECT ta.id, ta.paused_at IS NOT NULL AS "wasPaused" FROM tracked_accounts ta WHERE ${tracked(workspaceId, accountId)} FOR UPDATE
    ), resumed AS (
      UPDATE tracked_accounts ta SET paused_at = NULL FROM before b WHERE ta.id = b.id RETURNING ta.account_id
    ), scheduled AS (
      UPDATE accounts a SET next_refresh_at = LEAST(COALESCE(a.next_refresh_at, ${now}::timestamptz), ${now}::timestamptz)
        FROM resumed r, before b WHERE a.id = r.account_id AND b."wasPaused"
      RETURNING a.next_refresh_at
    )
    SELECT b."wasPaused", (SELECT next_refresh_at FROM scheduled) AS "dueAt" FROM before b`);
  if (!row) throw notFound("Account");
  if (row.wasPaused && row.dueAt) await queueScrape(accountId, row.dueAt, "resume");
  return getTrackedAccount(workspaceId, accountId);
}

export interface SyncRetry {
  id: string;
  /** True when this call queued a scrape; false when there was nothing to retry (queued, scraping or healthy). */
  queued: boolean;
  account: TrackedAccountView;
}

/** Retries the account's failed sync once (see the file's comment). */
export async function retryAccountSync(workspaceId: string, accountId: string, now = new Date()): Promise<SyncRetry> {
  const [row] = await sql<{ id: string }>(Prisma.sql`
    UPDATE accounts a SET scrape_status = 'queued', refresh_failures = 0, next_refresh_at = ${now}::timestamptz,
           refresh_requested_at = ${now}::timestamptz, updated_at = ${now}::timestamptz
     WHERE a.id = ${accountId}::uuid AND a.scrape_error IS NOT NULL AND a.scrape_status IN ('failed', 'ready')
       AND EXISTS (SELECT 1 FROM tracked_accounts ta WHERE ${tracked(workspaceId, accountId)})
    RETURNING a.id`);
  if (row) {
    await queueScrape(accountId, now, "retry");
    await announceAccount(accountId, "queued");
  }
  return { id: accountId, queued: row !== undefined, account: await getTrackedAccount(workspaceId, accountId) };
}

async function queueScrape(accountId: string, dueAt: Date, why: string): Promise<void> {
  await enqueueAccountScrape(accountId, dueJobReason(dueAt), REFRESH_JOB_OPTIONS).catch((e) =>
    logger.warn(
      { err: (e as Error).message, accountId },
      `could not enqueue the account's ${why} scrape: the scheduler takes it (it is due)`,
    ),
  );
}

/** A video the workspace's rules kept out of its tracking of an account. */
export interface SkippedVideo {
  videoId: string;
  url: string;
  description: string;
  rule: AccountRule;
  reason: string;
  skippedAt: Date;
}

/** Newest skipped first, ties by video id. */
export const SKIPPED_VIDEOS_ORDER: Order<SkippedVideo> = [
  { sql: "s.skipped_at", type: "timestamptz", desc: true, value: (v) => v.skippedAt },
  { sql: "s.video_id", type: "uuid", value: (v) => v.videoId },
];

/** A page of the videos the rules skipped for the workspace's tracking of the account (the newest 200 are kept). */
export async function listSkippedVideos(workspaceId: string, accountId: string, page: PageRequest): Promise<Page<SkippedVideo>> {
  const [ta] = await sql<{ id: string }>(Prisma.sql`SELECT ta.id FROM tracked_accounts ta WHERE ${tracked(workspaceId, accountId)}`);
  if (!ta) throw notFound("Account");
  const p = pageSql(SKIPPED_VIDEOS_ORDER, page);
  const [items, [count]] = await Promise.all([
    sql<SkippedVideo>(Prisma.sql`
      SELECT s.video_id AS "videoId", v.url, v.description, s.rule, s.reason, s.skipped_at AS "skippedAt"
        FROM account_skipped_videos s JOIN videos v ON v.id = s.video_id
       WHERE s.tracked_account_id = ${ta.id}::uuid ${p.where} ${p.orderBy} ${p.limit}`),
    sql<{ n: number }>(Prisma.sql`SELECT count(*) AS n FROM account_skipped_videos WHERE tracked_account_id = ${ta.id}::uuid`),
  ]);
  return { items, total: count!.n };
}
