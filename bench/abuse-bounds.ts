/**
 * What the abuse bounds (an operation's bounds: src/http/graphql/limits.ts) cost on the ladder path (the
 * GraphQL list and the REST list).
 *
 * 1. Each bound alone, in this process, on the ladder's GraphQL document: what runs on every request
 *    (the answer-size estimate and the @stream check, per execution), and what runs once per distinct
 *    document (Yoga caches parsed and validated documents: the token-counting parser, the depth, cost,
 *    alias, directive and introspection rules), in microseconds per call.
 * 2. The list endpoints as shipped, through one API process (src/main/api.ts): `GET /api/v1/videos?limit=20`
 *    and the same page through GraphQL, loaded by autocannon (its own process): req/s, server CPU per
 *    request; the per-request bounds of (1) as a share of that CPU. Admission before parsing moved the
 *    key check earlier, it added none (one Redis round trip per request, as before).
 *
 * Run alone: `npx tsx bench/abuse-bounds.ts` (BENCH_ABUSE_VIDEOS, BENCH_ABUSE_SECONDS, BENCH_ABUSE_ITERATIONS
 * scale it); writes the `abuse-bounds` section of bench/RESULTS.md. Uses (creates and drops) the
 * database svc_bench_abuse.
 */
import os from "node:os";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { getOperationAST, parse, specifiedRules, validate, type DocumentNode } from "graphql";
import { benchReader, benchServiceEnv, createMigratedDatabase, endBench, urlFor } from "./lib/db.js";
import { cpuMs, load, startChild, stopChildren } from "./lib/load.js";
import { writeSection } from "./lib/results.js";
import { seedTrackedVideos } from "./metrics-cost.js";

const BENCH_DB = "svc_bench_abuse";
const VIDEOS = Number(process.env.BENCH_ABUSE_VIDEOS ?? 10_000);
const SECONDS = Number(process.env.BENCH_ABUSE_SECONDS ?? 10);
const ITERATIONS = Number(process.env.BENCH_ABUSE_ITERATIONS ?? 20_000);
const CONNECTIONS = 32;
const REDIS_PREFIX = `bench_abuse_${process.pid}`;
const DATABASE_URL = urlFor(BENCH_DB);
const PATH = "/api/v1/videos?limit=20";
/** The ladder's GraphQL list (bench/metrics-cost.ts's page). */
const GRAPHQL_QUERY = "query List { videos(first: 20) { edges { node { id url description viewCount likeCount } } } }";

/** Microseconds per call of `fn`, after a warm-up. */
function perCall(fn: () => unknown, iterations = ITERATIONS): number {
  for (let i = 0; i < Math.min(1000, iterations); i++) fn();
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) fn();
  return Number(process.hrtime.bigint() - started) / 1000 / iterations;
}

async function microbench() {
  const { schema } = await import("../src/http/graphql/schema.js");
  const limits = await import("../src/http/graphql/limits.js");
  const { MaxTokensParserWLexer } = await import("@escape.tech/graphql-armor-max-tokens");
  const document: DocumentNode = parse(GRAPHQL_QUERY);
  const operation = getOperationAST(document, "List")!;
  // The plugins' validation rules, as Yoga adds them (each plugin's onValidate).
  const rules = [...specifiedRules];
  for (const plugin of limits.operationLimits()) {
    (plugin as { onValidate?: (p: { addValidationRule: (r: unknown) => void }) => void }).onValidate?.({
      addValidationRule: (r) => rules.push(r as never),
    });
  }
  return {
    // As it runs per request: the estimate, kept per parsed document when the operation has no variables.
    answerSize: perCall(() => limits.answerTooLarge(schema, document, "List", {})),
    answerSizeComputed: perCall(() => limits.answerSize(schema, document, operation, {})),
    plainParse: perCall(() => parse(GRAPHQL_QUERY), ITERATIONS / 4),
    countedParse: perCall(() => new MaxTokensParserWLexer(GRAPHQL_QUERY, { n: 10_000 } as never).parseDocument(), ITERATIONS / 4),
    plainValidate: perCall(() => validate(schema, document, specifiedRules), ITERATIONS / 4),
    boundedValidate: perCall(() => validate(schema, document, rules), ITERATIONS / 4),
  };
}

export async function runAbuseBoundsBench(): Promise<void> {
  await createMigratedDatabase(BENCH_DB);
  const serviceEnv = benchServiceEnv(DATABASE_URL, REDIS_PREFIX);
  Object.assign(process.env, serviceEnv);
  const db = new pg.Client({ connectionString: DATABASE_URL });
  try {
    await db.connect();
    const reader = await benchReader(db);
    await seedTrackedVideos(db, reader.workspace.id, VIDEOS);

    const micro = await microbench();
    const child = await startChild(["src/main/api.ts"], { ...serviceEnv, LOG_LEVEL: "info" }, /API listening on port (\d+)/);
    const base = `http://127.0.0.1:${child.match[1]}`;
    const pid = child.child.pid!;
    const headers = { authorization: `Bearer ${reader.secret}` };
    const endpoints = [
      { name: `REST \`GET ${PATH}\``, path: PATH },
      { name: "GraphQL `videos(first: 20)` (GET /graphql)", path: `/graphql?query=${encodeURIComponent(GRAPHQL_QUERY)}` },
    ];
    const page = (await (await fetch(`${base}${endpoints[1]!.path}`, { headers })).json()) as { data?: { videos: { edges: unknown[] } } };
    if (page.data?.videos.edges.length !== Math.min(20, VIDEOS))
      throw new Error(`the GraphQL page is not 20 videos: ${JSON.stringify(page).slice(0, 300)}`);
    const measured = [];
    for (const e of endpoints) {
      await load({ base, paths: [e.path], headers, seconds: Math.min(2, SECONDS), connections: CONNECTIONS }); // warm-up
      const before = cpuMs(pid);
      const r = await load({ base, paths: [e.path], headers, seconds: SECONDS, connections: CONNECTIONS });
      measured.push({ ...e, ...r, cpuPerRequest: (cpuMs(pid) - before) / Math.max(r.total, 1) });
    }
    const graphqlCpuUs = measured[1]!.cpuPerRequest * 1000;
    const share = (us: number) => `${((us / graphqlCpuUs) * 100).toFixed(2)} %`;
    const us = (x: number) => `${x.toFixed(2)} µs`;
    const md = `## Abuse bounds (issue 22): cost on the ladder path

Command: \`npx tsx bench/abuse-bounds.ts\` (scale with BENCH_ABUSE_VIDEOS, BENCH_ABUSE_SECONDS, BENCH_ABUSE_ITERATIONS). The ladder's GraphQL
list \`${GRAPHQL_QUERY}\` and \`GET ${PATH}\` of a workspace with ${VIDEOS.toLocaleString("en")} tracked videos; one API process
(src/main/api.ts, as shipped); autocannon in its own process, ${CONNECTIONS} connections, ${SECONDS} s after a warm-up; 1-minute load average
${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs.

| endpoint | req/s | server CPU ms/req | p50 ms | p99 ms | non-2xx/errors |
|---|---:|---:|---:|---:|---:|
${measured.map((m) => `| ${m.name} | ${m.rps.toFixed(0)} | ${m.cpuPerRequest.toFixed(3)} | ${m.p50} | ${m.p99} | ${m.non2xx + m.errors} |`).join("\n")}

Each bound alone on that document (${ITERATIONS.toLocaleString("en")} calls, this process):

| bound | when it runs | per call | share of the GraphQL request's server CPU |
|---|---|---:|---:|
| answer-size check (GRAPHQL_MAX_RESPONSE_VALUES) and the @stream check | every execution (the estimate is kept per document when the operation has no variables) | ${us(micro.answerSize)} (computing it: ${us(micro.answerSizeComputed)}) | ${share(micro.answerSize)} (computed every time: ${share(micro.answerSizeComputed)}) |
| token-counting parser (GRAPHQL_MAX_TOKENS) | once per distinct document (parser cache) | ${us(micro.countedParse)} (plain parse ${us(micro.plainParse)}) | - |
| depth, cost, aliases, directives, introspection rules | once per distinct document (validation cache) | ${us(micro.boundedValidate)} (graphql-js rules only ${us(micro.plainValidate)}) | - |

- Per request, the bounds add the answer-size estimate: ${share(micro.answerSize)} of the GraphQL list's CPU (target: nothing measurable).
- REST's list gained no per-request work from issue 22 (Node's header and request timeouts are timers checked every second).
- Admission before parsing is the same single Redis round trip as before, moved ahead of the body read.`;
    console.log(md);
    await writeSection("abuse-bounds", md);
  } finally {
    stopChildren();
    await endBench(db, REDIS_PREFIX, BENCH_DB);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runAbuseBoundsBench();
  process.exit(0);
}
