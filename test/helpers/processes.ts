/**
 * Runs the service's real entry points (src/main/api.ts, worker.ts, and all.ts: `npm start`) as separate processes
 * against this test file's database and Redis prefix: for cross-process behaviour (revocation seen
 * by a second API process, events from a worker in another process, a worker killed mid-job).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  /** Set for the roles that serve HTTP (api, all): http://127.0.0.1:<port>. */
  url: string | null;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Every process spawned here and not yet exited. A test file whose beforeAll failed (a browser that
 * would not launch, a start that timed out) never gets to stop what it started: the test process
 * kills what is left as it exits, so no worker outlives its test file to load the machine.
 */
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

export async function spawnService(
  role: "api" | "worker" | "all",
  /** Added to this process's environment; a variable given as undefined is left out. */
  env: Record<string, string | undefined> = {},
  timeoutMs = 30_000,
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [`src/main/${role}.ts`], {
    cwd: ROOT,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const ready = role === "worker" ? /workers started/ : /API listening on port (\d+)/;
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${role} did not start in ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const check = () => {
      const m = out.match(ready);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout!.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${role} exited with ${code} before starting:\n${out}`));
    });
  });
  return {
    child,
    url: role === "worker" ? null : `http://127.0.0.1:${match[1]}`,
    output: () => out,
    stop: (signal: NodeJS.Signals = "SIGTERM") =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill(signal);
      }),
  };
}

/** A process's JSON log lines so far (pino, one object a line). */
export type LogLine = Record<string, any>;
export const logLines = (p: ServiceProcess): LogLine[] =>
  p
    .output()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as LogLine);

/** Alive, and not a zombie waiting to be reaped (a container's init may not reap orphans at once). */
export function processAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}
