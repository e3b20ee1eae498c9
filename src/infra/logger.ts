/**
 * Structured logs (pino), one logger for the process: JSON lines for collectors, or readable lines
 * (pino-pretty) in a terminal; `logFormat` decides (LOG_FORMAT, else whether the destination is a TTY). Every line carries the ids of what it is
 * part of, from an AsyncLocalStorage context read by pino's mixin: `requestId` (the HTTP request,
 * echoed in X-Request-Id), `workspaceId` (once the request's key is known), and for a job run
 * `queue`, `jobId` and the `requestId`/`workspaceId` of the request that queued it (carried in the
 * job's data by ./queues.ts), so a job's lines can be followed from that request to its end.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { pino, type DestinationStream } from "pino";
import pretty from "pino-pretty";
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

export type LogFormat = "pretty" | "json";

/** LOG_FORMAT when set; otherwise pretty for a person at a terminal, JSON for anything reading the stream. */
export function logFormat(setting: LogFormat | null, destinationIsTTY: boolean): LogFormat {
  return setting ?? (destinationIsTTY ? "pretty" : "json");
}

/**
 * Where the lines go, in the chosen format. pretty runs pino-pretty in this process, synchronously
 * (a terminal reads at human speed; JSON, the production format, keeps pino's own fast path): the
 * time, the level (coloured only on a terminal) and the message, then the line's other fields.
 */
function destination(fd: 1 | 2): DestinationStream {
  const isTTY = (fd === 2 ? process.stderr : process.stdout).isTTY === true;
  if (logFormat(config.logFormat, isTTY) === "json") return pino.destination(fd);
  return pretty({ destination: fd, sync: true, colorize: isTTY, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname,service" });
}

// stderr when stdout belongs to a protocol (the MCP stdio server, src/cli/index.ts).
export const logger = pino(options, destination(config.logDestination === "stderr" ? 2 : 1));

export type Logger = typeof logger;
