/**
 * Starts one BullMQ worker per queue definition (and its start-up task, if any) and upserts the
 * repeatable schedules. The domain's job bodies never see BullMQ: each gets a JobRun (attempt,
 * attempts, starts, signal), a PermanentJobFailure they throw fails the job at once (BullMQ's
 * UnrecoverableError), and a DeferJob puts it back, delayed, without using an attempt (BullMQ's
 * moveToDelayed and DelayedError).
 *
 * Closing (a shutdown): the workers take no new job and the running ones get `timeoutMs` to
 * finish; those still running then are handed back: their signal is aborted and each job goes back
 * to `wait` without using an attempt, for another worker to run (every job body is idempotent and
 * resumes from the stored state). Every body passes the signal on: analysis and radar programs,
 * scrapes (their yt-dlp budget wait and program; a handed-back scrape stores nothing) and webhook
 * requests stop (docs/operations.md).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { DelayedError, MetricsTime, UnrecoverableError, WaitingError, Worker, type Job } from "bullmq";
import { config } from "../config.ts";
import { logger, withLogContext } from "../infra/logger.ts";
import { bullConnection, queue, traceOf } from "../infra/queues.ts";
import { DeferJob, PermanentJobFailure, type JobRun } from "../domain/shared/jobs.ts";
import type { QueueDefinition } from "./registry.ts";

export interface RunningWorkers {
  workers: Worker[];
  /** Takes no new job; running ones get `timeoutMs` (SHUTDOWN_TIMEOUT_MS) to finish, then are handed back. */
  close(timeoutMs?: number): Promise<void>;
}

/** What the domain sees of a BullMQ job's run. */
function runOf(job: Job, signal?: AbortSignal): JobRun {
  return {
    id: job.id,
    attempt: job.attemptsMade + 1,
    maxAttempts: job.opts.attempts ?? 1,
    starts: job.attemptsStarted ?? 1,
    queuedAt: new Date(job.timestamp),
    ...(signal ? { signal } : {}),
  };
}

const HAND_BACK = "shutdown: job handed back";

/** Rejects when the signal aborts (the job is being handed back). */
function handedBack(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const stop = () => reject(new Error(HAND_BACK));
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
  });
}

export async function startWorkers(definitions: QueueDefinition[]): Promise<RunningWorkers> {
  const workers: Worker[] = [];
  for (const def of definitions) {
    // Not awaited: a start-up task never delays the worker (the tracking queue's makes history
    // partitions, and until they exist the DEFAULT partition takes the points).
    def
      .onStart?.()
      .catch((e: unknown) =>
        logger.warn({ queue: def.queue, err: (e as Error).message }, "start-up task failed (its job scheduler retries)"),
      );
    const worker = new Worker(
      def.queue,
      // Every log line of the run carries the queue, the job id and the ids of the request that
      // queued it (data.trace, src/infra/queues.ts); its start and end are logged, naming them
      // themselves too (so they stay complete with LOG_CONTEXT=false).
      (job, token, signal) => {
        const ids = { ...traceOf(job.data), queue: def.queue, jobId: job.id };
        return withLogContext(ids, async () => {
          const handler = def.handlers[job.name];
          if (!handler) throw new Error(`No handler for job "${job.name}" on queue "${def.queue}"`);
          const started = performance.now();
          const ms = () => Math.round(performance.now() - started);
          logger.info({ ...ids, job: job.name, attempt: job.attemptsMade + 1 }, "job started");
          const body = handler(job, runOf(job, signal));
          try {
            const result = await (signal ? Promise.race([body, handedBack(signal)]) : body);
            logger.info({ ...ids, job: job.name, ms: ms() }, "job completed");
            return result;
          } catch (e) {
            if (signal?.aborted && (e as Error).message === HAND_BACK) {
              body.catch(() => undefined); // it stops on the aborted signal; its outcome no longer matters
              await job.moveToWait(token);
              logger.info({ ...ids, job: job.name, ms: ms() }, "job handed back for another worker");
              throw new WaitingError();
            }
            if (e instanceof DeferJob) {
              await job.moveToDelayed(Date.now() + e.delayMs, token);
              logger.debug({ ...ids, job: job.name, delayMs: e.delayMs, reason: e.message }, "job deferred");
              throw new DelayedError();
            }
            logger.info({ ...ids, job: job.name, ms: ms(), err: (e as Error).message }, "job attempt failed");
            if (e instanceof PermanentJobFailure) throw new UnrecoverableError(e.message);
            throw e;
          }
        });
      },
      {
        ...bullConnection(def.queue),
        concurrency: def.concurrency,
        // BullMQ's own per-minute completed/failed counts, read by /metrics (src/infra/metrics.ts).
        metrics: { maxDataPoints: MetricsTime.ONE_WEEK },
        ...(def.lockDurationMs ? { lockDuration: def.lockDurationMs } : {}),
        ...(def.stalledIntervalMs ? { stalledInterval: def.stalledIntervalMs } : {}),
      },
    );
    worker.on("failed", (job, err) =>
      logger.warn(
        { ...traceOf(job?.data), queue: def.queue, job: job?.name, jobId: job?.id, attempt: job?.attemptsMade, err: err.message },
        "job failed",
      ),
    );
    worker.on("error", (err) => logger.error({ queue: def.queue, err: err.message }, "worker error"));
    workers.push(worker);
    for (const id of def.retiredSchedules ?? []) await queue(def.queue).removeJobScheduler(id);
    for (const s of def.schedules ?? []) {
      await queue(def.queue).upsertJobScheduler(s.id, s.every ? { every: s.every } : { pattern: s.pattern! }, {
        name: s.jobName,
        data: s.data ?? {},
      });
    }
  }
  logger.info({ queues: definitions.map((d) => d.queue) }, "workers started");
  return {
    workers,
    close: async (timeoutMs = config.shutdownTimeoutMs) => {
      const closed = Promise.all(workers.map((w) => w.close()));
      const finished = await Promise.race([closed.then(() => true), sleep(timeoutMs).then(() => false)]);
      if (finished) return;
      logger.warn({ timeoutMs }, "jobs still running at the shutdown timeout: handing them back");
      for (const w of workers) w.cancelAllJobs(HAND_BACK);
      await closed;
    },
  };
}
