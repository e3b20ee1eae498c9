/**
 * The OTLP/HTTP span exporter, run in a worker thread (./trace-export-worker.ts). The batch span processor hands
 * this exporter its batches; here each span is copied into a plain record (its fields as they are, no
 * conversion) and the batch is posted to the worker, which builds OpenTelemetry's own exporter from the same
 * OTEL_EXPORTER_OTLP_* variables, encodes (protobuf or JSON) and sends. The encoding was the largest part of
 * what a traced request cost the event loop (bench/RESULTS.md, traces-cost); V8's structured clone of the
 * records costs a fraction of it. Only the OTLP/HTTP protocols go there (`exportsOffThread`); gRPC and
 * the other exporters stay with the SDK's own processors.
 */
import { Worker } from "node:worker_threads";
import type { ExportResult } from "@opentelemetry/core";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace";
import type { Attributes, HrTime, Link } from "@opentelemetry/api";

/** One span as it crosses to the worker: ReadableSpan's data, with its resource and scope by index in the batch. */
export interface SpanRecord {
  traceId: string;
  spanId: string;
  traceFlags: number;
  traceState?: string;
  parentSpanId?: string;
  parentIsRemote?: boolean;
  name: string;
  kind: number;
  startTime: HrTime;
  endTime: HrTime;
  attributes: Attributes;
  droppedAttributesCount: number;
  events: ReadableSpan["events"];
  droppedEventsCount: number;
  status: ReadableSpan["status"];
  links: (Omit<Link, "context"> & {
    context: { traceId: string; spanId: string; traceFlags: number; isRemote?: boolean; traceState?: string };
  })[];
  droppedLinksCount: number;
  resource: number;
  scope: number;
}

export interface ScopeRecord {
  name: string;
  version?: string;
  schemaUrl?: string;
}

export type ToWorker =
  | {
      type: "export";
      id: number;
      resources: { attributes: Attributes; schemaUrl?: string }[];
      scopes: ScopeRecord[];
      spans: SpanRecord[];
    }
  | { type: "flush" | "shutdown"; id: number };

export interface FromWorker {
  id: number;
  code: ExportResult["code"];
  error?: string;
}

/** Whether the SDK's default exporter would be OTLP over HTTP: then it runs in the worker. */
export function exportsOffThread(env: NodeJS.ProcessEnv): boolean {
  const exporters = (env.OTEL_TRACES_EXPORTER ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s && s !== "null");
  if (exporters.length > 1 || (exporters.length === 1 && exporters[0] !== "otlp")) return false;
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/protobuf").trim();
  return protocol === "http/protobuf" || protocol === "http/json";
}

const FAILED = 1;

export class WorkerSpanExporter implements SpanExporter {
  readonly #worker = new Worker(new URL("./trace-export-worker.ts", import.meta.url));
  readonly #pending = new Map<number, (r: FromWorker) => void>();
  #next = 0;
  /** Why the worker is gone (it failed, or was shut down): every later export fails at once with it. */
  #gone: string | null = null;

  constructor() {
    // Idle, the worker does not keep the process alive; while an export is under way it does (shutdown's flush).
    this.#worker.unref();
    this.#worker.on("message", (reply: FromWorker) => {
      this.#pending.get(reply.id)?.(reply);
      this.#pending.delete(reply.id);
      if (this.#pending.size === 0) this.#worker.unref();
    });
    this.#worker.on("error", (error) => this.#failAll(String(error)));
    this.#worker.on("exit", () => this.#failAll("the trace export worker exited"));
  }

  #failAll(error: string): void {
    this.#gone ??= error;
    for (const [id, reply] of this.#pending) reply({ id, code: FAILED, error });
    this.#pending.clear();
  }

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    const resources = new Map<ReadableSpan["resource"], number>();
    const scopes = new Map<ReadableSpan["instrumentationScope"], number>();
    const indexOf = <K>(map: Map<K, number>, key: K) => {
      let i = map.get(key);
      if (i === undefined) map.set(key, (i = map.size));
      return i;
    };
    const records = spans.map((span) => toRecord(span, indexOf(resources, span.resource), indexOf(scopes, span.instrumentationScope)));
    this.#send(
      {
        type: "export",
        id: 0,
        resources: [...resources.keys()].map((r) => ({ attributes: r.attributes, schemaUrl: r.schemaUrl })),
        scopes: [...scopes.keys()].map((s) => ({ name: s.name, version: s.version, schemaUrl: s.schemaUrl })),
        spans: records,
      },
      (reply) => done({ code: reply.code, ...(reply.error ? { error: new Error(reply.error) } : {}) }),
    );
  }

  forceFlush(): Promise<void> {
    return new Promise((resolve) => this.#send({ type: "flush", id: 0 }, () => resolve()));
  }

  async shutdown(): Promise<void> {
    await new Promise<void>((resolve) => this.#send({ type: "shutdown", id: 0 }, () => resolve()));
    await this.#worker.terminate();
  }

  #send(message: ToWorker, onReply: (reply: FromWorker) => void): void {
    message.id = ++this.#next;
    if (this.#gone) return onReply({ id: message.id, code: FAILED, error: this.#gone });
    this.#pending.set(message.id, onReply);
    this.#worker.ref();
    try {
      this.#worker.postMessage(message);
    } catch (error) {
      this.#pending.delete(message.id);
      onReply({ id: message.id, code: FAILED, error: String(error) });
    }
  }
}

/** The span's data as plain values: the attribute, event and status objects are the span's own (cloned by postMessage). */
function toRecord(span: ReadableSpan, resource: number, scope: number): SpanRecord {
  const context = span.spanContext();
  const parent = span.parentSpanContext;
  return {
    traceId: context.traceId,
    spanId: context.spanId,
    traceFlags: context.traceFlags,
    traceState: context.traceState?.serialize(),
    parentSpanId: parent?.spanId,
    parentIsRemote: parent?.isRemote,
    name: span.name,
    kind: span.kind,
    startTime: span.startTime,
    endTime: span.endTime,
    attributes: span.attributes,
    droppedAttributesCount: span.droppedAttributesCount,
    events: span.events,
    droppedEventsCount: span.droppedEventsCount,
    status: span.status,
    links: span.links.map((l) => ({
      attributes: l.attributes,
      droppedAttributesCount: l.droppedAttributesCount,
      context: {
        traceId: l.context.traceId,
        spanId: l.context.spanId,
        traceFlags: l.context.traceFlags,
        isRemote: l.context.isRemote,
        traceState: l.context.traceState?.serialize(),
      },
    })),
    droppedLinksCount: span.droppedLinksCount,
    resource,
    scope,
  };
}
