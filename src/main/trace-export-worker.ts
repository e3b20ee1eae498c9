/**
 * The worker thread of ./trace-export.ts: receives batches of span records, gives them back the shape of
 * OpenTelemetry's ReadableSpan, and exports them with the SDK's own OTLP/HTTP exporter (protobuf, or JSON
 * when OTEL_EXPORTER_OTLP(_TRACES)_PROTOCOL says http/json), configured by the same OTEL_* variables as the
 * process (a worker starts with a copy of its environment).
 */
import { parentPort } from "node:worker_threads";
import type { HrTime, SpanContext, TraceState } from "@opentelemetry/api";
import type { ExportResult } from "@opentelemetry/core";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import type { ReadableSpan } from "@opentelemetry/sdk-trace";
import type { FromWorker, SpanRecord, ToWorker } from "./trace-export.ts";

const protocol = (process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? process.env.OTEL_EXPORTER_OTLP_PROTOCOL ?? "").trim();
const exporter = protocol === "http/json" ? new JsonExporter() : new ProtobufExporter();
const port = parentPort!;

/** A trace state already serialised: the exporter only asks it to serialise. */
const traceState = (serialised: string | undefined) => (serialised ? ({ serialize: () => serialised } as TraceState) : undefined);

function toSpan(r: SpanRecord, resources: ReadableSpan["resource"][], scopes: ReadableSpan["instrumentationScope"][]): ReadableSpan {
  const context: SpanContext = { traceId: r.traceId, spanId: r.spanId, traceFlags: r.traceFlags, traceState: traceState(r.traceState) };
  return {
    name: r.name,
    kind: r.kind,
    spanContext: () => context,
    parentSpanContext: r.parentSpanId
      ? { traceId: r.traceId, spanId: r.parentSpanId, traceFlags: r.traceFlags, isRemote: r.parentIsRemote }
      : undefined,
    startTime: r.startTime,
    endTime: r.endTime,
    status: r.status,
    attributes: r.attributes,
    links: r.links.map((l) => ({ ...l, context: { ...l.context, traceState: traceState(l.context.traceState) } })),
    events: r.events,
    duration: duration(r.startTime, r.endTime),
    ended: true,
    resource: resources[r.resource]!,
    instrumentationScope: scopes[r.scope]!,
    droppedAttributesCount: r.droppedAttributesCount,
    droppedEventsCount: r.droppedEventsCount,
    droppedLinksCount: r.droppedLinksCount,
  };
}

function duration(start: HrTime, end: HrTime): HrTime {
  const nanos = end[1] - start[1];
  return nanos < 0 ? [end[0] - start[0] - 1, nanos + 1e9] : [end[0] - start[0], nanos];
}

const reply = (id: number, result: ExportResult) =>
  port.postMessage({ id, code: result.code, error: result.error?.message } satisfies FromWorker);

port.on("message", (message: ToWorker) => {
  if (message.type === "export") {
    // The exporter groups spans by resource object: one object per resource of the batch.
    const resources = message.resources.map((r) => ({ ...r, asyncAttributesPending: false }) as unknown as ReadableSpan["resource"]);
    const spans = message.spans.map((r) => toSpan(r, resources, message.scopes));
    exporter.export(spans, (result) => reply(message.id, result));
    return;
  }
  const done = message.type === "flush" ? exporter.forceFlush() : exporter.shutdown();
  done.then(
    () => reply(message.id, { code: 0 }),
    (error: unknown) => reply(message.id, { code: 1, error: error instanceof Error ? error : new Error(String(error)) }),
  );
});
