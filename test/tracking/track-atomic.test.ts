/**
 * Tracking a video is one transaction (the global `videos` row and the workspace's `tracked_videos` row
 * commit together, or neither), and a retry after a failure still queues the scrape. The failure between
 * the two statements is real: a trigger on `tracked_videos` refuses the insert (as a crash or a lost
 * connection would end the request there). A video row left by such a crash before this rule (nobody tracks
 * it, never scraped) is also treated as new: the retry answers `isNew: true` and queues its scrape.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { newWorkspace, stopAll } from "../helpers/api.js";
import { sql, Prisma, pgPool } from "../../src/infra/db.js";
import { queue } from "../../src/infra/queues.js";
import { trackVideo } from "../../src/domain/tracking/videos.js";

const URL_ = (n: number) => `https://www.tiktok.com/@atomic.user/video/${7_420_000_000_000_000_000n + BigInt(n)}`;
const platformVideoId = (n: number) => String(7_420_000_000_000_000_000n + BigInt(n));

beforeAll(async () => {
  await pgPool.query(`
    CREATE FUNCTION refuse_tracking() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'crash between the statements'; END $$;`);
});
afterEach(async () => {
  await pgPool.query("DROP TRIGGER IF EXISTS refuse_tracking ON tracked_videos");
});
afterAll(() => stopAll());

const refuseTracking = () =>
  pgPool.query("CREATE TRIGGER refuse_tracking BEFORE INSERT ON tracked_videos FOR EACH ROW EXECUTE FUNCTION refuse_tracking()");

const videoRows = async (n: number) =>
  sql<{ id: string }>(Prisma.sql`SELECT id FROM videos WHERE platform_video_id = ${platformVideoId(n)}`);

async function scrapeQueued(videoId: string, trackedVideoId: string): Promise<boolean> {
  return (await queue("scrape").getJob(`video-${videoId}-track-${trackedVideoId}`)) !== undefined;
}

describe("tracking a video: one transaction, and the retry queues the scrape", () => {
  it("a failure of the tracking insert leaves no video row; the retry creates it, answers isNew and queues the scrape", async () => {
    const { workspaceId } = await newWorkspace();
    await refuseTracking();
    await expect(trackVideo(workspaceId, URL_(1))).rejects.toThrow(/crash between the statements/);
    expect(await videoRows(1)).toEqual([]);
    await pgPool.query("DROP TRIGGER refuse_tracking ON tracked_videos");

    const retry = await trackVideo(workspaceId, URL_(1));
    expect(retry.isNew).toBe(true);
    expect(await scrapeQueued(retry.videoId, retry.trackedVideoId)).toBe(true);
  });

  it("a video row nobody tracks and never scraped (an earlier crash's leftover): isNew and its scrape queued", async () => {
    const { workspaceId } = await newWorkspace();
    await sql(
      Prisma.sql`INSERT INTO videos (platform, platform_video_id, url, username) VALUES ('platformA', ${platformVideoId(2)}, ${URL_(2)}, 'atomic.user') RETURNING id`,
    );
    const r = await trackVideo(workspaceId, URL_(2));
    expect(r.isNew).toBe(true);
    expect(await scrapeQueued(r.videoId, r.trackedVideoId)).toBe(true);
  });

  it("a video another workspace tracks (its scrape queued there) is not new and queues nothing more", async () => {
    const [a, b] = [await newWorkspace(), await newWorkspace()];
    const first = await trackVideo(a.workspaceId, URL_(3));
    expect(first.isNew).toBe(true);
    const second = await trackVideo(b.workspaceId, URL_(3));
    expect(second).toMatchObject({ videoId: first.videoId, isNew: false });
    expect(await scrapeQueued(second.videoId, second.trackedVideoId)).toBe(false);
  });
});
