/**
 * The one way tests and benches signal a process they know by its pid (from a pid file, a listing of /proc, a
 * database name), rather than as a `ChildProcess` they spawned.
 *
 * Why: `kill(2)` reads some numbers as more than one process. 0 is the caller's whole process group, and a test
 * file's group is vitest's, npm's and CI's shell's: `process.kill(Number(""), "SIGKILL")`, a pid file read the
 * instant after the shell created it and before it wrote the pid, ended a whole CI run with exit 137 and no word
 * of why. A negative number is a group, -1 every process the caller may signal. So a pid is checked here first,
 * and a pid file is read only once it holds a whole line (test/architecture/signals.test.ts keeps every
 * `process.kill` of test/ and bench/ in this file).
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { waitFor } from "./wait.js";

/**
 * Sends `signal` to the one process `pid`; false when there is no such process, or, given `startedAt` (`startOf`), when
 * the pid now names a later process (the system gives a pid again once its process is gone). Throws on anything not
 * one process.
 */
export function signalProcess(pid: number, signal: NodeJS.Signals | 0, startedAt?: string): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 1 || pid === process.pid) {
    throw new Error(`refusing to signal ${pid}: not the pid of one other process (0 is this process's group, -n a group)`);
  }
  if (startedAt !== undefined && startOf(pid) !== startedAt) return false;
  // A stale pid file whose number the system gave again to vitest, npm or CI's shell.
  if (signal !== 0 && ancestors().has(pid)) throw new Error(`refusing to signal ${pid}: it runs this test (an ancestor)`);
  try {
    process.kill(pid, signal);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ESRCH") return false;
    if (code === "EPERM" && signal === 0) return true; // another user's: it exists
    throw e;
  }
}

/** When `pid` started (its /proc stat's start time, in clock ticks since boot), or null when there is no such process. */
export function startOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

let ancestorPids: Set<number> | undefined;
/** This process's parent, its parent's parent … up to init (from /proc; empty where there is none). */
function ancestors(): Set<number> {
  if (ancestorPids) return ancestorPids;
  ancestorPids = new Set();
  for (let pid = process.ppid; pid > 1 && !ancestorPids.has(pid); ) {
    ancestorPids.add(pid);
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      pid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    } catch {
      break;
    }
  }
  return ancestorPids;
}

/** The pid a program wrote to `file` (`echo $$ > file`), once its first line is whole; waits up to `timeoutMs`. */
export async function pidFromFile(file: string, timeoutMs = 30_000): Promise<number> {
  const line = await waitFor(
    `a whole pid in ${file}`,
    async () => /^\d+\n/.exec(await readFile(file, "utf8").catch(() => ""))?.[0],
    timeoutMs,
    20,
  );
  return Number(line.trim());
}

/** The pid on the first line of a server's pid file as it is now (PostgreSQL's postmaster.pid, Redis's), or null. */
export async function pidInFileNow(file: string): Promise<number | null> {
  const first = (await readFile(file, "utf8").catch(() => "")).split("\n")[0];
  return /^\d+$/.test(first) ? Number(first) : null;
}
