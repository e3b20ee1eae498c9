/**
 * A Redis that loses its data (FLUSHALL; a restart of a Redis without persistence) under a running worker
 * process (src/main/worker.ts, spawned as in production) on a Redis server of this file's own
 * (./private-services.ts; the shared one is never flushed). Every job scheduler went with the data; the
 * worker re-creates them (on its interval, SCHEDULER_CHECK_INTERVAL_MS, after a FLUSHALL; when its
 * connection is ready again, after a restart) with no process restarted, and the recovery sweeps then
 * run: a due video is refreshed, a pending analysis whose job was lost is queued again and completes
 * (charged once), a pending webhook delivery and a pending mail whose jobs were lost are delivered once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import pg from "pg";
import { spawnService, logLines, type ServiceProcess } from "../helpers/processes.js";
import { waitFor } from "../helpers/wait.js";
import { startRedis, type PrivateRedis } from "./private-services.js";
import { startReceiver, type Receiver } from "../webhooks/receiver.js";

const WEBHOOK_ENV = {
  WEBHOOK_ALLOW_PRIVATE: "true",
  WEBHOOK_SECRET_KEY: "test-only-webhook-secret-key-0123456789",
};

let redisServer: PrivateRedis;
let sharedRedisUrl: string | undefined;
let db: pg.Pool;
let receiver: Receiver;
const processes: ServiceProcess[] = [];

beforeAll(async () => {
  redisServer = await startRedis({ persist: false });
  // This process's own queue and event calls go to the private Redis too (src/config.ts reads it at its first import, below).
  sharedRedisUrl = process.env.REDIS_URL;
  process.env.REDIS_URL = redisServer.url;
  Object.assign(process.env, WEBHOOK_ENV);
  db = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
  receiver = await startReceiver();
});

afterAll(async () => {
  for (const p of processes.splice(0)) await p.stop("SIGKILL");
  await receiver?.close();
  const { stopAll } = await import("../helpers/api.js");
  await stopAll();
  await db?.end();
  await redisServer?.destroy();
  process.env.REDIS_URL = sharedRedisUrl;
});

async function worker(extra: Record<string, string>): Promise<ServiceProcess> {
  const p = await spawnService("worker", { REDIS_URL: redisServer.url, ...WEBHOOK_ENV, LOG_FORMAT: "json", ...extra });
  processes.push(p);
  return p;
}

async function schedulerCount(queueName: string): Promise<number> {
  const connection = new Redis(redisServer.url, { maxRetriesPerRequest: 1 });
  const q = new Queue(queueName, { connection, prefix: `${process.env.REDIS_PREFIX}:bull` });
  try {
    return await q.getJobSchedulersCount();
  } finally {
    await q.close();
    connection.disconnect();
  }
}

const one = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) => (await db.query<T>(text, values)).rows[0];

async function flushAll(): Promise<void> {
  const r = new Redis(redisServer.url, { maxRetriesPerRequest: 1 });
  await r.flushall();
  r.disconnect();
}

/** A tracked video, scraped (by the running worker), made due for its refresh now. */
async function dueVideo(workspaceId: string, n: number): Promise<{ videoId: string; scrapedAt: Date }> {
  const { trackVideo } = await import("../../src/domain/tracking/videos.js");
  const { videoId } = await trackVideo(workspaceId, `https://www.tiktok.com/@heal.user/video/${7_410_000_000_000_000_000n + BigInt(n)}`);
  const scraped = await waitFor(
    "the first scrape",
    () => one<{ at: Date }>("SELECT last_scraped_at AS at FROM videos WHERE id = $1 AND scrape_status = 'ready'", [videoId]),
    15_000,
  );
  return { videoId, scrapedAt: scraped.at };
}

const makeDue = (videoId: string) => db.query("UPDATE videos SET next_refresh_at = now() - interval '1 minute' WHERE id = $1", [videoId]);

const refreshedAfter = (videoId: string, at: Date) =>
  one("SELECT 1 FROM videos WHERE id = $1 AND last_scraped_at > $2 AND scrape_status = 'ready'", [videoId, at]);

describe("Redis that loses its data", () => {
  it("FLUSHALL under a running worker: schedulers re-created within the check interval, lost work recovered once, no restart", async () => {
    const w = await worker({ SCHEDULER_CHECK_INTERVAL_MS: "1000" });
    expect(await schedulerCount("scrape")).toBeGreaterThan(0);
    const { newWorkspace } = await import("../helpers/api.js");
    const { workspaceId } = await newWorkspace("pro");
    const video = await dueVideo(workspaceId, 1);

    const { createWebhook } = await import("../../src/domain/webhooks/service.js");
    const { emitWorkspaceEvents } = await import("../../src/domain/webhooks/outbox.js");
    const { sendMails } = await import("../../src/domain/mail/outbox.js");
    const { analyze } = await import("../../src/domain/analysis/service.js");
    await createWebhook(workspaceId, { url: receiver.url("/heal"), events: ["account.video_discovered"] });

    // The worker is frozen while work is queued, then Redis forgets it all: every job and every scheduler.
    w.child.kill("SIGSTOP");
    const analysis = await analyze(workspaceId, video.videoId, {});
    expect(analysis.outcome).toBe("queued");
    await emitWorkspaceEvents([{ workspaceId, type: "account.video_discovered", data: { accountId: "a", videoId: "v" } }]);
    const [mail] = await sendMails([
      { dedupeKey: "heal:mail", to: "heal@mail.test", kind: "member_removed", data: { workspaceName: "Heal", by: null } },
    ]);
    await makeDue(video.videoId);
    await flushAll();
    // The lost jobs were queued a while ago (past each sweep's grace for "lost").
    await db.query("UPDATE video_analyses SET updated_at = now() - interval '2 minutes' WHERE workspace_id = $1", [workspaceId]);
    await db.query("UPDATE mails SET send_after = now() - interval '3 minutes' WHERE id = $1", [mail!.id]);
    await db.query(
      "UPDATE webhook_deliveries SET next_attempt_at = now() - interval '3 minutes' WHERE event_id IN (SELECT id FROM workspace_events WHERE workspace_id = $1)",
      [workspaceId],
    );
    expect(await schedulerCount("scrape")).toBe(0);
    const flushedAt = Date.now();
    w.child.kill("SIGCONT");

    await waitFor(
      "the schedulers to be re-created",
      async () => (await schedulerCount("mail")) > 0 && (await schedulerCount("analysis")) > 0,
      10_000,
    );
    const back = Date.now() - flushedAt;
    expect(back).toBeLessThan(8_000); // the check interval (1 s) and a margin for a loaded machine
    await waitFor("the due video's refresh", () => refreshedAfter(video.videoId, video.scrapedAt), 10_000);
    await waitFor(
      "the re-queued analysis to complete",
      () => one("SELECT 1 FROM video_analyses WHERE id = $1 AND status = 'completed'", [analysis.analysisId]),
      15_000,
    );
    await waitFor("the webhook delivery", () => receiver.at("/heal").length === 1, 10_000);
    await waitFor("the mail", () => one("SELECT 1 FROM mails WHERE id = $1 AND status IN ('sent', 'logged')", [mail!.id]), 10_000);
    // Charged once (a reservation settled once), delivered once.
    const charges = await db.query("SELECT 1 FROM credit_ledger WHERE workspace_id = $1 AND kind = 'charge'", [workspaceId]);
    expect(charges.rowCount).toBe(1);
    expect(receiver.at("/heal")).toHaveLength(1);
    const healed = logLines(w).filter((l) => l.msg?.startsWith("job schedulers were missing"));
    expect(healed.length).toBeGreaterThanOrEqual(1);
    expect(healed[0]).toMatchObject({ level: 30, reason: "interval" });
    // A check that SIGSTOP froze midway ends with the schedulers it had left to look at, and the next check re-creates
    // the rest (a CI run once saw ["mail/mail-reports", "exports/exports-sweep"] first): what the checks re-created together counts.
    expect(healed.flatMap((l) => l.recreated as string[])).toEqual(
      expect.arrayContaining(["scrape/refresh-due", "analysis/sweep-analyses", "mail/mail-sweep"]),
    );
  }, 60_000);

  it("a restart that comes back empty: schedulers re-created when the connection is ready again, without waiting for the interval", async () => {
    for (const p of processes.splice(0)) await p.stop("SIGKILL");
    const w = await worker({ SCHEDULER_CHECK_INTERVAL_MS: "600000" });
    const { newWorkspace } = await import("../helpers/api.js");
    const { workspaceId } = await newWorkspace("pro");
    const video = await dueVideo(workspaceId, 2);

    const marker = new Redis(redisServer.url, { maxRetriesPerRequest: 1, lazyConnect: true });
    await marker.connect();
    await marker.set("heal-marker", "1");
    marker.disconnect();
    await redisServer.stop();
    await redisServer.start(); // no persistence: empty (the worker may re-create its schedulers before the next line)
    const restartedAt = Date.now();
    const probe = new Redis(redisServer.url, { maxRetriesPerRequest: 1 });
    expect(await probe.get("heal-marker")).toBeNull();
    probe.disconnect();
    await makeDue(video.videoId);
    await waitFor("the schedulers to be re-created", async () => (await schedulerCount("scrape")) >= 4, 10_000);
    expect(Date.now() - restartedAt).toBeLessThan(8_000);
    await waitFor("the due video's refresh", () => refreshedAfter(video.videoId, video.scrapedAt), 10_000);
    // The line is written after the schedulers are back: it may reach this process's pipe a moment later.
    const healed = await waitFor("the worker to say what it re-created", () =>
      logLines(w).find((l) => l.msg?.startsWith("job schedulers were missing")),
    );
    expect(healed).toMatchObject({ reason: "reconnected" });
  }, 60_000);
});
