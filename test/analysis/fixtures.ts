/**
 * Fixtures for the analysis tests: tracked videos created directly in the database (tracking's
 * POST /videos is another area), credit helpers and polling.
 */
import { randomUUID } from "node:crypto";
import { prisma } from "../../src/infra/db.js";
import { charge, getBalance } from "../../src/domain/credits/service.js";
import { analyze } from "../../src/domain/analysis/service.js";
import { analysisJobId } from "../../src/domain/analysis/jobs.js";
import { queue } from "../../src/infra/queues.js";

export const DEMO_DESCRIPTION =
  "Do you know why your sourdough never rises? I tried this trick for a week and it changed everything. " +
  "Follow for more and check the link in my bio https://bakery.example.com/starter";

/** A video (simulated demo data unless told otherwise) tracked by `workspaceId`. */
export async function trackedVideo(
  workspaceId: string,
  opts: { description?: string; dataSource?: string | null; url?: string; hashtags?: string[] } = {},
): Promise<string> {
  const platformVideoId = String(7_000_000_000_000_000_000n + BigInt(Math.floor(Math.random() * 1e15)));
  const video = await prisma.video.create({
    data: {
      platform: "platformA",
      platformVideoId,
      url: opts.url ?? `https://www.tiktok.com/@demo/video/${platformVideoId}`,
      description: opts.description ?? DEMO_DESCRIPTION,
      hashtags: opts.hashtags ?? ["sourdough"],
      username: "demo",
      dataSource: opts.dataSource === undefined ? "simulated" : opts.dataSource,
      scrapeStatus: "ready",
      // Freshly scraped: a worker process's tracking refresh leaves it (and its description) alone.
      lastScrapedAt: new Date(),
    },
  });
  await trackExisting(workspaceId, video.id);
  return video.id;
}

/** Tracks an existing video for another workspace too. */
export async function trackExisting(workspaceId: string, videoId: string): Promise<void> {
  await prisma.trackedVideo.create({ data: { workspaceId, videoId } });
}

/** Spends credits so that exactly `left` remain available. */
export async function leaveCredits(workspaceId: string, left: number): Promise<void> {
  const b = await getBalance(workspaceId);
  const spend = b.totalRemaining - b.reserved - left;
  if (spend > 0) await charge({ workspaceId, amount: spend, idempotencyKey: `test-drain:${randomUUID()}`, reason: "test: drain credits" });
}

/** Analysis charges in the ledger (capture entries of analysis reservations). */
export async function analysisCharges(workspaceId: string) {
  const rows = await prisma.creditLedgerEntry.findMany({
    where: { workspaceId, kind: "charge", idempotencyKey: { startsWith: "reservation:" } },
  });
  return rows.map((r) => r.amount);
}

import { waitFor } from "../helpers/wait.js";
export { waitFor };

/** Waits until the video's latest analysis for the workspace is in one of `statuses`. */
export function waitForStatus(workspaceId: string, videoId: string, statuses: string[], timeoutMs = 60_000) {
  return waitFor(
    `analysis of ${videoId} to reach ${statuses.join("/")}`,
    async () => {
      const a = await prisma.videoAnalysis.findFirst({ where: { workspaceId, videoId }, orderBy: { createdAt: "desc" } });
      return a && statuses.includes(a.status) ? a : null;
    },
    timeoutMs,
  );
}

/**
 * Admits an analysis whose job is then lost (the queue is paused meanwhile, so no worker takes it
 * first): for the sweeper, duplicated runs and runs of the pipeline called directly.
 */
export async function analyzeWithoutJob(workspaceId: string, videoId: string) {
  await queue("analysis").pause();
  try {
    const r = await analyze(workspaceId, videoId, {});
    await queue("analysis").remove(analysisJobId(r.analysisId));
    return r;
  } finally {
    await queue("analysis").resume();
  }
}
