/**
 * Owner accounts: every successful video scrape links the video to its author's account (created,
 * not tracked), on every platform, with the simulated provider and with yt-dlp's output (the
 * fixtures, through a stand-in program); the untracked owner stays invisible to REST account routes
 * until the workspace tracks it (then `added`); and the migration's backfill links existing videos.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, gql, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { jobRun } from "../helpers/jobs.js";
import { prisma, pgPool } from "../../src/infra/db.js";
import { scrapeVideo } from "../../src/domain/tracking/scrape-jobs.js";
import { ownerHandle } from "../../src/domain/tracking/scrape-store.js";
import { SimulatedScrapeProvider } from "../../src/providers/scrape/simulated.js";
import { YtdlpScrapeProvider } from "../../src/providers/scrape/ytdlp.js";
import type { RunningApi } from "../../src/main/server.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FIXTURES = join(import.meta.dirname, "../fixtures/ytdlp");
const MIGRATION = join(import.meta.dirname, "../../prisma/migrations/20261124120000_metric_history_refresh/migration.sql");

let api: RunningApi;
let dir: string;
beforeAll(async () => {
  api = await startTestApi();
  dir = await mkdtemp(join(tmpdir(), "owner-accounts-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await stopAll(api);
});

/** Tracks the URL through the API (no worker runs: the test scrapes it). */
async function tracked(key: string, url: string): Promise<string> {
  const r = await client(api.url, key).post("/api/v1/videos", { url });
  expect(r.status).toBe(201);
  return r.body.data.videoId;
}

describe("every successful scrape links the video to its owner account", () => {
  it("simulated provider, every platform: canonicalAccountId is a UUID after the first scrape; the owner is untracked, visible only through the video until tracked", async () => {
    const ws = await newWorkspace();
    const c = client(api.url, ws.key);
    const urls = [
      "https://www.tiktok.com/@owner.a/video/7311111111111111111",
      "https://youtu.be/ownerBvid01",
      "https://www.instagram.com/reel/OwnerCreel1/",
    ];
    for (const url of urls) {
      const id = await tracked(ws.key, url);
      expect((await c.get(`/api/v1/videos/${id}`)).body.data.canonicalAccountId).toBeNull();
      await scrapeVideo(id, jobRun(0, 3), new SimulatedScrapeProvider());
      const v = (await c.get(`/api/v1/videos/${id}`)).body.data;
      expect(v.canonicalAccountId).toMatch(UUID);
      const account = await prisma.account.findUniqueOrThrow({ where: { id: v.canonicalAccountId } });
      expect(account).toMatchObject({ platform: v.type, username: v.username, nextRefreshAt: null });
      expect(await prisma.trackedAccount.count({ where: { accountId: account.id } })).toBe(0);
      // Not tracked: REST account routes answer 404; GraphQL shows it through the video, without tracking.
      expect((await c.get(`/api/v1/accounts/${account.id}`)).status).toBe(404);
      expect((await c.get(`/api/v1/accounts/${account.id}/history`)).status).toBe(404);
      expect((await c.get(`/api/v1/accounts/${account.id}/videos`)).status).toBe(404);
      const g = await gql(
        api.url,
        ws.key,
        `query($id: ID!) { video(id: $id) { account { uuid username tracking { videoLimit } history { totalCount } } } }`,
        { id },
      );
      expect(g.body.data.video.account).toEqual({ uuid: account.id, username: v.username, tracking: null, history: null });
    }
    // Tracking an owner account that exists untracked: `added`, and from then on it is the workspace's.
    const owner = (await c.get("/api/v1/videos")).body.data.find((v: any) => v.type === "platformA");
    const r = await c.post("/api/v1/accounts", { url: "https://www.tiktok.com/@owner.a", video_limit: 1 });
    expect(r.body.data).toEqual({ added: ["owner.a"], alreadyTracked: [], failed: [] });
    expect((await c.get(`/api/v1/accounts/${owner.canonicalAccountId}`)).status).toBe(200);
    expect((await c.get(`/api/v1/accounts/${owner.canonicalAccountId}/history`)).status).toBe(200);
    // Another workspace still sees nothing of it.
    const other = await newWorkspace();
    expect((await client(api.url, other.key).get(`/api/v1/accounts/${owner.canonicalAccountId}`)).status).toBe(404);
  });

  it("yt-dlp provider on each platform's real output (fixtures): the author named by the source is the owner", async () => {
    const ws = await newWorkspace();
    const cases: Array<[url: string, fixture: string, username: string]> = [
      ["https://www.tiktok.com/@chef.marta/video/7350269128141550069", "tiktok-video.json", "chef.marta"],
      ["https://www.youtube.com/shorts/aBcD3fGh1jK", "youtube-short.json", "sweetbytes"],
      ["https://www.youtube.com/watch?v=Zx9Kq2LmN0p", "youtube-video-2023.json", "lumenwavesofficial"],
      ["https://www.instagram.com/reel/C5aB3dEfGhI/", "instagram-reel.json", "natgeo"],
    ];
    for (const [url, fixture, username] of cases) {
      const program = join(dir, fixture.replace(".json", ".sh"));
      await writeFile(program, `#!/bin/sh\ncat '${join(FIXTURES, fixture)}'\n`, { mode: 0o755 });
      const id = await tracked(ws.key, url);
      expect(await scrapeVideo(id, jobRun(0, 3), new YtdlpScrapeProvider({ path: program, timeoutMs: 10_000, concurrency: 1 }))).toEqual({
        status: "ready",
      });
      const v = await prisma.video.findUniqueOrThrow({ where: { id }, include: { account: true } });
      expect(v.account, fixture).toMatchObject({ username, platform: v.platform });
      expect(v.dataSource).toBe("ytdlp");
      expect(await prisma.videoMetricPoint.count({ where: { videoId: id, source: "ytdlp" } })).toBe(1);
    }
  });

  it("two videos of one author share one owner account; a concurrent first scrape of both creates it once", async () => {
    const ws = await newWorkspace();
    const ids = [
      await tracked(ws.key, "https://www.tiktok.com/@same.author/video/7322222222222222221"),
      await tracked(ws.key, "https://www.tiktok.com/@same.author/video/7322222222222222222"),
    ];
    await Promise.all(ids.map((id) => scrapeVideo(id, jobRun(0, 3), new SimulatedScrapeProvider())));
    const videos = await prisma.video.findMany({ where: { id: { in: ids } } });
    expect(new Set(videos.map((v) => v.accountId)).size).toBe(1);
    expect(videos[0]!.accountId).toMatch(UUID);
    expect(await prisma.account.count({ where: { username: "same.author" } })).toBe(1);
  });

  it("a handle of the wrong form, or platform A's placeholder, is no owner", () => {
    expect(ownerHandle("platformA", "Chef.Marta")).toBe("chef.marta");
    expect(ownerHandle("platformA", "_")).toBe("");
    expect(ownerHandle("platformA", "")).toBe("");
    expect(ownerHandle("platformB", "ab")).toBe("");
    expect(ownerHandle("platformC", "reels")).toBe("");
    expect(ownerHandle("platformC", "bad..name")).toBe("");
    expect(ownerHandle("platformC", "natgeo")).toBe("natgeo");
  });
});

describe("the migration's backfill", () => {
  /** The statements of the migration that start with `prefix` (it is split on `;` as the driver adapter splits it). */
  function statements(prefix: string): string[] {
    return readFileSync(MIGRATION, "utf8")
      .split(";")
      .map((s) => s.replace(/^(\s*--[^\n]*\n)*/g, "").trim())
      .filter((s) => s.startsWith(prefix));
  }

  it("links existing videos to owner accounts (created when missing) on every platform, leaving handles of the wrong form alone", async () => {
    const existing = await prisma.account.create({ data: { platform: "platformB", username: "already.there" } });
    const rows: Array<[platform: "platformA" | "platformB" | "platformC", id: string, username: string]> = [
      ["platformA", "7333333333333333331", "backfill.a"],
      ["platformA", "7333333333333333332", "backfill.a"],
      ["platformA", "7333333333333333333", "_"],
      ["platformB", "bfBvideo001", "already.there"],
      ["platformB", "bfBvideo002", "ab"],
      ["platformC", "BfCreel0001", "backfill_c"],
      ["platformC", "BfCreel0002", "reels"],
      ["platformC", "BfCreel0003", ""],
    ];
    for (const [platform, platformVideoId, username] of rows) {
      await prisma.video.create({ data: { platform, platformVideoId, url: `https://example.invalid/${platformVideoId}`, username } });
    }
    const [insert] = statements(`INSERT INTO "accounts"`);
    const [update] = statements(`UPDATE "videos" v SET "account_id"`);
    expect(insert).toBeDefined();
    expect(update).toBeDefined();
    await pgPool.query(insert!);
    await pgPool.query(update!);
    const linked = await prisma.video.findMany({ where: { platformVideoId: { in: rows.map((r) => r[1]) } }, include: { account: true } });
    const by = new Map(linked.map((v) => [v.platformVideoId, v.account]));
    expect(by.get("7333333333333333331")).toMatchObject({ platform: "platformA", username: "backfill.a" });
    expect(by.get("7333333333333333332")!.id).toBe(by.get("7333333333333333331")!.id);
    expect(by.get("bfBvideo001")!.id).toBe(existing.id);
    expect(by.get("BfCreel0001")).toMatchObject({ platform: "platformC", username: "backfill_c" });
    for (const id of ["7333333333333333333", "bfBvideo002", "BfCreel0002", "BfCreel0003"]) expect(by.get(id), id).toBeNull();
    // Created untracked and unscheduled; running it again changes nothing.
    expect(await prisma.account.findFirstOrThrow({ where: { username: "backfill.a" } })).toMatchObject({
      nextRefreshAt: null,
      scrapeStatus: "queued",
    });
    expect((await pgPool.query(insert!)).rowCount).toBe(0);
    expect((await pgPool.query(update!)).rowCount).toBe(0);
  });

  it("copies the window's daily rows that are real points into the points table, and schedules every tracked item that has not failed", async () => {
    const ws = await newWorkspace();
    const v = await prisma.video.create({
      data: {
        platform: "platformB",
        platformVideoId: "bfSched0001",
        url: "https://www.youtube.com/watch?v=bfSched0001",
        scrapeStatus: "ready",
      },
    });
    const failed = await prisma.video.create({
      data: {
        platform: "platformB",
        platformVideoId: "bfSched0002",
        url: "https://www.youtube.com/watch?v=bfSched0002",
        scrapeStatus: "failed",
      },
    });
    await prisma.trackedVideo.createMany({
      data: [
        { workspaceId: ws.workspaceId, videoId: v.id },
        { workspaceId: ws.workspaceId, videoId: failed.id },
      ],
    });
    await prisma.video.updateMany({ where: { id: { in: [v.id, failed.id] } }, data: { nextRefreshAt: null } });
    const today = new Date(new Date().toISOString().slice(0, 10));
    const yesterday = new Date(today.getTime() - 86_400_000);
    await pgPool.query(
      `INSERT INTO video_snapshots (video_id, day, captured_at, source, view_count) VALUES
      ($1, $2::date, $3, 'simulated', 10), ($1, $4::date, $3, 'simulated', 10)`,
      [v.id, yesterday.toISOString().slice(0, 10), new Date(yesterday.getTime() + 3_600_000), today.toISOString().slice(0, 10)],
    );
    for (const s of statements(`INSERT INTO "video_metric_points"`)) await pgPool.query(s);
    for (const s of statements(`UPDATE "videos" v SET "next_refresh_at"`)) await pgPool.query(s);
    // Yesterday's row is a point; today's is a copy of it (captured yesterday): not a second point.
    expect((await prisma.videoMetricPoint.findMany({ where: { videoId: v.id } })).map((p) => p.capturedAt)).toEqual([
      new Date(yesterday.getTime() + 3_600_000),
    ]);
    const next = (await prisma.video.findUniqueOrThrow({ where: { id: v.id } })).nextRefreshAt!;
    expect(next.getTime()).toBeGreaterThanOrEqual(Date.now() - 60_000);
    expect(next.getTime()).toBeLessThanOrEqual(Date.now() + 3_600_000);
    expect((await prisma.video.findUniqueOrThrow({ where: { id: failed.id } })).nextRefreshAt).toBeNull();
  });
});
