/**
 * The tested topology (docs/scaling.md): two API and two worker processes (the real
 * `npm run start:api` / `start:worker` entry points, src/main/api.ts and worker.ts) on a Redis Cluster
 * of three primaries started on loopback (test/helpers/redis-cluster.ts) and PostgreSQL, under a
 * bounded load of tracking, analysis and webhooks; one API and one worker are killed (SIGKILL)
 * mid-run. Then it checks, and fails (exit 1) when any check fails:
 *
 * - every accepted request's work done once: each accepted `POST /videos` tracked once and scraped;
 *   each accepted analysis run to `completed` once (one analysis per video), charged once (one ledger
 *   charge of 5 credits per completed analysis, no reservation left held), one `analysis.completed`
 *   event each, one webhook delivery per event, delivered (the receiver may see a delivery twice:
 *   at-least-once, with the same webhook-id);
 * - requests cut by the kill are retried on the surviving API process, as a load balancer or client
 *   would: retried tracks and analyses answer "already there" and charge nothing more;
 * - the worker killed while it ran analysis jobs (from its own log): those jobs finished by the
 *   other worker (BullMQ's stalled-job recovery, ANALYSIS_LOCK_MS);
 * - a graphql-ws subscriber first connected to the API process that dies reconnects to the survivor
 *   and receives later events (workspaceEvents, trackedVideosChanged);
 * - /readyz polled on both API processes every 250 ms: 200 and ready whenever a process answers, no
 *   answer from the dead one after its kill; /metrics answering throughout on the live ones, and at
 *   the end its queue gauges empty and its webhook delivery counter equal to the deliveries recorded.
 *
 * The analysis's model is a stand-in OpenAI-compatible server on loopback answering after
 * BENCH_TOPOLOGY_ANALYSIS_MS (so the kill finds analyses running); media are simulated (captions
 * from the description); the webhook receiver is on loopback too.
 *
 * Run alone: `npx tsx bench/topology.ts` (or `npm run bench -- topology`); BENCH_TOPOLOGY_VIDEOS,
 * BENCH_TOPOLOGY_ANALYSES, BENCH_TOPOLOGY_RATE (requests per second offered) and
 * BENCH_TOPOLOGY_ANALYSIS_MS size it. Writes the `topology` section of bench/RESULTS.md. Uses (creates
 * and drops) the database svc_bench_topology and its own cluster.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import os from "node:os";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import pg from "pg";
import WebSocket from "ws";
import { createClient } from "graphql-ws";
import { admin, benchServiceEnv, closeServiceConnections, createMigratedDatabase } from "./lib/db.js";
import { percentile, writeSection } from "./lib/results.js";
import { spawnService, type ServiceProcess } from "../test/helpers/processes.js";
import { startRedisCluster } from "../test/helpers/redis-cluster.js";

const BENCH_DB = "svc_bench_topology";
const VIDEOS = Number(process.env.BENCH_TOPOLOGY_VIDEOS ?? 120);
const ANALYSES = Number(process.env.BENCH_TOPOLOGY_ANALYSES ?? 24);
const RATE = Number(process.env.BENCH_TOPOLOGY_RATE ?? 8);
const ANALYSIS_MS = Number(process.env.BENCH_TOPOLOGY_ANALYSIS_MS ?? 1500);
const WORKSPACES = 2;
const PREFIX = `bench_topology_${process.pid}`;
const METRICS_TOKEN = "bench-topology";
const SETTLE_TIMEOUT_MS = 180_000;

// ---------------------------------------------------------------------------------------------
// Stand-ins on loopback: the analysis model and the webhook receiver
// ---------------------------------------------------------------------------------------------

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

const body = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => resolve(text));
  });

/** An OpenAI-compatible chat completion that answers a valid analysis after `ms`. */
function modelStandIn(ms: number): Server {
  const answer = {
    hookStyle: "question",
    hookPhrase: "Did you know?",
    ugcFit: "high",
    ugcConfidence: 80,
    ctaType: "follow",
    ctaDestinationUrl: null,
    hookSource: "speech",
    reasons: ["hook: a question said first"],
  };
  return createServer(async (req, res) => {
    await body(req);
    await sleep(ms);
    res.setHeader("content-type", "application/json");
    res.end(
      JSON.stringify({
        id: "chatcmpl-bench",
        object: "chat.completion",
        choices: [{ index: 0, message: { role: "assistant", content: JSON.stringify(answer) }, finish_reason: "stop" }],
      }),
    );
  });
}

interface Received {
  webhookId: string;
  type: string;
  analysisId: string | undefined;
}

function webhookReceiver(received: Received[]): Server {
  return createServer(async (req, res) => {
    const parsed = JSON.parse(await body(req)) as { type: string; data: { analysisId?: string } };
    received.push({ webhookId: String(req.headers["webhook-id"]), type: parsed.type, analysisId: parsed.data?.analysisId });
    await sleep(20);
    res.end("ok");
  });
}

// ---------------------------------------------------------------------------------------------
// The clients: a load balancer's retry, pollers, a subscriber
// ---------------------------------------------------------------------------------------------

interface Sent {
  status: number;
  body: any;
  /** Attempts cut by a dead process before this answer: the connection reset mid-request, or refused. */
  cut: number;
}

/** API processes found dead (a refused connection): a load balancer's passive health check skips them. */
const down = new Set<string>();

/**
 * Sends to `apis[first]` (round robin), skipping those found down; on a cut connection, to the next
 * one, as a load balancer retrying would.
 */
async function send(apis: string[], first: number, method: string, path: string, key: string, json?: unknown): Promise<Sent> {
  let cut = 0;
  for (let attempt = 0; attempt < 6; attempt++) {
    const live = apis.filter((a) => !down.has(a));
    const base = live[(first + attempt) % live.length]!;
    try {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(json !== undefined ? { "content-type": "application/json" } : {}) },
        body: json !== undefined ? JSON.stringify(json) : undefined,
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null, cut };
    } catch (e) {
      cut++;
      if ((e as { cause?: { code?: string } }).cause?.code === "ECONNREFUSED") down.add(base);
      await sleep(100);
    }
  }
  return { status: 0, body: null, cut };
}

interface Probe {
  at: number;
  api: "A" | "B";
  /** HTTP status, or 0 when the process did not answer. */
  status: number;
  ready: boolean;
}

function poll(every: number, fn: () => Promise<void>): () => Promise<void> {
  let running = true;
  const loop = (async () => {
    while (running) {
      await fn().catch(() => undefined);
      await sleep(every);
    }
  })();
  return async () => {
    running = false;
    await loop;
  };
}

function metricValue(text: string, name: string, labels: Record<string, string>): number {
  let sum = 0;
  for (const line of text.split("\n")) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) sum += Number(m[3]);
  }
  return sum;
}

/** Analysis jobs a worker started and did not end, from its log lines ("job started" / "job completed" / "job attempt failed"). */
function openJobs(output: string, queue: string): Set<string> {
  const open = new Set<string>();
  for (const line of output.split("\n")) {
    if (!line.startsWith("{")) continue;
    let l: { msg?: string; queue?: string; jobId?: string };
    try {
      l = JSON.parse(line);
    } catch {
      continue;
    }
    if (l.queue !== queue || !l.jobId) continue;
    if (l.msg === "job started") open.add(l.jobId);
    else if (l.msg === "job completed" || l.msg === "job attempt failed" || l.msg === "job handed back for another worker")
      open.delete(l.jobId);
  }
  return open;
}

const startedJobs = (output: string, queue: string) =>
  new Set(
    output
      .split("\n")
      .filter((line) => line.includes('"job started"') && line.includes(`"queue":"${queue}"`))
      .map((line) => /"jobId":"([^"]+)"/.exec(line)?.[1])
      .filter((x): x is string => !!x),
  );

// ---------------------------------------------------------------------------------------------

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export async function runTopologyBench(): Promise<boolean> {
  const started = Date.now();
  const loadAtStart = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ");
  const cluster = await startRedisCluster();
  const databaseUrl = await createMigratedDatabase(BENCH_DB);
  const model = modelStandIn(ANALYSIS_MS);
  const received: Received[] = [];
  const receiver = webhookReceiver(received);
  const [modelUrl, receiverUrl] = await Promise.all([listen(model), listen(receiver)]);
  const env = benchServiceEnv(databaseUrl, PREFIX, {
    REDIS_CLUSTER_NODES: cluster.nodes,
    LOG_LEVEL: "info", // the workers' "job started/completed" lines tell which jobs the killed worker held
    METRICS_TOKEN,
    MEDIA_PROVIDER: "simulated",
    ANALYSIS_PROVIDER: "openai",
    OPENAI_BASE_URL: `${modelUrl}/v1`,
    OPENAI_API_KEY: "sk-bench",
    ANALYSIS_LOCK_MS: "5000",
    ANALYSIS_STALLED_INTERVAL_MS: "2000",
    ANALYSIS_RETRY_DELAY_MS: "500",
    WEBHOOK_SECRET_KEY: "bench-topology-webhook-secret-key-0123456789",
    WEBHOOK_ALLOW_PRIVATE: "true",
    WEBHOOK_LOCK_MS: "5000",
    WEBHOOK_STALLED_INTERVAL_MS: "2000",
    WEBHOOK_SWEEP_INTERVAL_MS: "1000",
    WEBHOOK_RETRY_SCHEDULE: "1s,2s,5s,10s,30s,1m",
  });
  // This process creates the workspaces through the domain: the same database and cluster.
  Object.assign(process.env, env);
  const db = new pg.Client({ connectionString: databaseUrl });
  const processes: ServiceProcess[] = [];
  const stopPollers: (() => Promise<void>)[] = [];
  const checks: Check[] = [];
  const check = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail });
  try {
    await db.connect();
    const [apiA, apiB, workerA, workerB] = await Promise.all([
      spawnService("api", env, 120_000),
      spawnService("api", env, 120_000),
      spawnService("worker", env, 120_000),
      spawnService("worker", env, 120_000),
    ]);
    processes.push(apiA, apiB, workerA, workerB);
    const apis = [apiA.url!, apiB.url!];
    const startedUp = Date.now();

    const { createWorkspace } = await import("../src/domain/workspace/service.js");
    const workspaces: { id: string; key: string }[] = [];
    for (let w = 0; w < WORKSPACES; w++) {
      const { workspace, secret } = await createWorkspace({ name: `topology ${w}`, plan: "pro" });
      workspaces.push({ id: workspace.id, key: secret });
      const hook = await send(apis, w, "POST", "/api/v1/webhooks", secret, {
        url: `${receiverUrl}/hook/${w}`,
        events: ["analysis.completed"],
      });
      if (hook.status !== 201) throw new Error(`webhook endpoint not created: ${hook.status} ${JSON.stringify(hook.body)}`);
    }

    // Probes: /readyz on both every 250 ms, /metrics on both every second.
    const probes: Probe[] = [];
    const metricsAnswers = { A: { ok: 0, failed: 0 }, B: { ok: 0, failed: 0 } };
    let killedAt = Infinity;
    for (const [name, url] of [
      ["A", apiA.url!],
      ["B", apiB.url!],
    ] as const) {
      stopPollers.push(
        poll(250, async () => {
          const at = Date.now();
          try {
            const r = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(3000) });
            const b = (await r.json()) as { status?: string };
            probes.push({ at, api: name, status: r.status, ready: b.status === "ready" });
          } catch {
            probes.push({ at, api: name, status: 0, ready: false });
          }
        }),
        poll(1000, async () => {
          if (name === "A" && Date.now() >= killedAt) return;
          const r = await fetch(`${url}/metrics`, {
            headers: { authorization: `Bearer ${METRICS_TOKEN}` },
            signal: AbortSignal.timeout(5000),
          }).catch(() => null);
          const text = r?.ok ? await r.text() : "";
          if (r?.ok && text.includes("bullmq_jobs")) metricsAnswers[name].ok++;
          else metricsAnswers[name].failed++;
        }),
      );
    }

    // The subscriber: first on API A (the one that dies); it reconnects wherever the "load balancer" sends it.
    const connections: { at: number; url: string }[] = [];
    const events: { at: number; kind: string }[] = [];
    let nextUpstream = 0;
    const subscriber = createClient({
      url: () => `${apis[nextUpstream++ % apis.length]!.replace("http", "ws")}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${workspaces[0]!.key}` },
      retryAttempts: 30,
      shouldRetry: () => true,
      retryWait: () => sleep(300),
      on: { connected: (socket: any) => connections.push({ at: Date.now(), url: socket.url }) },
    });
    const sink = (kind: string) => ({
      next: () => events.push({ at: Date.now(), kind }),
      error: () => undefined,
      complete: () => undefined,
    });
    subscriber.subscribe({ query: "subscription { workspaceEvents { id type } }" }, sink("workspaceEvent"));
    subscriber.subscribe({ query: "subscription { trackedVideosChanged { change videoId } }" }, sink("trackedVideoChanged"));
    const connectDeadline = Date.now() + 10_000;
    while (connections.length === 0 && Date.now() < connectDeadline) await sleep(50);
    await sleep(500); // its SUBSCRIBEs reach the cluster

    // ---- The load: VIDEOS tracks at RATE per second, spread over both APIs and workspaces; from 40 %
    // on, ANALYSES analyses of videos tracked in the first phase; the kill at 50 %.
    const tracks: Promise<Sent & { url: string; ws: number }>[] = [];
    const analyses: Promise<Sent & { videoId: string; ws: number }>[] = [];
    const trackedIds: { videoId: string; ws: number }[] = [];
    const phaseTwo = Math.floor(VIDEOS * 0.4);
    const killAt = Math.floor(VIDEOS * 0.5);
    const analysisEvery = Math.max(1, Math.floor((VIDEOS - phaseTwo) / Math.max(1, ANALYSES)));
    let analysesSent = 0;
    let killInfo = { workerJobsInFlight: [] as string[], waitedMs: 0 };
    const loadStarted = Date.now();
    for (let i = 0; i < VIDEOS; i++) {
      const ws = i % WORKSPACES;
      const url = `https://www.tiktok.com/@topology.creator${i % 7}/video/${7_400_000_000_000_000_000n + BigInt(i)}`;
      tracks.push(
        send(apis, i, "POST", "/api/v1/videos", workspaces[ws]!.key, { url }).then((r) => {
          if (r.status === 201) trackedIds.push({ videoId: r.body.data.videoId, ws });
          return { ...r, url, ws };
        }),
      );
      if (i >= phaseTwo && analysesSent < ANALYSES && (i - phaseTwo) % analysisEvery === 0) {
        const target = trackedIds[analysesSent];
        if (target) {
          analysesSent++;
          analyses.push(
            send(apis, i, "POST", `/api/v1/video-analysis/${target.videoId}/analyze`, workspaces[target.ws]!.key).then((r) => ({
              ...r,
              videoId: target.videoId,
              ws: target.ws,
            })),
          );
        }
      }
      if (i === killAt) {
        // Kill worker A while it holds analysis jobs (waiting up to 10 s for it to hold one), and API A with it.
        const waitStart = Date.now();
        while (openJobs(workerA.output(), "analysis").size === 0 && Date.now() - waitStart < 10_000) await sleep(50);
        killInfo = { workerJobsInFlight: [...openJobs(workerA.output(), "analysis")], waitedMs: Date.now() - waitStart };
        killedAt = Date.now();
        await Promise.all([workerA.stop("SIGKILL"), apiA.stop("SIGKILL")]);
      }
      await sleep(1000 / RATE);
    }
    const trackAnswers = await Promise.all(tracks);
    const analysisAnswers = await Promise.all(analyses);
    const loadSeconds = (Date.now() - loadStarted) / 1000;

    // ---- Settle: every accepted item done (scraped; analysed; delivered), or the deadline.
    // A track whose first attempt was cut after its commit is answered 409 ALREADY_TRACKED on the retry: accepted too.
    const trackAccepted = (r: Sent) => r.status === 201 || (r.status === 409 && r.cut > 0 && r.body?.code === "ALREADY_TRACKED");
    const acceptedTracks = trackAnswers.filter(trackAccepted);
    const acceptedAnalyses = analysisAnswers.filter((r) => r.status === 202);
    const acceptedVideoIds = [...new Set(acceptedAnalyses.map((a) => a.videoId))];
    const settleStarted = Date.now();
    let state = { ready: 0, analysesDone: 0, deliveriesDone: 0, deliveries: 0 };
    while (Date.now() - settleStarted < SETTLE_TIMEOUT_MS) {
      const row = (
        await db.query(`SELECT
          (SELECT count(*) FROM videos v JOIN tracked_videos t ON t.video_id = v.id WHERE v.scrape_status = 'ready')::int AS ready,
          (SELECT count(*) FROM video_analyses WHERE status IN ('completed', 'failed'))::int AS "analysesDone",
          (SELECT count(*) FROM webhook_deliveries WHERE status = 'delivered')::int AS "deliveriesDone",
          (SELECT count(*) FROM webhook_deliveries)::int AS deliveries`)
      ).rows[0];
      state = row;
      if (
        state.ready >= acceptedTracks.length &&
        state.analysesDone >= acceptedVideoIds.length &&
        state.deliveriesDone === state.deliveries &&
        state.deliveries >= acceptedVideoIds.length
      )
        break;
      await sleep(500);
    }
    const settleSeconds = (Date.now() - settleStarted) / 1000;
    await sleep(1500); // the receiver's last answers, one more probe round
    for (const stop of stopPollers.splice(0)) await stop();

    // ---- Checks.
    const distinctUrls = new Set(acceptedTracks.map((t) => t.url));
    const tracked = (
      await db.query(
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE v.scrape_status = 'ready')::int AS ready FROM tracked_videos t JOIN videos v ON v.id = t.video_id`,
      )
    ).rows[0];
    check(
      "every offered track accepted",
      trackAnswers.every(trackAccepted),
      `${trackAnswers.length} offered; statuses ${JSON.stringify(countBy(trackAnswers.map((t) => t.status)))}`,
    );
    check(
      "each accepted track tracked once and scraped",
      tracked.n === distinctUrls.size && tracked.ready === tracked.n,
      `${distinctUrls.size} accepted, ${tracked.n} tracked, ${tracked.ready} scraped`,
    );

    const perVideo = (
      await db.query(
        `SELECT video_id, count(*)::int AS n, count(*) FILTER (WHERE status = 'completed')::int AS done FROM video_analyses GROUP BY video_id`,
      )
    ).rows as { video_id: string; n: number; done: number }[];
    const completed = perVideo.reduce((s, r) => s + r.done, 0);
    check(
      "every offered analysis answered 202",
      analysisAnswers.every((a) => a.status === 202),
      `${analysisAnswers.length} offered; statuses ${JSON.stringify(countBy(analysisAnswers.map((a) => a.status)))}`,
    );
    check(
      "each accepted analysis run once to completed",
      perVideo.length === acceptedVideoIds.length &&
        perVideo.every((r) => r.n === 1 && r.done === 1) &&
        acceptedVideoIds.every((id) => perVideo.some((r) => r.video_id === id)),
      `${acceptedVideoIds.length} accepted, ${perVideo.length} analyses, ${completed} completed`,
    );
    const ledger = (
      await db.query(`SELECT count(*)::int AS n, COALESCE(-sum(amount), 0)::int AS credits FROM credit_ledger WHERE kind = 'charge'`)
    ).rows[0];
    const held = (
      await db.query(
        `SELECT count(*) FILTER (WHERE status = 'held')::int AS held, count(*) FILTER (WHERE status = 'captured')::int AS captured FROM credit_reservations`,
      )
    ).rows[0];
    const used = (
      await db.query(
        `SELECT COALESCE(sum(monthly_used), 0)::int AS used, COALESCE(sum(reserved_credits), 0)::int AS reserved FROM workspaces`,
      )
    ).rows[0];
    check(
      "charged once per completed analysis",
      ledger.n === completed &&
        ledger.credits === 5 * completed &&
        held.held === 0 &&
        held.captured === completed &&
        used.used === 5 * completed &&
        used.reserved === 0,
      `${ledger.n} charges, ${ledger.credits} credits (expected ${5 * completed}); reservations held ${held.held}, captured ${held.captured}; monthly used ${used.used}, reserved ${used.reserved}`,
    );
    const retried = [...trackAnswers, ...analysisAnswers].filter((r) => r.cut > 0);
    check(
      "requests cut by the kill retried on the survivor, accepted once",
      retried.every((r) => trackAccepted(r) || r.status === 202),
      `${retried.length} requests retried after a cut connection (${JSON.stringify(countBy(retried.map((r) => r.status)))})`,
    );

    const hookEvents = (await db.query(`SELECT count(*)::int AS n FROM workspace_events WHERE type = 'analysis.completed'`)).rows[0]
      .n as number;
    const deliveries = (
      await db.query(
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE status = 'delivered')::int AS delivered, COALESCE(max(attempts), 0)::int AS "maxAttempts" FROM webhook_deliveries`,
      )
    ).rows[0];
    const receivedIds = new Set(received.filter((r) => r.type === "analysis.completed").map((r) => r.webhookId));
    const receivedAnalyses = new Set(received.map((r) => r.analysisId));
    check(
      "one analysis.completed event and one delivered webhook per completed analysis",
      hookEvents === completed &&
        deliveries.n === completed &&
        deliveries.delivered === completed &&
        receivedIds.size === completed &&
        receivedAnalyses.size === completed,
      `${hookEvents} events, ${deliveries.n} deliveries (${deliveries.delivered} delivered, at most ${deliveries.maxAttempts} attempts), ${receivedIds.size} distinct received; ${received.length - receivedIds.size} received twice (at-least-once)`,
    );

    const handedOver = killInfo.workerJobsInFlight.filter((id) => startedJobs(workerB.output(), "analysis").has(id));
    check(
      "the killed worker's running analysis jobs finished by the other worker",
      killInfo.workerJobsInFlight.length > 0 && handedOver.length === killInfo.workerJobsInFlight.length,
      `worker A held ${killInfo.workerJobsInFlight.length} analysis job(s) when killed (after waiting ${killInfo.waitedMs} ms for one); worker B ran ${handedOver.length} of them`,
    );

    const reconnected = connections.find((c) => c.at > killedAt);
    const laterEvents = reconnected ? events.filter((e) => e.at > reconnected.at) : [];
    check(
      "the subscriber reconnected to the surviving API process and received later events",
      connections[0]?.url.startsWith(apiA.url!.replace("http", "ws")) === true &&
        !!reconnected &&
        reconnected.url.startsWith(apiB.url!.replace("http", "ws")) &&
        laterEvents.length > 0,
      `connections ${connections.map((c) => `${c.url.includes(new URL(apiA.url!).port) ? "A" : "B"}@${((c.at - loadStarted) / 1000).toFixed(1)}s`).join(", ")}; ` +
        `reconnected ${reconnected ? `${reconnected.at - killedAt} ms after the kill` : "never"}; ${laterEvents.length} events after (${JSON.stringify(countBy(laterEvents.map((e) => e.kind)))}), ${events.length} in all`,
    );

    const probesOf = (api: "A" | "B", from: number, to: number) => probes.filter((p) => p.api === api && p.at >= from && p.at < to);
    const aBefore = probesOf("A", 0, killedAt);
    const aAfter = probesOf("A", killedAt + 100, Infinity);
    const bAll = probesOf("B", 0, Infinity);
    const answeredNotReady = probes.filter((p) => p.status !== 0 && (p.status !== 200 || !p.ready));
    check(
      "/readyz truthful: ready whenever a process answers, no answer from the dead one",
      answeredNotReady.length === 0 &&
        aAfter.every((p) => p.status === 0) &&
        bAll.every((p) => p.status === 200) &&
        aBefore.filter((p) => p.status === 200).length > 0,
      `A: ${aBefore.filter((p) => p.status === 200).length} ready before the kill, ${aAfter.filter((p) => p.status !== 0).length} answers of ${aAfter.length} probes after; ` +
        `B: ${bAll.filter((p) => p.status === 200).length} ready of ${bAll.length}; answered not ready: ${answeredNotReady.length}`,
    );
    const finalMetrics = await (await fetch(`${apiB.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    const unfinished: Record<string, number> = {};
    for (const q of ["analysis", "scrape"]) {
      // Not `delayed`: it holds each job scheduler's next run (the sweeps, the refresh scheduler).
      for (const st of ["waiting", "active", "prioritized", "waiting-children"]) {
        const n = metricValue(finalMetrics, "bullmq_jobs", { queue: q, state: st });
        if (n) unfinished[`${q}:${st}`] = n;
      }
    }
    const queued = Object.values(unfinished).reduce((a, b) => a + b, 0);
    const deliveredMetric = metricValue(finalMetrics, "webhook_deliveries_total", { outcome: "delivered" });
    const scrapesOk = metricValue(finalMetrics, "scrape_outcomes_total", { outcome: "ok" });
    check(
      "/metrics truthful: answering throughout, queues empty at the end, delivery and scrape counters matching the database",
      metricsAnswers.B.failed === 0 &&
        metricsAnswers.A.failed === 0 &&
        queued === 0 &&
        deliveredMetric === deliveries.delivered &&
        scrapesOk >= tracked.ready,
      `answers A ${metricsAnswers.A.ok} ok / ${metricsAnswers.A.failed} failed (until its kill), B ${metricsAnswers.B.ok} / ${metricsAnswers.B.failed}; ` +
        `analysis+scrape jobs not finished: ${queued} ${JSON.stringify(unfinished)}; webhook_deliveries_total{delivered} ${deliveredMetric} (database ${deliveries.delivered}); scrape_outcomes_total{ok} ${scrapesOk} (videos scraped ${tracked.ready})`,
    );

    // ---- Report.
    const latencies = (
      await db.query(`SELECT EXTRACT(EPOCH FROM (completed_at - created_at)) * 1000 AS ms FROM video_analyses WHERE status = 'completed'`)
    ).rows.map((r) => Number(r.ms));
    const failedChecks = checks.filter((c) => !c.ok);
    const md = `## Topology: 2 API + 2 worker processes on a 3-primary Redis Cluster, one API and one worker killed mid-run

\`npm run bench -- topology\` (bench/topology.ts): ${VIDEOS} tracks offered at ${RATE}/s over ${WORKSPACES} workspaces and both API
processes, ${ANALYSES} analyses (model stand-in answering after ${ANALYSIS_MS} ms), a webhook endpoint per workspace on
\`analysis.completed\`; API A and worker A SIGKILLed after ${killAt} tracks. Processes up in ${((startedUp - started) / 1000).toFixed(1)} s (cluster, database, four
processes); load ${loadSeconds.toFixed(1)} s; everything settled ${settleSeconds.toFixed(1)} s after the last request; analysis queued → completed
p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms (the kill's stalled jobs wait for ANALYSIS_LOCK_MS=5000).
Load average when it started: ${loadAtStart} (1/5/15 min) on ${os.cpus().length} cores${os.loadavg()[0]! > os.cpus().length ? ": a busy machine (other work running), so the times are not capacity figures" : ""}; the checks, not the times, are the result.

| check | result | figures |
|---|---|---|
${checks.map((c) => `| ${c.name} | ${c.ok ? "pass" : "**FAIL**"} | ${c.detail} |`).join("\n")}

${failedChecks.length ? `**${failedChecks.length} check(s) failed.**` : "All checks passed."}`;
    console.log(md);
    await writeSection("topology", md);
    await subscriber.dispose();
    return failedChecks.length === 0;
  } finally {
    for (const stop of stopPollers) await stop().catch(() => undefined);
    await Promise.all(processes.map((p) => p.stop("SIGTERM")));
    await db.end().catch(() => undefined);
    await closeServiceConnections();
    model.close();
    receiver.close();
    await cluster.stop();
    await admin(`DROP DATABASE IF EXISTS "${BENCH_DB}" WITH (FORCE)`).catch(() => undefined);
  }
}

function countBy(values: (string | number)[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const ok = await runTopologyBench();
  process.exit(ok ? 0 : 1);
}
