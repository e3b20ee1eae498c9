/**
 * Scrape jobs (queue `scrape`): scrape a video, scrape an account (profile, then its newest videos
 * tracked for the workspaces that track it), refresh every tracked item on a cadence, and fill the
 * daily snapshots. Jobs carry ids only; every write they make is idempotent (see
 * src/domain/tracking/scrape.ts), so a retry or a job of a killed worker run again duplicates nothing.
 *
 * Failures: a ProviderError with `retryable: false` fails the record at once (no retry can help);
 * other errors are retried with the queue's exponential backoff and the record fails, with the
 * reason kept in `scrapeError`, after the last attempt.
 */
import { UnrecoverableError, type Job } from "bullmq";
import { config } from "../config.js";
import { publishEvent } from "../events/bus.js";
import { logger } from "../infra/logger.js";
import { ProviderError } from "../providers/errors.js";
import { createScrapeProvider } from "../providers/scrape/index.js";
import type { ScrapeProvider } from "../providers/scrape/types.js";
import {
  SCRAPE_ACCOUNT,
  SCRAPE_VIDEO,
  enqueueAccountScrapes,
  enqueueVideoScrapes,
  type ScrapeAccountData,
  type ScrapeVideoData,
} from "../domain/tracking/jobs.js";
import {
  accountScrapeTarget,
  accountVideoDemand,
  fillDailySnapshots,
  markAccountScraping,
  recordAccountScrapeFailure,
  recordVideoScrapeFailure,
  storeScrapedAccount,
  storeScrapedVideo,
  trackAccountVideos,
  trackedAccountsDue,
  trackedVideosDue,
  startVideoScrape,
} from "../domain/tracking/scrape.js";
import type { QueueDefinition } from "./registry.js";

export const REFRESH_TRACKED = "refresh-tracked";
export const DAILY_SNAPSHOTS = "daily-snapshots";
/** The daily snapshot fill runs every 6 hours: idempotent, and never misses a UTC day. */
export const DAILY_SNAPSHOTS_EVERY_MS = 6 * 3600_000;

/** A killed worker's job is picked up by another after at most lockDuration + stalledInterval. */
export const SCRAPE_LOCK_DURATION_MS = 10_000;
export const SCRAPE_STALLED_INTERVAL_MS = 5_000;

let provider: ScrapeProvider | undefined;
const scrapeProvider = () => (provider ??= createScrapeProvider());

function announceVideo(videoId: string, scrapeStatus: string): Promise<void> {
  return publishEvent("videoUpdated", videoId, { videoId, scrapeStatus, at: new Date().toISOString() }).catch((e) =>
    logger.warn({ err: (e as Error).message, videoId }, "could not publish videoUpdated"),
  );
}

const isFinalAttempt = (job: Job, e: unknown) =>
  (e instanceof ProviderError && !e.retryable) || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);

const reasonOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Records the failure on the record, then fails the job (for good when no retry can help). */
async function fail(job: Job, e: unknown, record: (reason: string, final: boolean) => Promise<void>): Promise<never> {
  const final = isFinalAttempt(job, e);
  await record(reasonOf(e), final);
  if (final && e instanceof ProviderError && !e.retryable) throw new UnrecoverableError(reasonOf(e));
  throw e;
}

/** `clock` is when the numbers are captured (tests move it together with the simulated provider's). */
export async function scrapeVideoJob(job: Job<ScrapeVideoData>, p: ScrapeProvider = scrapeProvider(), clock: () => Date = () => new Date()): Promise<{ status: string }> {
  const { videoId } = job.data;
  const target = await startVideoScrape(videoId);
  if (!target) return { status: "gone" };
  if (target.started) await announceVideo(videoId, "scraping");
  let scraped;
  try {
    scraped = await p.scrapeVideo(target.ref);
  } catch (e) {
    return fail(job, e, async (reason, final) => {
      await recordVideoScrapeFailure(videoId, reason, final);
      await announceVideo(videoId, target.scrapeStatus === "ready" ? "ready" : final ? "failed" : "queued");
    });
  }
  const now = clock();
  const stored = await storeScrapedVideo(
    { ...scraped, partial: false },
    { source: p.name, now, ids: { platform: target.ref.platform, platformVideoId: target.ref.platformVideoId } },
  );
  if (stored) await announceVideo(videoId, "ready");
  return { status: stored ? "ready" : "stale" };
}

export async function scrapeAccountJob(
  job: Job<ScrapeAccountData>,
  p: ScrapeProvider = scrapeProvider(),
  clock: () => Date = () => new Date(),
): Promise<{ status: string; tracked: number }> {
  const { accountId } = job.data;
  const target = await accountScrapeTarget(accountId);
  if (!target) return { status: "gone", tracked: 0 };
  await markAccountScraping(accountId);
  const demand = Math.min(await accountVideoDemand(accountId), 500);
  let result;
  try {
    result = await p.scrapeAccount(target.ref, { maxVideos: demand });
  } catch (e) {
    return fail(job, e, (reason, final) => recordAccountScrapeFailure(accountId, reason, final));
  }
  const now = clock();
  const ordered: string[] = [];
  const toScrape: string[] = [];
  for (const v of result.videos.slice(0, demand)) {
    if (v.platform !== target.ref.platform) continue;
    // The account's own username, so platform A canonical links can be rebuilt for each video.
    const stored = await storeScrapedVideo({ ...v, username: v.username || target.ref.username }, { source: p.name, now, accountId });
    if (!stored) continue;
    ordered.push(stored.id);
    if (stored.needsScrape) toScrape.push(stored.id);
    await announceVideo(stored.id, stored.needsScrape ? "queued" : "ready");
  }
  const added = await trackAccountVideos(accountId, ordered);
  // Last, so `ready` on the account means its videos are tracked too.
  await storeScrapedAccount(accountId, result.account, { source: p.name, now });
  // Listed-only videos get a scrape of their own (for all their metrics).
  await enqueueVideoScrapes(toScrape.map((videoId) => ({ videoId, reason: `via-${job.id}` })));
  return { status: "ready", tracked: added.reduce((n, w) => n + w.added.length, 0) };
}

/**
 * Enqueues a scrape of every tracked video and account not scraped in the last half period, in
 * batches. Job ids carry the period number, so a refresh re-run in the same period (a retry, a
 * second scheduler tick) adds nothing twice, and an item still waiting from this period is not
 * queued again.
 */
export async function refreshTrackedJob(now = new Date(), intervalMs = config.refreshIntervalMs): Promise<{ videos: number; accounts: number }> {
  const period = Math.floor(now.getTime() / intervalMs);
  const before = new Date(now.getTime() - intervalMs / 2);
  let videos = 0;
  let accounts = 0;
  for await (const ids of trackedVideosDue(before)) {
    await enqueueVideoScrapes(ids.map((videoId) => ({ videoId, reason: `refresh-${period}` })), { attempts: 3 });
    videos += ids.length;
  }
  for await (const ids of trackedAccountsDue(before)) {
    await enqueueAccountScrapes(ids.map((accountId) => ({ accountId, reason: `refresh-${period}` })), { attempts: 3 });
    accounts += ids.length;
  }
  return { videos, accounts };
}

export function trackingJobs(): QueueDefinition {
  return {
    queue: "scrape",
    concurrency: config.concurrency.scrape,
    lockDurationMs: SCRAPE_LOCK_DURATION_MS,
    stalledIntervalMs: SCRAPE_STALLED_INTERVAL_MS,
    handlers: {
      [SCRAPE_VIDEO]: (job) => scrapeVideoJob(job as Job<ScrapeVideoData>),
      [SCRAPE_ACCOUNT]: (job) => scrapeAccountJob(job as Job<ScrapeAccountData>),
      [REFRESH_TRACKED]: () => refreshTrackedJob(),
      [DAILY_SNAPSHOTS]: () => fillDailySnapshots(new Date()),
    },
    schedules: [
      { id: REFRESH_TRACKED, jobName: REFRESH_TRACKED, every: config.refreshIntervalMs },
      { id: DAILY_SNAPSHOTS, jobName: DAILY_SNAPSHOTS, every: DAILY_SNAPSHOTS_EVERY_MS },
    ],
  };
}
