/**
 * A worker SIGKILLed mid-analysis: the job's lock expires, another worker process retries it from
 * the stored state, and the analysis still ends `completed`, charged exactly 5 once. Killed in the
 * `downloading` stage (espeak-ng, used by the simulated media provider, replaced by a stand-in that
 * blocks on its first run) and in the `analyzing` stage (ANALYSIS_PROVIDER=openai against a local
 * stand-in server that never answers its first request; the visual part, stored before that request,
 * is read back by the second worker, not seen again).
 */
import "../setup/visual-on.js"; // first: the visual stage on, as deployed, before the configuration is read
import { mkdtemp, rm, writeFile, chmod } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { newWorkspace, stopAll } from "../helpers/api.js";
import { spawnService, type ServiceProcess } from "../helpers/processes.js";
import { analyze } from "../../src/domain/analysis/service.js";
import { getBalance } from "../../src/domain/credits/service.js";
import { prisma } from "../../src/infra/db.js";
import { analysisCharges, trackedVideo, waitFor, waitForStatus } from "./fixtures.js";
import { pidFromFile, signalProcess } from "../helpers/signals.js";

/** A killed worker's job is picked up within about 2-3 seconds. */
const FAST_RECOVERY = { ANALYSIS_LOCK_MS: "2000", ANALYSIS_STALLED_INTERVAL_MS: "1000" };

let dir: string;
const processes: ServiceProcess[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "analysis-kill-"));
});
// Each test runs its own workers (with its own providers): none may pick up the next test's job.
afterEach(async () => {
  for (const p of processes.splice(0)) await p.stop();
});
afterAll(async () => {
  await stopAll();
  await rm(dir, { recursive: true, force: true });
});

async function worker(env: Record<string, string>): Promise<ServiceProcess> {
  const p = await spawnService("worker", { ...FAST_RECOVERY, ...env });
  processes.push(p);
  return p;
}

async function expectChargedOnce(workspaceId: string, analysisId: string) {
  expect(await analysisCharges(workspaceId)).toEqual([-5]);
  expect(await getBalance(workspaceId)).toMatchObject({ totalRemaining: 195, reserved: 0, monthlyUsed: 5 });
  const reservation = await prisma.creditReservation.findFirstOrThrow({ where: { workspaceId } });
  expect(reservation.status).toBe("captured");
  expect(await prisma.videoAnalysis.count({ where: { id: analysisId, reservationId: reservation.id } })).toBe(1);
}

// Each case starts two worker processes and waits for a real lock to expire; with other work on the machine (load
// average 10 on 2 cores) one took over 60 s, so the cases get the time their own waits allow (90 s) and the start.
const KILL_CASE_MS = 150_000;

describe("a worker killed mid-analysis", () => {
  it("killed while downloading: another worker resumes and completes it, charged exactly once", { timeout: KILL_CASE_MS }, async () => {
    // espeak-ng stand-in: the first run (after the version read at start-up) records its pid and blocks; later runs are the real program.
    const marker = join(dir, "espeak-started");
    const espeak = join(dir, "slow-espeak");
    await writeFile(
      espeak,
      `#!/bin/sh\n[ "$1" = --version ] && exec espeak-ng --version\nif [ ! -e '${marker}' ]; then echo $$ > '${marker}'; exec sleep 120; fi\nexec espeak-ng "$@"\n`,
    );
    await chmod(espeak, 0o755);

    const ws = await newWorkspace();
    const videoId = await trackedVideo(ws.workspaceId);
    const first = await worker({ SIMULATED_MEDIA_SPEECH: "true", ESPEAK_PATH: espeak });
    const r = await analyze(ws.workspaceId, videoId, {});
    // Its pid written whole (not only the file created): a kill between the two left an empty file, read as pid 0.
    const standIn = await pidFromFile(marker);
    expect((await waitForStatus(ws.workspaceId, videoId, ["downloading"])).status).toBe("downloading");

    await first.stop("SIGKILL");
    signalProcess(standIn, "SIGKILL"); // its sleep, should it outlive the worker (false: already ended with it)

    await worker({ SIMULATED_MEDIA_SPEECH: "true", ESPEAK_PATH: espeak });
    const done = await waitForStatus(ws.workspaceId, videoId, ["completed", "failed"], 90_000);
    expect(done).toMatchObject({ id: r.analysisId, status: "completed", transcriptSource: "captions" });
    expect(done.transcript).toContain("sourdough");
    await expectChargedOnce(ws.workspaceId, r.analysisId);
  });

  it("killed while analyzing: another worker resumes from `analyzing` (transcript kept) and completes it, charged exactly once", {
    timeout: KILL_CASE_MS,
  }, async () => {
    let requests = 0;
    const server: Server = createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        requests++;
        if (requests === 1) return; // the first request never gets an answer: its worker is killed meanwhile
        const answer = {
          hookStyle: "question",
          hookPhrase: "Do you know why your sourdough never rises?",
          ugcFit: "high",
          ugcConfidence: 81,
          ctaType: "link_in_bio",
          ctaDestinationUrl: "https://bakery.example.com/starter",
          hookSource: "speech",
          reasons: ["hook: a question in the first sentence said"],
        };
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ choices: [{ message: { role: "assistant", content: JSON.stringify(answer) } }] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    // The visual part runs first (stored before the model is called): few keyframes, and a lock that outlasts face
    // detection, which holds the worker's thread for a while (a 2 s lock expired during it: the job "stalled").
    const env = {
      ANALYSIS_PROVIDER: "openai",
      OPENAI_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
      OPENAI_TIMEOUT_MS: "300000",
      VISUAL_MAX_KEYFRAMES: "3",
      ANALYSIS_LOCK_MS: "8000",
    };
    try {
      const ws = await newWorkspace();
      const videoId = await trackedVideo(ws.workspaceId);
      const first = await worker(env);
      const r = await analyze(ws.workspaceId, videoId, {});
      await waitFor("the first worker to call the model", async () => requests === 1);
      const during = await waitForStatus(ws.workspaceId, videoId, ["analyzing"]);
      const transcriptAtKill = during.transcript;
      expect(transcriptAtKill).toContain("sourdough");
      expect(during.visual).not.toBeNull(); // what was seen is stored before the model is asked

      await first.stop("SIGKILL");
      await worker(env);
      const done = await waitForStatus(ws.workspaceId, videoId, ["completed", "failed"], 90_000);
      expect(done).toMatchObject({
        id: r.analysisId,
        status: "completed",
        analysisProvider: "openai",
        hookStyle: "question",
        ugcFit: "high",
        ugcConfidence: 81,
        ctaType: "link_in_bio",
        hookSource: "speech",
      });
      expect(done.transcript).toBe(transcriptAtKill);
      expect(done.visual).toEqual(during.visual); // the second worker did not look again
      expect(requests).toBe(2);
      await expectChargedOnce(ws.workspaceId, r.analysisId);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
