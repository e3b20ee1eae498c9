/**
 * Queue definitions for tests: the real ones (src/jobs/registry.ts) with the configured providers,
 * or with stand-ins a test passes; and a JobRun for calling a job body directly.
 */
import { analysisQueue, radarQueue, trackingQueue, type QueueDefinition } from "../../src/jobs/registry.js";
import { startWorkers } from "../../src/jobs/worker.js";
import { queue } from "../../src/infra/queues.js";
import { analysisProviders, createScrapeProvider, lazy, radarDeps } from "../../src/main/providers.js";
import type { AnalysisProviders } from "../../src/domain/analysis/pipeline.js";
import type { RadarDeps } from "../../src/domain/radar/run.js";
import type { JobRun } from "../../src/domain/shared/jobs.js";

export const trackingJobs = () => trackingQueue(lazy(() => createScrapeProvider()));
export const analysisJobs = (providers?: AnalysisProviders) => analysisQueue(lazy(() => providers ?? analysisProviders()));
export const radarJobs = (deps: () => RadarDeps = radarDeps) => radarQueue(lazy(deps));

/** The run of a job body called directly: attempt `attemptsMade + 1` of `attempts`. */
export const jobRun = (attemptsMade = 0, attempts = 5, id?: string): JobRun => ({
  id,
  attempt: attemptsMade + 1,
  maxAttempts: attempts,
  starts: attemptsMade + 1,
});

/** The BullMQ job schedulers a queue definition's workers register when they start. */
export async function schedulersOf(definition: QueueDefinition) {
  const workers = await startWorkers([definition]);
  try {
    return await queue(definition.queue).getJobSchedulers();
  } finally {
    await workers.close();
  }
}
