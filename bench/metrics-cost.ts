/**
 * The cost of the /metrics instrumentation.
 *
 * Three API processes (the real entry point, src/main/api.ts) on one database: one as shipped
 * (METRICS on: HTTP duration histogram by route template, the GraphQL plugin, default process
 * metrics; /metrics scraped every BENCH_METRICS_SCRAPE_SECONDS during its measurements, as
 * Prometheus would, its cost included), one with METRICS=false (none of it), and one also with
 * LOG_CONTEXT=false (no AsyncLocalStorage: the cost of the ids on every log line, measured apart).
 * The list endpoint `GET /api/v1/videos?limit=20` of a workspace with BENCH_METRICS_VIDEOS tracked
 * videos (and the same page through GraphQL, for the envelop plugin's cost) is loaded by autocannon
 * (its own process, 32 connections) in rounds of rotating order, so drift in the shared machine's
 * load hits every arm alike; throughput and server CPU per request (from /proc) per measurement,
 * compared round by round. Target: under 5 % of throughput lost to the metrics.
 *
 * Run alone: `npx tsx bench/metrics-cost.ts` (BENCH_METRICS_VIDEOS, BENCH_METRICS_ROUNDS,
 * BENCH_METRICS_SECONDS, BENCH_METRICS_SCRAPE_SECONDS scale it); writes the `metrics-cost` section of
 * bench/RESULTS.md. Uses (creates and drops) the database svc_bench_metrics.
 */
import os from "node:os";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { benchReader, benchServiceEnv, createMigratedDatabase, endBench, urlFor } from "./lib/db.js";
import { measuredLoad, rotatingRounds, startChild, stopChildren, type MeasuredLoad } from "./lib/load.js";
import { writeSection } from "./lib/results.js";

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

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** `count` simulated videos tracked by the workspace (shared with bench/abuse-bounds.ts). */
export async function seedTrackedVideos(db: pg.Client, workspaceId: string, count = VIDEOS): Promise<void> {
  await db.query(
    `INSERT INTO videos (platform, platform_video_id, url, description, hashtags, view_count, like_count, comment_count,
       share_count, bookmark_count, engagement_rate, posted_at, username, display_name, data_source, scrape_status, last_scraped_at)
     SELECT 'platformA', (7100000000000000000 + i)::text,
            'https://www.tiktok.com/@bench_user_' || (i % 500) || '/video/' || (7100000000000000000 + i),
            'Benchmark video number ' || i || ' with a caption of ordinary length #bench', ARRAY['bench'],
            v, v / 12, v / 150, v / 300, v / 200, round(((v / 12 + v / 150 + v / 300 + v / 200)::numeric / v * 100), 4),
            now() - make_interval(mins => i), 'bench_user_' || (i % 500), 'Bench User ' || (i % 500), 'simulated', 'ready', now()
       FROM generate_series(1, $1::int) AS i, LATERAL (SELECT (1000 + (i::bigint * 7919) % 5000000) AS v) AS x`,
    [count],
  );
  await db.query(
    `INSERT INTO tracked_videos (workspace_id, video_id, created_at)
     SELECT $1::uuid, id, now() - make_interval(secs => row_number() OVER (ORDER BY platform_video_id)) FROM videos`,
    [workspaceId],
  );
  await db.query("ANALYZE");
}

export async function runMetricsCostBench(): Promise<void> {
  await createMigratedDatabase(BENCH_DB);
  const serviceEnv = benchServiceEnv(DATABASE_URL, REDIS_PREFIX, { METRICS_TOKEN: "" });
  Object.assign(process.env, serviceEnv);
  const db = new pg.Client({ connectionString: DATABASE_URL });
  let scraper: NodeJS.Timeout | undefined;
  try {
    await db.connect();
    const reader = await benchReader(db);
    await seedTrackedVideos(db, reader.workspace.id);

    // At info, as in production (the access log is drained, not kept).
    const arms = {
      on: { env: { METRICS: "true" }, label: "on (as shipped)" },
      off: { env: { METRICS: "false" }, label: "METRICS=false" },
      bare: { env: { METRICS: "false", LOG_CONTEXT: "false" }, label: "METRICS=false LOG_CONTEXT=false" },
    } as const;
    type Arm = keyof typeof arms;
    const ARMS = Object.keys(arms) as Arm[];
    const servers = {} as Record<Arm, { base: string; pid: number; runs: MeasuredLoad[][] }>;
    for (const arm of ARMS) {
      const child = await startChild(
        ["src/main/api.ts"],
        { ...serviceEnv, LOG_LEVEL: "info", ...arms[arm].env },
        /API listening on port (\d+)/,
      );
      servers[arm] = { base: `http://127.0.0.1:${child.match[1]}`, pid: child.child.pid!, runs: ENDPOINTS.map(() => []) };
    }
    const auth = { authorization: `Bearer ${reader.secret}` };

    // Sanity: all answer the same page; only the instrumented one serves /metrics.
    const pages = await Promise.all(ARMS.map((arm) => fetch(`${servers[arm].base}${PATH}`, { headers: auth }).then((r) => r.text())));
    if (new Set(pages).size !== 1 || !pages[0]!.includes('"data"'))
      throw new Error(`the APIs disagree:\n${pages.map((p) => p.slice(0, 300)).join("\n")}`);
    const q = (await (await fetch(`${servers.on.base}${ENDPOINTS[1]!.path}`, { headers: auth })).json()) as {
      data?: { videos: { edges: unknown[] } };
    };
    if (q.data?.videos.edges.length !== Math.min(20, VIDEOS))
      throw new Error(`the GraphQL page is not 20 videos: ${JSON.stringify(q).slice(0, 300)}`);
    const metricsStatus = await Promise.all(ARMS.map((arm) => fetch(`${servers[arm].base}/metrics`).then((r) => r.status)));
    if (metricsStatus.join() !== "200,404,404") throw new Error(`expected /metrics on the instrumented API only: ${metricsStatus.join()}`);

    let scrapes = 0;
    let scrapeBytes = 0;
    const measure = async (arm: Arm, endpoint: number) => {
      const s = servers[arm];
      const spec = { base: s.base, paths: [ENDPOINTS[endpoint]!.path], headers: auth, seconds: SECONDS, connections: CONNECTIONS };
      // /metrics is scraped during the "on" arm's measurements (its warm-up included), as Prometheus would.
      if (arm === "on") {
        scraper = setInterval(() => {
          void fetch(`${s.base}/metrics`)
            .then((r) => r.text())
            .then((t) => {
              scrapes++;
              scrapeBytes = t.length;
            });
        }, SCRAPE_SECONDS * 1000);
      }
      try {
        s.runs[endpoint]!.push(await measuredLoad(s.pid, spec));
      } finally {
        clearInterval(scraper);
      }
    };
    const loads = await rotatingRounds(ARMS, ENDPOINTS.length, ROUNDS, measure);

    const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
    const signed = (x: number) => `${x >= 0 ? "+" : ""}${pct(x)}`;
    /** `arm` against `base` on one endpoint: medians of the per-round ratios (throughput lost, CPU added). */
    const compare = (arm: Arm, base: Arm, endpoint: number) => {
      const a = servers[arm].runs[endpoint]!;
      const b = servers[base].runs[endpoint]!;
      return {
        loss: 1 - median(a.map((r, i) => r.rps / b[i]!.rps)),
        cpu: median(a.map((r, i) => r.cpuPerRequest / b[i]!.cpuPerRequest)) - 1,
      };
    };
    const rows = ENDPOINTS.flatMap((e, endpoint) =>
      Array.from({ length: ROUNDS }, (_, i) => {
        const [on, off, bare] = ARMS.map((arm) => servers[arm].runs[endpoint]![i]!);
        const errors = [on, off, bare].reduce((n, r) => n + r!.non2xx + r!.errors, 0);
        return `| ${e.name} | ${i + 1} | ${on!.rps.toFixed(0)} / ${off!.rps.toFixed(0)} / ${bare!.rps.toFixed(0)} | ${on!.cpuPerRequest.toFixed(3)} / ${off!.cpuPerRequest.toFixed(3)} / ${bare!.cpuPerRequest.toFixed(3)} | ${on!.p99} / ${off!.p99} / ${bare!.p99} | ${errors} |`;
      }),
    ).join("\n");
    const summary = (endpoint: number) => {
      const metrics = compare("on", "off", endpoint);
      const context = compare("off", "bare", endpoint);
      const total = compare("on", "bare", endpoint);
      const rps = (arm: Arm) => median(servers[arm].runs[endpoint]!.map((r) => r.rps)).toFixed(0);
      return {
        metrics,
        line: `${ENDPOINTS[endpoint]!.name} (median req/s ${rps("on")} / ${rps("off")} / ${rps("bare")}): the metrics instrumentation **${pct(metrics.loss)} of throughput lost**, CPU per request ${signed(metrics.cpu)}; the log context (AsyncLocalStorage) ${pct(context.loss)} lost, CPU ${signed(context.cpu)}; both ${pct(total.loss)} lost, CPU ${signed(total.cpu)}`,
      };
    };
    const [rest, graphql] = [summary(0), summary(1)];
    const md = `## /metrics instrumentation: cost on the list endpoint

Command: \`npx tsx bench/metrics-cost.ts\` (scale with BENCH_METRICS_VIDEOS, BENCH_METRICS_ROUNDS, BENCH_METRICS_SECONDS,
BENCH_METRICS_SCRAPE_SECONDS). \`GET ${PATH}\` (and the same page through GraphQL) of a workspace with ${VIDEOS.toLocaleString("en")} tracked
videos, served by three API processes (src/main/api.ts, LOG_LEVEL=info, VALIDATE_RESPONSES=false, a rate limit too high to refuse) on
one database: **on** as shipped (HTTP histogram by route template, the GraphQL plugin, process metrics; /metrics scraped every
${SCRAPE_SECONDS} s during its measurements: ${scrapes} scrapes of ${(scrapeBytes / 1024).toFixed(0)} KiB), **off** (METRICS=false) and **bare**
(METRICS=false and LOG_CONTEXT=false: no AsyncLocalStorage, whose promise hook Node ${process.versions.node.split(".")[0]} runs on every promise).
autocannon in its own process, ${CONNECTIONS} connections, ${SECONDS} s per measurement after a 2 s warm-up, ${ROUNDS} rounds in rotating
order; 1-minute load average ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)} on ${os.cpus().length} CPUs.

| endpoint | round | req/s on / off / bare | server CPU ms/req on / off / bare | p99 ms on / off / bare | non-2xx/errors |
|---|---:|---:|---:|---:|---:|
${rows}

- ${rest.line}. Target (metrics: under ${pct(TARGET_LOSS)} lost on the list endpoint): **${rest.metrics.loss < TARGET_LOSS ? "met" : "NOT met"}**.
- ${graphql.line} (Yoga, graphql-jit and @envelop/prometheus's operation counter, histogram and error counter).
- Losses and CPU are medians of the per-round ratios (each round's arms ran back to back).`;
    console.log(md);
    await writeSection("metrics-cost", md);
  } finally {
    clearInterval(scraper);
    stopChildren();
    await endBench(db, REDIS_PREFIX, BENCH_DB);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runMetricsCostBench();
  process.exit(0);
}
