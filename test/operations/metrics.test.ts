/**
 * GET /metrics (docs/contract/decisions.md, Operations): Prometheus text behind METRICS_TOKEN, with HTTP durations
 * by route template (never a raw path), GraphQL operations, BullMQ job counts per queue and state,
 * scrape and webhook outcomes, and process metrics; and METRICS=false turning it off (its own process).
 */
import { spawnSync } from "node:child_process";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, gql, newWorkspace, request, startTestApi, stopAll } from "../helpers/api.js";
import { spawnService, type ServiceProcess } from "../helpers/processes.js";
import type { RunningApi } from "../../src/main/server.js";

const TOKEN = "metrics-token-for-tests";
process.env.METRICS_TOKEN = TOKEN; // before the configuration is first imported (by startTestApi)
let api: RunningApi;
let key: string;
beforeAll(async () => {
  api = await startTestApi();
  key = (await newWorkspace()).key;
});
afterAll(() => stopAll(api));

const scrape = async () => {
  const r = await request(api.url, "GET", "/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(r.status).toBe(200);
  return r.text;
};

/** The value of one series (labels in any order), or undefined. */
function value(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split("\n")) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe("GET /metrics", () => {
  it("needs the bearer token when METRICS_TOKEN is set, answering 401 in the service's error form", async () => {
    const none = await request(api.url, "GET", "/metrics");
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ code: "UNAUTHORIZED", message: expect.any(String) });
    const wrong = await request(api.url, "GET", "/metrics", { headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    // An API key is not the metrics token (and /metrics is outside /api/v1's auth).
    expect((await request(api.url, "GET", "/metrics", { key })).status).toBe(401);
    const ok = await request(api.url, "GET", "/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it("times HTTP requests by route template, never by raw path", async () => {
    const c = client(api.url, key);
    const missing = "3f1c1f7e-0000-4000-8000-00000000abcd";
    expect((await c.get(`/api/v1/videos/${missing}`)).status).toBe(404);
    expect((await c.get(`/api/v1/videos/${missing}`)).status).toBe(404);
    expect((await c.get("/api/v1/videos?limit=5")).status).toBe(200);
    expect((await c.get("/no/such/path/12345")).status).toBe(404);
    expect((await c.get("/api/v1/no-such-route")).status).toBe(404);
    expect((await request(api.url, "GET", "/api/v1/videos")).status).toBe(401);
    const text = await scrape();
    expect(value(text, "http_request_duration_seconds_count", { method: "GET", route: "/api/v1/videos/:id", status: "404" })).toBe(2);
    expect(value(text, "http_request_duration_seconds_count", { method: "GET", route: "/api/v1/videos", status: "200" })).toBe(1);
    expect(value(text, "http_request_duration_seconds_count", { method: "GET", route: "/api/v1/videos", status: "401" })).toBe(1);
    expect(value(text, "http_request_duration_seconds_count", { method: "GET", route: "unmatched", status: "404" })).toBe(2);
    expect(value(text, "http_request_duration_seconds_bucket", { route: "/api/v1/videos", status: "200", le: "+Inf" })).toBe(1);
    // No raw path or id in any label.
    expect(text).not.toContain(missing);
    // In labels only: a value (a heap's bytes, a time) may hold those digits by chance, and once did.
    const labelSets = text.split("\n").flatMap((line) => /\{.*\}/.exec(line) ?? []);
    expect(labelSets.filter((labels) => labels.includes("12345"))).toEqual([]);
    expect(text).not.toContain("no-such-route");
    expect(text).not.toContain("limit=5");
  });

  it("counts and times GraphQL operations by type and name, and their errors", async () => {
    for (let i = 0; i < 3; i++) expect((await gql(api.url, key, "query Dashboard { credits { __typename } }")).body.errors).toBeUndefined();
    const bad = await gql(api.url, key, 'query Broken { node(id: "nope") { id } }');
    expect(bad.body.errors?.length).toBeGreaterThan(0);
    const text = await scrape();
    expect(value(text, "graphql_operations_total", { operation_type: "query", operation_name: "Dashboard" })).toBe(3);
    expect(value(text, "graphql_operation_duration_seconds_count", { operation_type: "query", operation_name: "Dashboard" })).toBe(3);
    expect(value(text, "graphql_errors_total", { operation_type: "query", operation_name: "Broken" })).toBeGreaterThanOrEqual(1);
    expect(value(text, "http_request_duration_seconds_count", { method: "POST", route: "/graphql", status: "200" })).toBe(4);
  });

  it("reports BullMQ job counts per queue and state, and BullMQ's own completed/failed totals", async () => {
    const added = await client(api.url, key).post("/api/v1/videos", { url: "https://youtu.be/metrics0001" });
    expect(added.status).toBe(201);
    const text = await scrape();
    // No worker runs in this file: the scrape job waits.
    expect(value(text, "bullmq_jobs", { queue: "scrape", state: "waiting" })).toBeGreaterThanOrEqual(1);
    for (const q of ["scrape", "analysis", "radar", "maintenance"]) {
      expect(value(text, "bullmq_jobs", { queue: q, state: "active" }), q).toBe(0);
      expect(value(text, "bullmq_job_completed_total", { queue: q }), q).toBe(0);
      expect(value(text, "bullmq_job_failed_total", { queue: q }), q).toBe(0);
    }
  });

  it("counts scrape outcomes per provider and platform where the scrape ends, and exports the webhook delivery counter", async () => {
    const added = await client(api.url, key).post("/api/v1/videos", { url: "https://youtu.be/metrics0002" });
    const { scrapeVideo } = await import("../../src/domain/tracking/scrape-jobs.js");
    const { createScrapeProvider } = await import("../../src/main/providers.js");
    const { jobRun } = await import("../helpers/jobs.js");
    expect((await scrapeVideo(added.body.data.videoId, jobRun(), createScrapeProvider("simulated"))).status).toBe("ready");
    const { countWebhookDelivery } = await import("../../src/infra/metrics.js");
    countWebhookDelivery({ outcome: "delivered" });
    countWebhookDelivery({ outcome: "delivered" });
    countWebhookDelivery({ outcome: "failed" });
    let text = "";
    for (let i = 0; i < 50; i++) {
      text = await scrape(); // the counters are written to Redis without waiting
      if (value(text, "webhook_deliveries_total", { outcome: "failed" }) === 1) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(value(text, "scrape_outcomes_total", { provider: "simulated", platform: "platformB", kind: "video", outcome: "ok" })).toBe(1);
    expect(value(text, "webhook_deliveries_total", { outcome: "delivered" })).toBe(2);
    expect(value(text, "webhook_deliveries_total", { outcome: "failed" })).toBe(1);
  });

  it("counts jobs the workers complete (BullMQ's own metrics) and their scrapes", async () => {
    const { startWorkers } = await import("../../src/jobs/worker.js");
    const { trackingJobs } = await import("../helpers/jobs.js");
    const workers = await startWorkers([{ ...trackingJobs(), schedules: [] }]);
    try {
      let text = "";
      for (let i = 0; i < 100; i++) {
        text = await scrape();
        if (
          (value(text, "bullmq_job_completed_total", { queue: "scrape" }) ?? 0) >= 1 &&
          value(text, "bullmq_jobs", { queue: "scrape", state: "waiting" }) === 0
        )
          break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(value(text, "bullmq_job_completed_total", { queue: "scrape" })).toBeGreaterThanOrEqual(1);
      expect(value(text, "bullmq_jobs", { queue: "scrape", state: "waiting" })).toBe(0);
      expect(value(text, "bullmq_jobs", { queue: "scrape", state: "completed" })).toBeGreaterThanOrEqual(1);
      // The waiting scrape of the earlier test ran in the worker: counted too (in Redis, by any process).
      for (let i = 0; i < 50 && value(text, "scrape_outcomes_total", { provider: "simulated", kind: "video", outcome: "ok" }) !== 2; i++) {
        await new Promise((r) => setTimeout(r, 50));
        text = await scrape();
      }
      expect(value(text, "scrape_outcomes_total", { provider: "simulated", kind: "video", outcome: "ok" })).toBe(2);
    } finally {
      await workers.close();
    }
  });

  it("includes the process metrics", async () => {
    const text = await scrape();
    expect(value(text, "process_cpu_user_seconds_total", {})).toBeGreaterThan(0);
    expect(value(text, "nodejs_eventloop_lag_seconds", {})).toBeGreaterThanOrEqual(0);
  });

  it("counts open descriptors and live sockets without listing every handle on the event loop", async () => {
    const before = await scrape();
    const sockets = await Promise.all(
      Array.from(
        { length: 40 },
        () =>
          new Promise<Socket>((resolve) => {
            const s = connect(Number(new URL(api.url).port), "127.0.0.1", () => resolve(s));
          }),
      ),
    );
    try {
      const after = await scrape();
      // Both ends of each connection are this process's (the API runs in the test's process).
      expect(value(after, "process_open_fds", {})! - value(before, "process_open_fds", {})!).toBeGreaterThanOrEqual(40);
      const tcp = (text: string) => value(text, "nodejs_active_resources", { type: "TCPSocketWrap" }) ?? 0;
      expect(tcp(after) - tcp(before)).toBeGreaterThanOrEqual(40);
      // prom-client's collector over process._getActiveHandles() (a JavaScript object per handle) is not run.
      expect(after).not.toMatch(/^nodejs_active_handles/m);
    } finally {
      for (const s of sockets) s.destroy();
    }
  });
});

describe("METRICS=false", () => {
  let off: ServiceProcess;
  beforeAll(async () => {
    off = await spawnService("api", { METRICS: "false", METRICS_TOKEN: "" });
  });
  afterAll(() => off?.stop());

  it("serves no /metrics and keeps the API working", async () => {
    expect((await request(off.url!, "GET", "/metrics")).status).toBe(404);
    expect((await client(off.url!, key).get("/api/v1/videos?limit=1")).status).toBe(200);
  });
});

describe("operations settings", () => {
  it("default to metrics on, no tokens, GraphiQL and the log context on; an empty token is no token", async () => {
    const { loadConfig } = await import("../../src/config.js");
    expect(loadConfig({ SCRAPE_PROVIDER: "simulated" }).operations).toEqual({
      metrics: true,
      metricsToken: undefined,
      adminToken: undefined,
      graphiql: true,
    });
    expect(loadConfig({ SCRAPE_PROVIDER: "simulated" }).logContext).toBe(true);
    const set = loadConfig({
      SCRAPE_PROVIDER: "simulated",
      METRICS: "false",
      METRICS_TOKEN: "",
      ADMIN_TOKEN: "pw",
      GRAPHIQL: "0",
      LOG_CONTEXT: "false",
    });
    expect(set.operations).toEqual({ metrics: false, metricsToken: undefined, adminToken: "pw", graphiql: false });
    expect(set.logContext).toBe(false);
    expect(() => loadConfig({ SCRAPE_PROVIDER: "simulated", METRICS: "maybe" })).toThrow(/METRICS/);
  });
});

/** promtool (Debian package `prometheus`), which .ci/run installs: in CI (`CI` set) its absence fails the test, elsewhere skips it. */
const promtool = spawnSync("promtool", ["--version"]).status === 0;

describe("promtool check metrics", () => {
  it.skipIf(!promtool && !process.env.CI)("the exposition passes Prometheus' own linter (names, suffixes, help, types)", async () => {
    expect(promtool, "promtool is not installed (Debian package prometheus; .ci/run installs it)").toBe(true);
    // Something in every family: a request, a GraphQL operation, the queues.
    await client(api.url, key).get("/api/v1/workspace");
    await gql(api.url, key, "query Lint { workspace { plan } }");
    const text = await scrape();
    expect(text).toMatch(/^bullmq_jobs\{/m);
    const run = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
    expect(`${run.stdout}${run.stderr}`.trim()).toBe("");
    expect(run.status).toBe(0);
    // And it can fail: a gauge named like a counter's count is refused.
    const bad = spawnSync("promtool", ["check", "metrics"], {
      input: "# HELP x_count A gauge.\n# TYPE x_count gauge\nx_count 1\n",
      encoding: "utf8",
    });
    expect(bad.status).not.toBe(0);
  });
});
