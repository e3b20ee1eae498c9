/**
 * OpenTelemetry traces (docs/operations.md, "Traces"). Loaded only when the OTEL_* variables ask for
 * traces (`config.tracing`, through ./tracing.ts), and before any module it instruments is loaded:
 * the entry points (./api.ts, ./worker.ts, ./all.ts) import everything else dynamically after
 * `startTracing`.
 *
 * Why that order, and the hook: the service runs as ES modules (Node 24's type stripping). The instrumentations
 * patch a module when it is loaded: CommonJS `require` through require-in-the-middle, and `import`
 * through import-in-the-middle's loader hook (`module.register`), which must be registered, and the
 * instrumentations enabled, before the importing module graph is linked. A static `import "./telemetry.ts"`
 * at the top of an entry point is too late for ES modules (the whole static graph is loaded before
 * any of it runs), and a `--import` preload would have to be repeated in every way the roles are started
 * (npm scripts, tests, benches, `node src/main/api.ts` …). The dynamic imports of the entry points give
 * the same order everywhere. `createAddHookMessageChannel` makes the hook wrap only the modules an
 * instrumentation asked for (http, express, graphql, pg, ioredis, pino, …), not every .ts file.
 */
import { register } from "node:module";
import { createAddHookMessageChannel } from "import-in-the-middle";
import { NodeSDK } from "@opentelemetry/sdk-node";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { ExpressInstrumentation, ExpressLayerType } from "@opentelemetry/instrumentation-express";
import { GraphQLInstrumentation } from "@opentelemetry/instrumentation-graphql";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { IORedisInstrumentation } from "@opentelemetry/instrumentation-ioredis";
import { context, trace } from "@opentelemetry/api";
import type { Instrumentation } from "@opentelemetry/instrumentation";
import { config, type TraceInstrumentation } from "../config.ts";
import { exportsOffThread, WorkerSpanExporter } from "./trace-export.ts";

/** Which process this is: each role is a service of its own in the traces (unless OTEL_SERVICE_NAME says otherwise). */
export type Role = "api" | "worker" | "all";

/**
 * The instrumentations, by the names of OpenTelemetry's standard OTEL_NODE_ENABLED_INSTRUMENTATIONS
 * (`config.traceInstrumentations`, src/config.ts).
 *
 * By default a trace holds what answers "where did this request or job spend its time": the request
 * (`http`: one server span, made by src/http/request-context.ts and named by its route, and client spans
 * of outgoing requests, webhook deliveries), its SQL statements (`pg`, inside a request or a job only,
 * without a span per pool checkout) and its jobs (BullMQ's own telemetry, src/infra/queues.ts: one trace
 * from the request into the worker), with the trace id on every log line of a sampled span (`pino`: read by the
 * logger's own mixin, src/infra/logger.ts, not by an instrumentation). What costs the most for
 * what it tells is left to be asked for: `express` (a span per router layer, and a wrapper run around every
 * middleware of every request, sampled or not: REST lost about a quarter of its throughput with it, at any
 * sampling rate, bench/traces-cost.ts), `graphql` (a `graphql.validate` span per request; graphql-jit runs
 * compiled operations, so there are no execute or resolver spans) and `ioredis` (a span per Redis command:
 * the rate limit, leases, pub/sub).
 *
 * The server span is the project's own (src/http/request-context.ts, `tracedRequest`): the HTTP
 * instrumentation's, which computed every semantic-convention attribute twice (old and new names), bound the
 * request's and response's emitters and recorded metrics nobody reads, was its largest cost per request
 * (bench/ladder/profile.mjs with tracing on, 10 % sampled). The instrumentation still makes the client spans.
 *
 * What a traced request costs beyond its spans is kept off the event loop or left out: the OTLP encoding and
 * sending run in a worker thread (./trace-export.ts), the statement span records no metrics (`statementSpans`),
 * and a request the sampler leaves out builds no attributes and wraps no statement.
 */
const INSTRUMENTATIONS: Partial<Record<TraceInstrumentation, () => Instrumentation>> = {
  http: () => new HttpInstrumentation({ disableIncomingRequestInstrumentation: true }),
  // Route and handler spans only when asked; even then not one per middleware layer (compression, auth, rate limit …).
  express: () => new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
  graphql: () => new GraphQLInstrumentation({ mergeItems: true, ignoreTrivialResolveSpans: true }),
  // Statements and Redis commands only inside a request or a job: not the workers' polling and the
  // schedulers' background traffic, each of which would otherwise be a trace of its own.
  pg: () => statementSpans(new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true })),
  ioredis: () => new IORedisInstrumentation({ requireParentSpan: true }),
};

/** The parts of PgInstrumentation replaced by `statementSpans` (private in its typings, stable within 0.76). */
interface PgInternals {
  recordOperationDuration: () => void;
  _setPoolConnectEventListeners: () => void;
  _recordPoolMax: () => void;
  _getClientQueryPatch: () => (original: (...args: unknown[]) => unknown) => (...args: unknown[]) => unknown;
}

/**
 * The statement span without what it cost beside the span: no `db.client.*` metrics (a histogram entry per
 * statement and four pool listeners per checkout, recorded into a meter nobody reads: metrics are
 * Prometheus's, src/infra/metrics.ts), and nothing at all when the statement's parent span is not
 * recording (a request left out by the sampler): its span would be dropped anyway, after the wrapper
 * had parsed the statement, built its attributes and wrapped its promise.
 */
function statementSpans(instrumentation: PgInstrumentation): PgInstrumentation {
  const internals = instrumentation as unknown as PgInternals;
  const noop = () => undefined;
  internals.recordOperationDuration = noop;
  internals._setPoolConnectEventListeners = noop;
  internals._recordPoolMax = noop;
  const queryPatch = internals._getClientQueryPatch.bind(instrumentation);
  internals._getClientQueryPatch = () => (original) => {
    const traced = queryPatch()(original);
    return function query(this: unknown, ...args: unknown[]) {
      return trace.getSpan(context.active())?.isRecording() ? traced.apply(this, args) : original.apply(this, args);
    };
  };
  return instrumentation;
}

/** Starts the SDK; resolves once the loader hook knows every module to wrap. Returns its shutdown (flushes what is left). */
export async function startTelemetry(role: Role): Promise<() => Promise<void>> {
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register("import-in-the-middle/hook.mjs", import.meta.url, registerOptions);

  const namedByEnv = Boolean(process.env.OTEL_SERVICE_NAME) || /(^|,)\s*service\.name=/.test(process.env.OTEL_RESOURCE_ATTRIBUTES ?? "");
  const sdk = new NodeSDK({
    ...(namedByEnv ? {} : { serviceName: role === "all" ? "video-service" : `video-service-${role}` }),
    // Traces only: metrics stay on /metrics (Prometheus), logs on stdout (with the trace id, below).
    metricReaders: [],
    logRecordProcessors: [],
    // OTLP over HTTP encodes and sends in a worker thread (./trace-export.ts); any other exporter as the SDK makes it.
    ...(exportsOffThread(process.env) ? { traceExporter: new WorkerSpanExporter() } : {}),
    instrumentations: config.traceInstrumentations.flatMap((name) => INSTRUMENTATIONS[name]?.() ?? []),
  });
  sdk.start();
  await waitForAllMessagesAcknowledged();
  return () => sdk.shutdown();
}
