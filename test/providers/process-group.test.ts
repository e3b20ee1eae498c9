/**
 * Child programs run in a process group of their own and are killed as a group: a program that
 * started a helper (a grandchild) leaves nothing behind when it times out or is aborted, when the
 * service exits, or when the service is killed outright (the parent-death signal).
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { processAlive } from "../helpers/processes.js";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runProgram } from "../../src/providers/process.js";
import { ProviderError } from "../../src/domain/shared/provider-error.js";
import { waitFor } from "../helpers/wait.js";
import { pidFromFile, signalProcess, startOf } from "../helpers/signals.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SCRIPT = fileURLToPath(new URL("../fixtures/programs/spawns-grandchild.sh", import.meta.url));

const until = (what: string, check: () => boolean, timeoutMs = 5000) => waitFor(what, check, timeoutMs, 20);

let dir: string;
const leftovers: { pid: number; startedAt: string | null }[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "process-group-"));
});
afterAll(async () => {
  // false: gone, as it should be (and never a later process given the same pid)
  for (const { pid, startedAt } of leftovers) if (startedAt !== null) signalProcess(pid, "SIGKILL", startedAt);
  await rm(dir, { recursive: true, force: true });
});

async function grandchildOf(pidFile: string): Promise<number> {
  const pid = await pidFromFile(pidFile, 5000);
  leftovers.push({ pid, startedAt: startOf(pid) });
  expect(processAlive(pid)).toBe(true);
  return pid;
}

describe("runProgram kills the program's whole process group", () => {
  it("on timeout: the program and the helper it started are both gone", async () => {
    const pidFile = join(dir, "timeout.pid");
    const run = runProgram("test", SCRIPT, [pidFile], { timeoutMs: 1500 });
    const grandchild = await grandchildOf(pidFile);
    const err = await run.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).message).toMatch(/timed out after 1500 ms/);
    expect((err as ProviderError).retryable).toBe(true);
    await until("the grandchild to be killed", () => !processAlive(grandchild));
  });

  it("on abort: the program and the helper it started are both gone", async () => {
    const pidFile = join(dir, "abort.pid");
    const controller = new AbortController();
    const run = runProgram("test", SCRIPT, [pidFile], { timeoutMs: 60_000, signal: controller.signal });
    const grandchild = await grandchildOf(pidFile);
    controller.abort();
    await expect(run).rejects.toThrow(/was cancelled/);
    await until("the grandchild to be killed", () => !processAlive(grandchild));
  });

  it("when the service's process exits, the programs it still runs are killed with their groups", async () => {
    const pidFile = join(dir, "exit.pid");
    const runner = `
      import { existsSync, readFileSync } from "node:fs";
      import { runProgram } from "./src/providers/process.ts";
      runProgram("test", ${JSON.stringify(SCRIPT)}, [${JSON.stringify(pidFile)}], { timeoutMs: 60_000 }).catch(() => undefined);
      const t = setInterval(() => { if (existsSync(${JSON.stringify(pidFile)}) && readFileSync(${JSON.stringify(pidFile)}, "utf8").trim() !== "") { clearInterval(t); process.exit(0); } }, 20);
    `;
    const exited = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, ["--input-type=module", "-e", runner], { cwd: ROOT, stdio: "ignore" });
      child.once("exit", (code) => resolve(code));
    });
    expect(exited).toBe(0);
    const grandchild = Number(readFileSync(pidFile, "utf8").trim());
    expect(grandchild).toBeGreaterThan(1); // a real pid was written before the service exited
    leftovers.push({ pid: grandchild, startedAt: startOf(grandchild) });
    await until("the grandchild to be killed", () => !processAlive(grandchild));
  });

  it("when the service's process is SIGKILLed (no exit handler runs), the program and its helper end with it", async () => {
    const pidFile = join(dir, "killed.pid");
    const runner = `
      import { runProgram } from "./src/providers/process.ts";
      runProgram("test", ${JSON.stringify(SCRIPT)}, [${JSON.stringify(pidFile)}], { timeoutMs: 60_000 }).catch(() => undefined);
      setInterval(() => undefined, 1000);
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", runner], { cwd: ROOT, stdio: "ignore" });
    const grandchild = await grandchildOf(pidFile);
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    const killedAt = Date.now();
    await until("the helper to end with the killed process", () => !processAlive(grandchild), 3000);
    expect(Date.now() - killedAt).toBeLessThan(2000);
  });

  it("an already aborted signal never leaves the program running", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(runProgram("test", "sleep", ["30"], { timeoutMs: 60_000, signal: controller.signal })).rejects.toThrow(/was cancelled/);
  });

  it("a program that succeeds still answers its output", async () => {
    await expect(runProgram("test", "sh", ["-c", "echo hello"], { timeoutMs: 5000 })).resolves.toMatchObject({ stdout: "hello\n" });
  });
});
