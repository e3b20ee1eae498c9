/**
 * No event lost on a retried scrape: `video.spike` and `account.video_discovered`
 * are recorded in the outbox with the write that causes them (src/domain/tracking/scrape-store.ts), so
 * a job that fails right after that write (here: the announcement that follows it throws, as a worker
 * dying there would leave it) and is then retried, finding its work served, still delivers the event,
 * once (relayed at once or by the outbox's sweep).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { newWorkspace, stopAll } from "../helpers/api.js";
import { prisma } from "../../src/infra/db.js";
import { subscribed } from "../../src/infra/events.js";
import type { WorkspaceEvent } from "../../src/domain/shared/workspace-events.js";
import { sweepOutbox, watchWorkspaceEvents } from "../../src/domain/webhooks/outbox.js";
import { scrapeAccount, scrapeVideo } from "../../src/domain/tracking/scrape-jobs.js";
import { trackAccount } from "../../src/domain/tracking/accounts.js";
import { simulateVideo } from "../../src/providers/scrape/simulated.js";
import type { JobRun } from "../../src/domain/shared/jobs.js";
import type { ScrapedAccount, ScrapedVideo, ScrapeProvider, VideoRef } from "../../src/domain/tracking/ports.js";

/** Armed faults: the next such announcement throws (after the store, before the events' old write point). */
const faults = vi.hoisted(() => ({ videoReady: false, tracking: false }));
vi.mock("../../src/domain/tracking/events.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/domain/tracking/events.js")>();
  return {
    ...real,
    announceVideo: async (videoId: string, status: string) => {
      if (status === "ready" && faults.videoReady) {
        faults.videoReady = false;
        throw new Error("injected failure after the store");
      }
      return real.announceVideo(videoId, status);
    },
    announceTracking: async (...args: Parameters<typeof real.announceTracking>) => {
      if (faults.tracking) {
        faults.tracking = false;
        throw new Error("injected failure after the videos were tracked");
      }
      return real.announceTracking(...args);
    },
  };
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const run = (attempt: number, queuedAt: Date): JobRun => ({ attempt, maxAttempts: 3, starts: attempt, queuedAt });

const stops: Array<() => void> = [];
afterAll(async () => {
  for (const stop of stops) stop();
  await stopAll();
});

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
  stops.push(() => {
    stopped = true;
    void it.return?.();
  });
  await new Promise((r) => setTimeout(r, 20));
  await subscribed();
  return events;
}
const settle = () => new Promise((r) => setTimeout(r, 400));

async function storedEvents(workspaceId: string, type: string) {
  return prisma.workspaceEventRecord.findMany({ where: { workspaceId, type } });
}

describe("video.spike survives a failure right after the store", () => {
  it("the retried job is served (fresh) and the event is delivered once", async () => {
    const owner = await prisma.account.create({ data: { platform: "platformB", username: "crash.spiky" } });
    for (let i = 0; i < 5; i++) {
      await prisma.video.create({
        data: {
          platform: "platformB",
          platformVideoId: `crashOther${i}`,
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
        platformVideoId: "crashSpike1",
        url: "https://www.youtube.com/watch?v=crashSpike1",
        accountId: owner.id,
      },
    });
    const ws = await newWorkspace();
    await prisma.trackedVideo.create({ data: { workspaceId: ws.workspaceId, videoId: video.id } });
    const seen = await watch(ws.workspaceId);

    let views = 2000;
    const provider: ScrapeProvider = {
      name: "simulated",
      scrapeVideo: async (ref: VideoRef) => ({
        ...simulateVideo(ref, new Date()),
        viewCount: views,
        username: "crash.spiky",
        postedAt: new Date(Date.now() - 2 * DAY),
      }),
      scrapeAccount: async () => {
        throw new Error("unused");
      },
    };
    let t = Date.now();
    expect(await scrapeVideo(video.id, run(1, new Date(t)), provider, () => new Date((t += HOUR)))).toEqual({ status: "ready" });

    views = 5000; // outlier score 5: crosses the threshold (3)
    const queuedAt = new Date(t + 1000);
    faults.videoReady = true;
    await expect(scrapeVideo(video.id, run(1, queuedAt), provider, () => new Date((t += HOUR)))).rejects.toThrow(/injected/);
    expect(await scrapeVideo(video.id, run(2, queuedAt), provider, () => new Date((t += HOUR)))).toEqual({ status: "fresh" });
    await sweepOutbox();
    await settle();

    const events = await storedEvents(ws.workspaceId, "video.spike");
    expect(events).toHaveLength(1);
    expect(events[0]!.relayedAt).not.toBeNull();
    expect(events[0]!.data).toMatchObject({
      videoId: video.id,
      accountId: owner.id,
      outlierScore: 5,
      previousOutlierScore: 2,
      threshold: 3,
      viewCount: 5000,
    });
    expect(seen.filter((e) => e.type === "video.spike")).toHaveLength(1);
  });
});

describe("account.video_discovered survives a failure right after the videos are tracked", () => {
  it("the retried account scrape discovers nothing more and the event is delivered once", async () => {
    const ws = await newWorkspace();
    await trackAccount(ws.workspaceId, "https://www.youtube.com/@crash.discover", 10);
    const account = await prisma.account.findFirstOrThrow({ where: { username: "crash.discover" } });
    const seen = await watch(ws.workspaceId);

    const t1 = new Date();
    const listed = [{ id: "crashDisc01", postedAt: new Date(t1.getTime() - DAY) }];
    const video = (id: string, postedAt: Date): ScrapedVideo => ({
      ...simulateVideo({ platform: "platformB", platformVideoId: id, canonicalUrl: `https://www.youtube.com/watch?v=${id}` }, new Date()),
      username: "crash.discover",
      postedAt,
      partial: true,
    });
    const profile: ScrapedAccount = {
      platform: "platformB",
      username: "crash.discover",
      platformAccountId: null,
      displayName: "",
      avatarUrl: "",
      followerCount: 1,
      videoCount: null,
      totalViews: 10,
    };
    const provider: ScrapeProvider = {
      name: "simulated",
      scrapeVideo: async () => {
        throw new Error("unused");
      },
      scrapeAccount: async (_ref, opts) => ({
        account: profile,
        videos: listed.slice(0, opts.maxVideos).map((v) => video(v.id, v.postedAt)),
      }),
    };
    expect(await scrapeAccount(account.id, run(1, t1), provider, () => t1)).toMatchObject({ status: "ready", discovered: 0 });

    const posted = new Date(Date.now() + 1000);
    listed.unshift({ id: "crashDisc02", postedAt: posted });
    const t2 = new Date(posted.getTime() + HOUR);
    faults.tracking = true;
    await expect(scrapeAccount(account.id, run(1, t2), provider, () => t2)).rejects.toThrow(/injected/);
    expect(await scrapeAccount(account.id, run(2, t2), provider, () => new Date(t2.getTime() + 1000))).toMatchObject({
      status: "ready",
      discovered: 0,
    });
    await sweepOutbox();
    await settle();

    const v2 = await prisma.video.findFirstOrThrow({ where: { platformVideoId: "crashDisc02" } });
    const events = await storedEvents(ws.workspaceId, "account.video_discovered");
    expect(events).toHaveLength(1);
    expect(events[0]!.relayedAt).not.toBeNull();
    expect(events[0]!.data).toMatchObject({ accountId: account.id, videoId: v2.id, postedAt: posted.toISOString() });
    expect(seen.filter((e) => e.type === "account.video_discovered")).toHaveLength(1);
  });
});
