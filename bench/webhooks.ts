/**
 * Webhook fan-out benchmark.
 *
 * BENCH_WEBHOOK_EVENTS (10,000) `video.spike` events recorded through the real outbox
 * (emitWorkspaceEvents: record, relay, fan-out, enqueue) at BENCH_WEBHOOK_RATE events/s, to
 * BENCH_WEBHOOK_ENDPOINTS (50) endpoints on loopback: 5 workspaces of 10 endpoints (the limit), every
 * endpoint subscribed, so each event is delivered to the 10 endpoints of its workspace
 * (100,000 deliveries by default). The receiver runs in a process of its own:
 *   - 1 endpoint in 10 is slow (answers after BENCH_WEBHOOK_SLOW_MS, default 500 ms),
 *   - 1 endpoint in 10 is flaky (answers 500 to the first attempt of each delivery, then 200, so
 *     those deliveries take the real retry schedule's first delay, 5 s),
 *   - the rest answer 200 at once.
 * Deliveries are made by BENCH_WEBHOOK_WORKERS (2) real worker processes (src/main/worker.ts,
 * WEBHOOK_CONCURRENCY=BENCH_WEBHOOK_CONCURRENCY, default 64), signing and sending through the real
 * SSRF-checked sender (WEBHOOK_ALLOW_PRIVATE=true for loopback).
 *
 * Measured: deliveries per second (first event → last delivery), event → delivered latency
 * (p50/p99/max, from the event's `created_at` to the delivery's `delivered_at`, per endpoint kind),
 * and the API's list requests (GET /webhooks and GET /webhooks/{id}/deliveries?limit=20, by
 * autocannon in a process of its own against a separate API process) before the fan-out and while
 * it runs.
 *
 * Run alone: `npx tsx bench/webhooks.ts` (takes minutes; not in `npm run bench`'s default list:
 * `npm run bench -- webhooks`). Writes the `webhooks` section of bench/RESULTS.md. Uses (creates
 * and drops) svc_bench_webhooks.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import pg from "pg";
import { admin, benchServiceEnv, closeServiceConnections, createMigratedDatabase, dropRedisKeys, urlFor } from "./lib/db.js";
import { load, startChild, stopChildren, type LoadResult } from "./lib/load.js";
import { writeSection } from "./lib/results.js";

const BENCH_DB = "svc_bench_webhooks";
const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
const ENDPOINTS = Number(process.env.BENCH_WEBHOOK_ENDPOINTS ?? 50);
const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 500);
const SLOW_MS = Number(process.env.BENCH_WEBHOOK_SLOW_MS ?? 500);
const WORKERS = Number(process.env.BENCH_WEBHOOK_WORKERS ?? 2);
const CONCURRENCY = Number(process.env.BENCH_WEBHOOK_CONCURRENCY ?? 64);
const LOAD_SECONDS = Number(process.env.BENCH_WEBHOOK_LOAD_SECONDS ?? 10);
const CONNECTIONS = 8;
const PER_WORKSPACE = 10;
const TIMEOUT_MS = Number(process.env.BENCH_WEBHOOK_TIMEOUT_S ?? 900) * 1000;

type Kind = "fast" | "slow" | "flaky";
const kindOf = (n: number): Kind => (n % 10 === 0 ? "slow" : n % 10 === 1 ? "flaky" : "fast");

/** The receiver process: `/ep/<n>` answers as its kind says; GET /stats counts requests. */
async function receiver(): Promise<void> {
  const seen = new Set<string>();
  let requests = 0;
  const server = createServer((req, res) => {
    if (req.method === "GET") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ requests }));
    req.resume();
    req.on("end", () => {
      requests++;
      const n = Number(/^\/ep\/(\d+)/.exec(req.url ?? "")?.[1] ?? 2);
      const kind = kindOf(n);
      const id = String(req.headers["webhook-id"]);
      if (kind === "slow") return void setTimeout(() => res.writeHead(200).end("ok"), SLOW_MS);
      if (kind === "flaky" && !seen.has(id)) {
        seen.add(id);
        return void res.writeHead(500).end("try again");
      }
      res.writeHead(200).end("ok");
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  console.log(`RECEIVER listening on port ${(server.address() as AddressInfo).port}`);
}

interface LatencyRow {
  kind: Kind;
  n: number;
  p50: number;
  p99: number;
  max: number;
}

async function main(): Promise<void> {
  await createMigratedDatabase(BENCH_DB);
  const redisPrefix = `bench_webhooks_${process.pid}`;
  const serviceEnv = benchServiceEnv(urlFor(BENCH_DB), redisPrefix, {
    LOG_LEVEL: "info",
    WEBHOOK_ALLOW_PRIVATE: "true",
    WEBHOOK_SECRET_KEY: "bench-only-webhook-secret-key-0123456789",
    WEBHOOK_CONCURRENCY: String(CONCURRENCY),
  });
  Object.assign(process.env, serviceEnv, { LOG_LEVEL: "warn" });
  const db = new pg.Client({ connectionString: serviceEnv.DATABASE_URL });
  try {
    await db.connect();
    const { createWorkspace } = await import("../src/domain/workspace/service.js");
    const { createWebhook } = await import("../src/domain/webhooks/service.js");
    const { emitWorkspaceEvents } = await import("../src/domain/webhooks/outbox.js");

    const rec = await startChild(["bench/webhooks.ts", "receiver"], serviceEnv, /RECEIVER listening on port (\d+)/);
    const recBase = `http://127.0.0.1:${rec.match[1]}`;

    // ---- Workspaces of 10 endpoints each.
    const workspaces: { id: string; key: string; endpoints: string[] }[] = [];
    for (let n = 0; n < ENDPOINTS; n++) {
      if (n % PER_WORKSPACE === 0) {
        const { workspace, secret } = await createWorkspace({ name: `bench ${workspaces.length}`, plan: "enterprise" });
        workspaces.push({ id: workspace.id, key: secret, endpoints: [] });
      }
      const ws = workspaces[workspaces.length - 1]!;
      const { webhook } = await createWebhook(ws.id, { url: `${recBase}/ep/${n}`, events: ["video.spike"] });
      ws.endpoints.push(webhook.id);
    }
    const kindByEndpoint = new Map<string, Kind>(workspaces.flatMap((w) => w.endpoints).map((id, n) => [id, kindOf(n)]));

    const api = await startChild(["src/main/api.ts"], serviceEnv, /API listening on port (\d+)/);
    const apiBase = `http://127.0.0.1:${api.match[1]}`;
    for (let i = 0; i < WORKERS; i++) await startChild(["src/main/worker.ts"], serviceEnv, /workers started/);

    const reader = workspaces[0]!;
    const listPaths = ["/api/v1/webhooks?limit=20", `/api/v1/webhooks/${reader.endpoints[2]}/deliveries?limit=20`];
    const auth = { authorization: `Bearer ${reader.key}` };
    const measure = (seconds: number) => load({ base: apiBase, paths: listPaths, headers: auth, seconds, connections: CONNECTIONS });

    // Warm-up: a few events so every list has rows, then the API alone.
    await emitWorkspaceEvents(workspaces.map((w) => ({ workspaceId: w.id, type: "video.spike" as const, data: { warmup: true } })));
    await measure(2);
    const idle = await measure(LOAD_SECONDS);

    // ---- The fan-out: events at RATE per second, in batches of 50; the API measured meanwhile.
    const started = Date.now();
    const emitting = (async () => {
      const batch = 50;
      for (let i = 0; i < EVENTS; i += batch) {
        const due = started + (i / RATE) * 1000;
        if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
        const events = [];
        for (let k = i; k < Math.min(EVENTS, i + batch); k++) {
          const w = workspaces[k % workspaces.length]!;
          events.push({
            workspaceId: w.id,
            type: "video.spike" as const,
            data: { videoId: `bench-${k}`, outlierScore: 3.5, viewCount: 1000 + k },
          });
        }
        await emitWorkspaceEvents(events);
      }
    })();
    const busy: LoadResult = await measure(LOAD_SECONDS);
    await emitting;
    const emitSeconds = (Date.now() - started) / 1000;

    // Each workspace's endpoints get its share of the events (k % workspaces) and its warm-up event
    // (the last workspace may hold fewer than PER_WORKSPACE endpoints).
    const eventsOf = (i: number) => Math.floor(EVENTS / workspaces.length) + (i < EVENTS % workspaces.length ? 1 : 0);
    const expected = workspaces.reduce((n, w, i) => n + w.endpoints.length * (eventsOf(i) + 1), 0);
    const deadline = Date.now() + TIMEOUT_MS;
    let done = 0;
    for (;;) {
      done = Number((await db.query(`SELECT count(*) FROM webhook_deliveries WHERE status <> 'pending'`)).rows[0].count);
      if (done >= expected || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const byStatus = Object.fromEntries(
      (await db.query(`SELECT status::text, count(*)::int AS n FROM webhook_deliveries GROUP BY 1`)).rows.map((r) => [r.status, r.n]),
    ) as Record<string, number>;
    const span = Number(
      (
        await db.query(
          `SELECT extract(epoch FROM max(d.delivered_at) - min(ev.created_at)) AS seconds
           FROM webhook_deliveries d JOIN workspace_events ev ON ev.id = d.event_id
          WHERE ev.data ? 'videoId'`,
        )
      ).rows[0].seconds,
    );
    const latencyRows = (
      await db.query(
        `SELECT d.endpoint_id AS endpoint, extract(epoch FROM d.delivered_at - ev.created_at) * 1000 AS ms
           FROM webhook_deliveries d JOIN workspace_events ev ON ev.id = d.event_id
          WHERE d.status = 'delivered' AND ev.data ? 'videoId'`,
      )
    ).rows as { endpoint: string; ms: number }[];
    const pct = (values: number[], p: number) => {
      const s = [...values].sort((a, b) => a - b);
      return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]! : NaN;
    };
    const latency: LatencyRow[] = (["fast", "slow", "flaky"] as Kind[]).map((kind) => {
      const ms = latencyRows.filter((r) => kindByEndpoint.get(r.endpoint) === kind).map((r) => Number(r.ms));
      return { kind, n: ms.length, p50: pct(ms, 50), p99: pct(ms, 99), max: pct(ms, 100) };
    });
    const all = latencyRows.map((r) => Number(r.ms));
    const received = (await (await fetch(`${recBase}/stats`)).json()) as { requests: number };
    const delivered = byStatus.delivered ?? 0;
    const rate = delivered / span;
    const f = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : "n/a");

    const md = `## Webhook fan-out (\`bench/webhooks.ts\`)

${EVENTS} \`video.spike\` events emitted through the outbox at ${RATE}/s (took ${f(emitSeconds, 1)} s) to ${ENDPOINTS} endpoints on loopback
(${workspaces.length} workspaces × ${PER_WORKSPACE}; every endpoint subscribed, so each event goes to the ${PER_WORKSPACE} endpoints of its workspace):
${expected} deliveries (the warm-up's included). Endpoints: 8 in 10 answer at once, 1 in 10 after ${SLOW_MS} ms, 1 in 10 answers 500 to each
delivery's first attempt (retried after the schedule's 5 s). ${WORKERS} worker processes, WEBHOOK_CONCURRENCY=${CONCURRENCY}.

| figure | value |
|---|---|
| deliveries recorded | ${JSON.stringify(byStatus)} (${received.requests} requests received) |
| deliveries per second (first event → last delivery, ${f(span, 1)} s) | **${f(rate)}** |
| event → delivered, all endpoints: p50 / p99 / max | ${f(pct(all, 50))} / **${f(pct(all, 99))}** / ${f(pct(all, 100))} ms |
${latency.map((l) => `| event → delivered, ${l.kind} endpoints (${l.n}): p50 / p99 / max | ${f(l.p50)} / ${f(l.p99)} / ${f(l.max)} ms |`).join("\n")}

API list requests (GET /webhooks and GET /webhooks/{id}/deliveries?limit=20, ${CONNECTIONS} connections, ${LOAD_SECONDS} s each, a separate API process):

| | requests/s | p50 | p99 |
|---|---|---|---|
| no fan-out running | ${f(idle.rps)} | ${idle.p50} ms | ${idle.p99} ms |
| during the fan-out | ${f(busy.rps)} | ${busy.p50} ms | ${busy.p99} ms |

Every process (API, ${WORKERS} workers, receiver, load generator, PostgreSQL, Redis) shares this machine's ${os.cpus().length} cores, so the
second row shows what the fan-out's CPU takes from the API on one box; with workers on other machines (\`npm run start:worker\`) the API keeps its
cores. Flaky endpoints' latency includes the first retry's 5 s delay by design.`;
    await writeSection("webhooks", md);
    console.log(md);
  } finally {
    stopChildren();
    await db.end().catch(() => undefined);
    await closeServiceConnections();
    await dropRedisKeys(redisPrefix).catch(() => undefined); // the queue's jobs, the counters
    await new Promise((r) => setTimeout(r, 500));
    await admin(`DROP DATABASE IF EXISTS "${BENCH_DB}" WITH (FORCE)`).catch(() => undefined);
  }
}

if (process.argv[2] === "receiver") await receiver();
else {
  await main();
  process.exit(0);
}
