/**
 * Structured logs (pino), one logger for the process: JSON lines for collectors, or readable lines
 * (pino-pretty) in a terminal; `logFormat` decides (LOG_FORMAT, else whether the destination is a TTY). Every line carries the ids of what it is
 * part of, from an AsyncLocalStorage context read by pino's mixin: `requestId` (the HTTP request,
 * echoed in X-Request-Id), `workspaceId` (once the request's key is known), and for a job run
 * `queue`, `jobId` and the `requestId`/`workspaceId` of the request that queued it (carried in the
 * job's data by ./queues.ts), so a job's lines can be followed from that request to its end.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { createRequire } from "node:module";
import { isSpanContextValid, TraceFlags, trace } from "@opentelemetry/api";
import { pino, type DestinationStream } from "pino";
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

/**
 * Traced (the `pino` instrumentation, src/main/telemetry.ts), a line written while a sampled span is active also
 * carries its `trace_id`, `span_id` and `trace_flags`, as OpenTelemetry's pino instrumentation wrote them; read
 * here, in the one mixin, instead of by a second mixin merged into this one on every line. A request the sampler
 * left out has no trace to link to: its lines stay as they are untraced.
 */
function withTraceIds(): object {
  const ids = context.getStore();
  const span = trace.getActiveSpan()?.spanContext();
  if (!span || (span.traceFlags & TraceFlags.SAMPLED) === 0 || !isSpanContextValid(span)) return ids ?? {};
  return { trace_id: span.traceId, span_id: span.spanId, trace_flags: `0${span.traceFlags.toString(16)}`, ...ids };
}

const options = {
  level: config.logLevel,
  base: { service: "video-service", pid: process.pid },
  redact: { paths: ["req.headers.authorization", "apiKey", "*.apiKey"], censor: "[redacted]" },
  timestamp: pino.stdTimeFunctions.isoTime,
  mixin: config.traceInstrumentations.includes("pino") ? withTraceIds : () => context.getStore() ?? {},
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
  // Loaded only for a terminal: processes that log JSON (services under a supervisor, every test) never need it.
  const pretty = createRequire(import.meta.url)("pino-pretty") as typeof import("pino-pretty");
  return pretty({ destination: fd, sync: true, colorize: isTTY, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname,service" });
}

// stderr when stdout belongs to a protocol (the MCP stdio server, src/cli/index.ts).
export const logger = pino(options, destination(config.logDestination === "stderr" ? 2 : 1));

export type Logger = typeof logger;

/**
 * Outages of a backing service, logged for an operator rather than per failure: the first failure logs one
 * `error` line ("<dependency> unavailable"), the failures while it lasts are counted and logged every
 * OUTAGE_LOG_INTERVAL_MS (`warn`, "<dependency> still unavailable", with the count), and its end logs one
 * line ("<dependency> available again", with the count and how long it lasted). A connection's errors
 * (every reconnection attempt of every connection) and every request or job that failed on it are counted,
 * not logged. The end is seen by the dependency itself (a Redis connection ready again, a new PostgreSQL
 * connection) or by its probe (`probeDependency`), run every second while the outage lasts.
 */
export type Dependency = "redis" | "postgres";

interface Outage {
  since: number;
  failures: number;
  reported: number;
  lastError: string;
  timers: NodeJS.Timeout[];
}
const outages = new Map<Dependency, Outage>();
const probes = new Map<Dependency, () => Promise<unknown>>();
const PROBE_EVERY_MS = 1000;

/** How the dependency's module checks that it answers again (PING, SELECT 1). */
export function probeDependency(dependency: Dependency, probe: () => Promise<unknown>): void {
  probes.set(dependency, probe);
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Counts a failure of the dependency; the first one of an outage is logged (`error`). */
export function dependencyFailed(dependency: Dependency, err: unknown, fields: Record<string, unknown> = {}): void {
  const open = outages.get(dependency);
  if (open) {
    open.failures++;
    open.lastError = messageOf(err);
    return;
  }
  const outage: Outage = { since: Date.now(), failures: 1, reported: 0, lastError: messageOf(err), timers: [] };
  outages.set(dependency, outage);
  logger.error({ dependency, err: outage.lastError, ...fields }, `${dependency} unavailable`);
  const report = setInterval(() => {
    if (outage.failures === outage.reported) return;
    outage.reported = outage.failures;
    logger.warn(
      { dependency, failures: outage.failures, forMs: Date.now() - outage.since, err: outage.lastError },
      `${dependency} still unavailable`,
    );
  }, config.outageLogIntervalMs);
  outage.timers.push(report);
  const probe = probes.get(dependency);
  if (probe) {
    let probing = false;
    const check = setInterval(() => {
      if (probing) return;
      probing = true;
      probe()
        .then(() => dependencyAvailable(dependency))
        .catch(() => undefined)
        .finally(() => (probing = false));
    }, PROBE_EVERY_MS);
    outage.timers.push(check);
  }
  for (const t of outage.timers) t.unref();
}

/** Ends the dependency's outage, if one is open: logged once (`warn`), with its count and length. */
export function dependencyAvailable(dependency: Dependency): void {
  const outage = outages.get(dependency);
  if (!outage) return;
  outages.delete(dependency);
  for (const t of outage.timers) clearInterval(t);
  logger.warn({ dependency, failures: outage.failures, forMs: Date.now() - outage.since }, `${dependency} available again`);
}

const UNAVAILABLE_CODES: Record<string, Dependency | "either"> = {
  ECONNREFUSED: "either",
  ECONNRESET: "either",
  ETIMEDOUT: "either",
  EHOSTUNREACH: "either",
  ENOTFOUND: "either",
  "57P01": "postgres",
  "57P03": "postgres",
  "53300": "postgres",
  // statement_timeout (DATABASE_STATEMENT_TIMEOUT_MS): the server cancelled a statement that took too long.
  "57014": "postgres",
  P1001: "postgres",
  P1002: "postgres",
  P1017: "postgres",
  P2024: "postgres",
};
/** Refused or cut connections, and the bounded waits' timeouts (src/infra/db.ts, src/infra/redis.ts). */
const REDIS_MESSAGES = /Connection is closed|MaxRetriesPerRequestError|Stream isn't writeable|enableOfflineQueue|Command timed out/i;
// Also the server's own words for a connection it ended (57P01 administrator command, 57P03 shutting down or starting up),
// as Prisma words them in a raw query's error (P2010, the server's code only in the message), and pg's for a client
// whose connection broke under it.
const POSTGRES_MESSAGES =
  /Can't reach database|Connection terminated|Timed out fetching a new connection|Query read timeout|timeout exceeded when trying to connect|canceling statement due to statement timeout|terminating connection due to administrator command|the database system is (shutting down|starting up|in recovery mode)|Client has encountered a connection error and is not queryable/i;

type ErrorLike = { code?: unknown; message?: unknown; name?: unknown; cause?: unknown; port?: unknown };

/** The error and its causes, the error first (at most six deep). */
function* causes(err: unknown): Generator<ErrorLike> {
  let e = err as ErrorLike | undefined;
  for (let depth = 0; e && depth < 6; e = e.cause as ErrorLike | undefined, depth++) yield e;
}

/** The port a refused or cut connection was to: the error's own, else the one its message ends with. */
const portOf = (e: ErrorLike) => (typeof e.port === "number" ? e.port : Number(/:(\d+)\s*$/.exec(String(e.message ?? ""))?.[1]));

/** The port PostgreSQL listens on (DATABASE_URL). */
function postgresPort(): number {
  return Number(new URL(config.databaseUrl).port || 5432);
}

/**
 * Whether the error (or anything in its cause chain) says PostgreSQL cannot be reached at the moment: refused
 * or cut at its port, shutting down or starting up, out of connections, no connection free in time. Narrower
 * than `unavailableDependency`: a statement that ran too long (57014) or another service that refused is not
 * an outage. The job runner waits for the database on these without using an attempt (src/jobs/worker.ts).
 */
export function postgresUnreachable(err: unknown): boolean {
  for (const e of causes(err)) {
    const byCode = typeof e.code === "string" ? UNAVAILABLE_CODES[e.code] : undefined;
    if (byCode === "either") return portOf(e) === postgresPort();
    if (byCode === "postgres") return e.code !== "57014";
    if (typeof e.message === "string" && POSTGRES_MESSAGES.test(e.message)) return !/statement timeout/i.test(e.message);
  }
  return false;
}

/** The ports Redis listens on (REDIS_URL or REDIS_CLUSTER_NODES): a refused connection to one of them is Redis's. */
function redisPorts(): Set<number> {
  const target = config.redis;
  if (target.cluster) return new Set(target.nodes.map((n) => n.port));
  return new Set([Number(new URL(target.url).port || 6379)]);
}

/**
 * Which backing service the error (or anything in its cause chain) says is unreachable or stalled, or null
 * when it says no such thing. The one list of those errors: the doors answer them 503 (src/http/errors.ts).
 */
export function unavailableDependency(err: unknown): Dependency | null {
  for (const e of causes(err)) {
    const byCode = typeof e.code === "string" ? UNAVAILABLE_CODES[e.code] : undefined;
    if (byCode === "either") return redisPorts().has(portOf(e)) ? "redis" : "postgres";
    if (byCode) return byCode;
    if (e.name === "MaxRetriesPerRequestError") return "redis";
    if (typeof e.message === "string") {
      if (REDIS_MESSAGES.test(e.message)) return "redis";
      if (POSTGRES_MESSAGES.test(e.message)) return "postgres";
      if (/connect ECONNREFUSED/i.test(e.message)) return redisPorts().has(Number(/:(\d+)/.exec(e.message)?.[1])) ? "redis" : "postgres";
    }
  }
  return null;
}
