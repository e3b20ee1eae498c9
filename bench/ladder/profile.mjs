// Where a rung's server CPU goes: the project's API under the ladder's load, with V8's CPU profiler
// on, and the profile summarised by self time (per function, and per place: a package under
// node_modules, a file of src/, Node's internals, the garbage collector).
//
// Usage (from the project root, on the ladder's seeded database, kept between runs):
//   node bench/ladder/profile.mjs [rest|gql|gqlGet|gqlNested|gqlSession] [seconds]      (npm run bench:profile -- gql 10)
// The profiler runs over the measured load only (through the API's inspector on loopback, PROFILE_INSPECT_PORT 9239):
// neither the start-up nor the 2 s warm-up is in it.
//   node bench/ladder/profile.mjs --summarise <file.cpuprofile>          (a profile made elsewhere: a floor's)
// Env: PROFILE_ALLOCATIONS=1 (bytes allocated per request instead of CPU), PROFILE_FLOOR=mercurius|yoga (a GraphQL
// floor instead of the API), PROFILE_DB (perfprofile), PROFILE_RESEED=1 (drop and seed again), PROFILE_TOP (30), PROFILE_ENV
// (extra env for the API as JSON, e.g. '{"LOG_CONTEXT":"false"}'), PROFILE_KEEP (a path to copy the
// .cpuprofile to; open it in Chrome's DevTools or speedscope).
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const MAIN = process.cwd();
const DB = process.env.PROFILE_DB ?? "perfprofile";
const DATABASE_URL = `postgresql://root@127.0.0.1:5432/${DB}`;
const REDIS = { REDIS_URL: "redis://127.0.0.1:6379/13", REDIS_PREFIX: "perfprofile" };
const PORT = Number(process.env.PROFILE_PORT ?? 4690);
const rung = process.argv[2] ?? "gql";
const seconds = Number(process.argv[3] ?? 10);
const TOP = Number(process.env.PROFILE_TOP ?? 30);
/** PROFILE_ALLOCATIONS=1: where the bytes are allocated (the garbage collector's work) instead of where the CPU goes. */
const ALLOCATIONS = process.env.PROFILE_ALLOCATIONS === "1" || process.env.PROFILE_ALLOCATIONS === "promoted";
/** PROFILE_ALLOCATIONS=promoted: only what outlived the young generation (what makes scavenges and full collections slow). */
const PROMOTED = process.env.PROFILE_ALLOCATIONS === "promoted";

const psql = (db, args) =>
  execFileSync("psql", ["-h", "127.0.0.1", "-U", "root", "-d", db, "-v", "ON_ERROR_STOP=1", "-qAt", ...args], { encoding: "utf8" });
const log = (m) => console.error(`[profile] ${m}`);

/** The database and a key of its seeded workspace: made once (or again with PROFILE_RESEED=1). */
function database() {
  const exists = psql("postgres", ["-c", `SELECT 1 FROM pg_database WHERE datname = '${DB}'`]).trim() === "1";
  const env = { ...process.env, DATABASE_URL, ...REDIS };
  if (exists && !process.env.PROFILE_RESEED) {
    const saved = psql(DB, ["-c", "SELECT value FROM profile_key"]).trim();
    if (saved) return JSON.parse(saved);
  }
  log("creating and seeding the database (once)");
  psql("postgres", ["-c", `DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`, "-c", `CREATE DATABASE "${DB}"`]);
  execFileSync("npx", ["prisma", "migrate", "deploy"], { cwd: MAIN, env, stdio: ["ignore", "ignore", "inherit"] });
  const create = (name) =>
    JSON.parse(
      execFileSync(process.execPath, ["src/cli/index.ts", "workspace", "create", "--name", name, "--plan", "enterprise", "--json"], {
        cwd: MAIN,
        env,
        encoding: "utf8",
      })
        .trim()
        .split("\n")
        .pop(),
    );
  const a = create("perf");
  const b = create("perf-other");
  psql(DB, ["-v", `ws_a=${a.workspaceId}`, "-v", `ws_b=${b.workspaceId}`, "-f", `${HERE}seed.sql`]);
  psql(DB, ["-c", "CREATE TABLE profile_key (value text)", "-c", `INSERT INTO profile_key VALUES ('${JSON.stringify(a)}')`]);
  return a;
}

async function waitHttp(url) {
  for (let i = 0; i < 300; i++) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not answer`);
}

const INSPECT_PORT = Number(process.env.PROFILE_INSPECT_PORT ?? 9239);

/** The API's DevTools protocol session (its inspector on loopback): `send(method, params)` answers the result. */
async function inspector() {
  const [target] = await (await fetch(`http://127.0.0.1:${INSPECT_PORT}/json/list`)).json();
  const { default: WebSocket } = await import(`${MAIN}/node_modules/ws/index.js`);
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  let next = 0;
  const waiting = new Map();
  socket.on("message", (data) => {
    const m = JSON.parse(String(data));
    const w = waiting.get(m.id);
    if (!w) return;
    waiting.delete(m.id);
    if (m.error) w.reject(new Error(m.error.message));
    else w.resolve(m.result);
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve, reject) => {
        const id = ++next;
        waiting.set(id, { resolve, reject });
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}

/** A signed-in person's cookie (the session rung): an owner of the workspace made with the CLI once, signed in at /auth. */
async function sessionCookie(base) {
  const email = "profile-person@example.com";
  const password = "profile-password-long-enough-1";
  const env = { ...process.env, DATABASE_URL, ...REDIS };
  try {
    execFileSync(
      process.execPath,
      [
        "src/cli/index.ts",
        "user",
        "create",
        "--email",
        email,
        "--password",
        password,
        "--workspace",
        ws.workspaceId,
        "--role",
        "owner",
        "--json",
      ],
      { cwd: MAIN, env, stdio: "ignore" },
    );
  } catch {
    // made by an earlier run (the database is kept)
  }
  const r = await fetch(`${base}/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password }),
  });
  const cookies = r.headers.getSetCookie().map((c) => c.split(";")[0]);
  if (!r.ok || cookies.length === 0) throw new Error(`sign-in answered ${r.status}`);
  return cookies.join("; ");
}

function load(spec) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [`${HERE}load.mjs`, JSON.stringify(spec)], {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, PROJECT_DIR: MAIN },
    });
    let out = "";
    p.stdout.on("data", (d) => (out += d));
    p.once("exit", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load exited ${code}`))));
  });
}

/** Self time per node of the profile, grouped by function and by place. */
/** Where a function of a profile lives: a package under node_modules, a file of src/, Node's internals, or "(native)". */
function place(url) {
  if (!url) return "(native)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith("node:")) return url;
  const src = url.indexOf("/src/");
  return src >= 0 ? url.slice(src + 1).replace(/^file:\/\//, "") : url;
}

function summarise(file) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (dt[i] ?? 0));
  const fns = new Map();
  const places = new Map();
  let total = 0;
  let idle = 0;
  for (const [id, us] of self) {
    const n = byId.get(id);
    const name = n.callFrame.functionName || "(anonymous)";
    if (name === "(idle)") {
      idle += us;
      continue;
    }
    total += us;
    const p = name.startsWith("(") ? name : place(n.callFrame.url);
    const key = `${name}  ${p}:${n.callFrame.lineNumber + 1}`;
    fns.set(key, (fns.get(key) ?? 0) + us);
    places.set(p, (places.get(p) ?? 0) + us);
  }
  // Inclusive time of the project's own functions (src/): each sample counts once for every src/ function on its stack.
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map();
  for (const [id, us] of self) {
    if (byId.get(id).callFrame.functionName === "(idle)") continue;
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const f = byId.get(at).callFrame;
      const p = place(f.url);
      if (!p.startsWith("src/")) continue;
      const key = `${f.functionName || "(anonymous)"}  ${p}:${f.lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
  const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)} %`;
  const top = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, TOP);
  return {
    total,
    idle,
    lines: [
      `busy ${(total / 1e6).toFixed(2)} s, idle ${(idle / 1e6).toFixed(2)} s`,
      "",
      "## self time by place",
      ...top(places).map(([k, v]) => `${pct(v)}  ${k}`),
      "",
      "## self time by function",
      ...top(fns).map(([k, v]) => `${pct(v)}  ${k}`),
      "",
      "## the project's functions, inclusive (src/)",
      ...top(inclusive).map(([k, v]) => `${pct(v)}  ${k}`),
    ],
  };
}

/** Bytes allocated per request, by the allocating function's place and by function (a sampling heap profile). */
function summariseAllocations(profile, requests) {
  const places = new Map();
  const fns = new Map();
  let total = 0;
  const walk = (node) => {
    const self = node.selfSize ?? 0;
    if (self > 0) {
      const f = node.callFrame;
      const name = f.functionName || "(anonymous)";
      const p = place(f.url);
      total += self;
      places.set(p, (places.get(p) ?? 0) + self);
      const key = `${name}  ${p}:${f.lineNumber + 1}`;
      fns.set(key, (fns.get(key) ?? 0) + self);
    }
    for (const c of node.children ?? []) walk(c);
  };
  walk(profile.head);
  const per = (b) => `${(b / requests / 1024).toFixed(1).padStart(7)} KiB`;
  const top = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, TOP);
  return [
    `${per(total)} allocated per request in all`,
    "",
    "## by place",
    ...top(places).map(([k, v]) => `${per(v)}  ${k}`),
    "",
    "## by function",
    ...top(fns).map(([k, v]) => `${per(v)}  ${k}`),
  ];
}

if (process.argv[2] === "--summarise") {
  // A profile made elsewhere (e.g. a floor run with --cpu-prof): node bench/ladder/profile.mjs --summarise <file.cpuprofile>
  console.log(summarise(process.argv[3]).lines.join("\n"));
  process.exit(0);
}

const ws = database();
const dir = mkdtempSync(join(tmpdir(), "cpuprof-"));
const env = {
  ...process.env,
  DATABASE_URL,
  ...REDIS,
  VALIDATE_RESPONSES: "false",
  RATE_LIMIT_PER_MINUTE: "100000000",
  NODE_ENV: "production",
  PORT: String(PORT),
  HOST: "127.0.0.1",
  LOG_LEVEL: "warn",
  SEED_DEMO: "false",
  ...JSON.parse(process.env.PROFILE_ENV ?? "{}"),
};
// The API with its inspector on loopback: the profiler runs over the measured load only (not the start-up,
// not the warm-up), through the DevTools protocol.
// PROFILE_FLOOR=mercurius|yoga profiles a GraphQL floor (./gqlfloor.mjs, no auth) on the same database instead, under the gql rung's load.
const FLOOR = process.env.PROFILE_FLOOR;
const command = FLOOR ? [`${HERE}gqlfloor.mjs`, DATABASE_URL, ws.workspaceId, String(PORT), FLOOR] : ["src/main/api.ts"];
const api = spawn(process.execPath, [`--inspect=127.0.0.1:${INSPECT_PORT}`, ...command], {
  cwd: MAIN,
  env: { ...env, PROJECT_DIR: MAIN },
  stdio: ["ignore", "ignore", "pipe"],
});
const base = `http://127.0.0.1:${PORT}`;
await waitHttp(FLOOR ? `${base}/` : `${base}/healthz`);
const { GQL_LIST, GQL_NESTED } = await import(`${HERE}queries.mjs`);
const auth = { authorization: `Bearer ${ws.apiKey}` };
const json = { "content-type": "application/json" };
const specs = {
  rest: { url: `${base}/api/v1/videos?limit=20`, headers: auth },
  gql: { url: `${base}/graphql`, method: "POST", headers: { ...auth, ...json }, body: JSON.stringify({ query: GQL_LIST }) },
  // The list as a GET (the operation in the query string, as HTTP caches and CDNs see it).
  gqlGet: { url: `${base}/graphql?query=${encodeURIComponent(GQL_LIST)}`, headers: auth },
  gqlNested: { url: `${base}/graphql`, method: "POST", headers: { ...auth, ...json }, body: JSON.stringify({ query: GQL_NESTED }) },
  gqlSession: async () => ({
    url: `${base}/graphql`,
    method: "POST",
    headers: { cookie: await sessionCookie(base), "x-workspace-id": ws.workspaceId, ...json },
    body: JSON.stringify({ query: GQL_LIST }),
  }),
};
const make = specs[rung];
if (!make) throw new Error(`unknown rung ${rung}: ${Object.keys(specs).join(", ")}`);
const spec = typeof make === "function" ? await make() : make;
await load({ ...spec, seconds: 2, connections: 32 }); // warm-up (JIT, caches), not profiled
const devtools = await inspector();
if (ALLOCATIONS) {
  // Where the garbage comes from: V8's sampling heap profiler, counting objects the collector has
  // already freed too (what a CPU profile shows only as "(garbage collector)").
  await devtools.send("HeapProfiler.enable");
  await devtools.send("HeapProfiler.startSampling", {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: !PROMOTED,
  });
  const result = await load({ ...spec, seconds, connections: 32 });
  const { profile } = await devtools.send("HeapProfiler.stopSampling");
  devtools.close();
  api.kill("SIGTERM");
  await new Promise((r) => api.once("exit", r));
  console.log(`# ${rung}: ${Math.round(result.rps)} req/s; bytes allocated per request by place and by function (sampled)\n`);
  console.log(summariseAllocations(profile, result.total).join("\n"));
  process.exit(0);
}
await devtools.send("Profiler.enable");
await devtools.send("Profiler.start");
const started = process.hrtime.bigint();
const result = await load({ ...spec, seconds, connections: 32 });
const { profile } = await devtools.send("Profiler.stop");
const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
devtools.close();
api.kill("SIGTERM");
await new Promise((r) => api.once("exit", r));
const file = join(dir, `${rung}.cpuprofile`);
writeFileSync(file, JSON.stringify(profile));
if (process.env.PROFILE_KEEP) copyFileSync(file, process.env.PROFILE_KEEP);
const { total, lines } = summarise(file);
console.log(
  `# ${rung}: ${Math.round(result.rps)} req/s, p99 ${result.p99} ms, ${result.non2xx} non-2xx, ${result.mismatches} error bodies; ${(total / 1000 / result.total).toFixed(3)} ms CPU/req (main thread, over ${(wallMs / 1000).toFixed(1)} s of load)\n`,
);
console.log(lines.join("\n"));
