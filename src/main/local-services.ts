/**
 * PostgreSQL and Redis without set-up (CONTRACT, fifth wave, "local services"; README, "Where PostgreSQL and Redis
 * come from"). Before an entry point reads its configuration, each of the two is chosen once:
 *
 * 1. an address that is set (DATABASE_URL; REDIS_URL or REDIS_CLUSTER_NODES) always wins, and is used as set;
 * 2. otherwise the default address (127.0.0.1:5432 as root, 127.0.0.1:6379), when a server there lets us in;
 * 3. otherwise this checkout's own server, run from the installed programs (Debian's `postgresql` and
 *    `redis-server`) with its data under a folder of the checkout (`.data/`, git-ignored; LOCAL_SERVICES_DIR):
 *    started when it is not running, on a loopback port of its own kept in `.data/ports.json`.
 *
 * The choice is said at start, with how to point at your own server. On exit, a process stops the server of the
 * checkout it used (started or found running) unless another client still uses it, so stopping `npm start` stops what
 * it started and the data stays for the next start; a run killed outright leaves it running, and the next one uses it.
 * PostgreSQL refuses to run as root: when this process is root it runs as the `postgres` system user (Debian's
 * package creates it), which must be able to reach the data folder.
 *
 * LOCAL_SERVICES: `auto` (the default), `always` (this checkout's own servers even when a default address answers:
 * the data of each checkout apart), `off` (the default in production: never start a server; a missing one is an
 * error of the service, as before).
 *
 * This runs before src/config.ts reads the environment and before tracing instruments the clients, so it imports
 * nothing of the service and speaks the two protocols' first words itself.
 */
import { execFile, spawn } from "node:child_process";
import { chownSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createConnection, createServer, type Socket } from "node:net";
import { delimiter, isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from "../default-addresses.ts";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export type ServicesMode = "auto" | "always" | "off";

/** Where one backing service comes from, and the line that says so. */
export interface ServiceChoice {
  /** The address to use: the set one, the default one, or the default one moved to this checkout's server's port. */
  url: string;
  source: "set" | "default" | "local";
  line: string;
}

export interface LocalServices {
  postgres: ServiceChoice;
  redis: ServiceChoice;
  /** Stops this checkout's servers that this process used, unless another client still uses them; answers what it did. */
  release(): Promise<string[]>;
}

export interface LocalServicesOptions {
  /** Read only: LOCAL_SERVICES, LOCAL_SERVICES_DIR, NODE_ENV. */
  env?: NodeJS.ProcessEnv;
  /** A set PostgreSQL address (DATABASE_URL, or the tests' admin URL), and whether Redis is set. */
  postgresSet?: string | undefined;
  redisSet?: string | undefined;
  /** The default addresses tried before starting our own (a PostgreSQL URL's database is kept, not probed). */
  defaults?: { postgres: string; redis: string };
  /** Who asks, for the lines (`npm start`, `npm test`). */
  who: string;
}

export function servicesMode(env: NodeJS.ProcessEnv): ServicesMode {
  const value = env.LOCAL_SERVICES || (env.NODE_ENV === "production" ? "off" : "auto");
  if (value === "auto" || value === "always" || value === "off") return value;
  throw new Error(`LOCAL_SERVICES must be auto, always or off (not "${value}")`);
}

export async function prepareLocalServices(options: LocalServicesOptions): Promise<LocalServices> {
  const env = options.env ?? process.env;
  const mode = servicesMode(env);
  const defaults = options.defaults ?? { postgres: DEFAULT_DATABASE_URL, redis: DEFAULT_REDIS_URL };
  const dir = env.LOCAL_SERVICES_DIR || join(ROOT, ".data");
  const used: LocalServer[] = [];
  const choose = async (kind: Kind, set: string | undefined, fallback: string): Promise<ServiceChoice> => {
    const k = KINDS[kind];
    if (set) return { url: set, source: "set", line: `${k.name}: as set (${redact(set)})` };
    const probe = mode === "auto" ? await k.probe(fallback) : null;
    if (mode === "off" || probe?.answer === "in") {
      return {
        url: fallback,
        source: "default",
        line: `${k.name}: the server at ${hostPort(fallback)} (the default; set ${k.variable} to use another)`,
      };
    }
    const server = await k.local(dir);
    used.push(server);
    const why = probe ? `${probe.reason} at ${hostPort(fallback)}` : "LOCAL_SERVICES=always";
    const url = withPort(fallback, server.port);
    return {
      url,
      source: "local",
      line:
        `${k.name}: this checkout's own on 127.0.0.1:${server.port} (${server.started ? "started" : "already running"}, ` +
        `data in ${shown(server.dataDir)}), because ${why}; ${options.who} stops it when it ends, unless something else still uses it. ` +
        `To use your own server, set ${k.variable}.`,
    };
  };
  const postgres = await choose("postgres", options.postgresSet, defaults.postgres);
  const redis = await choose("redis", options.redisSet, defaults.redis);
  return {
    postgres,
    redis,
    release: async () => {
      const lines: string[] = [];
      for (const server of used.splice(0)) lines.push(await server.release());
      return lines;
    },
  };
}

/**
 * For an entry point (`npm start`, the API and worker roles, the CLI), before src/config.ts reads the environment:
 * chooses, and points DATABASE_URL and REDIS_URL at this checkout's own servers when they are the choice.
 */
export async function servicesForEntryPoint(who: string, env: NodeJS.ProcessEnv = process.env): Promise<LocalServices> {
  const services = await prepareLocalServices({
    env,
    who,
    postgresSet: env.DATABASE_URL,
    redisSet: env.REDIS_URL || env.REDIS_CLUSTER_NODES,
  });
  if (services.postgres.source === "local") env.DATABASE_URL = services.postgres.url;
  if (services.redis.source === "local") env.REDIS_URL = services.redis.url;
  return services;
}

type Kind = "postgres" | "redis";
type Probe = { answer: "in" } | { answer: "none" | "refused"; reason: string };

interface LocalServer {
  port: number;
  dataDir: string;
  started: boolean;
  release(): Promise<string>;
}

const KINDS: Record<
  Kind,
  { name: string; variable: string; probe: (url: string) => Promise<Probe>; local: (dir: string) => Promise<LocalServer> }
> = {
  postgres: { name: "PostgreSQL", variable: "DATABASE_URL", probe: probePostgres, local: localPostgres },
  redis: { name: "Redis", variable: "REDIS_URL", probe: probeRedis, local: localRedis },
};

const hostPort = (url: string) => new URL(url).host;

/** A folder as the reader knows it: relative to the working folder when inside it. */
function shown(dir: string): string {
  const rel = relative(process.cwd(), dir);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : dir;
}

function withPort(url: string, port: number): string {
  const u = new URL(url);
  u.hostname = "127.0.0.1";
  u.port = String(port);
  return u.toString().replace(/\/$/, "");
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return url;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Probes: does a server at this address let us in (without a password, as the default addresses say)?

/** Opens a TCP connection, writes `hello`, and hands the bytes received to `read` until it answers. */
function converse<T>(url: string, hello: Buffer, read: (got: Buffer) => T | null, timeoutMs = 3000): Promise<T | { error: string }> {
  const u = new URL(url);
  return new Promise((resolve) => {
    let got = Buffer.alloc(0);
    const socket: Socket = createConnection({ host: u.hostname || "127.0.0.1", port: Number(u.port) });
    const done = (value: T | { error: string }) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(value);
    };
    const timer = setTimeout(() => done({ error: "no answer within 3 s" }), timeoutMs);
    socket.once("connect", () => socket.write(hello));
    socket.on("data", (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      const answer = read(got);
      if (answer !== null) done(answer);
    });
    socket.once("error", (e: NodeJS.ErrnoException) => done({ error: e.code === "ECONNREFUSED" ? "nothing answered" : e.message }));
    socket.once("close", () => done({ error: "the connection was closed" }));
  });
}

/** PostgreSQL's startup message (protocol 3.0) for the URL's user and the `postgres` database: AuthenticationOk
 *  means trust lets us in; a password request or an error (e.g. no such role) means it does not. */
export async function probePostgres(url: string): Promise<Probe> {
  const user = decodeURIComponent(new URL(url).username) || "root";
  const params = Buffer.from(`user\0${user}\0database\0postgres\0\0`);
  const hello = Buffer.alloc(8 + params.length);
  hello.writeInt32BE(hello.length, 0);
  hello.writeInt32BE(196608, 4);
  params.copy(hello, 8);
  const answer = await converse(url, hello, (got) => {
    if (got.length < 5) return null;
    const type = String.fromCharCode(got[0]!);
    const length = got.readInt32BE(1);
    if (got.length < 1 + length) return null;
    if (type === "R") return { auth: got.readInt32BE(5) };
    if (type === "E") {
      const field = got
        .subarray(5, 1 + length)
        .toString()
        .split("\0")
        .find((f) => f.startsWith("M"));
      return { refused: field?.slice(1) ?? "an error" };
    }
    return { refused: "an answer that is not PostgreSQL's" };
  });
  if ("error" in answer) return { answer: "none", reason: answer.error };
  if ("refused" in answer) return { answer: "refused", reason: `PostgreSQL answered "${answer.refused}"` };
  if (answer.auth === 0) return { answer: "in" };
  return { answer: "refused", reason: `PostgreSQL asks a password of ${user}` };
}

/** Redis's PING: +PONG lets us in; an error (a password, protected mode) does not. */
export async function probeRedis(url: string): Promise<Probe> {
  const answer = await converse(url, Buffer.from("PING\r\n"), respReply);
  if ("error" in answer) return { answer: "none", reason: answer.error };
  if (answer.value === "+PONG") return { answer: "in" };
  return { answer: "refused", reason: `Redis answered "${String(answer.value).replace(/^-/, "")}"` };
}

// ---------------------------------------------------------------------------------------------------------------
// This checkout's own servers.

/** The loopback ports this checkout's servers use (kept, so that a restart finds them where they were). */
function portsFile(dir: string) {
  const file = join(dir, "ports.json");
  const read = (): Partial<Record<Kind, number>> => (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {});
  return {
    get: (kind: Kind) => read()[kind],
    set: (kind: Kind, port: number) => writeFileSync(file, `${JSON.stringify({ ...read(), [kind]: port })}\n`),
  };
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once("error", () => resolve(false));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
  });
}

async function anyFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** The port kept for this server if it is free, else a free one (then kept). */
async function portFor(dir: string, kind: Kind): Promise<number> {
  const ports = portsFile(dir);
  const kept = ports.get(kind);
  if (kept && (await portFree(kept))) return kept;
  const port = await anyFreePort();
  ports.set(kind, port);
  return port;
}

function onPath(program: string): string | null {
  for (const d of (process.env.PATH ?? "").split(delimiter)) {
    if (d && existsSync(join(d, program))) return join(d, program);
  }
  return null;
}

/** Debian installs PostgreSQL's server programs under /usr/lib/postgresql/<major>/bin; elsewhere they are on the PATH. */
function postgresBin(): string {
  const base = "/usr/lib/postgresql";
  const majors = existsSync(base) ? readdirSync(base).filter((v) => existsSync(join(base, v, "bin", "pg_ctl"))) : [];
  const newest = majors.sort((a, b) => Number(b) - Number(a))[0];
  if (newest) return join(base, newest, "bin");
  const pgCtl = onPath("pg_ctl");
  if (pgCtl) return join(pgCtl, "..");
  throw new Error(
    "No PostgreSQL is set (DATABASE_URL), none lets us in at the default address, and PostgreSQL's programs are not installed " +
      "to start one: install them (Debian/Ubuntu: sudo apt-get install -y postgresql; README, Run it) or set DATABASE_URL.",
  );
}

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL program, as the `postgres` system user when we are root (the server refuses root). */
async function pgRun(bin: string, program: string, args: string[]): Promise<string> {
  const [cmd, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", join(bin, program), ...args]] : [join(bin, program), args];
  try {
    const { stdout } = await run(cmd, argv, { encoding: "utf8" });
    return stdout;
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(`${program} ${args.at(-1)} failed: ${(err.stderr || err.message).trim()}`);
  }
}

async function postgresUser(): Promise<{ uid: number; gid: number }> {
  try {
    const [uid, gid] = await Promise.all([run("id", ["-u", "postgres"]), run("id", ["-g", "postgres"])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    throw new Error(
      "PostgreSQL refuses to run as root and there is no `postgres` system user to run it as (Debian's postgresql package " +
        "creates it): install the package, run as another user, or set DATABASE_URL.",
    );
  }
}

/** The port of the running server of this data directory (postmaster.pid's fourth line), or null when it is not running. */
async function runningPostgres(bin: string, data: string): Promise<number | null> {
  if (!existsSync(join(data, "postmaster.pid"))) return null;
  try {
    await pgRun(bin, "pg_ctl", ["-D", data, "status"]);
  } catch {
    return null;
  }
  const port = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[3]);
  return Number.isInteger(port) && (await probePostgres(`postgresql://root@127.0.0.1:${port}`)).answer === "in" ? port : null;
}

async function localPostgres(dir: string): Promise<LocalServer> {
  const bin = postgresBin();
  const home = join(dir, "postgres");
  const data = join(home, "data");
  mkdirSync(home, { recursive: true });
  if (asRoot) {
    const { uid, gid } = await postgresUser();
    chownSync(home, uid, gid);
    await run("runuser", ["-u", "postgres", "--", "test", "-w", home]).catch(() => {
      throw new Error(
        `PostgreSQL runs as the postgres user (this process is root), which cannot write to ${home}: let it reach the folder ` +
          "(chmod o+x on each parent folder), set LOCAL_SERVICES_DIR to a folder it can reach, or set DATABASE_URL.",
      );
    });
  }
  let port = await runningPostgres(bin, data);
  const started = port === null;
  if (port === null) {
    if (!existsSync(join(data, "PG_VERSION"))) {
      await pgRun(bin, "initdb", ["-D", data, "-U", "root", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-instructions"]);
    }
    port = await portFor(dir, "postgres");
    try {
      await pgRun(bin, "pg_ctl", [
        "-D",
        data,
        "-l",
        join(home, "server.log"),
        "-w",
        "-t",
        "60",
        // Loopback TCP only (no Unix socket, whose default folder may not be writable), timestamps in UTC (README,
        // "Other systems").
        "-o",
        `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c timezone=UTC`,
        "start",
      ]);
    } catch (e) {
      // Another process of this checkout (npm test while npm start starts) may have started it meanwhile.
      port = await runningPostgres(bin, data);
      if (port === null) throw new Error(`${(e as Error).message} (its log: ${join(home, "server.log")})`);
    }
  }
  const at = port;
  return {
    port: at,
    dataDir: data,
    started,
    release: async () => {
      const others = await settledPostgresClients(at);
      if (others > 0) return `PostgreSQL on 127.0.0.1:${at} left running: ${others} other connection(s) use it`;
      await pgRun(bin, "pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "60", "stop"]);
      return `PostgreSQL on 127.0.0.1:${at} stopped (its data stays in ${data})`;
    },
  };
}

/** How long a count of other connections may take to fall to none: a connection just closed lingers for a moment. */
const CLOSED_LINGER_MS = 2_000;

/**
 * Other connections once those just closed are gone: the process's own pools are closed by then, but each server
 * process ends a moment after its client left and is counted until it has (on a loaded machine, the process's six
 * pooled connections were still counted, and the server was left running). A connection that stays is another user's.
 */
async function settledPostgresClients(port: number): Promise<number> {
  const until = Date.now() + CLOSED_LINGER_MS;
  for (;;) {
    const n = await postgresClients(port);
    if (n === 0 || Date.now() >= until) return n;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Client connections to the server other than the one asking. */
async function postgresClients(port: number): Promise<number> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: `postgresql://root@127.0.0.1:${port}/postgres` });
  await client.connect();
  try {
    const r = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
    );
    return r.rows[0]!.n;
  } finally {
    await client.end();
  }
}

/** A whole RESP reply at the start of `got` (a simple string, an error, an integer, a bulk string, or an array of
 *  these, as the text of each), or null while it is incomplete. */
export function respReply(got: Buffer): { value: string | string[] } | null {
  const read = (at: number): { value: string | string[]; next: number } | null => {
    const eol = got.indexOf("\r\n", at);
    if (eol < 0) return null;
    const head = got.subarray(at + 1, eol).toString();
    const type = String.fromCharCode(got[at]!);
    if (type === "$") {
      const length = Number(head);
      if (length < 0) return { value: "", next: eol + 2 };
      if (got.length < eol + 2 + length + 2) return null;
      return { value: got.subarray(eol + 2, eol + 2 + length).toString(), next: eol + 2 + length + 2 };
    }
    if (type === "*") {
      const items: string[] = [];
      let next = eol + 2;
      for (let i = 0; i < Number(head); i++) {
        const item = read(next);
        if (!item) return null;
        items.push(...[item.value].flat());
        next = item.next;
      }
      return { value: items, next };
    }
    return { value: got.subarray(at, eol).toString(), next: eol + 2 }; // +OK, -ERR …, :1
  };
  const reply = read(0);
  return reply && { value: reply.value };
}

/** One Redis command on a fresh connection (inline protocol), answering its reply. */
async function redisSay(port: number, command: string): Promise<string | string[]> {
  const answer = await converse(`redis://127.0.0.1:${port}`, Buffer.from(`${command}\r\n`), respReply);
  if ("error" in answer) throw new Error(`Redis on 127.0.0.1:${port}: ${answer.error}`);
  return answer.value;
}

async function localRedis(dir: string): Promise<LocalServer> {
  const server = onPath("redis-server");
  if (!server) {
    throw new Error(
      "No Redis is set (REDIS_URL), none lets us in at the default address, and redis-server is not installed to start one: " +
        "install it (Debian/Ubuntu: sudo apt-get install -y redis-server; README, Run it) or set REDIS_URL.",
    );
  }
  const data = join(dir, "redis");
  mkdirSync(data, { recursive: true });
  const kept = portsFile(dir).get("redis");
  const running = kept !== undefined && (await probeRedis(`redis://127.0.0.1:${kept}`)).answer === "in" && (await redisDir(kept)) === data;
  const port = running ? kept : await portFor(dir, "redis");
  if (!running) {
    // Kept on disk (append-only file), so queued jobs survive a restart, as with a production Redis.
    const child = spawn(
      server,
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        data,
        "--appendonly",
        "yes",
        "--save",
        "",
        "--daemonize",
        "yes",
        "--pidfile",
        join(data, "redis.pid"),
        "--logfile",
        join(data, "redis.log"),
      ],
      { stdio: "ignore" },
    );
    await new Promise((resolve) => child.once("exit", resolve));
    const deadline = Date.now() + 10_000;
    while ((await probeRedis(`redis://127.0.0.1:${port}`)).answer !== "in") {
      if (Date.now() > deadline) throw new Error(`redis-server did not start on 127.0.0.1:${port} (its log: ${join(data, "redis.log")})`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    port,
    dataDir: data,
    started: !running,
    release: async () => {
      // Every connection but the one asking (CLIENT LIST: one line per client).
      const others =
        String(await redisSay(port, "CLIENT LIST"))
          .split("\n")
          .filter(Boolean).length - 1;
      if (others > 0) return `Redis on 127.0.0.1:${port} left running: ${others} other connection(s) use it`;
      await redisSay(port, "SHUTDOWN").catch(() => undefined); // the server closes the connection as it exits
      return `Redis on 127.0.0.1:${port} stopped (its data stays in ${data})`;
    },
  };
}

/** The data folder of the Redis at this port (ours only if it is this checkout's). */
async function redisDir(port: number): Promise<string | null> {
  const reply = await redisSay(port, "CONFIG GET dir").catch(() => null);
  return Array.isArray(reply) ? (reply[1] ?? null) : null;
}
