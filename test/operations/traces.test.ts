/**
 * Traces (docs/operations.md, "Traces"): an OTLP/HTTP receiver on loopback in this file (JSON encoding,
 * OTEL_EXPORTER_OTLP_PROTOCOL=http/json), an API process and a worker process (the real entry points)
 * exporting to it, and a yt-dlp stand-in that writes down the TRACEPARENT it is given. A request that
 * queues a scrape yields one trace: the API's HTTP span, BullMQ's `add` span, the worker's `process`
 * span, its PostgreSQL statements and the yt-dlp run, across both processes; the log lines written
 * meanwhile carry its trace id. Without the OTEL_* variables no part of the SDK is loaded.
 */
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tracingWanted } from "../../src/config.js";
import { newWorkspace, request, stopAll } from "../helpers/api.js";
import { logLines, spawnService, type ServiceProcess } from "../helpers/processes.js";
import { waitUntil } from "../helpers/wait.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const FIXTURE = fileURLToPath(new URL("../fixtures/ytdlp/youtube-short.json", import.meta.url));

/** One span as OTLP/JSON sends it, with its resource's service.name. */
interface Span {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

const spans: Span[] = [];
const paths: string[] = [];
let receiver: Server;
let endpoint: string;
let dir: string;
let api: ServiceProcess;
let worker: ServiceProcess;

/** The database a client span talks to (old and new semantic conventions). */
const db = (s: Span) => s.attributes["db.system.name"] ?? s.attributes["db.system"];
const attrValue = (v: Record<string, unknown>) => Object.values(v ?? {})[0];

/** The OTLP/HTTP receiver: /v1/traces in JSON (ExportTraceServiceRequest), flattened into `spans`. */
function startReceiver(): Promise<void> {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      paths.push(`${req.method} ${req.url} ${req.headers["content-type"]}`);
      if (req.method === "POST" && req.url === "/v1/traces") {
        const doc = JSON.parse(body) as { resourceSpans: any[] };
        for (const rs of doc.resourceSpans) {
          const service = String(attrValue(rs.resource.attributes.find((a: any) => a.key === "service.name")?.value));
          for (const ss of rs.scopeSpans) {
            for (const s of ss.spans) {
              const attributes = Object.fromEntries((s.attributes ?? []).map((a: any) => [a.key, attrValue(a.value)]));
              spans.push({
                service,
                traceId: s.traceId,
                spanId: s.spanId,
                parentSpanId: s.parentSpanId || undefined,
                name: s.name,
                kind: s.kind,
                attributes,
              });
            }
          }
        }
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  return new Promise((resolve) =>
    receiver.listen(0, "127.0.0.1", () => {
      endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

beforeAll(async () => {
  await startReceiver();
  dir = await mkdtemp(join(tmpdir(), "traces-"));
  // yt-dlp's stand-in: answers --version, else writes down its TRACEPARENT and prints a real yt-dlp answer.
  const ytdlp = join(dir, "yt-dlp");
  await writeFile(
    ytdlp,
    `#!/bin/sh\nif [ "$1" = "--version" ]; then echo 2099.01.01; exit 0; fi\necho "$TRACEPARENT" >> '${dir}/traceparents'\ncat '${FIXTURE}'\n`,
    { mode: 0o755 },
  );
  const env = {
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_BSP_SCHEDULE_DELAY: "100",
    SCRAPE_PROVIDER: "ytdlp",
    YTDLP_PATH: ytdlp,
  };
  [api, worker] = await Promise.all([spawnService("api", env, 150_000), spawnService("worker", env, 150_000)]);
}, 200_000);

afterAll(async () => {
  await Promise.all([api?.stop(), worker?.stop()]);
  await stopAll();
  await new Promise((resolve) => receiver?.close(resolve));
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("traces exported by OTLP when the OTEL_* variables are set", () => {
  it("one trace from the request that queues a scrape through the worker's job to the yt-dlp it runs, and its id on the log lines", async () => {
    const { key } = await newWorkspace();
    const tracked = await request(api.url!, "POST", "/api/v1/videos", {
      key,
      body: { url: "https://www.youtube.com/watch?v=traces00001" },
    });
    expect(tracked.status).toBe(201);

    // The API's server span of that request.
    const server = await waitUntil(
      "the API's span of POST /api/v1/videos",
      () =>
        spans.find(
          (s) =>
            s.service === "video-service-api" &&
            s.kind === 2 &&
            s.attributes["http.route"] === "/api/v1/videos" &&
            s.attributes["http.request.method"] === "POST",
        ),
      Boolean,
      20_000,
      100,
    );
    const traceId = server!.traceId;
    const inTrace = () => spans.filter((s) => s.traceId === traceId);
    // The worker's part of it: BullMQ's process span, the statements, and yt-dlp's run.
    await waitUntil(
      "the worker's spans in the request's trace",
      () => inTrace(),
      (t) =>
        t.some((s) => s.service === "video-service-worker" && s.name.startsWith("exec yt-dlp")) &&
        t.some((s) => s.service === "video-service-worker" && s.name.startsWith("process ")),
      30_000,
      100,
    );
    const trace = inTrace();
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    expect(new Set(trace.map((s) => s.service))).toEqual(new Set(["video-service-api", "video-service-worker"]));

    // In the API: BullMQ's add span (a producer, kind 4) under the request; its statements too. By default
    // (src/main/telemetry.ts) nothing else: no Redis command, Express layer or pool checkout spans, and the
    // server span is named by its route.
    const add = trace.find((s) => s.service === "video-service-api" && s.kind === 4 && /scrape/.test(s.name));
    expect(add, trace.map((s) => `${s.service} ${s.name}`).join("\n")).toBeDefined();
    expect(server!.name).toBe("POST /api/v1/videos");
    expect(trace.some((s) => s.service === "video-service-api" && db(s) === "postgresql")).toBe(true);
    const apiSpans = trace.filter((s) => s.service === "video-service-api").map((s) => s.name);
    expect(
      apiSpans.filter((n) => /^(redis|router|middleware|request handler|pg-pool\.connect|graphql\.)/.test(n)),
      apiSpans.join(", "),
    ).toEqual([]);
    expect(trace.some((s) => db(s) === "redis")).toBe(false);

    // In the worker: the consumer span (kind 5) continues the trace from the add span; the job's statements and yt-dlp's run below it.
    const processSpan = trace.find((s) => s.service === "video-service-worker" && s.kind === 5 && s.name.startsWith("process "))!;
    expect(processSpan.parentSpanId).toBe(add!.spanId);
    const under = (s: Span, ancestor: Span): boolean => {
      for (let p = s.parentSpanId && byId.get(s.parentSpanId); p; p = p.parentSpanId ? byId.get(p.parentSpanId) : undefined)
        if (p.spanId === ancestor.spanId) return true;
      return false;
    };
    const exec = trace.find((s) => s.service === "video-service-worker" && s.name === "exec yt-dlp")!;
    expect(under(exec, processSpan)).toBe(true);
    expect(trace.some((s) => s.service === "video-service-worker" && db(s) === "postgresql" && under(s, processSpan))).toBe(true);

    // yt-dlp was given the trace: TRACEPARENT = 00-<trace id>-<its exec span>-01.
    const traceparents = (await readFile(join(dir, "traceparents"), "utf8")).trim().split("\n");
    expect(traceparents).toContain(`00-${traceId}-${exec.spanId}-01`);

    // The log lines written while its spans were active carry its id: the API's access log, the job's start and end.
    const access = logLines(api).find((l) => l.msg === "request" && l.path === "/api/v1/videos" && l.method === "POST");
    expect(access).toMatchObject({ trace_id: traceId, trace_flags: "01", requestId: expect.any(String), workspaceId: expect.any(String) });
    const started = logLines(worker).find((l) => l.msg === "job started" && l.trace_id === traceId);
    expect(started).toMatchObject({ queue: "scrape", span_id: processSpan.spanId });
    expect(logLines(worker).some((l) => l.msg === "job completed" && l.trace_id === traceId)).toBe(true);

    // Probes are not traced; only traces are exported (no metrics, no log records).
    expect((await request(api.url!, "GET", "/readyz")).status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    expect(spans.some((s) => s.attributes["url.path"] === "/readyz" || s.attributes["http.route"] === "/readyz")).toBe(false);
    expect(new Set(paths.map((p) => p.split(" ")[1]))).toEqual(new Set(["/v1/traces"]));
    expect(paths.every((p) => p.endsWith("application/json"))).toBe(true);
  });
});

/** A child process that loads the API's modules as `npm run start:api` would (without listening), then prints which OpenTelemetry packages it loaded. */
async function loadedTelemetry(env: Record<string, string>): Promise<string[]> {
  const script = `
    const { startTracing } = await import("./src/main/tracing.ts");
    await startTracing("api");
    await import("./src/main/server.ts");
    await import("./src/infra/queues.ts");
    const { createRequire } = await import("node:module");
    const loaded = Object.keys(createRequire(import.meta.url).cache).map((p) => p.match(/node_modules\\/(@opentelemetry\\/[^/]+|bullmq-otel|import-in-the-middle)\\//)?.[1]).filter(Boolean);
    console.log(JSON.stringify([...new Set(loaded)].sort()));
    process.exit(0);`;
  const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "silent", ...env },
    timeout: 200_000, // loads the API's modules: slow on a busy machine
  });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as string[];
}

describe("the request's span", () => {
  it("continues an incoming traceparent; GraphQL's is named POST /graphql, with its status", async () => {
    const { key } = await newWorkspace();
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const parent = "00f067aa0ba902b7";
    const r = await fetch(`${api.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", traceparent: `00-${traceId}-${parent}-01` },
      body: JSON.stringify({ query: "{ workspace { plan } }" }),
    });
    expect(r.status).toBe(200);
    const span = await waitUntil(
      "the API's span of the GraphQL request",
      () => spans.find((s) => s.traceId === traceId && s.kind === 2),
      Boolean,
      20_000,
      100,
    );
    expect(span).toMatchObject({ service: "video-service-api", name: "POST /graphql", parentSpanId: parent });
    expect(span!.attributes).toMatchObject({ "http.route": "/graphql", "http.request.method": "POST", "http.response.status_code": 200 });
    // Its statement (the workspace's read) is under it.
    await waitUntil(
      "its statement",
      () => spans.find((s) => s.traceId === traceId && s.parentSpanId === span!.spanId && db(s) === "postgresql"),
      Boolean,
      20_000,
      100,
    );
  });
});

describe("which instrumentations", () => {
  it("requests, statements and log lines by default; the others when OTEL_NODE_ENABLED_INSTRUMENTATIONS names them; an unknown name refused", async () => {
    const { enabledInstrumentations } = await import("../../src/config.js");
    expect(enabledInstrumentations(undefined)).toEqual(["http", "pg", "pino"]);
    expect(enabledInstrumentations(" ")).toEqual(["http", "pg", "pino"]);
    expect(enabledInstrumentations("http,pg,express,graphql,ioredis")).toEqual(["http", "pg", "express", "graphql", "ioredis"]);
    expect(() => enabledInstrumentations("http,redis")).toThrow(/unknown redis/);
  });
});

describe("tracing off", () => {
  it("is what the OTEL_* variables say: on with an OTLP endpoint or a traces exporter, off with none of them, `none` first, or OTEL_SDK_DISABLED", () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_SERVICE_NAME: "x", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" })).toBe(true);
    expect(tracingWanted({ OTEL_TRACES_EXPORTER: "console" })).toBe(true);
    expect(tracingWanted({ OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: " " })).toBe(false);
  });

  it("without the OTEL_* variables (or with OTEL_TRACES_EXPORTER=none) loads no part of OpenTelemetry's SDK, instrumentations or BullMQ's telemetry", async () => {
    const clean = Object.fromEntries(
      Object.keys(process.env)
        .filter((k) => k.startsWith("OTEL_"))
        .map((k) => [k, ""]),
    );
    const [off, none, on] = await Promise.all([
      loadedTelemetry(clean),
      loadedTelemetry({ ...clean, OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: endpoint }),
      loadedTelemetry({ ...clean, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint }),
    ]);
    const sdkParts = (names: string[]) => names.filter((n) => n !== "@opentelemetry/api");
    // The API package alone may be there (src/providers/process.ts asks it for an active span: none without an SDK).
    expect(sdkParts(off)).toEqual([]);
    expect(sdkParts(none)).toEqual([]);
    // The same probe sees them when tracing is on (so the check can fail).
    expect(on).toEqual(
      expect.arrayContaining([
        "@opentelemetry/sdk-node",
        "@opentelemetry/instrumentation-pg",
        "@opentelemetry/instrumentation-http",
        "bullmq-otel",
      ]),
    );
  }, 240_000);
});
