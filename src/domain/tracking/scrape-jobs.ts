/**
 * The bodies of the scrape jobs (queue `scrape`, run by src/jobs/): scrape a video, scrape an
 * account (profile, then its newest videos tracked for the workspaces that track it), take what is
 * due for a refresh (the adaptive scheduler), prune old history points and fill the daily account
 * snapshots. Jobs carry ids only; every write is idempotent (./scrape-store.ts), so a retry or a job of a
 * killed worker run again duplicates nothing.
 *
 * Failures: a ProviderError with `retryable: false` fails the job at once (PermanentJobFailure: no
 * retry can help); other errors are retried with the queue's backoff. When the job fails for good,
 * the refresh has failed: the record backs off on the adaptive schedule and gives up after
 * REFRESH_MAX_FAILURES consecutive failures (./cadence.ts, afterFailure).
 *
 * A job asks for numbers at least as fresh as the moment it was queued: when the item was scraped
 * successfully after that (another job for it ran first, or this job's own earlier run stored its
 * result before the worker died), it returns `fresh` without scraping, so duplicated or re-run jobs
 * never add a second point for the same request.
 *
 * Events (docs/contract/decisions.md, Webhooks): `video.spike` when a stored scrape moves a video's
 * outlier score from below SPIKE_OUTLIER_THRESHOLD to at or above it, to every workspace tracking
 * the video; `account.video_discovered` when an account refresh finds a video posted since its
 * previous scrape (or new to the service) and tracks it for a workspace that already tracked the
 * account then (not for the first import of a newly tracked account). Both are recorded in the outbox
 * with the write that causes them (the video's store statement; the transaction tracking the account's
 * new videos), then relayed: a job that dies in between is retried and finds its work served, and the
 * outbox's sweep delivers the events it committed (src/domain/webhooks/outbox.ts).
 *
 * Account tracking rules (./rules.ts) are applied per workspace where the listed videos become
 * tracked (trackAccountVideos): a refused video takes no slot, is not scraped on its own unless
 * another workspace tracks it, and is listed with the reason (account_skipped_videos). A paused
 * tracking discovers nothing and asks for no listing (./account-controls.ts).
 */
import { config } from "../../config.ts";
import { logger } from "../../infra/logger.ts";
import { countScrape } from "../../infra/metrics.ts";
import { ProviderError } from "../shared/provider-error.ts";
import { isLastAttempt, PermanentJobFailure, type JobRun } from "../shared/jobs.ts";
import { relayWorkspaceEvents } from "../webhooks/outbox.ts";
import { afterFailure, nextRefreshAt, viewsPerHour, type CadenceSettings, CADENCE } from "./cadence.ts";
import { announceAccount, announceTracking, announceVideo } from "./events.ts";
import { dueJobReason, enqueueAccountScrapes, enqueueVideoScrapes, REFRESH_JOB_OPTIONS } from "./jobs.ts";
import type { ScrapeProvider } from "./ports.ts";
import {
  accountScrapeTarget,
  accountVideoDemand,
  claimDue,
  markAccountScraping,
  recordAccountScrapeFailure,
  recordVideoScrapeFailure,
  startVideoScrape,
  storeScrapedAccount,
  storeScrapedVideo,
  trackAccountVideos,
  trackedAmong,
  type FailureOutcome,
  type StoredVideo,
} from "./scrape-store.ts";

/** The most videos one account scrape lists. */
const MAX_ACCOUNT_SCRAPE_VIDEOS = 500;

const reasonOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * A handed-back job (its runner took it back: a shutdown past SHUTDOWN_TIMEOUT_MS, or its lock lost)
 * runs again elsewhere: this run stops where it is, storing and recording nothing more, so the two
 * runs never store two history points for one request (the provider's program is killed through
 * the same signal).
 */
function stopIfHandedBack(run: JobRun): void {
  if (run.signal?.aborted) throw new Error("the job was handed back: this run stops without storing");
}
const isPermanent = (e: unknown) => e instanceof ProviderError && !e.retryable;

/**
 * Records the failure on the record, then fails the job (for good when no retry can help). When
 * the job fails for good (permanent, or its last attempt), the refresh counts as failed and backs
 * off; a permanent failure of a record that never had numbers gives up at once.
 */
async function failed(
  run: JobRun,
  e: unknown,
  target: { id: string; refreshFailures: number; scrapeStatus: string },
  now: Date,
  record: (reason: string, outcome: FailureOutcome | null) => Promise<void>,
  s: CadenceSettings,
): Promise<never> {
  const final = isPermanent(e) || isLastAttempt(run);
  let outcome: FailureOutcome | null = null;
  if (final) {
    const next = afterFailure(target.id, now, target.refreshFailures + 1, s);
    const givesUp = next.givesUp || (isPermanent(e) && target.scrapeStatus !== "ready");
    outcome = { givesUp, retryAt: givesUp || next.givesUp ? null : next.retryAt };
  }
  await record(reasonOf(e), outcome);
  if (isPermanent(e)) throw new PermanentJobFailure(reasonOf(e), { cause: e });
  throw e;
}

/** The item was scraped successfully after this job was queued: its purpose is served. */
const servedAlready = (run: JobRun, lastScrapedAt: Date | null) =>
  run.queuedAt !== undefined && lastScrapedAt !== null && lastScrapedAt >= run.queuedAt;

/** `clock` is when the numbers are captured (tests move it together with the simulated provider's). */
export async function scrapeVideo(
  videoId: string,
  run: JobRun,
  provider: ScrapeProvider,
  clock: () => Date = () => new Date(),
  s: CadenceSettings = CADENCE,
): Promise<{ status: string }> {
  const target = await startVideoScrape(videoId);
  if (!target) return { status: "gone" };
  if (servedAlready(run, target.previous.at)) return { status: "fresh" };
  if (target.started) await announceVideo(videoId, "scraping");
  let scraped;
  const counted = { provider: provider.name, platform: target.ref.platform, kind: "video" };
  try {
    scraped = await provider.scrapeVideo(target.ref, run.signal ? { signal: run.signal } : {});
    countScrape({ ...counted, outcome: "ok" });
  } catch (e) {
    countScrape({ ...counted, outcome: "error" });
    stopIfHandedBack(run);
    return failed(
      run,
      e,
      { id: videoId, ...target },
      clock(),
      async (reason, outcome) => {
        await recordVideoScrapeFailure(videoId, reason, outcome);
        const final = outcome !== null;
        await announceVideo(videoId, target.scrapeStatus === "ready" && !outcome?.givesUp ? "ready" : final ? "failed" : "queued");
      },
      s,
    );
  }
  stopIfHandedBack(run);
  const now = clock();
  const postedAt = scraped.postedAt ?? target.postedAt;
  const next = nextRefreshAt(
    videoId,
    now,
    {
      ageMs: postedAt ? now.getTime() - postedAt.getTime() : null,
      viewsPerHour: viewsPerHour(target.previous, { count: scraped.viewCount, at: now }),
      viewCount: scraped.viewCount,
      planFactor: target.planFactor,
    },
    s,
  );
  const stored = await storeScrapedVideo(
    { ...scraped, partial: false },
    {
      source: provider.name,
      now,
      ids: { platform: target.ref.platform, platformVideoId: target.ref.platformVideoId },
      nextRefreshAt: next,
      spikeThreshold: config.spikeOutlierThreshold,
    },
  );
  if (!stored) return { status: "stale" };
  // `video.spike` was recorded with the store (./scrape-store.ts): relayed now, or by the sweep.
  await relayWorkspaceEvents(stored.eventIds);
  await announceVideo(videoId, "ready");
  return { status: "ready" };
}

export async function scrapeAccount(
  accountId: string,
  run: JobRun,
  provider: ScrapeProvider,
  clock: () => Date = () => new Date(),
  s: CadenceSettings = CADENCE,
): Promise<{ status: string; tracked: number; discovered: number }> {
  const target = await accountScrapeTarget(accountId);
  if (!target) return { status: "gone", tracked: 0, discovered: 0 };
  if (servedAlready(run, target.previous.at)) return { status: "fresh", tracked: 0, discovered: 0 };
  if (await markAccountScraping(accountId)) await announceAccount(accountId, "scraping");
  const demand = Math.min(await accountVideoDemand(accountId), MAX_ACCOUNT_SCRAPE_VIDEOS);
  let result;
  const counted = { provider: provider.name, platform: target.ref.platform, kind: "account" };
  try {
    result = await provider.scrapeAccount(target.ref, { maxVideos: demand, ...(run.signal ? { signal: run.signal } : {}) });
    countScrape({ ...counted, outcome: "ok" });
  } catch (e) {
    countScrape({ ...counted, outcome: "error" });
    stopIfHandedBack(run);
    return failed(
      run,
      e,
      { id: accountId, ...target },
      clock(),
      async (reason, outcome) => {
        await recordAccountScrapeFailure(accountId, reason, outcome);
        await announceAccount(accountId, target.scrapeStatus === "ready" && !outcome?.givesUp ? "ready" : outcome ? "failed" : "queued");
      },
      s,
    );
  }
  stopIfHandedBack(run);
  const now = clock();
  const previousScrape = target.previous.at;
  const ordered: string[] = [];
  const toScrape: string[] = [];
  const isNew = new Map<string, StoredVideo>();
  for (const v of result.videos.slice(0, demand)) {
    if (v.platform !== target.ref.platform) continue;
    // The account's own username, so platform A canonical links can be rebuilt for each video.
    const stored = await storeScrapedVideo(
      { ...v, username: v.username || target.ref.username },
      { source: provider.name, now, accountId },
    );
    if (!stored) continue;
    ordered.push(stored.id);
    if (stored.needsScrape) toScrape.push(stored.id);
    // New on the account since its previous scrape: posted after it, or never seen by the service.
    const postedAt = stored.postedAt ?? v.postedAt;
    if (stored.inserted || (previousScrape !== null && postedAt !== null && postedAt > previousScrape)) isNew.set(stored.id, stored);
    await announceVideo(stored.id, stored.needsScrape ? "queued" : "ready");
  }
  // `account.video_discovered` is recorded in the transaction that tracks the video (./scrape-store.ts).
  const added = await trackAccountVideos(
    accountId,
    ordered,
    (w) =>
      previousScrape !== null && w.trackedSince < previousScrape
        ? w.added
            .filter((a) => isNew.has(a.videoId))
            .map((a) => ({
              workspaceId: w.workspaceId,
              type: "account.video_discovered" as const,
              data: {
                accountId,
                username: target.ref.username,
                platform: target.ref.platform,
                videoId: a.videoId,
                trackedVideoId: a.trackedVideoId,
                postedAt: isNew.get(a.videoId)!.postedAt?.toISOString() ?? null,
              },
            }))
        : [],
    now,
  );
  const discovered = added.flatMap((w) => w.eventIds);
  await relayWorkspaceEvents(discovered);
  await Promise.all(
    added.map((w) =>
      announceTracking(
        w.workspaceId,
        w.added.map((a) => a.videoId),
        "added",
      ),
    ),
  );
  // Last, so `ready` on the account means its videos are tracked too.
  const newest = result.videos.reduce<Date | null>(
    (max, v) => (v.postedAt && (!max || v.postedAt > max) ? v.postedAt : max),
    target.newestPostedAt,
  );
  const next = nextRefreshAt(
    accountId,
    now,
    {
      ageMs: newest ? now.getTime() - newest.getTime() : null,
      viewsPerHour: viewsPerHour(target.previous, { count: result.account.totalViews, at: now }),
      viewCount: result.account.totalViews,
      planFactor: target.planFactor,
    },
    s,
  );
  await storeScrapedAccount(accountId, result.account, { source: provider.name, now, nextRefreshAt: next });
  await announceAccount(accountId, "ready");
  // Listed-only videos get a scrape of their own (for all their metrics), if a workspace tracks them:
  // one the plans left untracked (a race with another addition) is not scraped (./limits.ts).
  await enqueueVideoScrapes((await trackedAmong(toScrape)).map((videoId) => ({ videoId, reason: `via-${run.id ?? accountId}` })));
  return { status: "ready", tracked: added.reduce((n, w) => n + w.added.length, 0), discovered: discovered.length };
}

export interface RefreshDueSettings {
  batchSize: number;
  maxPerRun: number;
  leaseMs: number;
}

/**
 * The scheduler (job `refresh-due`, every REFRESH_SCHEDULER_EVERY_SECONDS): takes the items due at
 * `now`, earliest first, REFRESH_BATCH_SIZE per statement and at most REFRESH_MAX_PER_RUN per run
 * (the next run goes on), and enqueues one scrape job each, named by the item and the due time it
 * was claimed for (so a due time is enqueued once, whoever claims it). Only scheduled items are read
 * (the partial index on next_refresh_at); untracked and given-up items are not scheduled.
 */
export async function refreshDue(
  now = new Date(),
  s: RefreshDueSettings = config.refresh,
): Promise<{ videos: number; accounts: number; statements: number }> {
  const out = { videos: 0, accounts: 0, statements: 0 };
  for (const kind of ["video", "account"] as const) {
    let taken = 0;
    while (taken < s.maxPerRun) {
      const batch = Math.min(s.batchSize, s.maxPerRun - taken);
      const claimed = await claimDue(kind, now, batch, s.leaseMs);
      out.statements++;
      if (claimed.length === 0) break;
      taken += claimed.length;
      try {
        if (kind === "video") {
          await enqueueVideoScrapes(
            claimed.map((c) => ({ videoId: c.id, reason: dueJobReason(c.dueAt) })),
            REFRESH_JOB_OPTIONS,
          );
        } else {
          await enqueueAccountScrapes(
            claimed.map((c) => ({ accountId: c.id, reason: dueJobReason(c.dueAt) })),
            REFRESH_JOB_OPTIONS,
          );
        }
      } catch (e) {
        // The claimed items are due again when their lease ends.
        logger.warn({ err: reasonOf(e), kind, claimed: claimed.length }, "could not enqueue due refreshes");
        throw e;
      }
      if (claimed.length < batch) break;
    }
    if (kind === "video") out.videos = taken;
    else out.accounts = taken;
  }
  return out;
}
