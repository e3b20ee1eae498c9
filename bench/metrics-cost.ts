/**
 * The cost of the /metrics instrumentation (issue 13, "Measure").
 *
 * Two API processes (the real entry point, src/main/api.ts) on one database: one as shipped
 * (METRICS on: HTTP duration histogram by route template, the GraphQL plugin, default process
 * metrics; /metrics scraped every BENCH_METRICS_SCRAPE_SECONDS during its measurements, as
 * Prometheus would, its cost included), one with METRICS=false (none of it). The list endpoint
 * `GET /api/v1/videos?limit=20` of a workspace with BENCH_METRICS_VIDEOS tracked videos (and the same
 * page through GraphQL, for the envelop plugin's cost) is loaded by
 * autocannon (its own process, 32 connections) in interleaved rounds (on, off, off, on, ...), so drift
 * in the shared machine's load hits both alike; throughput and server CPU per request (from /proc)
 * per measurement, compared round by round. Target: under 5 % of throughput lost.
 *
 * Run alone: `npx tsx bench/metrics-cost.ts` (BENCH_METRICS_VIDEOS, BENCH_METRICS_ROUNDS,
 * BENCH_METRICS_SECONDS, BENCH_METRICS_SCRAPE_SECONDS scale it); writes the `metrics-cost` section of
 * bench/RESULTS.md. Uses (creates and drops) the database svc_bench_metrics.
 */
import { execFileSync } from "node:child_process";
import os from "node:os";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { admin, dropRedisKeys, urlFor } from "./lib/db.js";
import { cpuMs, load, startChild, stopChildren, type LoadResult } from "./lib/load.js";
import { writeSection } from "./lib/results.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BENCH_DB = "svc_bench_metrics";
const VIDEOS = Number(process.env.BENCH_METRICS_VIDEOS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_METRICS_ROUNDS ?? 6);
const SECONDS = Number(process.env.BENCH_METRICS_SECONDS ?? 10);
const SCRAPE_SECONDS = Number(process.env.BENCH_METRICS_SCRAPE_SECONDS ?? 5);
const CONNECTIONS = 32;
const TARGET_LOSS = 0.05;
const REDIS_PREFIX = `bench_metrics_${process.pid}`;
const DATABASE_URL = urlFor(BENCH_DB);
const PATH = "/api/v1/videos?limit=20";
/** The same page through GraphQL (GET, so the load generator can send it): graphql-jit, the parse and
 *  validation caches and @envelop/prometheus's hooks on every operation. */
const GRAPHQL_QUERY = "query List { videos(first: 20) { edges { node { id url description viewCount likeCount } } } }";
const ENDPOINTS = [
  { name: `REST \`GET ${PATH}\``, path: PATH },
  { name: "GraphQL `videos(first: 20)` (GET /graphql)", path: `/graphql?query=${encodeURIComponent(GRAPHQL_QUERY)}` },
];

type Measured = LoadResult & { cpuPerRequest: number };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function seed(db: pg.Client, workspaceId: string): Promise<void> {
  await db.query(
    `INSERT INTO videos (platform, platform_video_id, url, description, hashtags, view_count, like_count, comment_count,
       share_count, bookmark_count, engagement_rate, posted_at, username, display_name, data_source, scrape_status, last_scraped_at)
     SELECT 'platformA', (7100000000000000000 + i)::text,
            'https://www.tiktok.com/@bench_user_' || (i % 500) || '/video/' || (7100000000000000000 + i),
            'Benchmark video number ' || i || ' with a caption of ordinary length #bench', ARRAY['bench'],
            v, v / 12, v / 150, v / 300, v / 200, round(((v / 12 + v / 150 + v / 300 + v / 200)::numeric / v * 100), 4),
            now() - make_interval(mins => i), 'bench_user_' || (i % 500), 'Bench User ' || (i % 500), 'simulated', 'ready', now()
       FROM generate_series(1, $1::int) AS i, LATERAL (SELECT (1000 + (i::bigint * 7919) % 5000000) AS v) AS x`,
    [VIDEOS],
  );
  await db.query(
    `INSERT INTO tracked_videos (workspace_id, video_id, created_at)
     SELECT $1::uuid, id, now() - make_interval(secs => row_number() OVER (ORDER BY platform_video_id)) FROM videos`,
    [workspaceId],
  );
  await db.query("ANALYZE");
}

export async function runMetricsCostBench(): Promise<void> {
  await admin(`DROP DATABASE IF EXISTS "${BENCH_DB}" WITH (FORCE)`);
  await admin(`CREATE DATABASE "${BENCH_DB}"`);
  const serviceEnv = {
    DATABASE_URL,
    REDIS_PREFIX,
    SCRAPE_PROVIDER: "simulated",
    VALIDATE_RESPONSES: "false",
    RATE_LIMIT_PER_MINUTE: "1000000000",
    SEED_DEMO: "false",
    LOG_LEVEL: "warn",
    PORT: "0",
    HOST: "127.0.0.1",
    NODE_ENV: "production",
    METRICS_TOKEN: "",
  };
  Object.assign(process.env, serviceEnv);
  const db = new pg.Client({ connectionString: DATABASE_URL });
  let scraper: NodeJS.Timeout | undefined;
  try {
    execFileSync("npx", ["prisma", "migrate", "deploy"], { cwd: ROOT, env: { ...process.env }, stdio: "ignore" });
    await db.connect();
    const { createWorkspace } = await import("../src/domain/workspace/service.js");
    await db.query(`INSERT INTO plans (name, video_limit, monthly_credits) VALUES ('bench', 10000000, 0)`);
    const reader = await createWorkspace({ name: "bench reader", plan: "bench" });
    await seed(db, reader.workspace.id);

    // At info, as in production (the access log is drained, not kept).
    const start = (metrics: boolean) => startChild(["src/main/api.ts"], { ...serviceEnv, LOG_LEVEL: "info", METRICS: String(metrics) }, /API listening on port (\d+)/);
    const [on, off] = [await start(true), await start(false)];
    const servers = {
      on: { base: `http://127.0.0.1:${on.match[1]}`, pid: on.child.pid!, runs: ENDPOINTS.map(() => [] as Measured[]) },
      off: { base: `http://127.0.0.1:${off.match[1]}`, pid: off.child.pid!, runs: ENDPOINTS.map(() => [] as Measured[]) },
    };
    const auth = { authorization: `Bearer ${reader.secret}` };

    // Sanity: both answer the same page; only the instrumented one serves /metrics.
    const [a, b] = await Promise.all([servers.on.base, servers.off.base].map((base) => fetch(`${base}${PATH}`, { headers: auth }).then((r) => r.text())));
    if (a !== b || !a.includes('"data"')) throw new Error(`the two APIs disagree:\n${a.slice(0, 300)}\n${b.slice(0, 300)}`);
    const q = (await (await fetch(`${servers.on.base}${ENDPOINTS[1]!.path}`, { headers: auth })).json()) as { data?: { videos: { edges: unknown[] } } };
    if (q.data?.videos.edges.length !== Math.min(20, VIDEOS)) throw new Error(`the GraphQL page is not 20 videos: ${JSON.stringify(q).slice(0, 300)}`);
    if ((await fetch(`${servers.on.base}/metrics`)).status !== 200 || (await fetch(`${servers.off.base}/metrics`)).status !== 404) {
      throw new Error("expected /metrics on the instrumented API only");
    }

    let scrapes = 0;
    let scrapeBytes = 0;
    const measure = async (which: "on" | "off", endpoint: number) => {
      const s = servers[which];
      const paths = [ENDPOINTS[endpoint]!.path];
      await load({ base: s.base, paths, headers: auth, seconds: 2, connections: CONNECTIONS }); // warm-up
      if (which === "on") {
        scraper = setInterval(() => {
          void fetch(`${s.base}/metrics`)
            .then((r) => r.text())
            .then((t) => {
              scrapes++;
              scrapeBytes = t.length;
            });
        }, SCRAPE_SECONDS * 1000);
      }
      const before = cpuMs(s.pid);
      const r = await load({ base: s.base, paths, headers: auth, seconds: SECONDS, connections: CONNECTIONS });
      const cpu = cpuMs(s.pid) - before;
      clearInterval(scraper);
      s.runs[endpoint]!.push({ ...r, cpuPerRequest: cpu / Math.max(r.total, 1) });
    };
    const loads: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // on, off | off, on | …: each takes the first slot of a round as often as the other.
      for (const endpoint of ENDPOINTS.keys()) {
        for (const which of round % 2 === 0 ? (["on", "off"] as const) : (["off", "on"] as const)) await measure(which, endpoint);
      }
      loads.push(os.loadavg()[0]!);
    }

    const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
    /** Per endpoint: its rounds, and the medians of the per-round on/off ratios. */
    const compare = (endpoint: number) => {
      const onRuns = servers.on.runs[endpoint]!;
      const offRuns = servers.off.runs[endpoint]!;
      const ratios = onRuns.map((r, i) => r.rps / offRuns[i]!.rps);
      const cpuRatios = onRuns.map((r, i) => r.cpuPerRequest / offRuns[i]!.cpuPerRequest);
      const rows = onRuns
        .map((r, i) => {
          const o = offRuns[i]!;
          return `| ${ENDPOINTS[endpoint]!.name} | ${i + 1} | ${r.rps.toFixed(0)} | ${o.rps.toFixed(0)} | ${pct(ratios[i]! - 1)} | ${r.cpuPerRequest.toFixed(3)} | ${o.cpuPerRequest.toFixed(3)} | ${r.p99} / ${o.p99} | ${r.non2xx + r.errors + o.non2xx + o.errors} |`;
        })
        .join("\n");
      const loss = 1 - median(ratios);
      const cpuExtra = median(cpuRatios) - 1;
      const summary = `${ENDPOINTS[endpoint]!.name}: **${pct(loss)} of throughput lost** with the instrumentation (median of the per-round ratios; median req/s on ${median(onRuns.map((r) => r.rps)).toFixed(0)}, off ${median(offRuns.map((r) => r.rps)).toFixed(0)}); server CPU per request ${cpuExtra >= 0 ? "+" : ""}${pct(cpuExtra)}`;
      return { rows, loss, summary };
    };
    const [rest, graphql] = [compare(0), compare(1)];
    const md = `## /metrics instrumentation: cost on the list endpoint

Command: \`npx tsx bench/metrics-cost.ts\` (scale with BENCH_METRICS_VIDEOS, BENCH_METRICS_ROUNDS, BENCH_METRICS_SECONDS,
BENCH_METRICS_SCRAPE_SECONDS). \`GET ${PATH}\` (and the same page through GraphQL) of a workspace with ${VIDEOS.toLocaleString("en")} tracked videos, served by two API
processes (src/main/api.ts, LOG_LEVEL=info, VALIDATE_RESPONSES=false, a rate limit too high to refuse) on one database: **on**
as shipped (HTTP histogram by route template, the GraphQL plugin, process metrics; /metrics scraped every ${SCRAPE_SECONDS} s during
its measurements: ${scrapes} scrapes of ${(scrapeBytes / 1024).toFixed(0)} KiB) and **off** (METRICS=false). autocannon in its own process,
${CONNECTIONS} connections, ${SECONDS} s per measurement after a 2 s warm-up, ${ROUNDS} interleaved rounds (on/off, then off/on, …);
1-minute load average ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)} on ${os.cpus().length} CPUs.

| endpoint | round | on req/s | off req/s | on vs off | on CPU ms/req | off CPU ms/req | p99 ms on / off | non-2xx/errors |
|---|---:|---:|---:|---:|---:|---:|---:|---:|
${rest.rows}
${graphql.rows}

- ${rest.summary}. Target (under ${pct(TARGET_LOSS)} lost on the list endpoint): **${rest.loss < TARGET_LOSS ? "met" : "NOT met"}**.
- ${graphql.summary} (the same page through Yoga, graphql-jit and @envelop/prometheus's operation counter, histogram and error counter).`;
    console.log(md);
    await writeSection("metrics-cost", md);
  } finally {
    clearInterval(scraper);
    stopChildren();
    await new Promise((r) => setTimeout(r, 500));
    await db.end().catch(() => undefined);
    const { closeDb } = await import("../src/infra/db.js");
    const { closeRedis } = await import("../src/infra/redis.js");
    await closeDb().catch(() => undefined);
    await closeRedis().catch(() => undefined);
    await dropRedisKeys(REDIS_PREFIX).catch(() => undefined);
    await admin(`DROP DATABASE IF EXISTS "${BENCH_DB}" WITH (FORCE)`).catch(() => undefined);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runMetricsCostBench();
  process.exit(0);
}
