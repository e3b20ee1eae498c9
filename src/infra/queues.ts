/**
 * BullMQ queues. Keys live under REDIS_PREFIX so deployments (and test files) can share a Redis.
 * A job carries ids, never state: PostgreSQL is the source of truth and every job is idempotent.
 */
import { Queue, type JobsOptions } from "bullmq";
import { config } from "../config.js";
import { createRedis } from "./redis.js";

export const QUEUE_NAMES = ["scrape", "analysis", "radar", "maintenance", "webhooks"] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/** Retries with exponential backoff; finished jobs are kept briefly for inspection. */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: "exponential", delay: 2000 },
  removeOnComplete: { age: 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

const queues = new Map<QueueName, Queue>();

export function bullConnection() {
  return { connection: createRedis("bullmq"), prefix: `${config.redisPrefix}:bull` };
}

export function queue(name: QueueName): Queue {
  let q = queues.get(name);
  if (!q) {
    q = new Queue(name, { ...bullConnection(), defaultJobOptions: DEFAULT_JOB_OPTIONS });
    queues.set(name, q);
  }
  return q;
}

export async function closeQueues(): Promise<void> {
  await Promise.all([...queues.values()].map((q) => q.close()));
  queues.clear();
}
