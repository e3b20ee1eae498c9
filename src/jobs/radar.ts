/**
 * The `radar` queue: `search` runs one radar search (job id = search id, data {searchId}); `sweep`
 * (a job scheduler, every minute) re-enqueues searches stuck in `pending` and fails, with the
 * refund, searches not finished RADAR_DEADLINE_MS after creation.
 *
 * Why a sweep on top of BullMQ's stalled-job recovery: a job whose worker is killed is picked up
 * again by another worker (the handler is safe to re-run: it resumes a `searching` search and
 * writes its results with delete-and-insert), but after `maxStalledCount` stalls BullMQ fails the
 * job without calling the handler, so nothing would mark the search failed and refund it.
 */
import type { Job } from "bullmq";
import { config } from "../config.js";
import { sweepStaleSearches } from "../domain/radar/lifecycle.js";
import { runSearch, type RadarDeps } from "../domain/radar/run.js";
import { createQueryExpander, createSearchProviders } from "../providers/search/index.js";
import type { QueueDefinition } from "./registry.js";

/** A search not finished this long after creation is failed and refunded by the sweep. */
export const RADAR_DEADLINE_MS = 30 * 60_000;
export const RADAR_SWEEP_EVERY_MS = 60_000;

/** The providers and query expander chosen by configuration (RADAR_PROVIDERS, OPENAI_*). */
export function configuredRadarDeps(): RadarDeps {
  return { providers: createSearchProviders(), expander: createQueryExpander() };
}

/** `deps` lets tests run the real job with providers of their choosing (e.g. a stand-in yt-dlp). */
export function radarJobs(deps: () => RadarDeps = configuredRadarDeps): QueueDefinition {
  let resolved: RadarDeps | null = null; // made on the first job: the API process never builds providers
  return {
    queue: "radar",
    concurrency: config.concurrency.radar,
    // A killed worker's search is picked up by another worker after about 30 s, not 60.
    lockDurationMs: 15_000,
    stalledIntervalMs: 15_000,
    handlers: {
      search: async (job: Job<{ searchId: string }>) => {
        resolved ??= deps();
        const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
        return runSearch(String(job.data.searchId), resolved, { lastAttempt });
      },
      sweep: async () => sweepStaleSearches(RADAR_DEADLINE_MS),
    },
    schedules: [{ id: "radar-sweep", jobName: "sweep", every: RADAR_SWEEP_EVERY_MS }],
  };
}
