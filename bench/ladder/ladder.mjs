// Perf ladder: floor / REST / GraphQL / GraphQL nested / PostGraphile 5 on ONE seeded database,
// measured interleaved in ONE run. See README.md. Run through ./ladder.sh or `npm run bench -- ladder`.
// Copied from the team's shared ladder and adapted to this project's GraphQL shape (cursor
// connections, `uuid` for the REST id). The REST record gained nextRefreshAt, views24h and outlierScore
// (issue 12): every rung, the floor and PostGraphile included, reads and returns those three columns too,
// so all five still answer the same rows and values; otherwise the floor and PostGraphile are unchanged.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, writeFileSync, existsSync, appendFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const MAIN = process.env.PROJECT_DIR ?? process.cwd(); // the project checkout (run from its root)
const DB = process.env.PERF_DB ?? "perfladder_bench";
const ADMIN = "postgresql://root@127.0.0.1:5432/postgres";
const DATABASE_URL = `postgresql://root@127.0.0.1:5432/${DB}`;
const ROUNDS = Number(process.env.PERF_ROUNDS ?? 3);
const SECONDS = Number(process.env.PERF_SECONDS ?? 10);
const WARMUP = Number(process.env.PERF_WARMUP ?? 2);
const CONNECTIONS = 32;
const PORTS = { floor: 4601, api: 4602, pg5: 4603 };
const REDIS_DB = 14;
const REDIS_PREFIX = "perfladder";
const RESULTS = process.env.PERF_RESULTS ?? `${MAIN}/bench/ladder/results.md`;

const log = (...a) => console.error(`[${new Date().toISOString().slice(11, 19)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const psql = (db, args, opts = {}) =>
  execFileSync("psql", ["-h", "127.0.0.1", "-U", "root", "-d", db, "-v", "ON_ERROR_STOP=1", "-qAt", ...args], { encoding: "utf8", ...opts });
const loadavg1 = () => os.loadavg()[0];

/** utime + stime of a process, ms (clock ticks from /proc/<pid>/stat). */
const TICK_MS = 1000 / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
function cpuMs(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(f[11]) + Number(f[12])) * TICK_MS;
}
/** The pid listening on a TCP port (the real server, not the npx/tsx wrapper). */
function listenerPid(port) {
  const out = execFileSync("ss", ["-Hltnp", `sport = :${port}`], { encoding: "utf8" });
  const m = out.match(/pid=(\d+)/);
  if (!m) throw new Error(`nothing listens on ${port}: ${out}`);
  return Number(m[1]);
}

const children = [];
function start(name, cmd, args, { cwd = HERE, env = {}, port }) {
  const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  children.push(child);
  let out = "";
  child.stdout.on("data", (d) => (out.length < 20000 ? (out += d) : null));
  child.stderr.on("data", (d) => (out.length < 20000 ? (out += d) : null));
  child.on("exit", (code) => code && log(`${name} exited ${code}\n${out.slice(-3000)}`));
  return { child, output: () => out, port };
}
async function waitHttp(url, init, timeoutMs = 90_000) {
  const t = Date.now();
  while (Date.now() - t < timeoutMs) {
    try {
      const r = await fetch(url, init);
      if (r.ok) return;
    } catch {}
    await sleep(300);
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms`);
}
function stopAll() {
  for (const c of children) {
    if (c.exitCode !== null || c.signalCode !== null) continue;
    try { process.kill(-c.pid, "SIGTERM"); } catch {} // the group this script created for that child
  }
}

// ------------------------------------------------------------------------------------------------
// Queries
// ------------------------------------------------------------------------------------------------
const VIDEO_FIELDS = `id platformVideoId url type description hashtags viewCount likeCount commentCount shareCount
  bookmarkCount engagementRate postedAt thumbnailUrl username displayName canonicalAccountId musicName musicAuthor
  musicCoverUrl durationSeconds scrapeStatus scrapeError lastScrapedAt dataSource nextRefreshAt views24h outlierScore`;
// The REST id is the GraphQL node's `uuid` (its `id` is the global ID): asked as `id: uuid` so the
// values compare one to one with REST's.
const GQL_VIDEO_FIELDS = VIDEO_FIELDS.replace(/^id /, "id: uuid ");
const GQL_LIST = `{ videos(first: 20) { totalCount pageInfo { hasNextPage } edges { node { ${GQL_VIDEO_FIELDS} } } } }`.replace(/\s+/g, " ");
const GQL_NESTED = `{ videos(first: 20) { totalCount pageInfo { hasNextPage } edges { node { ${GQL_VIDEO_FIELDS} account { id: uuid username displayName followerCount } } } } }`.replace(/\s+/g, " ");
const PG5_LIST = `query($ws: UUID!) { workspaceByRowId(rowId: $ws) { trackedVideoCount
  trackedVideosByWorkspaceId(first: 20, orderBy: [CREATED_AT_DESC, ROW_ID_ASC]) { pageInfo { hasNextPage }
    nodes { rowId createdAt videoByVideoId { rowId platform platformVideoId url description hashtags viewCount likeCount
      commentCount shareCount bookmarkCount engagementRate postedAt thumbnailUrl username displayName accountId musicName
      musicAuthor musicCoverUrl durationSeconds scrapeStatus scrapeError lastScrapedAt dataSource nextRefreshAt views24H outlierScore } } } } }`.replace(/\s+/g, " ");

// ------------------------------------------------------------------------------------------------
// Load
// ------------------------------------------------------------------------------------------------
function runLoad(spec, seconds) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [`${HERE}load.mjs`, JSON.stringify({ ...spec, seconds, connections: CONNECTIONS })], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    p.stdout.on("data", (d) => (out += d));
    p.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").pop())) : reject(new Error(`load exited ${code}: ${out}`))));
  });
}

/** Transactions committed in the bench database (each autocommit statement is one). */
const xacts = () => Number(psql(DB, ["-c", `SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()`]).trim());

// ------------------------------------------------------------------------------------------------
async function main() {
  const t0 = Date.now();
  const startedAt = new Date();
  const loadAtStart = os.loadavg()[0];
  log(`load average at start: ${os.loadavg().map((x) => x.toFixed(2)).join(" ")}`);

  // 1. Database: create, migrate, two workspaces with the project's CLI, seed, ANALYZE.
  psql("postgres", ["-c", `DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`, "-c", `CREATE DATABASE "${DB}"`]);
  const mainEnv = { ...process.env, DATABASE_URL, REDIS_URL: `redis://127.0.0.1:6379/${REDIS_DB}`, REDIS_PREFIX };
  execFileSync("npx", ["prisma", "migrate", "deploy"], { cwd: MAIN, env: mainEnv, stdio: ["ignore", "ignore", "inherit"] });
  const cli = (name) => {
    const out = execFileSync("npx", ["tsx", "src/cli/index.ts", "workspace", "create", "--name", name, "--plan", "enterprise", "--json"], { cwd: MAIN, env: mainEnv, encoding: "utf8" });
    return JSON.parse(out.trim().split("\n").pop());
  };
  const wsA = cli("perf");
  const wsB = cli("perf-other");
  let t = Date.now();
  log(psql(DB, ["-v", `ws_a=${wsA.workspaceId}`, "-v", `ws_b=${wsB.workspaceId}`, "-f", `${HERE}seed.sql`]).trim().replace(/\n/g, "; "));
  const seedSeconds = (Date.now() - t) / 1000;
  log(`seeded + ANALYZE in ${seedSeconds.toFixed(1)} s`);

  // 2. Servers, each its own process.
  const apiEnv = {
    DATABASE_URL, REDIS_URL: `redis://127.0.0.1:6379/${REDIS_DB}`, REDIS_PREFIX, VALIDATE_RESPONSES: "false",
    RATE_LIMIT_PER_MINUTE: "100000000", NODE_ENV: "production", PORT: String(PORTS.api), HOST: "127.0.0.1", LOG_LEVEL: "warn", SEED_DEMO: "false",
  };
  const floor = start("floor", process.execPath, [`${HERE}floor.mjs`, DATABASE_URL, wsA.workspaceId, String(PORTS.floor)], { port: PORTS.floor });
  const api = start("api", "npx", ["tsx", "src/main/api.ts"], { cwd: MAIN, env: apiEnv, port: PORTS.api });
  const pg5 = start("pg5", process.execPath, [`${HERE}pg5.mjs`, DATABASE_URL, String(PORTS.pg5)], { env: { NODE_ENV: "production", GRAPHILE_ENV: "production" }, port: PORTS.pg5 });
  const auth = { authorization: `Bearer ${wsA.apiKey}` };
  const base = (p) => `http://127.0.0.1:${p}`;
  await waitHttp(`${base(PORTS.floor)}/videos?limit=1`);
  await waitHttp(`${base(PORTS.api)}/api/v1/videos?limit=1`, { headers: auth });
  let pg5Ok = true;
  try {
    await waitHttp(`${base(PORTS.pg5)}/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "{__typename}" }) });
  } catch (e) {
    pg5Ok = false;
    log(`PostGraphile did not start, rung skipped: ${e.message}\n${pg5.output().slice(-2000)}`);
  }
  const pids = { floor: floor.child.pid, api: listenerPid(PORTS.api), pg5: pg5Ok ? pg5.child.pid : null };
  log(`servers up: pids ${JSON.stringify(pids)} (api pid is the listener under npx tsx)`);

  // 3. Rungs.
  const json = { "content-type": "application/json" };
  const rungs = [
    { key: "floor", name: "1 floor: node:http + pg, GET /videos?limit=20", pid: pids.floor, spec: { url: `${base(PORTS.floor)}/videos?limit=20` } },
    { key: "rest", name: "2 REST: GET /api/v1/videos?limit=20", pid: pids.api, spec: { url: `${base(PORTS.api)}/api/v1/videos?limit=20`, headers: auth } },
    { key: "gql", name: "3 GraphQL: videos(limit:20) same fields", pid: pids.api, spec: { url: `${base(PORTS.api)}/graphql`, method: "POST", headers: { ...auth, ...json }, body: JSON.stringify({ query: GQL_LIST }) } },
    { key: "gqlNested", name: "4 GraphQL nested: + account{id username displayName followerCount}", pid: pids.api, spec: { url: `${base(PORTS.api)}/graphql`, method: "POST", headers: { ...auth, ...json }, body: JSON.stringify({ query: GQL_NESTED }) } },
  ];
  if (pg5Ok) rungs.push({ key: "pg5", name: "5 PostGraphile 5 amber (no auth)", pid: pids.pg5, spec: { url: `${base(PORTS.pg5)}/graphql`, method: "POST", headers: json, body: JSON.stringify({ query: PG5_LIST, variables: { ws: wsA.workspaceId } }) } });
  const fetchRung = async (r) => {
    const res = await fetch(r.spec.url, { method: r.spec.method ?? "GET", headers: r.spec.headers, body: r.spec.body });
    return { status: res.status, text: await res.text() };
  };

  // 4. Equivalence, once, before measuring.
  const checks = [];
  const restRes = await fetchRung(rungs[1]);
  const floorRes = await fetchRung(rungs[0]);
  const rest = JSON.parse(restRes.text);
  const floorBody = JSON.parse(floorRes.text);
  if (restRes.status !== 200 || floorRes.status !== 200) throw new Error(`status rest ${restRes.status} floor ${floorRes.status}`);
  const byteEqual = restRes.text === floorRes.text;
  if (!isDeepStrictEqual(rest, floorBody)) throw new Error(`floor and REST disagree:\n${restRes.text.slice(0, 600)}\n${floorRes.text.slice(0, 600)}`);
  checks.push(`floor vs REST: ${byteEqual ? "byte-equal" : "JSON-equal (not byte-equal)"} (${restRes.text.length} bytes, ${rest.data.length} items, total ${rest.pagination.total})`);
  // Independent SQL: the workspace's first 20 tracking ids in the project's order; none of B's.
  const expectedIds = psql(DB, ["-c", `SELECT id FROM tracked_videos WHERE workspace_id = '${wsA.workspaceId}' ORDER BY created_at DESC, id LIMIT 20`]).trim().split("\n");
  if (!isDeepStrictEqual(rest.data.map((v) => v.trackedVideoId), expectedIds)) throw new Error("REST page is not the workspace's first 20 by (created_at DESC, id)");
  const ties = Number(psql(DB, ["-c", `SELECT count(*) - count(DISTINCT created_at) FROM (SELECT created_at FROM tracked_videos WHERE workspace_id = '${wsA.workspaceId}' ORDER BY created_at DESC, id LIMIT 20) x`]).trim());
  checks.push(`REST page = independent SQL (workspace A, ORDER BY created_at DESC, id; ${ties} created_at ties inside the page; B's newer rows absent)`);
  // GraphQL list / nested: same items as REST, value by value (GraphQL enums upper-case).
  const up = (s) => s.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
  const restAsGql = rest.data.map(({ trackedVideoId, trackedAt, ...v }) => ({ ...v, type: up(v.type), scrapeStatus: v.scrapeStatus.toUpperCase() }));
  for (const r of [rungs[2], rungs[3]]) {
    const res = await fetchRung(r);
    const body = JSON.parse(res.text);
    if (res.status !== 200 || body.errors) throw new Error(`${r.key}: ${res.status} ${res.text.slice(0, 500)}`);
    const page = body.data.videos;
    const nodes = page.edges.map((e) => e.node);
    const items = nodes.map(({ account, ...v }) => v);
    if (!isDeepStrictEqual(items, restAsGql)) throw new Error(`${r.key} items differ from REST:\n${JSON.stringify(items[0])}\n${JSON.stringify(restAsGql[0])}`);
    if (page.totalCount !== rest.pagination.total || page.pageInfo.hasNextPage !== rest.pagination.has_more) throw new Error(`${r.key} pagination differs`);
    if (r.key === "gqlNested") {
      const withAcc = nodes.filter((v) => v.account).length;
      if (!nodes.every((v) => (v.account ? v.account.id === v.canonicalAccountId : v.canonicalAccountId === null))) throw new Error("nested account mismatch");
      checks.push(`GraphQL nested: same 20 items + account (${withAcc}/20 with an account, ids = canonicalAccountId), ${res.text.length} bytes`);
    } else checks.push(`GraphQL list: same 20 items, same values as REST (enums upper-case), same totalCount/hasNextPage, ${res.text.length} bytes`);
  }
  if (pg5Ok) {
    const r = rungs[4];
    const res = await fetchRung(r);
    const body = JSON.parse(res.text);
    if (res.status !== 200 || body.errors) throw new Error(`pg5: ${res.status} ${res.text.slice(0, 500)}`);
    const w = body.data.workspaceByRowId;
    const conn = w.trackedVideosByWorkspaceId;
    const n = (x) => (x === null ? null : Number(x));
    const d = (x) => (x === null ? null : new Date(x).toISOString());
    const mapped = conn.nodes.map(({ rowId, createdAt, videoByVideoId: v }) => ({
      id: v.rowId, platformVideoId: v.platformVideoId, url: v.url, type: v.platform, description: v.description, hashtags: v.hashtags,
      viewCount: n(v.viewCount), likeCount: n(v.likeCount), commentCount: n(v.commentCount), shareCount: n(v.shareCount),
      bookmarkCount: n(v.bookmarkCount), engagementRate: v.engagementRate, postedAt: d(v.postedAt), thumbnailUrl: v.thumbnailUrl,
      username: v.username, displayName: v.displayName, canonicalAccountId: v.accountId, musicName: v.musicName,
      musicAuthor: v.musicAuthor, musicCoverUrl: v.musicCoverUrl, durationSeconds: v.durationSeconds, scrapeStatus: v.scrapeStatus,
      scrapeError: v.scrapeError, lastScrapedAt: d(v.lastScrapedAt), dataSource: v.dataSource,
      nextRefreshAt: d(v.nextRefreshAt), views24h: n(v.views24H), outlierScore: v.outlierScore, trackedVideoId: rowId, trackedAt: d(createdAt),
    }));
    if (!isDeepStrictEqual(mapped, rest.data)) throw new Error(`pg5 differs from REST:\n${JSON.stringify(mapped[0])}\n${JSON.stringify(rest.data[0])}`);
    if (w.trackedVideoCount !== rest.pagination.total || conn.pageInfo.hasNextPage !== rest.pagination.has_more) throw new Error("pg5 total/hasNext differ");
    checks.push(`PostGraphile: same 20 rows and values as REST after mapping (BigInt strings -> numbers, timestamps re-formatted), trackedVideoCount = total, ${res.text.length} bytes`);
  }
  for (const c of checks) log(`check: ${c}`);

  // 5. Statements per request (exact, outside the timed runs): 20 sequential requests per rung, then
  //    wait for idle backends to flush their stats (PostgreSQL 15 flushes idle backends after 10 s).
  const sqlPerReq = {};
  if (process.env.PERF_SKIP_SQL_PROBE !== "1") {
    await sleep(11_000);
    let before = xacts();
    for (const r of rungs) {
      for (let i = 0; i < 20; i++) await fetchRung(r);
      await sleep(11_000);
      const after = xacts();
      sqlPerReq[r.key] = (after - before - 1) / 20; // -1: the previous xacts() query itself
      before = after;
    }
    log(`DB transactions per request: ${JSON.stringify(sqlPerReq)}`);
  }

  // 6. Interleaved measurement rounds.
  const results = Object.fromEntries(rungs.map((r) => [r.key, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const r of rungs) {
      await runLoad(r.spec, WARMUP);
      const la0 = loadavg1();
      const cpu0 = cpuMs(r.pid);
      const res = await runLoad(r.spec, SECONDS);
      const cpu1 = cpuMs(r.pid);
      const la1 = loadavg1();
      const m = { round, ...res, cpuMsPerReq: (cpu1 - cpu0) / Math.max(res.total, 1), serverCpuPct: (cpu1 - cpu0) / (SECONDS * 10), loadBefore: la0, loadAfter: la1 };
      results[r.key].push(m);
      log(`round ${round} ${r.key}: ${m.rps.toFixed(0)} req/s p50 ${m.p50} p99 ${m.p99} ms, ${m.cpuMsPerReq.toFixed(3)} CPU ms/req, non2xx ${m.non2xx}, err ${m.errors}, mismatch ${m.mismatches}, load ${la0.toFixed(2)}->${la1.toFixed(2)}`);
    }
  }

  // 7. Report.
  const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const k = s.length >> 1; return s.length % 2 ? s[k] : (s[k - 1] + s[k]) / 2; };
  const agg = Object.fromEntries(rungs.map((r) => {
    const ms = results[r.key];
    return [r.key, {
      rps: median(ms.map((m) => m.rps)), rpsAll: ms.map((m) => m.rps.toFixed(0)).join(" / "),
      p50: median(ms.map((m) => m.p50)), p99: median(ms.map((m) => m.p99)),
      cpu: median(ms.map((m) => m.cpuMsPerReq)), cpuPct: median(ms.map((m) => m.serverCpuPct)),
      bad: ms.reduce((a, m) => a + m.non2xx, 0), errs: ms.reduce((a, m) => a + m.errors + m.timeouts, 0), mism: ms.reduce((a, m) => a + m.mismatches, 0),
      load: ms.map((m) => m.loadAfter.toFixed(2)).join(" / "),
    }];
  }));
  const f = agg.floor.rps;
  const row = (r) => {
    const a = agg[r.key];
    return `| ${r.name} | **${a.rps.toFixed(0)}** (${a.rpsAll}) | ${a.p50} | ${a.p99} | ${(a.rps / f).toFixed(2)} | ${a.cpu.toFixed(3)} | ${a.cpuPct.toFixed(0)} % | ${sqlPerReq[r.key] ?? "n/a"} | ${a.bad} / ${a.errs} / ${a.mism} | ${a.load} |`;
  };
  const allLoads = rungs.flatMap((r) => results[r.key].map((m) => m.loadAfter));
  const gqlVsPg5 = pg5Ok ? (agg.gql.rps / agg.pg5.rps).toFixed(2) : "n/a";
  const nestedVsPg5 = pg5Ok ? (agg.gqlNested.rps / agg.pg5.rps).toFixed(2) : "n/a";
  const md = `## Run ${startedAt.toISOString()}

Machine: ${os.cpus().length} cores (${os.cpus()[0].model}), Node ${process.version}, PostgreSQL ${psql("postgres", ["-c", "SHOW server_version"]).trim()}, shared and noisy.
1-min load average: ${Math.min(...allLoads).toFixed(2)} to ${Math.max(...allLoads).toFixed(2)} across measurements (${loadAtStart.toFixed(2)} when the run started, ${os.loadavg()[0].toFixed(2)} at the end).
Database ${DB}: 100,000 tracked videos in workspace A + 4,000 in workspace B (2,000 shared), 102,000 videos, 2,000 accounts; seeded + ANALYZE in ${seedSeconds.toFixed(1)} s.
autocannon (own process) -c ${CONNECTIONS}, ${WARMUP} s warm-up then ${SECONDS} s per measurement, ${ROUNDS} rounds interleaved (${rungs.map((r) => r.key).join(", ")}, repeat).

| rung | req/s median (per round) | p50 ms | p99 ms | / floor | server CPU ms/req | server CPU % of one core | DB xacts/req | non-2xx / errors / GraphQL-error bodies | load avg 1m after each run |
|---|---|---|---|---|---|---|---|---|---|
${rungs.map(row).join("\n")}

- GraphQL list / PostGraphile: **${gqlVsPg5}** (req/s medians); GraphQL nested / PostGraphile: ${nestedVsPg5}.
- Latencies are medians over rounds of autocannon's per-run p50/p99. Server CPU = utime+stime of the server process from /proc/<pid>/stat over the timed run / requests (API pid = the process listening on the port, below npx/tsx).
- DB xacts/req: pg_stat_database.xact_commit delta over 20 sequential requests (autocommit statements, outside the timed runs).
- Equivalence checked before measuring:
${checks.map((c) => `  - ${c}`).join("\n")}
`;
  console.log(md);
  const header = existsSync(RESULTS) ? "" : "# Perf ladder results\n\nWritten by `./ladder.sh` (see README.md). Newest run last.\n\n";
  appendFileSync(RESULTS, `${header}${md}\n`);
  writeFileSync(`${HERE}last-run.json`, JSON.stringify({ startedAt, rungs: rungs.map((r) => r.key), results, sqlPerReq, checks }, null, 1));
  log(`done in ${((Date.now() - t0) / 1000).toFixed(0)} s; appended to ${RESULTS}`);
}

try {
  await main();
} catch (e) {
  log(`FAILED: ${e.stack ?? e}`);
  process.exitCode = 1;
} finally {
  stopAll();
  await sleep(1500);
  try { psql("postgres", ["-c", `DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`]); log(`dropped ${DB}`); } catch (e) { log(`drop failed: ${e.message}`); }
  try {
    const keys = execFileSync("redis-cli", ["-n", String(REDIS_DB), "--scan", "--pattern", `${REDIS_PREFIX}*`], { encoding: "utf8" }).trim().split("\n").filter(Boolean);
    for (let i = 0; i < keys.length; i += 500) execFileSync("redis-cli", ["-n", String(REDIS_DB), "del", ...keys.slice(i, i + 500)]);
    log(`removed ${keys.length} redis keys ${REDIS_PREFIX}* from db ${REDIS_DB}`);
  } catch (e) { log(`redis cleanup failed: ${e.message}`); }
}
