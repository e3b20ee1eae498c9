/**
 * The cost of tracing (the targets: every request traced at most 10 % of throughput lost, 10 % sampled at most 3 %).
 *
 * Three API processes (the real entry point, src/main/api.ts) on one database: **off** (no OTEL_*
 * variable: no SDK loaded, as shipped), **on** (OTLP/HTTP, protobuf, to a loopback receiver in this
 * process, every request sampled: the worst case) and **sampled** (the same, with
 * OTEL_TRACES_SAMPLER=parentbased_traceidratio at BENCH_TRACES_RATIO, 0.1). The ladder's two service
 * rungs (bench/ladder/: REST `GET /api/v1/videos?limit=20` and GraphQL `videos(first: 20)` with the
 * same fields) over a workspace of BENCH_TRACES_VIDEOS tracked videos, loaded by autocannon (its own
 * process, 32 connections) in rounds of rotating order, so drift in the shared machine's load hits
 * every arm alike; throughput and server CPU per request (from /proc), compared round by round.
 * The batch span processor's queue is raised (OTEL_BSP_MAX_QUEUE_SIZE) so spans are exported rather
 * than dropped under load, which would hide their cost; the receiver counts what arrives.
 *
 * Run alone: `npx tsx bench/traces-cost.ts` (BENCH_TRACES_VIDEOS, BENCH_TRACES_ROUNDS,
 * BENCH_TRACES_SECONDS, BENCH_TRACES_RATIO scale it); writes the `traces-cost` section of
 * bench/RESULTS.md. Uses (creates and drops) the database svc_bench_traces.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import pg from "pg";
import { benchReader, benchServiceEnv, createMigratedDatabase, endBench, urlFor } from "./lib/db.js";
import { measuredLoad, rotatingRounds, startChild, stopChildren, type MeasuredLoad } from "./lib/load.js";
import { percentile, writeSection } from "./lib/results.js";
import { seedTrackedVideos } from "./metrics-cost.js";

const BENCH_DB = "svc_bench_traces";
const VIDEOS = Number(process.env.BENCH_TRACES_VIDEOS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_TRACES_ROUNDS ?? 6);
const SECONDS = Number(process.env.BENCH_TRACES_SECONDS ?? 10);
const RATIO = Number(process.env.BENCH_TRACES_RATIO ?? 0.1);
const CONNECTIONS = 32;
const TARGET_LOSS = 0.1;
const TARGET_SAMPLED_LOSS = 0.03;
const REDIS_PREFIX = `bench_traces_${process.pid}`;
const DATABASE_URL = urlFor(BENCH_DB);
const REST = "/api/v1/videos?limit=20";
/** bench/ladder/ladder.mjs's GQL_LIST (the REST list's fields), sent by GET so the load generator can repeat it. */
const VIDEO_FIELDS = `id: uuid platformVideoId url type description hashtags viewCount likeCount commentCount shareCount
  bookmarkCount engagementRate postedAt thumbnailUrl username displayName canonicalAccountId musicName musicAuthor
  musicCoverUrl durationSeconds scrapeStatus scrapeError lastScrapedAt dataSource nextRefreshAt views24h outlierScore`;
const GRAPHQL_QUERY = `{ videos(first: 20) { totalCount pageInfo { hasNextPage } edges { node { ${VIDEO_FIELDS} } } } }`.replace(
  /\s+/g,
  " ",
);
const ENDPOINTS = [
  { name: `REST \`GET ${REST}\``, path: REST },
  { name: "GraphQL `videos(first: 20)` (GET /graphql)", path: `/graphql?query=${encodeURIComponent(GRAPHQL_QUERY)}` },
];

const median = (xs: number[]) => percentile(xs, 50);

export async function runTracesCostBench(): Promise<void> {
  await createMigratedDatabase(BENCH_DB);
  const serviceEnv = benchServiceEnv(DATABASE_URL, REDIS_PREFIX, { METRICS_TOKEN: "" });
  Object.assign(process.env, serviceEnv);
  // The OTLP receiver: accepts every export, counts requests and bytes.
  const received = { exports: 0, bytes: 0 };
  const receiver = createServer((req, res) => {
    req.on("data", (d: Buffer) => (received.bytes += d.length));
    req.on("end", () => {
      received.exports++;
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const db = new pg.Client({ connectionString: DATABASE_URL });
  try {
    await db.connect();
    const reader = await benchReader(db);
    await seedTrackedVideos(db, reader.workspace.id, VIDEOS);

    const traced = { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_MAX_QUEUE_SIZE: "65536", OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "2048" };
    const arms = {
      off: { env: {}, label: "off (no OTEL_*)" },
      on: { env: traced, label: "on, every request sampled" },
      sampled: {
        env: { ...traced, OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: String(RATIO) },
        label: `on, ${RATIO * 100} % sampled`,
      },
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

    // Sanity: all answer the same pages; only the traced ones export.
    for (const e of ENDPOINTS) {
      const pages = await Promise.all(ARMS.map((arm) => fetch(`${servers[arm].base}${e.path}`, { headers: auth }).then((r) => r.text())));
      if (new Set(pages).size !== 1 || !pages[0]!.includes('"data"'))
        throw new Error(`the APIs disagree on ${e.path}:\n${pages.map((p) => p.slice(0, 300)).join("\n")}`);
    }
    await new Promise((r) => setTimeout(r, 6000)); // the batch processor's default delay (5 s)
    if (received.exports === 0) throw new Error("the traced API exported nothing to the receiver");

    const measure = async (arm: Arm, endpoint: number) => {
      const s = servers[arm];
      s.runs[endpoint]!.push(
        await measuredLoad(s.pid, {
          base: s.base,
          paths: [ENDPOINTS[endpoint]!.path],
          headers: auth,
          seconds: SECONDS,
          connections: CONNECTIONS,
        }),
      );
    };
    const loads = await rotatingRounds(ARMS, ENDPOINTS.length, ROUNDS, measure);

    const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
    const signed = (x: number) => `${x >= 0 ? "+" : ""}${pct(x)}`;
    const compare = (arm: Arm, endpoint: number) => {
      const a = servers[arm].runs[endpoint]!;
      const b = servers.off.runs[endpoint]!;
      return {
        loss: 1 - median(a.map((r, i) => r.rps / b[i]!.rps)),
        cpu: median(a.map((r, i) => r.cpuPerRequest / b[i]!.cpuPerRequest)) - 1,
      };
    };
    const rows = ENDPOINTS.flatMap((e, endpoint) =>
      Array.from({ length: ROUNDS }, (_, i) => {
        const runs = ARMS.map((arm) => servers[arm].runs[endpoint]![i]!);
        const errors = runs.reduce((n, r) => n + r.non2xx + r.errors, 0);
        return `| ${e.name} | ${i + 1} | ${runs.map((r) => r.rps.toFixed(0)).join(" / ")} | ${runs.map((r) => r.cpuPerRequest.toFixed(3)).join(" / ")} | ${runs.map((r) => r.p99).join(" / ")} | ${errors} |`;
      }),
    ).join("\n");
    const lines = ENDPOINTS.map((e, endpoint) => {
      const on = compare("on", endpoint);
      const sampled = compare("sampled", endpoint);
      const rps = (arm: Arm) => median(servers[arm].runs[endpoint]!.map((r) => r.rps)).toFixed(0);
      return {
        on,
        sampled,
        line: `${e.name} (median req/s ${ARMS.map(rps).join(" / ")}): every request traced **${pct(on.loss)} of throughput lost**, CPU per request ${signed(on.cpu)}; ${pct(RATIO)} sampled ${pct(sampled.loss)} lost, CPU ${signed(sampled.cpu)}`,
      };
    });
    const met = lines.every((l) => l.on.loss <= TARGET_LOSS);
    const sampledMet = lines.every((l) => l.sampled.loss <= TARGET_SAMPLED_LOSS);
    const md = `## Traces: cost on the ladder's REST and GraphQL rungs

Command: \`npm run bench -- traces-cost\` (scale with BENCH_TRACES_VIDEOS, BENCH_TRACES_ROUNDS, BENCH_TRACES_SECONDS, BENCH_TRACES_RATIO).
The ladder's service rungs over a workspace with ${VIDEOS.toLocaleString("en")} tracked videos, served by three API processes (src/main/api.ts,
LOG_LEVEL=info, /metrics on as shipped) on one database: **${arms.off.label}**, **${arms.on.label}** and **${arms.sampled.label}**, the
last two exporting OTLP/HTTP (protobuf) to a loopback receiver (${received.exports} exports, ${(received.bytes / 1024 / 1024).toFixed(1)} MiB in all).
autocannon in its own process, ${CONNECTIONS} connections, ${SECONDS} s per measurement after a 2 s warm-up, ${ROUNDS} rounds in rotating
order; 1-minute load average ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)} on ${os.cpus().length} CPUs.

| endpoint | round | req/s ${ARMS.join(" / ")} | server CPU ms/req ${ARMS.join(" / ")} | p99 ms ${ARMS.join(" / ")} | non-2xx/errors |
|---|---:|---:|---:|---:|---:|
${rows}

${lines.map((l) => `- ${l.line}.`).join("\n")}
- Targets: every request traced at most ${pct(TARGET_LOSS)} of throughput lost, **${met ? "met" : "NOT met"}**; ${pct(RATIO)} sampled at most ${pct(TARGET_SAMPLED_LOSS)}, **${sampledMet ? "met" : "NOT met"}**.
- Losses and CPU are medians of the per-round ratios against **off** (each round's arms ran back to back).`;
    console.log(md);
    await writeSection("traces-cost", md);
  } finally {
    stopChildren();
    receiver.close();
    await endBench(db, REDIS_PREFIX, BENCH_DB);
  }
}

await runTracesCostBench();
process.exit(0);
