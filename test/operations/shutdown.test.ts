/**
 * Shutdown and cancellation against real processes: a worker stopped with SIGTERM hands a job
 * still running at SHUTDOWN_TIMEOUT_MS back (its programs killed, the job waiting again, no attempt
 * used) and exits 0; an analysis failed by the sweeper in another process stops its programs at
 * once; long-lived connections (a WebSocket subscription, an SSE stream) do not hold an API's
 * shutdown.
 *
 * The stand-in for espeak-ng (used by the simulated media provider in the `downloading` stage)
 * starts a helper (a grandchild) and blocks on its first run; later runs are the real program.
 */
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { newWorkspace, stopAll } from "../helpers/api.js";
import { processAlive, spawnService, type ServiceProcess } from "../helpers/processes.js";
import { analyze } from "../../src/domain/analysis/service.js";
import { failStuckAnalyses } from "../../src/domain/analysis/service.js";
import { analysisJobId } from "../../src/domain/analysis/jobs.js";
import { getBalance } from "../../src/domain/credits/service.js";
import { queue } from "../../src/infra/queues.js";
import { analysisCharges, trackedVideo, waitFor, waitForStatus } from "../analysis/fixtures.js";
import { pidFromFile, signalProcess } from "../helpers/signals.js";

let dir: string;
const processes: ServiceProcess[] = [];
const strays: number[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "shutdown-"));
});
afterEach(async () => {
  for (const p of processes.splice(0)) await p.stop("SIGKILL");
  for (const pid of strays.splice(0)) if (processAlive(pid)) signalProcess(pid, "SIGKILL");
});
afterAll(async () => {
  await stopAll();
  await rm(dir, { recursive: true, force: true });
});

async function service(role: "api" | "worker", env: Record<string, string>): Promise<ServiceProcess> {
  const p = await spawnService(role, env);
  processes.push(p);
  return p;
}

/** An espeak-ng stand-in whose first run (not counting the version read at start-up) starts a grandchild and blocks; the pids land in files. */
async function blockingEspeak(name: string) {
  const marker = join(dir, `${name}.pid`);
  const helper = join(dir, `${name}.helper`);
  const path = join(dir, name);
  await writeFile(
    path,
    `#!/bin/sh\n[ "$1" = --version ] && exec espeak-ng --version\nif [ ! -e '${marker}' ]; then sleep 300 & echo $! > '${helper}'; echo $$ > '${marker}'; sleep 300; fi\nexec espeak-ng "$@"\n`,
  );
  await chmod(path, 0o755);
  return {
    path,
    /** Waits for the first run to block; returns the stand-in's and its helper's pids. */
    started: async () => {
      // Whole pids (a file is created before its pid is written: read between the two, it was pid 0).
      const pids = { program: await pidFromFile(marker), helper: await pidFromFile(helper) };
      strays.push(pids.program, pids.helper);
      return pids;
    },
  };
}

const exitOf = (p: ServiceProcess) =>
  new Promise<number | null>((resolve) =>
    p.child.exitCode !== null ? resolve(p.child.exitCode) : p.child.once("exit", (code) => resolve(code)),
  );

describe("shutdown", () => {
  it("SIGTERM on a worker: a job still running at SHUTDOWN_TIMEOUT_MS is handed back (programs killed, no attempt used), exit 0; another worker completes it", async () => {
    const espeak = await blockingEspeak("espeak-handback");
    const ws = await newWorkspace();
    const videoId = await trackedVideo(ws.workspaceId);
    const worker = await service("worker", { SIMULATED_MEDIA_SPEECH: "true", ESPEAK_PATH: espeak.path, SHUTDOWN_TIMEOUT_MS: "1000" });
    const r = await analyze(ws.workspaceId, videoId, {});
    const pids = await espeak.started();

    const t0 = Date.now();
    worker.child.kill("SIGTERM");
    expect(await exitOf(worker)).toBe(0);
    expect(Date.now() - t0).toBeLessThan(8000);
    expect(worker.output()).toMatch(/handing them back/);
    await waitFor(
      "the stand-in and its helper to be killed",
      async () => !processAlive(pids.program) && !processAlive(pids.helper),
      5000,
      50,
    );

    const job = await queue("analysis").getJob(analysisJobId(r.analysisId));
    expect(await job!.getState()).toBe("waiting");
    expect(job!.attemptsMade).toBe(0);
    expect((await waitForStatus(ws.workspaceId, videoId, ["downloading"])).status).toBe("downloading");

    await service("worker", { SIMULATED_MEDIA_SPEECH: "true", ESPEAK_PATH: espeak.path });
    const done = await waitForStatus(ws.workspaceId, videoId, ["completed", "failed"], 60_000);
    expect(done).toMatchObject({ id: r.analysisId, status: "completed" });
    expect(await analysisCharges(ws.workspaceId)).toEqual([-5]);
  }, 90_000);

  it("an analysis failed by the sweeper in another process stops its running programs (the whole process group)", async () => {
    const espeak = await blockingEspeak("espeak-swept");
    const ws = await newWorkspace();
    const videoId = await trackedVideo(ws.workspaceId);
    const worker = await service("worker", { SIMULATED_MEDIA_SPEECH: "true", ESPEAK_PATH: espeak.path });
    const r = await analyze(ws.workspaceId, videoId, {});
    const pids = await espeak.started();

    // The sweeper, here in the test's process, with a deadline every running analysis is past.
    expect(await failStuckAnalyses(0)).toBe(1);
    await waitFor(
      "the programs of the failed analysis to be killed",
      async () => !processAlive(pids.program) && !processAlive(pids.helper),
      10_000,
      50,
    );
    // The worker's log line comes through a pipe: it may arrive after the programs are gone.
    await waitFor("the worker to say why", async () => /analysis failed elsewhere: stopping its programs/.test(worker.output()), 5_000, 50);

    const failed = await waitForStatus(ws.workspaceId, videoId, ["failed"]);
    expect(failed).toMatchObject({ id: r.analysisId, status: "failed" });
    expect(failed.error).toMatch(/made no progress/);
    expect(await getBalance(ws.workspaceId)).toMatchObject({ totalRemaining: 200, reserved: 0 });
    // The job ends without a retry (the analysis is settled), and nothing runs it again.
    await waitFor(
      "the job to finish",
      async () => (await queue("analysis").getJobState(analysisJobId(r.analysisId))) === "completed",
      10_000,
    );
    expect(await analysisCharges(ws.workspaceId)).toEqual([]);
  }, 90_000);

  it("SIGTERM on an API: a WebSocket subscription (closed 1001) and an SSE stream do not hold the shutdown", async () => {
    const ws = await newWorkspace();
    const api = await service("api", { SHUTDOWN_TIMEOUT_MS: "30000" });
    const closeCodes: number[] = [];
    const client = createClient({
      url: api.url!.replace("http", "ws") + "/graphql",
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${ws.key}` },
      retryAttempts: 0,
      on: { closed: (e) => closeCodes.push((e as { code: number }).code) },
    });
    let subscribed = false;
    client.subscribe(
      { query: "subscription { creditsUpdated { totalRemaining } }" },
      { next: () => undefined, error: () => undefined, complete: () => undefined },
    );
    client.on("connected", () => (subscribed = true));
    await waitFor("the WebSocket to connect", async () => subscribed, 10_000, 20);

    const sse = await fetch(`${api.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${ws.key}`, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ query: "subscription { creditsUpdated { totalRemaining } }" }),
    });
    expect(sse.status).toBe(200);
    const reader = sse.body!.getReader();
    const sseEnded = (async () => {
      try {
        for (;;) if ((await reader.read()).done) return;
      } catch {
        /* cut: ended all the same */
      }
    })();

    const t0 = Date.now();
    api.child.kill("SIGTERM");
    expect(await exitOf(api)).toBe(0);
    await sseEnded;
    // Well before the 30 s timeout: nothing long-lived held it.
    expect(Date.now() - t0).toBeLessThan(10_000);
    await waitFor("the WebSocket to be closed", async () => closeCodes.length > 0, 5000, 20);
    expect(closeCodes[0]).toBe(1001);
    await client.dispose();
  }, 90_000);
});
