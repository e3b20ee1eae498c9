/**
 * Webhook delivery end to end, with a real receiver on loopback (WEBHOOK_ALLOW_PRIVATE=true) and the
 * real worker (in this process) sending through the real HTTP sender: signatures checked by an
 * independent implementation of the scheme, retries after 500s and timeouts with the same
 * webhook-id, nothing recorded twice as delivered, automatic disabling, and the events fired by
 * the domain (analysis, radar, credits) reaching both transports: webhooks and GraphQL's stream.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Short retries and timeouts, so the whole schedule fits in a test (the settings are read at import).
vi.hoisted(() => {
  process.env.WEBHOOK_ALLOW_PRIVATE = "true";
  process.env.WEBHOOK_SECRET_KEY = "test-only-webhook-secret-key-0123456789";
  process.env.WEBHOOK_RETRY_SCHEDULE = "150ms,150ms,150ms,150ms,150ms,150ms";
  process.env.WEBHOOK_TIMEOUT_MS = "2000";
  process.env.WEBHOOK_SWEEP_INTERVAL_MS = "500";
  process.env.WEBHOOK_DISABLE_AFTER_HOURS = "0.002"; // 7.2 s
});

import { newWorkspace, stopAll } from "../helpers/api.js";
import { startWorkers, type RunningWorkers } from "../../src/jobs/worker.js";
import { webhooksQueue } from "../../src/jobs/registry.js";
import { HttpWebhookSender } from "../../src/providers/webhooks/http.js";
import { createWebhook, getWebhook, listDeliveries, sendTestEvent } from "../../src/domain/webhooks/service.js";
import { deliverWebhook, onDeliveryOutcome, type DeliveryOutcomeEvent } from "../../src/domain/webhooks/delivery.js";
import { type WorkspaceEvent } from "../../src/domain/shared/workspace-events.js";
import { emitWorkspaceEvents, watchWorkspaceEvents } from "../../src/domain/webhooks/outbox.js";
import { subscribed } from "../../src/infra/events.js";
import { createSearch } from "../../src/domain/radar/service.js";
import { completeSearch, failSearch, startSearch } from "../../src/domain/radar/lifecycle.js";
import { charge } from "../../src/domain/credits/service.js";
import { analyze, fail } from "../../src/domain/analysis/service.js";
import { prisma } from "../../src/infra/db.js";
import { queue } from "../../src/infra/queues.js";
import { recordWorkspaceEvents, sweepOutbox } from "../../src/domain/webhooks/outbox.js";
import { deliveryJobId } from "../../src/domain/webhooks/jobs.js";
import { parseInput } from "../../src/domain/shared/inputs.js";
import { createSearchInput } from "../../src/domain/radar/inputs.js";
import { trackedVideo } from "../analysis/fixtures.js";
import { startReceiver, verifySignature, waitFor, type Receiver } from "./receiver.js";
import { metricsText } from "../../src/infra/metrics.js";

let receiver: Receiver;
let workers: RunningWorkers;
const outcomes: DeliveryOutcomeEvent[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
  workers = await startWorkers([webhooksQueue(() => new HttpWebhookSender())]);
  onDeliveryOutcome((e) => outcomes.push(e));
});

afterAll(async () => {
  await receiver.close();
  await stopAll(undefined, workers);
});

let seq = 0;
async function endpoint(events: Parameters<typeof createWebhook>[1]["events"] = ["video.spike"], workspaceId?: string) {
  const ws = workspaceId ?? (await newWorkspace()).workspaceId;
  const path = `/hook-${++seq}`;
  const { webhook, secret } = await createWebhook(ws, { url: receiver.url(path), events });
  return { workspaceId: ws, webhook, secret, path };
}

const spike = (workspaceId: string, n = 1) =>
  emitWorkspaceEvents([{ workspaceId, type: "video.spike", data: { videoId: `v-${n}`, outlierScore: 4.2 } }]);

async function onlyDelivery(workspaceId: string, webhookId: string) {
  const { items } = await listDeliveries(workspaceId, webhookId, { limit: 10, offset: 0 });
  expect(items).toHaveLength(1);
  return items[0]!;
}

describe("delivery", () => {
  it("POSTs {id, type, timestamp, data} with Standard Webhooks headers whose signature verifies independently", async () => {
    const e = await endpoint();
    await spike(e.workspaceId);
    const [r] = await waitFor("the delivery", () => (receiver.at(e.path).length ? receiver.at(e.path) : null));
    expect(verifySignature(e.secret, r!)).toBe(true);
    expect(verifySignature(`whsec_${Buffer.from("another key of 24+ bytes....").toString("base64")}`, r!)).toBe(false);
    expect(verifySignature(e.secret, { ...r!, body: r!.body.replace("4.2", "4.3") })).toBe(false);
    expect(r!.headers["content-type"]).toBe("application/json");
    expect(Math.abs(Number(r!.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(30);
    const body = JSON.parse(r!.body);
    expect(body).toEqual({
      id: expect.any(String),
      type: "video.spike",
      timestamp: expect.any(String),
      data: { videoId: "v-1", outlierScore: 4.2 },
    });
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
    expect(e.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(e.secret.slice(6), "base64").length).toBeGreaterThanOrEqual(24);

    const d = await waitFor("delivered", async () => {
      const x = await onlyDelivery(e.workspaceId, e.webhook.id);
      return x.status === "delivered" ? x : null;
    });
    expect(d).toMatchObject({ id: r!.headers["webhook-id"], event: "video.spike", attempts: 1, responseStatus: 200, lastError: null });
    expect(d.deliveredAt).toBeInstanceOf(Date);
  });

  it("only to endpoints of the workspace subscribed to the event", async () => {
    const a = await endpoint(["analysis.completed"]);
    const b = await endpoint(["video.spike"], a.workspaceId);
    const other = await endpoint(["video.spike"]);
    await spike(a.workspaceId, 2);
    await waitFor("b's delivery", () => receiver.at(b.path).length === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.at(a.path)).toHaveLength(0);
    expect(receiver.at(other.path)).toHaveLength(0);
  });

  it("retries after 500s with the same webhook-id and body, then records it delivered once", async () => {
    const e = await endpoint();
    receiver.answer(e.path, (n) => (n <= 2 ? 500 : 200));
    await spike(e.workspaceId);
    await waitFor("three attempts", () => receiver.at(e.path).length >= 3);
    const d = await waitFor("delivered", async () => {
      const x = await onlyDelivery(e.workspaceId, e.webhook.id);
      return x.status === "delivered" ? x : null;
    });
    const got = receiver.at(e.path);
    expect(got).toHaveLength(3);
    expect(new Set(got.map((r) => r.headers["webhook-id"]))).toEqual(new Set([d.id]));
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    for (const r of got) expect(verifySignature(e.secret, r)).toBe(true);
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(140); // the schedule's delay
    expect(d).toMatchObject({ status: "delivered", attempts: 3, responseStatus: 200 });
    // The outcome is reported just after it is recorded.
    const mine = await waitFor("three outcomes", () => {
      const m = outcomes.filter((o) => o.deliveryId === d.id).map((o) => o.outcome);
      return m.length === 3 ? m : null;
    });
    expect(mine).toEqual(["retrying", "retrying", "delivered"]);
    expect((await getWebhook(e.workspaceId, e.webhook.id)).failingSince).toBeNull();
  });

  it("an answer slower than the timeout is a failed attempt, retried", async () => {
    const e = await endpoint();
    receiver.answer(e.path, (n) => (n === 1 ? (res) => setTimeout(() => res.writeHead(200).end(), 3500) : 204));
    await spike(e.workspaceId);
    const d = await waitFor("delivered", async () => {
      const x = await onlyDelivery(e.workspaceId, e.webhook.id);
      return x.status === "delivered" ? x : null;
    });
    expect(d).toMatchObject({ attempts: 2, responseStatus: 204 });
    const got = receiver.at(e.path);
    expect(got).toHaveLength(2);
    expect(got[0]!.headers["webhook-id"]).toBe(got[1]!.headers["webhook-id"]);
    expect(outcomes.find((o) => o.deliveryId === d.id && o.attempt === 1)).toMatchObject({
      outcome: "retrying",
      responseStatus: null,
      error: expect.stringContaining("timed out"),
    });
  });

  it("a redirect is not followed and counts as a failed attempt; a huge answer body is not read whole", async () => {
    const e = await endpoint();
    receiver.answer(e.path, (n) =>
      n === 1
        ? (res) => res.writeHead(302, { location: receiver.url("/elsewhere") }).end()
        : (res) => res.writeHead(200).end("x".repeat(5_000_000)),
    );
    await spike(e.workspaceId);
    const d = await waitFor("delivered", async () => {
      const x = await onlyDelivery(e.workspaceId, e.webhook.id);
      return x.status === "delivered" ? x : null;
    });
    expect(d.attempts).toBe(2);
    expect(receiver.at("/elsewhere")).toHaveLength(0);
    expect(outcomes.find((o) => o.deliveryId === d.id && o.attempt === 1)).toMatchObject({
      responseStatus: 302,
      error: expect.stringContaining("redirects are not followed"),
    });
  });

  it("after the last attempt the delivery is failed (7 attempts: the first and 6 retries)", async () => {
    const e = await endpoint();
    receiver.answer(e.path, () => 503);
    await spike(e.workspaceId);
    const d = await waitFor("failed", async () => {
      const x = await onlyDelivery(e.workspaceId, e.webhook.id);
      return x.status === "failed" ? x : null;
    });
    expect(d).toMatchObject({ attempts: 7, responseStatus: 503, lastError: "HTTP 503", nextAttemptAt: null, deliveredAt: null });
    expect(receiver.at(e.path)).toHaveLength(7);
    expect(new Set(receiver.at(e.path).map((r) => r.headers["webhook-id"])).size).toBe(1);
  });

  it("running an attempt twice (a re-run job) records it once; a recorded attempt is not sent again", async () => {
    const e = await endpoint();
    await workers.close(); // the test drives the attempts itself
    try {
      await spike(e.workspaceId);
      const pending = await onlyDelivery(e.workspaceId, e.webhook.id);
      const sender = new HttpWebhookSender();
      const runs = await Promise.all([deliverWebhook(pending.id, 1, sender), deliverWebhook(pending.id, 1, sender)]);
      expect(runs.map((r) => r.status).sort()).toEqual(["delivered", "stale"]);
      const sent = receiver.at(e.path).length;
      expect(await deliverWebhook(pending.id, 1, sender)).toEqual({ status: "stale" });
      expect(await deliverWebhook(pending.id, 2, sender)).toEqual({ status: "stale" });
      expect(receiver.at(e.path)).toHaveLength(sent);
      expect(await onlyDelivery(e.workspaceId, e.webhook.id)).toMatchObject({ status: "delivered", attempts: 1 });
      expect(outcomes.filter((o) => o.deliveryId === pending.id && o.outcome === "delivered")).toHaveLength(1);
    } finally {
      workers = await startWorkers([webhooksQueue(() => new HttpWebhookSender())]);
    }
  });

  it("the outbox: an event committed but not relayed, and a delivery whose job was lost, are sent by the sweep", async () => {
    const e = await endpoint();
    await workers.close();
    let eventId: string | undefined;
    try {
      // Committed, never relayed (as if its process died right after the commit).
      [eventId] = await recordWorkspaceEvents([{ workspaceId: e.workspaceId, type: "video.spike", data: { videoId: "unrelayed" } }]);
      // Relayed, but its job lost (as if Redis lost it).
      await spike(e.workspaceId, 77);
      const { items } = await listDeliveries(e.workspaceId, e.webhook.id, { limit: 5, offset: 0 });
      expect(items).toHaveLength(1);
      const lost = items[0]!;
      expect(await queue("webhooks").remove(deliveryJobId(lost.id, 1))).toBe(1);
      expect(await sweepOutbox(20, 0)).toMatchObject({ relayed: 1, requeued: expect.any(Number) });
      expect(await queue("webhooks").getJob(deliveryJobId(lost.id, 1))).toBeDefined();
    } finally {
      workers = await startWorkers([webhooksQueue(() => new HttpWebhookSender())]);
    }
    await waitFor("both delivered", async () => {
      const { items } = await listDeliveries(e.workspaceId, e.webhook.id, { limit: 5, offset: 0 });
      return items.length === 2 && items.every((d) => d.status === "delivered" && d.attempts === 1);
    });
    const bodies = receiver
      .at(e.path)
      .map((r) => JSON.parse(r.body).data.videoId)
      .sort();
    expect(bodies).toEqual(["unrelayed", "v-77"]);
    expect((await prisma.webhookDelivery.findFirstOrThrow({ where: { endpointId: e.webhook.id, eventId } })).status).toBe("delivered");
  });

  it("an endpoint failing for longer than WEBHOOK_DISABLE_AFTER_HOURS is disabled with the reason; a successful test enables it", async () => {
    const e = await endpoint();
    receiver.answer(e.path, () => 500);
    let n = 0;
    const disabled = await waitFor(
      "the endpoint to be disabled",
      async () => {
        await spike(e.workspaceId, ++n);
        await new Promise((r) => setTimeout(r, 400));
        const w = await getWebhook(e.workspaceId, e.webhook.id);
        return w.disabledAt ? w : null;
      },
      40_000,
    );
    expect(disabled.failingSince).toBeInstanceOf(Date);
    expect(disabled.disabledReason).toMatch(
      /^Every delivery attempt failed since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(more than 7\.2 seconds\); last error: HTTP 500\./,
    );
    // Nothing new goes to a disabled endpoint; its pending deliveries end failed without being sent.
    await waitFor("no pending delivery", async () =>
      (await listDeliveries(e.workspaceId, e.webhook.id, { limit: 100, offset: 0 })).items.every((d) => d.status !== "pending"),
    );
    const count = (await listDeliveries(e.workspaceId, e.webhook.id, { limit: 1, offset: 0 })).total;
    const sent = receiver.at(e.path).length;
    await spike(e.workspaceId, 999);
    await new Promise((r) => setTimeout(r, 500));
    expect((await listDeliveries(e.workspaceId, e.webhook.id, { limit: 1, offset: 0 })).total).toBe(count);
    expect(receiver.at(e.path)).toHaveLength(sent);

    receiver.answer(e.path, () => 200);
    const test = await sendTestEvent(e.workspaceId, e.webhook.id);
    expect(test).toMatchObject({ event: "webhook.test" });
    // The answer reads the delivery after queueing it: the worker may already have delivered it (seen on a quiet machine).
    expect([
      { status: "pending", attempts: 0 },
      { status: "delivered", attempts: 1 },
    ]).toContainEqual({ status: test.status, attempts: test.attempts });
    await waitFor("the endpoint to be enabled", async () => !(await getWebhook(e.workspaceId, e.webhook.id)).disabledAt);
    const w = await getWebhook(e.workspaceId, e.webhook.id);
    expect(w).toMatchObject({ disabledAt: null, disabledReason: null, failingSince: null });
    const last = receiver.at(e.path).at(-1)!;
    expect(JSON.parse(last.body)).toMatchObject({ type: "webhook.test", data: { webhookId: e.webhook.id } });
    expect(last.headers["webhook-id"]).toBe(test.id);
  });
});

describe("events from the domain reach both transports (one source)", () => {
  /** The next event of the workspace's GraphQL stream, and the webhook's body for the same event. */
  async function bothTransports(workspaceId: string, path: string, trigger: () => Promise<unknown>, type: string) {
    const stream = watchWorkspaceEvents(workspaceId)[Symbol.asyncIterator]();
    try {
      const next = stream.next();
      await subscribed();
      await trigger();
      const streamed = (await waitFor("the GraphQL event", async () => {
        for (;;) {
          const r = await next;
          return r.value as WorkspaceEvent;
        }
      })) as WorkspaceEvent;
      expect(streamed.type).toBe(type);
      const [hook] = await waitFor("the webhook", () => (receiver.at(path).length ? receiver.at(path) : null));
      const body = JSON.parse(hook!.body);
      expect(body).toEqual({ id: streamed.id, type, timestamp: streamed.at, data: streamed.data });
      const delivery = await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: String(hook!.headers["webhook-id"]) } });
      expect(delivery.eventId).toBe(streamed.id);
      return body.data as Record<string, unknown>;
    } finally {
      await stream.return?.();
    }
  }

  it("radar.completed and radar.failed", async () => {
    const e = await endpoint(["radar.completed", "radar.failed"]);
    await prisma.workspace.update({ where: { id: e.workspaceId }, data: { grantedCredits: 1000 } });
    const input = parseInput(createSearchInput, { query: "sourdough starters", platform: "platformA" });
    const s1 = await createSearch(e.workspaceId, input);
    await startSearch(s1.searchId);
    const done = await bothTransports(e.workspaceId, e.path, () => completeSearch(s1.searchId, [], null), "radar.completed");
    expect(done).toMatchObject({ searchId: s1.searchId, status: "completed", resultCount: 0, query: "sourdough starters" });

    receiver.received.splice(0);
    const s2 = await createSearch(e.workspaceId, input);
    const failed = await bothTransports(e.workspaceId, e.path, () => failSearch(s2.searchId, "the provider broke"), "radar.failed");
    expect(failed).toMatchObject({ searchId: s2.searchId, status: "failed", error: "the provider broke", refunded: true });
  });

  it("analysis.failed", async () => {
    const e = await endpoint(["analysis.failed", "analysis.completed"]);
    const videoId = await trackedVideo(e.workspaceId);
    const a = await analyze(e.workspaceId, videoId, {});
    const data = await bothTransports(e.workspaceId, e.path, () => fail(a.analysisId, "the media could not be read"), "analysis.failed");
    expect(data).toMatchObject({ analysisId: a.analysisId, videoId, status: "failed", error: "the media could not be read" });
  });

  it("credits.low once when a charge takes the balance below 10 % of the monthly allowance", async () => {
    const e = await endpoint(["credits.low"]);
    // free plan: 200 monthly credits, threshold 20
    await charge({ workspaceId: e.workspaceId, amount: 150, idempotencyKey: "t1", reason: "test" });
    const data = await bothTransports(
      e.workspaceId,
      e.path,
      () => charge({ workspaceId: e.workspaceId, amount: 35, idempotencyKey: "t2", reason: "test" }),
      "credits.low",
    );
    expect(data).toMatchObject({ totalRemaining: 15, threshold: 20, monthlyTotal: 200 });
    await charge({ workspaceId: e.workspaceId, amount: 5, idempotencyKey: "t3", reason: "test" });
    await new Promise((r) => setTimeout(r, 700));
    expect(receiver.at(e.path)).toHaveLength(1);
  });

  it("every recorded outcome is counted in webhook_deliveries_total on /metrics", async () => {
    const expected = (o: string) => outcomes.filter((x) => x.outcome === o).length;
    expect(expected("delivered")).toBeGreaterThan(0);
    expect(expected("retrying")).toBeGreaterThan(0);
    // The counter is incremented without waiting (a lost increment never fails a delivery): poll.
    const counted = (text: string, o: string) =>
      Number(text.match(new RegExp(`^webhook_deliveries_total\\{outcome="${o}"\\} (\\d+)$`, "m"))?.[1] ?? 0);
    await waitFor("the counters", async () => {
      const { body } = await metricsText();
      return ["delivered", "retrying", "failed"].every((o) => counted(body, o) === expected(o)) ? true : null;
    });
  });
});
