/**
 * Handed-back work stops: when the job runner takes a job back (its signal aborts,
 * src/jobs/worker.ts) the scrape passes the signal to its provider (and so to the yt-dlp budget and
 * program) and stores nothing, so the run elsewhere does not make a second history point; a webhook
 * delivery abandons its request and records nothing.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.WEBHOOK_ALLOW_PRIVATE = "true";
  process.env.WEBHOOK_SECRET_KEY = "integrity-test-webhook-key-0123456789abcdef";
  process.env.WEBHOOK_TIMEOUT_MS = "10000";
});

import type { ServerResponse } from "node:http";
import { newWorkspace, stopAll } from "../helpers/api.js";
import { prisma } from "../../src/infra/db.js";
import { scrapeVideo } from "../../src/domain/tracking/scrape-jobs.js";
import { simulateVideo, SimulatedScrapeProvider } from "../../src/providers/scrape/simulated.js";
import type { ScrapeProvider, VideoRef } from "../../src/domain/tracking/ports.js";
import type { JobRun } from "../../src/domain/shared/jobs.js";
import { createWebhook, listDeliveries } from "../../src/domain/webhooks/service.js";
import { deliverWebhook } from "../../src/domain/webhooks/delivery.js";
import { emitWorkspaceEvents } from "../../src/domain/webhooks/outbox.js";
import { HttpWebhookSender } from "../../src/providers/webhooks/http.js";
import { startReceiver, waitFor, type Receiver } from "../webhooks/receiver.js";

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await stopAll();
});

const runWith = (signal: AbortSignal): JobRun => ({ attempt: 1, maxAttempts: 3, starts: 1, signal });

describe("a handed-back scrape", () => {
  it("stores no history point, even when its provider answers after the hand-back; the run elsewhere stores one", async () => {
    const video = await prisma.video.create({
      data: { platform: "platformB", platformVideoId: "handedBack1", url: "https://www.youtube.com/watch?v=handedBack1" },
    });
    const ws = await newWorkspace();
    await prisma.trackedVideo.create({ data: { workspaceId: ws.workspaceId, videoId: video.id } });
    const hand = new AbortController();
    let seen: AbortSignal | undefined;
    // A provider that finishes anyway, just after the job was handed back.
    const late: ScrapeProvider = {
      name: "simulated",
      scrapeVideo: async (ref: VideoRef, opts) => {
        seen = opts?.signal;
        hand.abort();
        return simulateVideo(ref, new Date());
      },
      scrapeAccount: async () => {
        throw new Error("unused");
      },
    };
    await expect(scrapeVideo(video.id, runWith(hand.signal), late)).rejects.toThrow(/handed back/);
    expect(seen).toBe(hand.signal);
    expect(await prisma.videoMetricPoint.count({ where: { videoId: video.id } })).toBe(0);
    expect((await prisma.video.findUniqueOrThrow({ where: { id: video.id } })).scrapeError).toBeNull();
    // The run elsewhere.
    expect(await scrapeVideo(video.id, runWith(new AbortController().signal), new SimulatedScrapeProvider())).toEqual({ status: "ready" });
    expect(await prisma.videoMetricPoint.count({ where: { videoId: video.id } })).toBe(1);
  });

  it("the providers stop on the signal", async () => {
    const stopped = AbortSignal.abort();
    const ref = {
      platform: "platformB" as const,
      platformVideoId: "handedBack2",
      canonicalUrl: "https://www.youtube.com/watch?v=handedBack2",
    };
    await expect(new SimulatedScrapeProvider().scrapeVideo(ref, { signal: stopped })).rejects.toThrow();
    await expect(
      new SimulatedScrapeProvider().scrapeAccount(
        { platform: "platformB", username: "someone", canonicalUrl: "https://www.youtube.com/@someone" },
        { maxVideos: 1, signal: stopped },
      ),
    ).rejects.toThrow();
  });
});

describe("a handed-back webhook delivery", () => {
  it("abandons its request at once and records nothing; the attempt is made again later", async () => {
    const ws = await newWorkspace();
    const { webhook } = await createWebhook(ws.workspaceId, { url: receiver.url("/handed"), events: ["video.spike"] });
    const held: ServerResponse[] = [];
    receiver.answer("/handed", (n) => (n === 1 ? (res) => held.push(res) : 200));
    await emitWorkspaceEvents([{ workspaceId: ws.workspaceId, type: "video.spike", data: {} }]);
    const { items } = await listDeliveries(ws.workspaceId, webhook.id, { limit: 10, offset: 0 });
    const hand = new AbortController();
    const attempt = deliverWebhook(items[0]!.id, 1, new HttpWebhookSender(), undefined, hand.signal);
    await waitFor("the request held", () => held.length === 1);
    const started = Date.now();
    hand.abort();
    await expect(attempt).rejects.toThrow(/handed back/);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: items[0]!.id } })).toMatchObject({
      status: "pending",
      attempts: 0,
    });
    expect(await deliverWebhook(items[0]!.id, 1, new HttpWebhookSender())).toEqual({ status: "delivered" });
    for (const res of held) res.destroy();
  });
});
