/**
 * `npm run bench -- pothos-prisma`: the design card's @pothos/plugin-prisma,
 * measured against today's schema (domain records + DataLoaders, src/http/graphql/types/tracking.ts).
 *
 * The ladder's database (bench/ladder/seed.sql: 100,000 tracked videos in workspace A, 4,000 in B,
 * 2,000 accounts) in its own database; the ladder's two queries (bench/ladder/queries.mjs: the list
 * `videos(first: 20)` and the same with each video's account) against three servers, each its own
 * process and served identically (bench/pothos-prisma/server.ts: yoga + graphql-jit, the workspace's
 * actor fixed, no auth, limits or logs), so that only the schema, its resolvers and data access differ:
 *
 * - today: the service's schema;
 * - plugin: bench/pothos-prisma/schema.ts (prismaNode, relation, prismaConnectionHelpers + queryFromInfo)
 *   over the service's Prisma client;
 * - plugin-joins: the same over a client generated with the `relationJoins` preview feature.
 *
 * Before measuring: every arm answers both queries with the same JSON as today's, and today's page
 * is the workspace's first 20 by independent SQL. Statements per request are counted in each server
 * (every pg query, 20 sequential requests). Then PERF_ROUNDS (3) rounds of autocannon (its own process,
 * -c 32, 2 s warm-up + PERF_SECONDS (10) s), arms in a rotating order per round, with server CPU per
 * request from /proc. Writes the `pothos-prisma` section of bench/RESULTS.md.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import pg from "pg";
import { GQL_LIST, GQL_NESTED } from "./ladder/queries.mjs";
import { benchServiceEnv, closeServiceConnections, createMigratedDatabase, endBench, urlFor } from "./lib/db.js";
import { measuredLoad, rotatingRounds, startChild, stopChildren, type MeasuredLoad } from "./lib/load.js";
import { percentile, writeSection } from "./lib/results.js";
import { generatePluginArtifacts, typecheckPluginSchema, type Arm } from "./pothos-prisma/generate.js";

const DB = "perf_pothos_prisma";
const DATABASE_URL = urlFor(DB);
const REDIS_PREFIX = `bench_pothos_prisma_${process.pid}`;
const ROUNDS = Number(process.env.PERF_ROUNDS ?? 3);
const SECONDS = Number(process.env.PERF_SECONDS ?? 10);
const CONNECTIONS = 32;
const SEED = fileURLToPath(new URL("./ladder/seed.sql", import.meta.url));
const QUERIES = [
  { key: "list", text: GQL_LIST },
  { key: "nested", text: GQL_NESTED },
] as const;
/** Not measured: that both schemas encode the nodes' global ids alike (`Video:<uuid>`, `Account:<uuid>`; edge cursors differ and are not compared). */
const GLOBAL_IDS = "{ videos(first: 20) { edges { node { id account { id } } } } }";

interface Server {
  arm: Arm;
  base: string;
  pid: number;
}

/** Two workspaces (A measured, B tracking newer videos A must not show), seeded as the ladder does. */
async function seed(): Promise<{ workspaceA: string; seconds: number }> {
  const { createWorkspace } = await import("../src/domain/workspace/service.js");
  const a = await createWorkspace({ name: "perf", plan: "enterprise" });
  const b = await createWorkspace({ name: "perf-other", plan: "enterprise" });
  const started = Date.now();
  const u = new URL(DATABASE_URL);
  execFileSync(
    "psql",
    [
      "-h",
      u.hostname,
      "-p",
      u.port || "5432",
      "-U",
      u.username,
      "-d",
      DB,
      "-v",
      "ON_ERROR_STOP=1",
      "-qAt",
      "-v",
      `ws_a=${a.workspace.id}`,
      "-v",
      `ws_b=${b.workspace.id}`,
      "-f",
      SEED,
    ],
    {
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  return { workspaceA: a.workspace.id, seconds: (Date.now() - started) / 1000 };
}

async function post(server: Server, query: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${server.base}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });
  return { status: res.status, text: await res.text() };
}

interface Page {
  data: {
    videos: { totalCount?: number; edges: { node: { id: string; canonicalAccountId?: string | null; account?: { id: string } | null } }[] };
  };
}

/** Each server's answer to `query`, as text and parsed; any HTTP or GraphQL error stops the benchmark. */
async function answers(servers: Server[], query: string): Promise<{ text: string; body: Page }[]> {
  return Promise.all(
    servers.map(async (s) => {
      const { status, text } = await post(s, query);
      const body = JSON.parse(text);
      if (status !== 200 || body.errors) throw new Error(`${s.arm}: ${status} ${text.slice(0, 500)}`);
      return { text, body: body as Page };
    }),
  );
}

/** Every plugin arm answers `query` with today's JSON (byte-equal or not, said). */
async function sameAsToday(servers: Server[], key: string, query: string): Promise<{ today: Page; checks: string[] }> {
  const [today, ...others] = await answers(servers, query);
  const checks = others.map((other, i) => {
    const arm = servers[i + 1]!.arm;
    if (!isDeepStrictEqual(other.body, today!.body))
      throw new Error(`${arm} ${key} differs from today's:\n${other.text.slice(0, 800)}\n${today!.text.slice(0, 800)}`);
    const bytes = other.text === today!.text ? "byte-equal" : "JSON-equal (not byte-equal)";
    const total = today!.body.data.videos.totalCount === undefined ? "" : `, totalCount ${today!.body.data.videos.totalCount}`;
    return `${arm} ${key}: ${bytes} to today's (${today!.text.length} bytes, ${today!.body.data.videos.edges.length} items${total})`;
  });
  return { today: today!.body, checks };
}

/**
 * Before measuring: both queries answered alike by every arm; today's page is the workspace's first
 * 20 by independent SQL; each account is the video's owner; and the global ids (not in the measured
 * queries) encode alike.
 */
async function checkEquivalence(db: pg.Client, servers: Server[], workspaceA: string): Promise<string[]> {
  const expected = (
    await db.query(`SELECT video_id FROM tracked_videos WHERE workspace_id = $1 ORDER BY created_at DESC, id LIMIT 20`, [workspaceA])
  ).rows.map((r) => r.video_id as string);
  const list = await sameAsToday(servers, "list", GQL_LIST);
  if (
    !isDeepStrictEqual(
      list.today.data.videos.edges.map((e) => e.node.id),
      expected,
    )
  )
    throw new Error("today's page is not the workspace's first 20 by (created_at DESC, id)");
  const nested = await sameAsToday(servers, "nested", GQL_NESTED);
  const nodes = nested.today.data.videos.edges.map((e) => e.node);
  if (!nodes.every((n) => (n.account ? n.account.id === n.canonicalAccountId : n.canonicalAccountId === null)))
    throw new Error("nested: an account is not its video's owner");
  const ids = await sameAsToday(servers, "global ids", GLOBAL_IDS);
  return [
    ...list.checks,
    ...nested.checks,
    ...ids.checks,
    `today's page = independent SQL (workspace A, ORDER BY created_at DESC, id; B's newer rows absent)`,
    `nested: ${nodes.filter((n) => n.account).length}/20 videos with an account, each account's id = the video's canonicalAccountId`,
  ];
}

async function stats(server: Server): Promise<{ statements: number; errors: Record<string, number> }> {
  return (await fetch(`${server.base}/__stats`)).json() as Promise<{ statements: number; errors: Record<string, number> }>;
}

/** Statements each server sends per request (its own pg query counter over 20 sequential requests). */
async function statementsPerRequest(server: Server, query: string): Promise<number> {
  const count = async () => (await stats(server)).statements;
  const before = await count();
  for (let i = 0; i < 20; i++) await post(server, query);
  return ((await count()) - before) / 20;
}

function median(values: number[]): number {
  return percentile(values, 50);
}

interface Run {
  servers: Server[];
  /** Measurements by "arm/query". */
  results: Map<string, MeasuredLoad[]>;
  /** Statements per request by "arm/query". */
  statements: Map<string, number>;
  checks: string[];
  loads: number[];
  seedSeconds: number;
  /** Whether generated/pothos-types.ts changed when regenerated. */
  regenerated: boolean;
  /** Errors each server raised, by message. */
  errors: Record<string, Record<string, number>>;
}

/** Median req/s of an arm on a query. */
function rpsOf(results: Run["results"], arm: Arm, query: string): number {
  return median((results.get(`${arm}/${query}`) ?? []).map((r) => r.rps));
}

/** One table row per query and arm. */
function tableRows({ servers, results, statements }: Run): string[] {
  return QUERIES.flatMap((q) =>
    servers.map((s) => {
      const runs = results.get(`${s.arm}/${q.key}`)!;
      const bad = runs.reduce((n, r) => n + r.non2xx + r.errors + (r.mismatches ?? 0), 0);
      const rps = rpsOf(results, s.arm, q.key);
      return `| ${q.key} | ${s.arm} | **${rps.toFixed(0)}** (${runs.map((r) => r.rps.toFixed(0)).join(" / ")}) | ${(rps / rpsOf(results, "today", q.key)).toFixed(2)} | ${median(runs.map((r) => r.p50))} | ${median(runs.map((r) => r.p99))} | ${median(runs.map((r) => r.cpuPerRequest)).toFixed(2)} | ${statements.get(`${s.arm}/${q.key}`)} | ${bad} |`;
    }),
  );
}

/** The decision rule applied to each plugin arm. */
function verdictOf({ servers, results }: Run): string {
  const ratio = (arm: Arm, q: string) => rpsOf(results, arm, q) / rpsOf(results, "today", q);
  return servers
    .filter((s) => s.arm !== "today")
    .map((s) => {
      const within = QUERIES.every((q) => ratio(s.arm, q.key) >= 0.9);
      return `${s.arm}: ${within ? "within" : "NOT within"} 10 % on both rungs (list ${ratio(s.arm, "list").toFixed(2)}, nested ${ratio(s.arm, "nested").toFixed(2)} of today's req/s)`;
    })
    .join("; ");
}

/** The `pothos-prisma` section of bench/RESULTS.md. */
function report(run: Run): string {
  const { checks, loads, seedSeconds, regenerated, errors } = run;
  const errorLines = Object.entries(errors).flatMap(([arm, byMessage]) =>
    Object.entries(byMessage).map(([message, n]) => `  - ${arm}: ${n} × ${message}`),
  );
  return `## @pothos/plugin-prisma against today's schema (issue 21, item 4)

Command: \`npm run bench -- pothos-prisma\` (PERF_ROUNDS=${ROUNDS}, PERF_SECONDS=${SECONDS}). Database ${DB}: the ladder's seed (bench/ladder/seed.sql: 100,000 tracked videos in workspace A, 4,000 in B, 102,000 videos, 2,000 accounts), seeded + ANALYZE in ${seedSeconds.toFixed(1)} s.
Each arm is its own process serving one schema the same way (bench/pothos-prisma/server.ts: graphql-yoga + envelop graphql-jit on node:http, the workspace's actor fixed, no auth, rate limit, logging or metrics): **today** = the service's schema (domain records + DataLoaders over raw SQL); **plugin** = bench/pothos-prisma/schema.ts (@pothos/plugin-prisma: prismaNode, relation, prismaConnectionHelpers + queryFromInfo) over the service's Prisma client; **plugin-joins** = the same over a client generated with the \`relationJoins\` preview feature (bench/pothos-prisma/generate.ts; the service's client untouched).
autocannon (own process) -c ${CONNECTIONS}, 2 s warm-up then ${SECONDS} s per run, ${ROUNDS} round(s), arms in a rotating order per round; 1-minute load average after each round: ${loads.map((l) => l.toFixed(2)).join(" / ")}.

| query | arm | req/s median (per round) | / today | p50 ms | p99 ms | server CPU ms/req | SQL statements/req | non-2xx + errors + GraphQL-error bodies |
|---|---|---|---|---|---|---|---|---|
${tableRows(run).join("\n")}

- Decision rule: within 10 % of today's on both rungs → move the schema's object types onto the plugin; otherwise keep today's design. This run: ${verdictOf(run)}.
- What differs besides the design: the plugin schema answers only these queries (\`videos\` without today's platform/q/sort/order arguments); its \`Video.account\` is the plugin's relation (any account, where today's loader applies the workspace's visibility rule: equal here, every account owns a tracked video); its total is a second statement (the workspace's counter, as today's, which reads it in the page's statement); its edges' cursors are the plugin's (the tracking id), today's the domain's keyset cursors, made only when asked.
- Prisma 6.19's client compiles every model-API query in its Wasm query compiler on the event loop; Prisma 7 caches query plans by shape (prisma/orm pull request 29038). A CPU profile of the plugin arm (smoke, nested query) put about 45 % of its CPU in Prisma's client and compiler and under 2 % in @pothos/plugin-prisma: after a Prisma 7 upgrade, measure again before taking this verdict as final.
- SQL statements/req: every pg query the server process sent (the service's pool and Prisma's driver adapter), over 20 sequential requests, outside the timed runs.
- Equivalence, checked before measuring:
${checks.map((c) => `  - ${c}`).join("\n")}
- Errors the servers raised during the whole run: ${errorLines.length ? `\n${errorLines.join("\n")}` : "none"}.
- bench/pothos-prisma/generated/pothos-types.ts ${regenerated ? "CHANGED when regenerated from prisma/schema: commit it with the schema change" : "regenerated from prisma/schema, unchanged"}.
`;
}

/** The three servers, each its own process (./pothos-prisma/server.ts), in the order today, plugin, plugin-joins. */
async function startServers(workspaceA: string, env: Record<string, string>): Promise<Server[]> {
  const servers: Server[] = [];
  for (const arm of ["today", "plugin", "plugin-joins"] as Arm[]) {
    const child = await startChild(["bench/pothos-prisma/server.ts", arm, workspaceA], env, /ARM \S+ listening on port (\d+)/);
    servers.push({ arm, base: `http://127.0.0.1:${child.match[1]}`, pid: child.child.pid! });
  }
  return servers;
}

/** ROUNDS rounds of every query on every arm (arms rotating per round); the runs by "arm/query", the load average after each round. */
async function measureAll(servers: Server[]): Promise<{ results: Map<string, MeasuredLoad[]>; loads: number[] }> {
  const results = new Map<string, MeasuredLoad[]>();
  const loads = await rotatingRounds(servers, QUERIES.length, ROUNDS, async (server, i) => {
    const q = QUERIES[i]!;
    const r = await measuredLoad(server.pid, {
      base: server.base,
      paths: ["/graphql"],
      method: "POST",
      body: JSON.stringify({ query: q.text }),
      headers: { "content-type": "application/json" },
      errorMarker: '"errors"',
      seconds: SECONDS,
      connections: CONNECTIONS,
    });
    results.set(`${server.arm}/${q.key}`, [...(results.get(`${server.arm}/${q.key}`) ?? []), r]);
    console.log(
      `${server.arm} ${q.key}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} p99 ${r.p99} ms, ${r.cpuPerRequest.toFixed(2)} CPU ms/req, non-2xx ${r.non2xx}, errors ${r.errors}, error bodies ${r.mismatches}`,
    );
  });
  return { results, loads };
}

async function main(): Promise<void> {
  const regenerated = generatePluginArtifacts();
  typecheckPluginSchema();
  await createMigratedDatabase(DB);
  const env = benchServiceEnv(DATABASE_URL, REDIS_PREFIX);
  Object.assign(process.env, env);
  const db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
  try {
    const { workspaceA, seconds: seedSeconds } = await seed();
    // The seeding's Prisma client and pool closed: the three servers' pools (20 each) need the room.
    await closeServiceConnections();
    const servers = await startServers(workspaceA, env);
    const checks = await checkEquivalence(db, servers, workspaceA);
    for (const c of checks) console.log(`check: ${c}`);
    const statements = new Map<string, number>();
    for (const s of servers) for (const q of QUERIES) statements.set(`${s.arm}/${q.key}`, await statementsPerRequest(s, q.text));
    console.log(`statements per request: ${JSON.stringify(Object.fromEntries(statements))}`);
    const { results, loads } = await measureAll(servers);
    const errors = Object.fromEntries(await Promise.all(servers.map(async (s) => [s.arm, (await stats(s)).errors] as const)));
    const markdown = report({ servers, results, statements, checks, loads, seedSeconds, regenerated, errors });
    console.log(markdown);
    await writeSection("pothos-prisma", markdown);
  } finally {
    stopChildren();
    await endBench(db, REDIS_PREFIX, DB);
  }
}

await main();
