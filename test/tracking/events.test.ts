/**
 * Workspace events of the tracking area (emitted with emitWorkspaceEvents, the catalog the webhooks
 * deliver): `video.spike` when a stored scrape moves a video's outlier score across
 * SPIKE_OUTLIER_THRESHOLD (to every workspace tracking the video, and only to them), and
 * `account.video_discovered` when an account refresh finds a new video and tracks it within the
 * plan's limits (not for the first import of a newly tracked account).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newWorkspace, stopAll } from "../helpers/api.js";
import { jobRun } from "../helpers/jobs.js";
import { prisma } from "../../src/infra/db.js";
import { subscribed } from "../../src/infra/events.js";
import { type WorkspaceEvent } from "../../src/domain/shared/workspace-events.js";
import { watchWorkspaceEvents } from "../../src/domain/webhooks/outbox.js";
import { scrapeAccount, scrapeVideo } from "../../src/domain/tracking/scrape-jobs.js";
import { trackAccount } from "../../src/domain/tracking/accounts.js";
import { simulateVideo } from "../../src/providers/scrape/simulated.js";
import type { ScrapedAccount, ScrapedVideo, ScrapeProvider, VideoRef } from "../../src/domain/tracking/ports.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const watchers: Array<() => void> = [];
afterAll(async () => {
  for (const stop of watchers) stop();
  await stopAll();
});
beforeAll(async () => {
  await prisma.plan.create({ data: { name: "three", videoLimit: 3, monthlyCredits: 0 } });
});

/** Collects a workspace's events from now on. */
async function watch(workspaceId: string): Promise<WorkspaceEvent[]> {
  const events: WorkspaceEvent[] = [];
  const it = watchWorkspaceEvents(workspaceId)[Symbol.asyncIterator]();
  let stopped = false;
  void (async () => {
    while (!stopped) {
      const r = await it.next();
      if (r.done) return;
      events.push(r.value);
    }
  })();
  watchers.push(() => {
    stopped = true;
    void it.return?.();
  });
  await new Promise((r) => setTimeout(r, 20));
  await subscribed();
  return events;
}

const settle = () => new Promise((r) => setTimeout(r, 400));

/** A provider answering `views` for every video scrape. */
const videoViews = (views: () => number): ScrapeProvider => ({
  name: "simulated",
  scrapeVideo: async (ref: VideoRef) => ({
    ...simulateVideo(ref, new Date()),
    viewCount: views(),
    username: "spiky.creator",
    postedAt: new Date(Date.now() - 2 * DAY),
  }),
  scrapeAccount: async () => {
    throw new Error("unused");
  },
});

describe("video.spike", () => {
  it("goes to every workspace tracking the video when its outlier score crosses the threshold from below, once per crossing", async () => {
    const owner = await prisma.account.create({ data: { platform: "platformB", username: "spiky.creator" } });
    for (let i = 0; i < 5; i++) {
      await prisma.video.create({
        data: {
          platform: "platformB",
          platformVideoId: `spikyOther${i}`,
          url: "https://example.invalid",
          accountId: owner.id,
          viewCount: 1000,
          postedAt: new Date(Date.now() - (i + 3) * DAY),
        },
      });
    }
    const video = await prisma.video.create({
      data: {
        platform: "platformB",
        platformVideoId: "spikyVideo1",
        url: "https://www.youtube.com/watch?v=spikyVideo1",
        accountId: owner.id,
      },
    });
    const [a, b, outsider] = [await newWorkspace(), await newWorkspace(), await newWorkspace()];
    await prisma.trackedVideo.createMany({ data: [a, b].map((w) => ({ workspaceId: w.workspaceId, videoId: video.id })) });
    const [ea, eb, eo] = [await watch(a.workspaceId), await watch(b.workspaceId), await watch(outsider.workspaceId)];

    let views = 2000;
    const provider = videoViews(() => views);
    let t = Date.now();
    const scrape = async (n: number) => {
      views = n;
      t += HOUR;
      await scrapeVideo(video.id, jobRun(0, 3), provider, () => new Date(t));
      await settle();
    };
    await scrape(2000); // 2: below
    expect(ea).toHaveLength(0);
    await scrape(5000); // 5: crosses
    expect(ea).toHaveLength(1);
    expect(eb).toHaveLength(1);
    expect(eo).toHaveLength(0);
    expect(ea[0]).toMatchObject({
      workspaceId: a.workspaceId,
      type: "video.spike",
      data: {
        videoId: video.id,
        accountId: owner.id,
        outlierScore: 5,
        previousOutlierScore: 2,
        threshold: 3,
        viewCount: 5000,
        trackedVideoId: expect.any(String),
      },
      at: expect.any(String),
    });
    await scrape(6000); // still above: no new event
    expect(ea).toHaveLength(1);
    await scrape(2500); // back below
    await scrape(3000); // crosses again (at the threshold counts)
    expect(ea).toHaveLength(2);
    expect(eb).toHaveLength(2);
    expect(ea[1]!.data).toMatchObject({ outlierScore: 3, previousOutlierScore: 2.5 });
  });
});

/** An account whose listing the test controls (platform B ids, newest first). */
function listing(videos: () => Array<{ id: string; postedAt: Date }>): ScrapeProvider {
  const video = (id: string, postedAt: Date): ScrapedVideo => ({
    ...simulateVideo({ platform: "platformB", platformVideoId: id, canonicalUrl: `https://www.youtube.com/watch?v=${id}` }, new Date()),
    username: "discover.me",
    postedAt,
    partial: true,
  });
  const account: ScrapedAccount = {
    platform: "platformB",
    username: "discover.me",
    platformAccountId: null,
    displayName: "Discover",
    avatarUrl: "",
    followerCount: 10,
    videoCount: null,
    totalViews: 100,
  };
  return {
    name: "simulated",
    scrapeVideo: async () => {
      throw new Error("unused");
    },
    scrapeAccount: async (_ref, opts) => ({
      account,
      videos: videos()
        .slice(0, opts.maxVideos)
        .map((v) => video(v.id, v.postedAt)),
    }),
  };
}

describe("account.video_discovered", () => {
  it("an account refresh that finds a new video tracks it and announces it to workspaces that tracked the account before; not the first import, not beyond the plan", async () => {
    const first = await newWorkspace();
    const full = await newWorkspace("three");
    await trackAccount(first.workspaceId, "https://www.youtube.com/@discover.me", 10);
    await trackAccount(full.workspaceId, "https://www.youtube.com/@discover.me", 10);
    const account = await prisma.account.findFirstOrThrow({ where: { username: "discover.me" } });
    const [e1, eFull] = [await watch(first.workspaceId), await watch(full.workspaceId)];

    const t1 = new Date();
    const videos = [
      { id: "discovered3", postedAt: new Date(t1.getTime() - 1 * DAY) },
      { id: "discovered2", postedAt: new Date(t1.getTime() - 2 * DAY) },
      { id: "discovered1", postedAt: new Date(t1.getTime() - 3 * DAY) },
    ];
    const provider = listing(() => videos);
    const r1 = await scrapeAccount(account.id, jobRun(0, 3), provider, () => t1);
    expect(r1).toMatchObject({ status: "ready", tracked: 6, discovered: 0 });
    await settle();
    expect(e1).toHaveLength(0);

    // A workspace that starts tracking now gets the next scrape as its first import: no events.
    const late = await newWorkspace();
    await trackAccount(late.workspaceId, "https://www.youtube.com/@discover.me", 10);
    const eLate = await watch(late.workspaceId);

    const posted = new Date(Date.now() + 1000);
    videos.unshift({ id: "discovered4", postedAt: posted });
    const t2 = new Date(posted.getTime() + HOUR);
    const r2 = await scrapeAccount(account.id, jobRun(0, 3), provider, () => t2);
    expect(r2.discovered).toBe(1);
    await settle();
    const v4 = await prisma.video.findFirstOrThrow({ where: { platformVideoId: "discovered4" } });
    expect(e1).toEqual([
      {
        id: expect.any(String),
        workspaceId: first.workspaceId,
        type: "account.video_discovered",
        data: {
          accountId: account.id,
          username: "discover.me",
          platform: "platformB",
          videoId: v4.id,
          trackedVideoId: expect.any(String),
          postedAt: posted.toISOString(),
        },
        at: expect.any(String),
      },
    ]);
    expect(await prisma.trackedVideo.count({ where: { workspaceId: first.workspaceId, videoId: v4.id } })).toBe(1);
    // The late workspace tracked all four (its first import) without events; the full one had no room.
    expect(await prisma.trackedVideo.count({ where: { workspaceId: late.workspaceId } })).toBe(4);
    expect(eLate).toHaveLength(0);
    expect(await prisma.trackedVideo.count({ where: { workspaceId: full.workspaceId } })).toBe(3);
    expect(eFull).toHaveLength(0);
    // The same refresh run again discovers nothing more.
    expect((await scrapeAccount(account.id, jobRun(0, 3), provider, () => new Date(t2.getTime() + HOUR))).discovered).toBe(0);
  });
});
