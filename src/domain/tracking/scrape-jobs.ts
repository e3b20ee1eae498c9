/**
 * The bodies of the scrape jobs (queue `scrape`, run by src/jobs/): scrape a video, scrape an
 * account (profile, then its newest videos tracked for the workspaces that track it), refresh every
 * tracked item on a cadence, and fill the daily snapshots. Jobs carry ids only; every write is
 * idempotent (./scrape.ts), so a retry or a job of a killed worker run again duplicates nothing.
 *
 * Failures: a ProviderError with `retryable: false` fails the record at once (PermanentJobFailure:
 * no retry can help); other errors are retried with the queue's backoff, and the record fails, with
 * the reason kept in `scrapeError`, after the last attempt.
 */
import { config } from "../../config.js";
import { ProviderError } from "../shared/provider-error.js";
import { isLastAttempt, PermanentJobFailure, type JobRun } from "../shared/jobs.js";
import { announceTracking, announceVideo } from "./events.js";
import { enqueueAccountScrapes, enqueueVideoScrapes } from "./jobs.js";
import type { ScrapeProvider } from "./ports.js";
import {
  accountScrapeTarget,
  accountVideoDemand,
  markAccountScraping,
  recordAccountScrapeFailure,
  recordVideoScrapeFailure,
  startVideoScrape,
  storeScrapedAccount,
  storeScrapedVideo,
  trackAccountVideos,
  trackedAccountsDue,
  trackedVideosDue,
} from "./scrape.js";

export { fillDailySnapshots } from "./scrape.js";

/** The most videos one account scrape lists. */
export const MAX_ACCOUNT_SCRAPE_VIDEOS = 500;

const isFinal = (run: JobRun, e: unknown) => (e instanceof ProviderError && !e.retryable) || isLastAttempt(run);
const reasonOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Records the failure on the record, then fails the job (for good when no retry can help). */
async function failed(run: JobRun, e: unknown, record: (reason: string, final: boolean) => Promise<void>): Promise<never> {
  const final = isFinal(run, e);
  await record(reasonOf(e), final);
  if (final && e instanceof ProviderError && !e.retryable) throw new PermanentJobFailure(reasonOf(e), { cause: e });
  throw e;
}

/** `clock` is when the numbers are captured (tests move it together with the simulated provider's). */
export async function scrapeVideo(videoId: string, run: JobRun, provider: ScrapeProvider, clock: () => Date = () => new Date()): Promise<{ status: string }> {
  const target = await startVideoScrape(videoId);
  if (!target) return { status: "gone" };
  if (target.started) await announceVideo(videoId, "scraping");
  let scraped;
  try {
    scraped = await provider.scrapeVideo(target.ref);
  } catch (e) {
    return failed(run, e, async (reason, final) => {
      await recordVideoScrapeFailure(videoId, reason, final);
      await announceVideo(videoId, target.scrapeStatus === "ready" ? "ready" : final ? "failed" : "queued");
    });
  }
  const stored = await storeScrapedVideo(
    { ...scraped, partial: false },
    { source: provider.name, now: clock(), ids: { platform: target.ref.platform, platformVideoId: target.ref.platformVideoId } },
  );
  if (stored) await announceVideo(videoId, "ready");
  return { status: stored ? "ready" : "stale" };
}

export async function scrapeAccount(
  accountId: string,
  run: JobRun,
  provider: ScrapeProvider,
  clock: () => Date = () => new Date(),
): Promise<{ status: string; tracked: number }> {
  const target = await accountScrapeTarget(accountId);
  if (!target) return { status: "gone", tracked: 0 };
  await markAccountScraping(accountId);
  const demand = Math.min(await accountVideoDemand(accountId), MAX_ACCOUNT_SCRAPE_VIDEOS);
  let result;
  try {
    result = await provider.scrapeAccount(target.ref, { maxVideos: demand });
  } catch (e) {
    return failed(run, e, (reason, final) => recordAccountScrapeFailure(accountId, reason, final));
  }
  const now = clock();
  const ordered: string[] = [];
  const toScrape: string[] = [];
  for (const v of result.videos.slice(0, demand)) {
    if (v.platform !== target.ref.platform) continue;
    // The account's own username, so platform A canonical links can be rebuilt for each video.
    const stored = await storeScrapedVideo({ ...v, username: v.username || target.ref.username }, { source: provider.name, now, accountId });
    if (!stored) continue;
    ordered.push(stored.id);
    if (stored.needsScrape) toScrape.push(stored.id);
    await announceVideo(stored.id, stored.needsScrape ? "queued" : "ready");
  }
  const added = await trackAccountVideos(accountId, ordered);
  await Promise.all(added.map((w) => announceTracking(w.workspaceId, w.added, "added")));
  // Last, so `ready` on the account means its videos are tracked too.
  await storeScrapedAccount(accountId, result.account, { source: provider.name, now });
  // Listed-only videos get a scrape of their own (for all their metrics).
  await enqueueVideoScrapes(toScrape.map((videoId) => ({ videoId, reason: `via-${run.id ?? accountId}` })));
  return { status: "ready", tracked: added.reduce((n, w) => n + w.added.length, 0) };
}

/**
 * Enqueues a scrape of every tracked video and account not scraped in the last half period, in
 * batches. Job ids carry the period number, so a refresh re-run in the same period (a retry, a
 * second scheduler tick) adds nothing twice, and an item still waiting from this period is not
 * queued again.
 */
export async function refreshTracked(now = new Date(), intervalMs = config.refreshIntervalMs): Promise<{ videos: number; accounts: number }> {
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
