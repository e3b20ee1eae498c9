/**
 * BullMQ queues. Keys live under REDIS_PREFIX so deployments (and test files) can share a Redis.
 * A job carries ids, never state: PostgreSQL is the source of truth and every job is idempotent.
 *
 * On a Redis Cluster every key of one queue must hash to one slot (BullMQ's scripts touch several at
 * once), so each queue's prefix is a hash tag of its own, `{<REDIS_PREFIX>:bull:<queue>}`: one slot
 * per queue, the queues spread over the primaries (no flow here spans two queues, which would need
 * one tag for both). On one server the prefix stays `<REDIS_PREFIX>:bull`, as it always was.
 *
 * When tracing (`config.tracing`, docs/operations.md "Traces"), queues and workers get BullMQ's
 * telemetry (bullmq-otel): adding a job is a span of the request (or job) that adds it, and its
 * context travels in the job's options, so the worker's `process` span continues that trace in
 * whichever process runs it. Off, bullmq-otel is not even loaded.
 */
import { Queue, type JobsOptions, type Telemetry } from "bullmq";
import { config } from "../config.ts";
import { currentLogContext } from "./logger.ts";
import { createRedis, isCluster, requestPathTimeout } from "./redis.ts";

export const QUEUE_NAMES = ["scrape", "analysis", "radar", "maintenance", "webhooks", "mail", "exports"] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/** Retries with exponential backoff; finished jobs are kept briefly for inspection. */
const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: "exponential", delay: 2000 },
  removeOnComplete: { age: 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

const queues = new Map<QueueName, Queue>();

/** The ids of the request (or job) that queues a job, carried in its data for the logs (src/jobs/worker.ts). */
export interface JobTrace {
  requestId?: string;
  workspaceId?: string;
}

/** `data.trace` of a job: the ids of what queued it, when known. */
export function traceOf(data: unknown): JobTrace {
  const trace = (data as { trace?: JobTrace } | null)?.trace;
  return trace && typeof trace === "object" ? trace : {};
}

function traced<T>(data: T): T {
  const ids = currentLogContext();
  if (!ids?.requestId && !ids?.workspaceId) return data;
  const trace: JobTrace = {};
  if (ids.requestId) trace.requestId = ids.requestId;
  if (ids.workspaceId) trace.workspaceId = ids.workspaceId;
  return { ...data, trace };
}

/** Every job added inside a request or a job run carries their ids (`data.trace`), whatever area queues it. */
class TracedQueue extends Queue {
  override add(name: string, data: any, opts?: JobsOptions) {
    return super.add(name, traced(data), opts);
  }
  override addBulk(jobs: Parameters<Queue["addBulk"]>[0]) {
    return super.addBulk(jobs.map((j) => ({ ...j, data: traced(j.data) })));
  }
}

/** Where a queue's keys live: see the module's comment. */
export function bullPrefix(name: QueueName): string {
  return isCluster() ? `{${config.redisPrefix}:bull:${name}}` : `${config.redisPrefix}:bull`;
}

const telemetry: Telemetry | undefined = config.tracing
  ? new (await import("bullmq-otel")).BullMQOtel({ tracerName: "bullmq" })
  : undefined;

/**
 * A queue's or a worker's connection and key prefix (and BullMQ's telemetry when tracing). A worker's has no
 * command timeout: BullMQ duplicates it for its blocking commands (BZPOPMIN), which wait on purpose. A queue's
 * (`queue()`: adding jobs from requests and jobs, reading their state) has one (REDIS_COMMAND_TIMEOUT_MS), so a
 * stalled Redis fails the request (503) or the job (retried) instead of holding it.
 */
export function bullConnection(name: QueueName, opts: { commandTimeout?: number } = {}) {
  return { connection: createRedis("bullmq", opts), prefix: bullPrefix(name), ...(telemetry ? { telemetry } : {}) };
}

export function queue(name: QueueName): Queue {
  let q = queues.get(name);
  if (!q) {
    q = new TracedQueue(name, { ...bullConnection(name, requestPathTimeout()), defaultJobOptions: DEFAULT_JOB_OPTIONS });
    queues.set(name, q);
  }
  return q;
}

export async function closeQueues(): Promise<void> {
  await Promise.all([...queues.values()].map((q) => q.close()));
  queues.clear();
}
