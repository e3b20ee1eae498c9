/**
 * Starts one BullMQ worker per queue definition and upserts the repeatable schedules. The domain's
 * job bodies never see BullMQ: each gets a JobRun (attempt, attempts, starts), and a
 * PermanentJobFailure they throw fails the job at once (BullMQ's UnrecoverableError).
 */
import { MetricsTime, UnrecoverableError, Worker, type Job } from "bullmq";
import { logger, withLogContext } from "../infra/logger.js";
import { bullConnection, queue, traceOf } from "../infra/queues.js";
import { PermanentJobFailure, type JobRun } from "../domain/shared/jobs.js";
import type { QueueDefinition } from "./registry.js";

export interface RunningWorkers {
  workers: Worker[];
  close(): Promise<void>;
}

/** What the domain sees of a BullMQ job's run. */
export function runOf(job: Job): JobRun {
  return { id: job.id, attempt: job.attemptsMade + 1, maxAttempts: job.opts.attempts ?? 1, starts: job.attemptsStarted ?? 1, queuedAt: new Date(job.timestamp) };
}

export async function startWorkers(definitions: QueueDefinition[]): Promise<RunningWorkers> {
  const workers: Worker[] = [];
  for (const def of definitions) {
    const worker = new Worker(
      def.queue,
      // Every log line of the run carries the queue, the job id and the ids of the request that
      // queued it (data.trace, src/infra/queues.ts); its start and end are logged.
      (job) => {
        // Named on the start and end lines themselves too (they stay complete with LOG_CONTEXT=false).
        const ids = { ...traceOf(job.data), queue: def.queue, jobId: job.id };
        return withLogContext(ids, async () => {
          const handler = def.handlers[job.name];
          if (!handler) throw new Error(`No handler for job "${job.name}" on queue "${def.queue}"`);
          const started = performance.now();
          logger.info({ ...ids, job: job.name, attempt: job.attemptsMade + 1 }, "job started");
          try {
            const result = await handler(job, runOf(job));
            logger.info({ ...ids, job: job.name, ms: Math.round(performance.now() - started) }, "job completed");
            return result;
          } catch (e) {
            logger.info({ ...ids, job: job.name, ms: Math.round(performance.now() - started), err: (e as Error).message }, "job attempt failed");
            if (e instanceof PermanentJobFailure) throw new UnrecoverableError(e.message);
            throw e;
          }
        });
      },
      {
        ...bullConnection(),
        concurrency: def.concurrency,
        // BullMQ's own per-minute completed/failed counts, read by /metrics (src/infra/metrics.ts).
        metrics: { maxDataPoints: MetricsTime.ONE_WEEK },
        ...(def.lockDurationMs ? { lockDuration: def.lockDurationMs } : {}),
        ...(def.stalledIntervalMs ? { stalledInterval: def.stalledIntervalMs } : {}),
      },
    );
    worker.on("failed", (job, err) =>
      logger.warn({ ...traceOf(job?.data), queue: def.queue, job: job?.name, jobId: job?.id, attempt: job?.attemptsMade, err: err.message }, "job failed"),
    );
    worker.on("error", (err) => logger.error({ queue: def.queue, err: err.message }, "worker error"));
    workers.push(worker);
    for (const id of def.retiredSchedules ?? []) await queue(def.queue).removeJobScheduler(id);
    for (const s of def.schedules ?? []) {
      await queue(def.queue).upsertJobScheduler(s.id, s.every ? { every: s.every } : { pattern: s.pattern! }, { name: s.jobName, data: s.data ?? {} });
    }
  }
  logger.info({ queues: definitions.map((d) => d.queue) }, "workers started");
  return {
    workers,
    close: async () => {
      await Promise.all(workers.map((w) => w.close()));
    },
  };
}
