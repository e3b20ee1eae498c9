/**
 * Structured JSON logs (pino), one logger for the process. Every line carries the ids of what it is
 * part of, from an AsyncLocalStorage context read by pino's mixin: `requestId` (the HTTP request,
 * echoed in X-Request-Id), `workspaceId` (once the request's key is known), and for a job run
 * `queue`, `jobId` and the `requestId`/`workspaceId` of the request that queued it (carried in the
 * job's data by ./queues.ts), so a job's lines can be followed from that request to its end.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { pino } from "pino";
import { config } from "../config.ts";

/** The ids a log line is part of. */
export interface LogContext {
  requestId?: string;
  workspaceId?: string;
  queue?: string;
  jobId?: string;
}

const context = new AsyncLocalStorage<LogContext>();

/** Runs `fn` with these ids (added to the current ones) on every log line it writes. LOG_CONTEXT=false
 *  runs it as is: on Node 20 an AsyncLocalStorage, once used, puts a hook on every promise of the
 *  process (measured by bench/metrics-cost.ts). */
export function withLogContext<T>(fields: LogContext, fn: () => T): T {
  return config.logContext ? context.run({ ...context.getStore(), ...fields }, fn) : fn();
}

/** Adds ids to the current context (e.g. the workspace once the API key is known); no-op outside one. */
export function addLogContext(fields: LogContext): void {
  const store = context.getStore();
  if (store) Object.assign(store, fields);
}

/** The current context's ids (undefined outside any request or job). */
export function currentLogContext(): LogContext | undefined {
  return context.getStore();
}

const options = {
  level: config.logLevel,
  base: { service: "video-service", pid: process.pid },
  redact: { paths: ["req.headers.authorization", "apiKey", "*.apiKey"], censor: "[redacted]" },
  timestamp: pino.stdTimeFunctions.isoTime,
  mixin: () => context.getStore() ?? {},
};

// stderr when stdout belongs to a protocol (the MCP stdio server, src/cli/index.ts).
export const logger = config.logDestination === "stderr" ? pino(options, pino.destination(2)) : pino(options);

export type Logger = typeof logger;
