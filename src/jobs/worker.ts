/**
 * Starts one BullMQ worker per queue definition (and its start-up task, if any) and upserts the
 * repeatable schedules. The domain's job bodies never see BullMQ: each gets a JobRun (attempt,
 * attempts, starts, signal), a PermanentJobFailure they throw fails the job at once (BullMQ's
 * UnrecoverableError), and a DeferJob puts it back, delayed, without using an attempt (BullMQ's
 * moveToDelayed and DelayedError).
 *
 * An outage does not use up a job's attempts: an attempt that fails because PostgreSQL cannot be
 * reached (`postgresUnreachable`: refused, cut, starting up, out of connections) puts the job back the same way,
 * delayed 1 s, 2 s, 4 s … at most OUTAGE_DELAY_MAX_MS as it meets the outage again, so every queued
 * job runs once the database is back, however long it was away (docs/operations.md). A Redis outage
 * needs nothing of the kind: the worker cannot take or fail jobs while Redis is away.
 *
 * Closing (a shutdown): the workers take no new job and the running ones get `timeoutMs` to
 * finish; those still running then are handed back: their signal is aborted and each job goes back
 * to `wait` without using an attempt, for another worker to run (every job body is idempotent and
 * resumes from the stored state). Every body passes the signal on: analysis and radar programs,
 * scrapes (their yt-dlp budget wait and program; a handed-back scrape stores nothing) and webhook
 * requests stop (docs/operations.md).
 *
 * Schedules heal: a Redis that lost its data (FLUSHALL, a restart without persistence) also lost
 * every job scheduler, and nothing would run the sweeps that recover lost work. So every worker
 * process checks its queues' schedulers every SCHEDULER_CHECK_INTERVAL_MS and when its Redis
 * connection is ready again after a reconnect, and re-creates any that is missing (an upsert with the
 * same id: several processes doing it at once make one scheduler).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { DelayedError, MetricsTime, UnrecoverableError, WaitingError, Worker, type Job } from "bullmq";
import { config } from "../config.ts";
import { dependencyFailed, logger, postgresUnreachable, unavailableDependency, withLogContext } from "../infra/logger.ts";
import { bullConnection, queue, traceOf } from "../infra/queues.ts";
import { redis } from "../infra/redis.ts";
import { DeferJob, PermanentJobFailure, type JobRun } from "../domain/shared/jobs.ts";
import type { JobSchedule, QueueDefinition } from "./registry.ts";

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

/** The longest wait of a job put back for a PostgreSQL outage, in ms. */
export const OUTAGE_DELAY_MAX_MS = 30_000;

/** How long a job that met a PostgreSQL outage waits, by how many times it has started: 1 s, doubling, capped. */
export function outageDelayMs(starts: number): number {
  return Math.min(1000 * 2 ** Math.min(Math.max(starts, 1) - 1, 15), OUTAGE_DELAY_MAX_MS);
}

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
            if (!(e instanceof PermanentJobFailure) && postgresUnreachable(e)) {
              const delayMs = outageDelayMs(job.attemptsStarted ?? 1);
              await job.moveToDelayed(Date.now() + delayMs, token);
              logger.info({ ...ids, job: job.name, delayMs, err: (e as Error).message }, "job put back: PostgreSQL is unavailable");
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
    worker.on("error", (err) => {
      // A Redis outage is logged once, counted while it lasts (src/infra/logger.ts); other errors each.
      const dependency = unavailableDependency(err);
      if (dependency) dependencyFailed(dependency, err, { queue: def.queue });
      else logger.error({ queue: def.queue, err: err.message }, "worker error");
    });
    workers.push(worker);
    for (const id of def.retiredSchedules ?? []) await queue(def.queue).removeJobScheduler(id);
    for (const s of def.schedules ?? []) await upsertSchedule(def, s);
  }
  const healing = healSchedules(definitions);
  logger.info({ queues: definitions.map((d) => d.queue) }, "workers started");
  return {
    workers,
    close: async (timeoutMs = config.shutdownTimeoutMs) => {
      healing.stop();
      const closed = Promise.all(workers.map((w) => w.close()));
      const finished = await Promise.race([closed.then(() => true), sleep(timeoutMs).then(() => false)]);
      if (finished) return;
      logger.warn({ timeoutMs }, "jobs still running at the shutdown timeout: handing them back");
      for (const w of workers) w.cancelAllJobs(HAND_BACK);
      await closed;
    },
  };
}

function upsertSchedule(def: QueueDefinition, s: JobSchedule) {
  return queue(def.queue).upsertJobScheduler(s.id, s.every ? { every: s.every } : { pattern: s.pattern! }, {
    name: s.jobName,
    data: s.data ?? {},
  });
}

/**
 * Re-creates the job schedulers Redis no longer has. Answers the ids re-created (`queue/id`).
 * Exported for the tests; the workers run it through `healSchedules`.
 */
export async function recreateMissingSchedules(definitions: QueueDefinition[]): Promise<string[]> {
  const recreated: string[] = [];
  for (const def of definitions) {
    for (const s of def.schedules ?? []) {
      if (await queue(def.queue).getJobScheduler(s.id)) continue;
      await upsertSchedule(def, s);
      recreated.push(`${def.queue}/${s.id}`);
    }
  }
  return recreated;
}

/** Runs the check on an interval and after each reconnection of this process's Redis connection; one check at a time. */
function healSchedules(definitions: QueueDefinition[]): { stop(): void } {
  let running = false;
  let again = false;
  let stopped = false;
  const check = async (reason: "interval" | "reconnected") => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      const recreated = await recreateMissingSchedules(definitions);
      if (recreated.length) logger.info({ recreated, reason }, "job schedulers were missing (Redis lost its data): re-created");
    } catch (e) {
      // Redis is down or stalled: its outage is logged where it is seen (the connection); the next check retries.
      logger.debug({ err: (e as Error).message }, "job scheduler check failed");
    } finally {
      running = false;
      if (again && !stopped) {
        again = false;
        void check(reason);
      }
    }
  };
  const timer = setInterval(() => void check("interval"), config.schedulerCheckIntervalMs);
  timer.unref();
  // 'ready' is emitted on each (re)connection; the first one may have happened already.
  const connection = redis();
  let seenReady = connection.status === "ready";
  const onReady = () => {
    if (!seenReady) {
      seenReady = true;
      return;
    }
    void check("reconnected");
  };
  connection.on("ready", onReady);
  return {
    stop: () => {
      stopped = true;
      clearInterval(timer);
      connection.off("ready", onReady);
    },
  };
}
