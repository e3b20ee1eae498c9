/**
 * A PostgreSQL cluster and a Redis server of the test file's own, on free loopback ports, for fault
 * drills that stop and restart them: the shared ones (127.0.0.1:5432 and :6379) serve every other
 * test file running in parallel and are never touched. PostgreSQL runs as the `postgres` user when
 * the tests run as root (initdb refuses root), with a superuser named `root` and trust auth.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { chownSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { signalProcess } from "../helpers/signals.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

const listenOn = (port: number): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(port, "127.0.0.1", () => {
      const got = (s.address() as { port: number }).port;
      s.close(() => resolve(got));
    });
  });

/**
 * A free loopback port: in TEST_PORT_RANGE (`17000-17999`) when set (a machine whose test runs are
 * given port ranges of their own), else one the system picks.
 */
export async function freePort(): Promise<number> {
  const range = /^(\d+)-(\d+)$/.exec(process.env.TEST_PORT_RANGE ?? "");
  if (!range) return listenOn(0);
  const [low, high] = [Number(range[1]), Number(range[2])];
  for (let i = 0; i < 50; i++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    const got = await listenOn(port).catch(() => null);
    if (got) return got;
  }
  throw new Error(`no free port in TEST_PORT_RANGE ${process.env.TEST_PORT_RANGE}`);
}

function pgBin(name: string): string {
  const versions = readdirSync("/usr/lib/postgresql").sort((a, b) => Number(b) - Number(a));
  return `/usr/lib/postgresql/${versions[0]}/bin/${name}`;
}

const asRoot = process.getuid?.() === 0;
/** Runs a PostgreSQL program as `postgres` when we are root. */
const pgRun = (name: string, args: string[]) =>
  asRoot ? run("runuser", ["-u", "postgres", "--", pgBin(name), ...args]) : run(pgBin(name), args);

export interface PrivatePostgres {
  port: number;
  /** postgresql://root@127.0.0.1:<port>/<database> */
  url(database: string): string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** SIGSTOP to the postmaster and every backend: a stalled server (connections stay open, nothing answers). */
  pause(): Promise<void>;
  /** SIGCONT to the same processes. */
  resume(): Promise<void>;
  destroy(): Promise<void>;
}

/** The process and its children, from /proc (the postmaster's backends). */
function processTree(pid: number): number[] {
  const children = readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [pid, ...children];
}

export async function startPostgres(): Promise<PrivatePostgres> {
  const dir = await mkdtemp(join(tmpdir(), "drill-pg-"));
  if (asRoot)
    chownSync(
      dir,
      Number((await run("id", ["-u", "postgres"])).stdout.trim()),
      Number((await run("id", ["-g", "postgres"])).stdout.trim()),
    );
  const data = join(dir, "data");
  const port = await freePort();
  await pgRun("initdb", ["-D", data, "-A", "trust", "-U", "root", "--no-sync", "-E", "UTF8"]);
  const start = () =>
    pgRun("pg_ctl", [
      "-D",
      data,
      "-l",
      join(dir, "log"),
      "-w",
      "-t",
      "30",
      "-o",
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`,
      "start",
    ]).then(() => undefined);
  await start();
  let paused: number[] = [];
  return {
    port,
    url: (database) => `postgresql://root@127.0.0.1:${port}/${database}`,
    // fast: connections are terminated (clients see 57P01 / a closed connection), like a crash for them.
    stop: () => pgRun("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "30", "stop"]).then(() => undefined),
    start,
    pause: async () => {
      const postmaster = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
      paused = processTree(postmaster);
      for (const pid of paused) signalProcess(pid, "SIGSTOP");
    },
    resume: async () => {
      for (const pid of paused.splice(0)) signalProcess(pid, "SIGCONT");
    },
    destroy: async () => {
      for (const pid of paused.splice(0)) signalProcess(pid, "SIGCONT");
      await pgRun("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Creates a database on the private cluster and applies every migration (as `npm start` does). */
export async function migratedDatabase(pg: PrivatePostgres, database: string): Promise<string> {
  await run("psql", ["-h", "127.0.0.1", "-p", String(pg.port), "-U", "root", "-d", "postgres", "-c", `CREATE DATABASE "${database}"`]);
  const url = pg.url(database);
  await run(join(ROOT, "node_modules/.bin/prisma"), ["migrate", "deploy"], { cwd: ROOT, env: { ...process.env, DATABASE_URL: url } });
  return url;
}

export interface PrivateRedis {
  port: number;
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** SIGSTOP: a stalled server (connections stay open, nothing answers); `resume` sends SIGCONT. */
  pause(): void;
  resume(): void;
  destroy(): Promise<void>;
}

/** Redis with an append-only file (fsync on every write): a restart after SIGKILL keeps the queues,
 *  as a production Redis with persistence does. `persist: false`: no file, a restart comes back empty. */
export async function startRedis(opts: { persist?: boolean } = {}): Promise<PrivateRedis> {
  const persist = opts.persist ?? true;
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), "drill-redis-"));
  let child: ChildProcess | null = null;
  const start = async () => {
    const c = spawn(
      "redis-server",
      [
        ...["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--dir", dir],
        ...(persist ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"]),
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    child = c;
    await new Promise<void>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${out}`)), 10_000);
      c.stdout!.on("data", (d: Buffer) => {
        out += d.toString();
        if (/Ready to accept connections/.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      });
      c.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}:\n${out}`));
      });
    });
  };
  const stop = async () => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once("exit", () => resolve());
      c.kill("SIGKILL"); // a crash: nothing saved (--save ''), every connection cut
    });
  };
  await start();
  const destroy = async () => {
    child?.kill("SIGCONT");
    await stop();
    await rm(dir, { recursive: true, force: true });
  };
  const pause = () => void child?.kill("SIGSTOP");
  const resume = () => void child?.kill("SIGCONT");
  return { port, url: `redis://127.0.0.1:${port}`, stop, start, pause, resume, destroy };
}
