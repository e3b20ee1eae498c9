/**
 * Prometheus metrics (prom-client), one registry per process, served by GET /metrics
 * (src/http/admin/metrics.ts). METRICS=false turns every series and its instrumentation off.
 *
 * - `http_request_duration_seconds{method,route,status}`: every HTTP request, by route template
 *   (express's matched route, `/graphql` for GraphQL, `unmatched` otherwise; never a raw path).
 * - `graphql_operations_total`, `graphql_operation_duration_seconds` and `graphql_errors_total`
 *   `{operation_type,operation_name}`: through @envelop/prometheus (`graphqlMetricsPlugin`). An
 *   operation name is the client's choice, so only the first MAX_OPERATION_NAMES distinct names get
 *   a series of their own; later ones are counted as `other`.
 * - `graphql_subscription_answers_total{outcome}`: live subscriptions' answers to events, `executed` once per
 *   group of subscribers who see the same answer or `shared` from it (src/http/graphql/fan-out.ts).
 * - `bullmq_jobs{queue,state}` (a gauge: BullMQ's getJobCounts, read at each scrape; not `_count`, a histogram's suffix), and BullMQ's own
 *   per-minute metrics `bullmq_job_completed_total`/`bullmq_job_failed_total{queue}` (the workers
 *   record them, src/jobs/worker.ts).
 * - `scrape_outcomes_total{provider,platform,kind,outcome}` and `webhook_deliveries_total{outcome}`:
 *   counted where they happen (in worker processes, which serve no HTTP) into a Redis hash, so any
 *   API process reports the service-wide totals, like the queue counts (aggregate them across API
 *   instances with max(), not sum()).
 * - Node's process metrics (prom-client's default metrics).
 */
import { readdir } from "node:fs/promises";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { createCounter, createHistogram, usePrometheus } from "@envelop/prometheus";
import type { Plugin } from "@envelop/core";
import { config } from "../config.ts";
import { logger } from "./logger.ts";
import { QUEUE_NAMES, queue } from "./queues.ts";
import { redis } from "./redis.ts";

export const metricsEnabled = config.operations.metrics;

export const registry = new Registry();

let processMetrics = false;
/** Node's process metrics (CPU, memory, event-loop lag, GC), from now on: called where /metrics is
 *  served (src/http/app.ts), not in workers and CLI runs that only count. */
export function collectProcessMetrics(): void {
  if (!metricsEnabled || processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: registry });
  // prom-client's gauges named like counters (`promtool check metrics`: non-counter metrics should not end in
  // `_total`); their sums by type stay as `nodejs_active_requests` and `nodejs_active_resources`.
  for (const name of ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"])
    registry.removeSingleMetric(name);
  withoutCollectorsThatStall(registry);
}

/**
 * Two of prom-client's default collectors take a scrape time in proportion to the process's sockets, on the event
 * loop. With 20,000 sockets open, the whole default registry took 34 ms a scrape; without these two, 0.5 ms
 * (`npm run bench -- scrape-collectors`, bench/RESULTS.md "A /metrics scrape with 10,000 connections open"):
 * - `process_open_fds` lists /proc/self/fd with readdirSync (17 ms): the same count is now read with an asynchronous
 *   readdir, in libuv's thread pool (the loop waits about 4 ms for the list it hands back);
 * - `nodejs_active_handles{type}` makes a JavaScript object for every handle through the undocumented
 *   `process._getActiveHandles()` (7-10 ms): dropped. `nodejs_active_resources{type}` (Node's documented
 *   `getActiveResourcesInfo`, 3.5 ms, strings only) counts the same sockets, timers and servers.
 */
export function withoutCollectorsThatStall(registry: Registry): void {
  registry.removeSingleMetric("nodejs_active_handles");
  registry.removeSingleMetric("process_open_fds");
  if (process.platform !== "linux") return;
  new Gauge({
    name: "process_open_fds",
    help: "Number of open file descriptors.",
    registers: [registry],
    async collect() {
      try {
        // Less the descriptor of the directory being read, as prom-client's own collector counts.
        this.set((await readdir("/proc/self/fd")).length - 1);
      } catch {
        // Out of descriptors (EMFILE), or /proc unreadable: the last count stays, and the scrape answers the rest.
      }
    },
  });
}

// ---------------------------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------------------------

const httpDuration = new Histogram({
  name: "http_request_duration_seconds",
  help: "HTTP requests by route template (never a raw path), method and status",
  labelNames: ["method", "route", "status"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

/** The label of a request that no route matched. */
export const UNMATCHED_ROUTE = "unmatched";

export function observeHttpRequest(method: string, route: string, status: number, seconds: number): void {
  httpDuration.observe({ method, route, status: String(status) }, seconds);
}

// ---------------------------------------------------------------------------------------------
// GraphQL (@envelop/prometheus)
// ---------------------------------------------------------------------------------------------

/** Distinct operation names with a series of their own (the rest: `other`). */
const MAX_OPERATION_NAMES = 200;
const operationNames = new Set<string>();

function boundedOperationName(name: unknown): string {
  const n = typeof name === "string" && name ? name.slice(0, 100) : "Anonymous";
  if (operationNames.has(n)) return n;
  if (operationNames.size >= MAX_OPERATION_NAMES) return "other";
  operationNames.add(n);
  return n;
}

// Label names are snake_case, as Prometheus' conventions (and `promtool check metrics`) want.
const operationLabels = (params: { operationName?: string; operationType?: string }) => ({
  operation_type: params.operationType ?? "unknown",
  operation_name: boundedOperationName(params.operationName),
});
const operationLabelNames = ["operation_type", "operation_name"] as const;

/** Operation counts, durations and errors; parse/validate/context phases are not timed (cost). */
export function graphqlMetricsPlugin(): Plugin {
  return usePrometheus({
    registry,
    metrics: {
      graphql_envelop_request: createCounter({
        registry,
        counter: {
          name: "graphql_operations_total",
          help: "GraphQL operations executed (queries, mutations, subscriptions)",
          labelNames: operationLabelNames,
        },
        fillLabelsFn: operationLabels,
      }),
      graphql_envelop_request_duration: createHistogram({
        registry,
        histogram: {
          name: "graphql_operation_duration_seconds",
          help: "Time to execute a GraphQL operation (execute phase; a subscription until it ends)",
          labelNames: operationLabelNames,
          buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
        },
        fillLabelsFn: operationLabels,
      }),
      graphql_envelop_error_result: createCounter({
        registry,
        counter: {
          name: "graphql_errors_total",
          help: "Errors in GraphQL results, by phase",
          labelNames: [...operationLabelNames, "phase"],
        },
        fillLabelsFn: (params: { operationName?: string; operationType?: string; errorPhase?: string }) => ({
          ...operationLabels(params),
          phase: params.errorPhase ?? "execute",
        }),
      }),
    },
  }) as Plugin;
}

/**
 * Answers of live subscriptions to events: `executed` once per group of subscribers who see the same
 * (src/http/graphql/fan-out.ts), `shared` for every other subscriber of the group. shared / (executed + shared)
 * is the part of the fan-out that cost no execution.
 */
const subscriptionAnswers = new Counter({
  name: "graphql_subscription_answers_total",
  help: "Answers of live subscriptions to events: executed once per group of subscribers, or shared from the group's answer",
  labelNames: ["outcome"] as const,
  registers: [registry],
});

export function countSubscriptionAnswer(outcome: "executed" | "shared"): void {
  subscriptionAnswers.inc({ outcome });
}

// ---------------------------------------------------------------------------------------------
// BullMQ
// ---------------------------------------------------------------------------------------------

async function eachQueue<T>(read: (name: (typeof QUEUE_NAMES)[number]) => Promise<T>): Promise<[string, T][]> {
  try {
    return await Promise.all(QUEUE_NAMES.map(async (name) => [name, await read(name)] as [string, T]));
  } catch (e) {
    logger.warn({ err: (e as Error).message }, "metrics: queue counts unavailable");
    return [];
  }
}

new Gauge({
  name: "bullmq_jobs",
  help: "Jobs per queue and state (BullMQ getJobCounts, read when scraped)",
  labelNames: ["queue", "state"] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const [name, counts] of await eachQueue((q) => queue(q).getJobCounts())) {
      for (const [state, n] of Object.entries(counts)) this.set({ queue: name, state }, n);
    }
  },
});

for (const type of ["completed", "failed"] as const) {
  new Counter({
    name: `bullmq_job_${type}_total`,
    help: `Jobs ${type}, per queue (BullMQ's own metrics, recorded by the workers)`,
    labelNames: ["queue"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const [name, m] of await eachQueue((q) => queue(q).getMetrics(type, 0, 0))) this.inc({ queue: name }, m.meta.count);
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Service-wide counters (kept in Redis: counted in workers, reported by any API process)
// ---------------------------------------------------------------------------------------------

function sharedCounter<L extends string>(name: string, help: string, labelNames: readonly L[]) {
  const key = `${config.redisPrefix}:metrics:${name}`;
  new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      let all: Record<string, string> = {};
      try {
        all = await redis().hgetall(key);
      } catch (e) {
        logger.warn({ err: (e as Error).message, metric: name }, "metrics: counter unavailable");
      }
      this.reset();
      for (const [field, n] of Object.entries(all)) {
        const values = JSON.parse(field) as string[];
        this.inc(Object.fromEntries(labelNames.map((l, i) => [l, values[i] ?? ""])) as Record<L, string>, Number(n));
      }
    },
  });
  /** Adds one; never throws nor waits (a lost increment is better than a failed job). */
  return (labels: Record<L, string>): void => {
    if (!metricsEnabled) return;
    redis()
      .hincrby(key, JSON.stringify(labelNames.map((l) => labels[l])), 1)
      .catch((e: Error) => logger.debug({ err: e.message, metric: name }, "metrics: increment lost"));
  };
}

/** One scrape attempt that reached the provider: `ok`, or `error` (the job retries or fails). */
export const countScrape = sharedCounter(
  "scrape_outcomes_total",
  "Scrape attempts by provider, platform, kind (video, account) and outcome (ok, error)",
  ["provider", "platform", "kind", "outcome"] as const,
);

/** One webhook delivery attempt's outcome (`delivered`, `retrying`, `failed`), counted where every attempt ends (src/domain/webhooks/delivery.ts, deliveryEnded). */
export const countWebhookDelivery = sharedCounter("webhook_deliveries_total", "Webhook delivery attempts by outcome", ["outcome"] as const);

/** The Prometheus text of every series. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
