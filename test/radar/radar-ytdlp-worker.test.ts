/**
 * The radar job as deployed: a real worker process (src/main/worker.ts) whose search providers come
 * from configuration (RADAR_PROVIDERS, YTDLP_PATH), with a stand-in yt-dlp program that fails.
 * - ytdlp only → the search fails, its error names yt-dlp's failure, the 100 credits are refunded once;
 * - catalog + ytdlp → the search completes with the catalog's real results and a note naming ytdlp.
 */
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

async function waitFinished(id: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await prisma.radarSearch.findUniqueOrThrow({ where: { id } });
    if (s.status === "completed" || s.status === "failed") return s;
    if (Date.now() > deadline) throw new Error(`search ${id} still ${s.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("radar worker process with a failing yt-dlp", () => {
  it("RADAR_PROVIDERS=ytdlp: retried by BullMQ (exit 1 is retryable), then failed with yt-dlp's error; the credits come back once", async () => {
    const worker = await spawnService("worker", { RADAR_PROVIDERS: "ytdlp", YTDLP_PATH: failingYtdlp });
    workers.push(worker);
    try {
      const ws = await newWorkspace();
      const c = client(api.url, ws.key);
      const id = (await c.post("/api/v1/radar/search", { query: "sourdough bread", platform: "platformB", depth: "quick" })).body.data.searchId;
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
  });

  it("RADAR_PROVIDERS=catalog,ytdlp: completed with the catalog's results and a note that ytdlp failed; no refund", async () => {
    const worker = await spawnService("worker", { RADAR_PROVIDERS: "catalog,ytdlp", YTDLP_PATH: failingYtdlp });
    workers.push(worker);
    try {
      const ws = await newWorkspace();
      const c = client(api.url, ws.key);
      const id = (await c.post("/api/v1/radar/search", { query: "sourdough bread", platform: "platformB", depth: "quick" })).body.data.searchId;
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
