/**
 * The scrape jobs: idempotent snapshots (a handler run twice, and a worker process SIGKILLed mid-job
 * whose job another worker picks up), failures that end in `failed` with the reason (at once when
 * the source says retrying cannot help, after the last attempt otherwise), and the daily snapshot
 * fill. The adaptive scheduler has its own file (refresh-schedule.test.ts).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newWorkspace, stopAll } from "../helpers/api.js";
import { spawnService } from "../helpers/processes.js";
import { prisma } from "../../src/infra/db.js";
import { queue } from "../../src/infra/queues.js";
import { startWorkers } from "../../src/jobs/worker.js";
import { scrapeAccount, scrapeVideo } from "../../src/domain/tracking/scrape-jobs.js";
import { jobRun, trackingJobs } from "../helpers/jobs.js";
import { fillDailySnapshots } from "../../src/domain/tracking/scrape-store.js";
import { enqueueVideoScrape } from "../../src/domain/tracking/jobs.js";
import { trackAccount } from "../../src/domain/tracking/accounts.js";
import { ProviderError } from "../../src/domain/shared/provider-error.js";
import { SimulatedScrapeProvider } from "../../src/providers/scrape/simulated.js";
import { YtdlpScrapeProvider } from "../../src/providers/scrape/ytdlp.js";
import type { ScrapeProvider } from "../../src/domain/tracking/ports.js";
import { waitUntil } from "../helpers/wait.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tracking-jobs-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await stopAll();
});

const FIXTURE = fileURLToPath(new URL("../fixtures/ytdlp/youtube-short.json", import.meta.url));
let seq = 0;

/** A tracked platform B video, not scraped yet. */
async function trackedVideo(workspaceId: string) {
  const id = `job${String(++seq).padStart(8, "0")}`;
  const video = await prisma.video.create({
    data: { platform: "platformB", platformVideoId: id, url: `https://www.youtube.com/watch?v=${id}` },
  });
  await prisma.trackedVideo.create({ data: { workspaceId, videoId: video.id } });
  return video;
}

async function standIn(name: string, body: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return path;
}

describe("idempotent scrapes", () => {
  it("running the scrape handler twice (a retry) leaves one snapshot for the day, updated by the later scrape", async () => {
    const ws = await newWorkspace();
    const video = await trackedVideo(ws.workspaceId);
    let now = new Date("2026-11-22T08:00:00.000Z");
    const clock = () => now;
    const provider = new SimulatedScrapeProvider({ now: clock });
    expect(await scrapeVideo(video.id, jobRun(0, 5), provider, clock)).toEqual({ status: "ready" });
    expect(await scrapeVideo(video.id, jobRun(1, 5), provider, clock)).toEqual({ status: "ready" });
    let snaps = await prisma.videoSnapshot.findMany({ where: { videoId: video.id } });
    expect(snaps).toHaveLength(1);
    const first = snaps[0]!;
    expect(first.source).toBe("simulated");

    now = new Date("2026-11-22T20:00:00.000Z");
    await scrapeVideo(video.id, jobRun(0, 5), provider, clock);
    snaps = await prisma.videoSnapshot.findMany({ where: { videoId: video.id } });
    expect(snaps).toHaveLength(1);
    expect(snaps[0]!.day.toISOString().slice(0, 10)).toBe("2026-11-22");
    expect(snaps[0]!.viewCount! >= first.viewCount!).toBe(true);

    // The next day adds a row; the stored record has the day's numbers and its engagement rate.
    now = new Date("2026-11-23T09:00:00.000Z");
    await scrapeVideo(video.id, jobRun(0, 5), provider, clock);
    expect(await prisma.videoSnapshot.count({ where: { videoId: video.id } })).toBe(2);
    const stored = await prisma.video.findUniqueOrThrow({ where: { id: video.id } });
    expect(stored).toMatchObject({ scrapeStatus: "ready", dataSource: "simulated", scrapeError: null });
    expect(stored.lastScrapedAt!.toISOString()).toBe("2026-11-23T09:00:00.000Z");
    const { engagementRate } = await import("../../src/domain/tracking/engagement.js");
    expect(stored.engagementRate).toBe(engagementRate(stored));

    // An older result finishing late (a stale retry) never overwrites newer numbers.
    const latest = stored.viewCount;
    now = new Date("2026-11-22T21:00:00.000Z");
    expect(await scrapeVideo(video.id, jobRun(0, 5), provider, clock)).toEqual({ status: "stale" });
    expect((await prisma.video.findUniqueOrThrow({ where: { id: video.id } })).viewCount).toBe(latest);
  });

  it("an account scrape run twice tracks its videos once and keeps one snapshot per account and day", async () => {
    const ws = await newWorkspace();
    await trackAccount(ws.workspaceId, "https://www.tiktok.com/@twice.scraped", 6);
    const account = await prisma.account.findFirstOrThrow({ where: { username: "twice.scraped" } });
    const provider = new SimulatedScrapeProvider();
    expect((await scrapeAccount(account.id, jobRun(0, 5, "acc"), provider)).tracked).toBe(6);
    expect((await scrapeAccount(account.id, jobRun(0, 5, "acc"), provider)).tracked).toBe(0);
    expect(await prisma.trackedVideo.count({ where: { workspaceId: ws.workspaceId } })).toBe(6);
    expect(await prisma.accountSnapshot.count({ where: { accountId: account.id } })).toBe(1);
    const videoIds = (await prisma.trackedVideo.findMany({ where: { workspaceId: ws.workspaceId }, select: { videoId: true } })).map(
      (t) => t.videoId,
    );
    expect(await prisma.videoSnapshot.count({ where: { videoId: { in: videoIds } } })).toBe(6);
    expect((await prisma.workspace.findUniqueOrThrow({ where: { id: ws.workspaceId } })).trackedVideoCount).toBe(6);

    // video_limit caps the account's tracked videos: a lower limit adds nothing (and removes
    // nothing), a higher one adds the next newest.
    await prisma.trackedAccount.updateMany({ where: { accountId: account.id }, data: { videoLimit: 3 } });
    expect((await scrapeAccount(account.id, jobRun(0, 5, "acc"), provider)).tracked).toBe(0);
    await prisma.trackedAccount.updateMany({ where: { accountId: account.id }, data: { videoLimit: 8 } });
    expect((await scrapeAccount(account.id, jobRun(0, 5, "acc"), provider)).tracked).toBe(2);
    const newest8 = (
      await prisma.video.findMany({ where: { accountId: account.id }, orderBy: { postedAt: "desc" }, take: 8, select: { id: true } })
    ).map((v) => v.id);
    const trackedNow = (await prisma.trackedVideo.findMany({ where: { workspaceId: ws.workspaceId }, select: { videoId: true } })).map(
      (t) => t.videoId,
    );
    expect(trackedNow.sort()).toEqual(newest8.sort());
  });

  it("a worker process SIGKILLed mid-scrape: another worker picks the job up, and the video gets exactly one snapshot", async () => {
    const ws = await newWorkspace();
    const video = await trackedVideo(ws.workspaceId);
    // A slow yt-dlp stand-in, so the kill lands while the scrape is in flight.
    const slow = await standIn("slow-ytdlp", `sleep 4\ncat '${FIXTURE}'`);
    // The killed worker's job is taken over after its lock expires (10 s by default): 5 s here, still far longer than
    // a loaded machine's pauses, so the worker taking over keeps its own lock.
    const env = { SCRAPE_PROVIDER: "ytdlp", YTDLP_PATH: slow, SCRAPE_LOCK_MS: "5000", SCRAPE_STALLED_INTERVAL_MS: "1000" };
    const first = await spawnService("worker", env);
    await enqueueVideoScrape(video.id, "crash-test");
    await waitUntil(
      "the video's scrape state",
      () => prisma.video.findUniqueOrThrow({ where: { id: video.id } }),
      (v) => v.scrapeStatus === "scraping",
    );
    await first.stop("SIGKILL");
    expect((await prisma.video.findUniqueOrThrow({ where: { id: video.id } })).scrapeStatus).toBe("scraping");
    const second = await spawnService("worker", env);
    try {
      const done = await waitUntil(
        "the video's scrape state",
        () => prisma.video.findUniqueOrThrow({ where: { id: video.id } }),
        (v) => v.scrapeStatus === "ready",
        50_000,
      );
      expect(done.dataSource).toBe("ytdlp");
      expect(done.description).toContain("cookie");
      expect(done.scrapeAttempts).toBe(0);
      expect(await prisma.videoSnapshot.count({ where: { videoId: video.id } })).toBe(1);
      const job = await queue("scrape").getJob(`video-${video.id}-crash-test`);
      // The job is marked completed just after the video is written (polled: on a loaded machine it can lag).
      await expect.poll(() => job?.getState(), { timeout: 10_000 }).toBe("completed");
    } finally {
      await second.stop();
    }
  }, 90_000);
});

describe("failing scrapes", () => {
  it("a source that says the video is gone fails it at once (no retries), with the reason kept", async () => {
    const ws = await newWorkspace();
    const video = await trackedVideo(ws.workspaceId);
    const gone = await standIn("gone-ytdlp", `echo "ERROR: [youtube] ${video.platformVideoId}: Video unavailable" >&2\nexit 1`);
    const provider = new YtdlpScrapeProvider({ path: gone, timeoutMs: 10_000, concurrency: 1 });
    await expect(scrapeVideo(video.id, jobRun(0, 5), provider)).rejects.toThrow(/Video unavailable/);
    const v = await prisma.video.findUniqueOrThrow({ where: { id: video.id } });
    expect(v.scrapeStatus).toBe("failed");
    expect(v.scrapeError).toMatch(/not available at the source.*Video unavailable/s);
  });

  it("a retryable failure goes back to queued with the reason, and ends in failed after the last attempt (through a real worker)", async () => {
    const ws = await newWorkspace();
    const video = await trackedVideo(ws.workspaceId);
    let calls = 0;
    const broken: ScrapeProvider = {
      name: "simulated",
      scrapeVideo: async () => {
        calls++;
        throw new ProviderError("simulated", `source answered 503 (call ${calls})`, true);
      },
      scrapeAccount: async () => {
        throw new Error("unused");
      },
    };
    // One retry on the way: the record is queued again with the reason.
    await expect(scrapeVideo(video.id, jobRun(0, 3), broken)).rejects.toThrow(/503/);
    expect(await prisma.video.findUniqueOrThrow({ where: { id: video.id } })).toMatchObject({
      scrapeStatus: "queued",
      scrapeError: expect.stringMatching(/503/),
    });

    const def = trackingJobs();
    const workers = await startWorkers([
      { ...def, schedules: [], handlers: { "scrape-video": (job, run) => scrapeVideo(job.data.videoId, run, broken) } },
    ]);
    try {
      await enqueueVideoScrape(video.id, "retry-test", { attempts: 3, backoff: { type: "fixed", delay: 50 } });
      const failed = await waitUntil(
        "the video's scrape state",
        () => prisma.video.findUniqueOrThrow({ where: { id: video.id } }),
        (v) => v.scrapeStatus === "failed",
      );
      expect(failed.scrapeError).toMatch(/source answered 503/);
      expect(failed.scrapeAttempts).toBe(4); // 1 direct call above + 3 attempts of the job
      const jobId = `video-${video.id}-retry-test`;
      // The record is failed inside the last attempt, a moment before BullMQ moves the job; the job is
      // read again once failed (a Job object read earlier keeps the attempt count it was read with).
      await waitUntil(
        "the job to fail",
        async () => (await queue("scrape").getJob(jobId))!.getState(),
        (state) => state === "failed",
        10_000,
      );
      expect((await queue("scrape").getJob(jobId))?.attemptsMade).toBe(3);
      await new Promise((r) => setTimeout(r, 300));
      expect(calls).toBe(4); // no silent loop after the last attempt
    } finally {
      await workers.close();
    }
  });

  it("a video that was ready stays ready with its numbers when a later refresh fails", async () => {
    const ws = await newWorkspace();
    const video = await trackedVideo(ws.workspaceId);
    await scrapeVideo(video.id, jobRun(0, 5), new SimulatedScrapeProvider());
    const before = await prisma.video.findUniqueOrThrow({ where: { id: video.id } });
    const gone = await standIn("gone2-ytdlp", `echo "ERROR: Private video" >&2\nexit 1`);
    await expect(scrapeVideo(video.id, jobRun(4, 5), new YtdlpScrapeProvider({ path: gone, concurrency: 1 }))).rejects.toThrow();
    const after = await prisma.video.findUniqueOrThrow({ where: { id: video.id } });
    expect(after).toMatchObject({
      scrapeStatus: "ready",
      viewCount: before.viewCount,
      scrapeError: expect.stringMatching(/Private video/),
    });
  });
});

describe("daily snapshots", () => {
  it("the daily fill adds one snapshot per scraped tracked account and day, with the scrape's source and time; re-runs add nothing; videos are not filled", async () => {
    const ws = await newWorkspace();
    await trackAccount(ws.workspaceId, "https://www.youtube.com/@daily.fill", 2);
    const account = await prisma.account.findFirstOrThrow({ where: { username: "daily.fill" } });
    const scrapedAt = new Date("2026-11-20T10:00:00.000Z");
    await scrapeAccount(account.id, jobRun(0, 5), new SimulatedScrapeProvider({ now: () => scrapedAt }), () => scrapedAt);
    const videoIds = (await prisma.trackedVideo.findMany({ where: { workspaceId: ws.workspaceId }, select: { videoId: true } })).map(
      (t) => t.videoId,
    );
    const day = new Date("2026-11-21T00:30:00.000Z");
    const r1 = await fillDailySnapshots(day);
    const r2 = await fillDailySnapshots(day);
    expect(r1.accounts).toBeGreaterThanOrEqual(1);
    expect(r2.accounts).toBe(0);
    const snaps = await prisma.accountSnapshot.findMany({ where: { accountId: account.id }, orderBy: { day: "asc" } });
    expect(snaps.map((s) => s.day.toISOString().slice(0, 10))).toEqual(["2026-11-20", "2026-11-21"]);
    expect(snaps[1]).toMatchObject({ source: "simulated", capturedAt: scrapedAt, followerCount: snaps[0]!.followerCount });
    // A copied day is no point of the history: the account has one point, the videos one day each.
    expect(await prisma.accountMetricPoint.count({ where: { accountId: account.id } })).toBe(1);
    expect(await prisma.videoSnapshot.count({ where: { videoId: { in: videoIds }, day: new Date("2026-11-21") } })).toBe(0);
  });
});
