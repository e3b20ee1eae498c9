/** Starts one BullMQ worker per queue definition and upserts the repeatable schedules. */
import { Worker } from "bullmq";
import { logger } from "../infra/logger.js";
import { bullConnection, queue } from "./queues.js";
import { jobDefinitions, type QueueDefinition } from "./registry.js";

export interface RunningWorkers {
  workers: Worker[];
  close(): Promise<void>;
}

export async function startWorkers(definitions: QueueDefinition[] = jobDefinitions()): Promise<RunningWorkers> {
  const workers: Worker[] = [];
  for (const def of definitions) {
    const worker = new Worker(
      def.queue,
      async (job) => {
        const handler = def.handlers[job.name];
        if (!handler) throw new Error(`No handler for job "${job.name}" on queue "${def.queue}"`);
        return handler(job);
      },
      {
        ...bullConnection(),
        concurrency: def.concurrency,
        ...(def.lockDurationMs ? { lockDuration: def.lockDurationMs } : {}),
        ...(def.stalledIntervalMs ? { stalledInterval: def.stalledIntervalMs } : {}),
      },
    );
    worker.on("failed", (job, err) =>
      logger.warn({ queue: def.queue, job: job?.name, jobId: job?.id, attempt: job?.attemptsMade, err: err.message }, "job failed"),
    );
    worker.on("error", (err) => logger.error({ queue: def.queue, err: err.message }, "worker error"));
    workers.push(worker);
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
