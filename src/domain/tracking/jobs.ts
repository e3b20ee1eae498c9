/**
 * The scrape jobs the tracking services enqueue (queue `scrape`). A job carries ids only; its id
 * says why it exists, so the same reason never enqueues twice (BullMQ ignores a job whose id it
 * already holds) while a new reason (another workspace tracking the account, the next due time of
 * the adaptive schedule, a refresh request) does enqueue again. Job ids contain no ":" (BullMQ
 * reserves it).
 */
import type { JobsOptions } from "bullmq";
import { queue } from "../../infra/queues.ts";

export const SCRAPE_VIDEO = "scrape-video";
export const SCRAPE_ACCOUNT = "scrape-account";
/** Job scheduler: enqueues the scrape of every tracked item due for a refresh (./scrape-jobs.ts, refreshDue). */
export const REFRESH_DUE = "refresh-due";
/** Job scheduler: drops the history partitions past the full-resolution window (their days' rows stay; ./history-partitions.ts). */
export const PRUNE_HISTORY = "prune-history";
/** Job scheduler: makes the history's monthly partitions ahead (./history-partitions.ts). */
export const HISTORY_PARTITIONS = "history-partitions";
/** Job scheduler: fills today's snapshot of tracked accounts not scraped today. */
export const DAILY_SNAPSHOTS = "daily-snapshots";
/** Schedules of earlier versions, removed when workers start (the flat hourly refresh). */
export const RETIRED_SCHEDULES = ["refresh-tracked"];

/** Refresh scrapes (scheduled or requested): transient errors are retried within the job, a few times. */
export const REFRESH_JOB_OPTIONS: JobsOptions = { attempts: 3 };

/** The reason of the scrape job for an item due at `dueAt`: one job per item and due time. */
export const dueJobReason = (dueAt: Date) => `due-${dueAt.getTime()}`;

export interface ScrapeVideoData {
  videoId: string;
}
export interface ScrapeAccountData {
  accountId: string;
}

export async function enqueueVideoScrape(videoId: string, reason: string, opts: JobsOptions = {}): Promise<void> {
  await queue("scrape").add(SCRAPE_VIDEO, { videoId } satisfies ScrapeVideoData, { jobId: `video-${videoId}-${reason}`, ...opts });
}

export async function enqueueAccountScrape(accountId: string, reason: string, opts: JobsOptions = {}): Promise<void> {
  await queue("scrape").add(SCRAPE_ACCOUNT, { accountId } satisfies ScrapeAccountData, {
    jobId: `account-${accountId}-${reason}`,
    ...opts,
  });
}

/** Many video scrapes in one round trip (refresh, account discovery). */
export async function enqueueVideoScrapes(items: { videoId: string; reason: string }[], opts: JobsOptions = {}): Promise<void> {
  if (items.length === 0) return;
  await queue("scrape").addBulk(
    items.map(({ videoId, reason }) => ({
      name: SCRAPE_VIDEO,
      data: { videoId } satisfies ScrapeVideoData,
      opts: { jobId: `video-${videoId}-${reason}`, ...opts },
    })),
  );
}

export async function enqueueAccountScrapes(items: { accountId: string; reason: string }[], opts: JobsOptions = {}): Promise<void> {
  if (items.length === 0) return;
  await queue("scrape").addBulk(
    items.map(({ accountId, reason }) => ({
      name: SCRAPE_ACCOUNT,
      data: { accountId } satisfies ScrapeAccountData,
      opts: { jobId: `account-${accountId}-${reason}`, ...opts },
    })),
  );
}
