/**
 * The radar job as deployed: a real worker process (src/main/worker.ts) whose search providers come
 * from configuration (RADAR_PROVIDERS, YTDLP_PATH), with a stand-in yt-dlp program that fails.
 * - ytdlp only → the search fails, its error names yt-dlp's failure, the 100 credits are refunded once;
 * - catalog + ytdlp → the search completes with the catalog's real results and a note naming ytdlp;
 * - a worker SIGKILLed mid-search: another worker picks the job up (stalled-job recovery) and
 *   completes it with yt-dlp's results; one charge, no refund, no duplicate rows.
 */
import { vi } from "vitest";

// Fast recovery and retries (the settings are read at import): a killed worker's search is picked up
// within about 3 s rather than 30, and the five attempts' backoff takes 1.5 s rather than 30.
const FAST_RADAR = { RADAR_LOCK_MS: "2000", RADAR_STALLED_INTERVAL_MS: "1000", RADAR_RETRY_DELAY_MS: "100" };
vi.hoisted(() => {
  process.env.RADAR_RETRY_DELAY_MS = "100"; // the API in this process queues the searches with it
});
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { spawnService, type ServiceProcess } from "../helpers/processes.js";
import { standInProgram } from "../fixtures/media/server.js";
import { prisma } from "../../src/infra/db.js";
import { getBalance } from "../../src/domain/credits/service.js";
import type { RunningApi } from "../../src/main/server.js";
import { waitFor, waitUntil } from "../helpers/wait.js";
import { pidFromFile, signalProcess } from "../helpers/signals.js";

let api: RunningApi;
let dir: string;
let failingYtdlp: string;
const workers: ServiceProcess[] = [];

beforeAll(async () => {
  api = await startTestApi();
  dir = await mkdtemp(join(tmpdir(), "radar-ytdlp-"));
  // Counts its runs, then fails the way yt-dlp does when the site refuses the search.
  failingYtdlp = await standInProgram(
    join(dir, "yt-dlp"),
    `echo run >> "${join(dir, "runs")}"\necho "ERROR: [youtube:search] Unable to download API page: HTTP Error 403: Forbidden" >&2\nexit 1`,
  );
  await prisma.video.create({
    data: {
      platform: "platformB",
      platformVideoId: "cat-b-1",
      url: "https://example.test/watch?v=cat-b-1",
      description: "Sourdough bread baking for beginners",
      viewCount: BigInt(120_000),
      likeCount: BigInt(9_000),
      postedAt: new Date(Date.now() - 5 * 86_400_000),
      language: "en",
    },
  });
});

afterAll(async () => {
  for (const w of workers) await w.stop();
  await stopAll(api);
  await rm(dir, { recursive: true, force: true });
});

function waitFinished(id: string, timeoutMs = 90_000) {
  const read = () => prisma.radarSearch.findUniqueOrThrow({ where: { id } });
  return waitUntil(`search ${id} to finish`, read, (s) => s.status === "completed" || s.status === "failed", timeoutMs, 200);
}

describe("radar worker process with a failing yt-dlp", () => {
  it("a worker killed mid-search: another worker resumes the job and completes it with yt-dlp's results, charged once", async () => {
    // The first worker's yt-dlp hangs (so the kill lands mid-search); the second's answers.
    const hangPid = join(dir, "hang.pid");
    const hanging = await standInProgram(join(dir, "yt-dlp-hang"), `echo $$ > "${hangPid}"\nexec sleep 300`);
    const posted = Math.floor(Date.now() / 1000) - 2 * 86_400;
    const entries = [
      {
        id: "dQw4w9WgXcQ",
        ie_key: "Youtube",
        title: "Sourdough starter, day by day",
        view_count: 250_000,
        timestamp: posted,
        uploader_id: "@bakerbob",
        thumbnails: [{ url: "https://i.example.test/a.jpg" }],
      },
      {
        id: "9bZkp7q19f0",
        ie_key: "Youtube",
        title: "Sourdough bread shaping",
        view_count: 40_000,
        timestamp: posted,
        uploader_id: "@crumbshot",
      },
    ];
    const answering = await standInProgram(
      join(dir, "yt-dlp-ok"),
      `cat <<'JSON'\n${entries.map((e) => JSON.stringify(e)).join("\n")}\nJSON`,
    );
    const first = await spawnService("worker", { ...FAST_RADAR, RADAR_PROVIDERS: "ytdlp", YTDLP_PATH: hanging });
    workers.push(first);
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    const id = (await c.post("/api/v1/radar/search", { query: "sourdough bread", platform: "platformB", depth: "quick" })).body.data
      .searchId;
    const standIn = await pidFromFile(hangPid); // the hanging yt-dlp runs
    expect((await prisma.radarSearch.findUniqueOrThrow({ where: { id } })).status).toBe("searching");
    await first.stop("SIGKILL");
    signalProcess(standIn, "SIGKILL"); // the stand-in, should it outlive the worker (false: already ended with it)
    const second = await spawnService("worker", { ...FAST_RADAR, RADAR_PROVIDERS: "ytdlp", YTDLP_PATH: answering });
    workers.push(second);
    try {
      const s = await waitFinished(id);
      expect(s.status).toBe("completed");
      const got = await c.get(`/api/v1/radar/search/${id}`);
      expect(got.body.data.error).toBeUndefined();
      expect(got.body.data.results.map((r: { platformVideoId: string }) => r.platformVideoId)).toEqual(["dQw4w9WgXcQ", "9bZkp7q19f0"]);
      expect(got.body.data.results[0]).toMatchObject({
        type: "platformB",
        username: "bakerbob",
        viewCount: 250_000,
        likeCount: null,
        tracked: false,
      });
      expect(got.body.data.results[0].videoId).toBeUndefined();
      expect(await prisma.radarResult.count({ where: { searchId: id } })).toBe(2);
      expect((await getBalance(ws.workspaceId)).totalRemaining).toBe(100);
      expect(await prisma.creditLedgerEntry.count({ where: { workspaceId: ws.workspaceId, kind: "refund" } })).toBe(0);
    } finally {
      await second.stop();
    }
  }, 120_000);

  it("RADAR_PROVIDERS=ytdlp: retried by BullMQ (exit 1 is retryable), then failed with yt-dlp's error; the credits come back once", async () => {
    const worker = await spawnService("worker", { ...FAST_RADAR, RADAR_PROVIDERS: "ytdlp", YTDLP_PATH: failingYtdlp });
    workers.push(worker);
    try {
      const ws = await newWorkspace();
      const c = client(api.url, ws.key);
      const id = (await c.post("/api/v1/radar/search", { query: "sourdough bread", platform: "platformB", depth: "quick" })).body.data
        .searchId;
      const s = await waitFinished(id);
      expect(s.status).toBe("failed");
      expect(s.error).toMatch(/ytdlp/);
      const got = await c.get(`/api/v1/radar/search/${id}`);
      expect(got.body.data).toMatchObject({ status: "failed", resultCount: 0, results: [] });
      expect(got.body.data.error).toMatch(/ytdlp/);
      expect((await getBalance(ws.workspaceId)).totalRemaining).toBe(200);
      expect(await prisma.creditLedgerEntry.count({ where: { workspaceId: ws.workspaceId, kind: "refund" } })).toBe(1);
      // 5 attempts × the 3 queries generated once (quick): every attempt really ran yt-dlp.
      expect((await readFile(join(dir, "runs"), "utf8")).trim().split("\n")).toHaveLength(15);
      expect(s.queries).toHaveLength(3);
    } finally {
      await worker.stop();
    }
  }, 120_000);

  it("RADAR_PROVIDERS=catalog,ytdlp: completed with the catalog's results and a note that ytdlp failed; no refund", async () => {
    const worker = await spawnService("worker", { ...FAST_RADAR, RADAR_PROVIDERS: "catalog,ytdlp", YTDLP_PATH: failingYtdlp });
    workers.push(worker);
    try {
      const ws = await newWorkspace();
      const c = client(api.url, ws.key);
      const id = (await c.post("/api/v1/radar/search", { query: "sourdough bread", platform: "platformB", depth: "quick" })).body.data
        .searchId;
      const s = await waitFinished(id);
      expect(s.status).toBe("completed");
      const got = await c.get(`/api/v1/radar/search/${id}`);
      expect(got.body.data.results.map((r: { platformVideoId: string }) => r.platformVideoId)).toEqual(["cat-b-1"]);
      expect(got.body.data.error).toMatch(/^Partial results: provider ytdlp failed/);
      expect((await getBalance(ws.workspaceId)).totalRemaining).toBe(100);
    } finally {
      await worker.stop();
    }
  });
});
