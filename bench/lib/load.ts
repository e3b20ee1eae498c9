/**
 * Processes for the HTTP benchmarks: starting a child (the API entry point, a floor server) and
 * waiting for the line that says it listens, and an autocannon load generator run in a process of
 * its own (so the measuring process never competes with the server it measures for its event loop).
 *
 * As a script: `node --import tsx bench/lib/load.ts '<LoadSpec JSON>'` prints `LOAD {...}`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import type pg from "pg";
import { percentile } from "./results.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface LoadSpec {
  base: string;
  /** Cycled through, one per request. */
  paths: string[];
  headers: Record<string, string>;
  seconds: number;
  connections: number;
  /** GET (the default) or POST with `body` (GraphQL documents). */
  method?: "GET" | "POST";
  body?: string;
  /** A response body containing this text counts as a mismatch (GraphQL answers its errors with HTTP 200). */
  errorMarker?: string;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  /** Bodies containing the spec's `errorMarker` (0 without one). */
  mismatches?: number;
}

export interface Child {
  child: ChildProcess;
  match: RegExpMatchArray;
  output: () => string;
}

const children: ChildProcess[] = [];

/**
 * The service's own entry points (src/main/*.ts) run as `npm start` runs them: plain `node`, its type stripping. Under
 * tsx, esbuild's keepNames wraps every function expression in `__name` (a defineProperty per closure made): 3.8 KiB of
 * the heap per live SSE subscription, and CPU, that production never pays (bench/RESULTS.md, "Subscribers … tsx").
 */
const isServiceEntry = (arg: string) => /^src\/main\/[^/]+\.ts$/.test(arg);

/** The arguments of `node` for a child started with `args` (test/architecture/bench-children.test.ts). */
export const childArguments = (args: string[]): string[] => (args.some(isServiceEntry) ? args : ["--import", "tsx", ...args]);

/**
 * Starts `node <args>` and resolves when its output matches `ready`; the output is drained after. A bench script
 * (bench/*.ts) runs under tsx (its imports name .js files); a service entry point does not (`isServiceEntry`).
 */
export function startChild(args: string[], env: Record<string, string>, ready: RegExp, timeoutMs = 120_000): Promise<Child> {
  const child = spawn(process.execPath, childArguments(args), {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(" ")} did not start:\n${out}`)), timeoutMs);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = out.match(ready);
      if (m) {
        clearTimeout(timer);
        // Drained, not kept: a parent that reads slowly would block the child's log writes.
        child.stdout!.off("data", onData);
        child.stderr!.off("data", onData);
        child.stdout!.resume();
        child.stderr!.resume();
        child.removeAllListeners("exit");
        resolve({ child, match: m, output: () => out });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(" ")} exited with ${code}:\n${out}`));
    });
  });
}

/** Stops every child started here. */
export function stopChildren(): void {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGTERM");
}

/** Runs autocannon in its own process against `spec`. */
export async function load(spec: LoadSpec): Promise<LoadResult> {
  const { match } = await startChild(["bench/lib/load.ts", JSON.stringify(spec)], {}, /LOAD (\{.*\})/, (spec.seconds + 60) * 1000);
  return JSON.parse(match[1]!) as LoadResult;
}

/**
 * A statement-level load: `connections` pg clients of `pool` each run `step` (the i-th call overall)
 * in a loop for `seconds`; the latency of each step, as a LoadResult (no HTTP: non2xx and errors 0).
 */
export async function sqlLoad(
  pool: pg.Pool,
  connections: number,
  seconds: number,
  step: (client: pg.PoolClient, i: number) => Promise<unknown>,
): Promise<LoadResult> {
  const latencies: number[] = [];
  let i = 0;
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      const client = await pool.connect();
      try {
        while (Date.now() < until) {
          const started = performance.now();
          await step(client, i++);
          latencies.push(performance.now() - started);
        }
      } finally {
        client.release();
      }
    }),
  );
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    rps: latencies.length / seconds,
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    total: latencies.length,
    non2xx: 0,
    errors: 0,
    mismatches: 0,
  };
}

/** CPU time (user + system, ms) a process has used so far, from /proc (clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A load's result with the server's CPU time per request over it. */
export type MeasuredLoad = LoadResult & { cpuPerRequest: number };

/** One measurement of the server process `pid`: `spec` after a 2 s warm-up, with its CPU per request (from /proc). */
export async function measuredLoad(pid: number, spec: LoadSpec): Promise<MeasuredLoad> {
  await load({ ...spec, seconds: 2 }); // warm-up
  const before = cpuMs(pid);
  const r = await load(spec);
  return { ...r, cpuPerRequest: (cpuMs(pid) - before) / Math.max(r.total, 1) };
}

/**
 * `rounds` rounds of `measure(arm, endpoint)` for every endpoint and arm, the arms taking turns in a rotating
 * order (a, b, c | b, c, a | …) so drift in the machine's load hits all alike; the 1-minute load average after each round.
 */
export async function rotatingRounds<Arm>(
  arms: Arm[],
  endpoints: number,
  rounds: number,
  measure: (arm: Arm, endpoint: number) => Promise<void>,
): Promise<number[]> {
  const loads: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = arms.map((_, i) => arms[(i + round) % arms.length]!);
    for (let endpoint = 0; endpoint < endpoints; endpoint++) for (const arm of order) await measure(arm, endpoint);
    loads.push(loadavg()[0]!);
  }
  return loads;
}

async function generator(spec: LoadSpec): Promise<void> {
  const moduleName: string = "autocannon"; // untyped package
  const { default: autocannon } = await import(moduleName);
  let i = 0;
  const result = await autocannon({
    url: spec.base,
    connections: spec.connections,
    duration: spec.seconds,
    headers: spec.headers,
    ...(spec.errorMarker ? { verifyBody: (body: string) => !body.includes(spec.errorMarker!) } : {}),
    requests: [
      {
        method: spec.method ?? "GET",
        ...(spec.body === undefined ? {} : { body: spec.body }),
        setupRequest: (req: Record<string, unknown>) => ({ ...req, path: spec.paths[i++ % spec.paths.length] }),
      },
    ],
  });
  const out: LoadResult = {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    mismatches: result.mismatches ?? 0,
  };
  console.log(`LOAD ${JSON.stringify(out)}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await generator(JSON.parse(process.argv[2]!) as LoadSpec);
  process.exit(0);
}
