/**
 * The OTLP/HTTP exporter in a worker thread (src/main/trace-export.ts): spans made by OpenTelemetry's own tracer
 * provider cross to the worker as plain records and arrive at an OTLP/HTTP receiver (JSON here) as the SDK's own
 * exporter would send them: ids, parent, kind, attributes, events, links with their trace state, status, resource
 * and scope. Which settings it serves (OTLP over HTTP) and which it leaves to the SDK (gRPC, other exporters).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createTraceState, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { resources } from "@opentelemetry/sdk-node";
import { SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportsOffThread, WorkerSpanExporter } from "../../src/main/trace-export.js";
import { waitUntil } from "../helpers/wait.js";

const spans: { resource: any; scope: any; span: any }[] = [];
let receiver: Server;
const saved = { endpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT, protocol: process.env.OTEL_EXPORTER_OTLP_PROTOCOL };

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      for (const rs of JSON.parse(body).resourceSpans)
        for (const ss of rs.scopeSpans) for (const span of ss.spans) spans.push({ resource: rs.resource, scope: ss.scope, span });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  // The worker reads its settings from the environment it starts with, as the SDK's exporter would.
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  process.env.OTEL_EXPORTER_OTLP_PROTOCOL = "http/json";
});

afterAll(async () => {
  for (const [key, value] of [
    ["OTEL_EXPORTER_OTLP_ENDPOINT", saved.endpoint],
    ["OTEL_EXPORTER_OTLP_PROTOCOL", saved.protocol],
  ] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await new Promise((r) => receiver.close(r));
});

const attrs = (list: any[]) => Object.fromEntries((list ?? []).map((a) => [a.key, Object.values(a.value)[0]]));

describe("the worker thread's OTLP export", () => {
  it("sends what the SDK's exporter sends; after shutdown an export fails at once", async () => {
    const exporter = new WorkerSpanExporter();
    const provider = new TracerProvider({
      resource: resources.resourceFromAttributes({ "service.name": "export-test" }),
      spanProcessors: [new SimpleSpanProcessor({ exporter })],
    });
    const tracer = provider.getTracer("scope-a", "1.2.3");
    const parent = tracer.startSpan("GET /x", { kind: SpanKind.SERVER, attributes: { "http.route": "/x", n: 3, list: ["a", "b"] } });
    const linked = {
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      traceFlags: 1,
      traceState: createTraceState("k=v"),
    };
    const child = tracer.startSpan(
      "pg.query:SELECT db",
      { kind: SpanKind.CLIENT, links: [{ context: linked, attributes: { why: "x" } }] },
      trace.setSpan(ROOT_CONTEXT, parent),
    );
    child.addEvent("exception", { "exception.message": "boom" });
    child.setStatus({ code: SpanStatusCode.ERROR, message: "boom" });
    child.end();
    parent.end();
    await provider.forceFlush();
    await waitUntil(
      "both spans at the receiver",
      () => spans.length,
      (n) => n >= 2,
      10_000,
      50,
    );

    const [p, c] = ["GET /x", "pg.query:SELECT db"].map((name) => spans.find((s) => s.span.name === name)!);
    expect(attrs(p!.resource.attributes)["service.name"]).toBe("export-test");
    expect(p!.scope).toMatchObject({ name: "scope-a", version: "1.2.3" });
    expect(p!.span).toMatchObject({ traceId: parent.spanContext().traceId, spanId: parent.spanContext().spanId, kind: 2 });
    expect(attrs(p!.span.attributes)).toMatchObject({ "http.route": "/x", n: 3 });
    expect(p!.span.attributes.find((a: any) => a.key === "list").value.arrayValue.values).toEqual([
      { stringValue: "a" },
      { stringValue: "b" },
    ]);
    expect(BigInt(p!.span.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(p!.span.startTimeUnixNano));
    expect(c!.span).toMatchObject({ traceId: parent.spanContext().traceId, parentSpanId: parent.spanContext().spanId, kind: 3 });
    expect(c!.span.status).toMatchObject({ code: 2, message: "boom" });
    expect(c!.span.events[0]).toMatchObject({ name: "exception" });
    expect(attrs(c!.span.events[0].attributes)).toEqual({ "exception.message": "boom" });
    expect(c!.span.links[0]).toMatchObject({ traceId: linked.traceId, spanId: linked.spanId, traceState: "k=v" });
    expect(attrs(c!.span.links[0].attributes)).toEqual({ why: "x" });

    await provider.shutdown();
    const result = await new Promise<{ code: number }>((resolve) => exporter.export([], resolve));
    expect(result.code).toBe(1);
  });

  it("serves OTLP over HTTP; gRPC and the other exporters stay with the SDK", () => {
    expect(exportsOffThread({})).toBe(true);
    expect(exportsOffThread({ OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" })).toBe(true);
    expect(exportsOffThread({ OTEL_TRACES_EXPORTER: "otlp", OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/protobuf" })).toBe(true);
    expect(exportsOffThread({ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toBe(false);
    expect(exportsOffThread({ OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "grpc" })).toBe(false);
    expect(exportsOffThread({ OTEL_TRACES_EXPORTER: "console" })).toBe(false);
    expect(exportsOffThread({ OTEL_TRACES_EXPORTER: "otlp,zipkin" })).toBe(false);
  });
});
