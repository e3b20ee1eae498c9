/**
 * Webhooks for operators, with a real receiver on loopback and the real worker:
 * - every body carries the event's id, the one GraphQL `WorkspaceEvent.id` carries;
 * - WEBHOOK_SECRET_KEY_PREVIOUS: secrets encrypted with the previous key still decrypt, new ones use
 *   the current key;
 * - at most WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT deliveries in flight per endpoint (the others wait,
 *   without using an attempt), and another endpoint is not held up by a slow one;
 * - `npm start` in development without WEBHOOK_SECRET_KEY: a generated key kept in a local file.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.WEBHOOK_ALLOW_PRIVATE = "true";
  process.env.WEBHOOK_SECRET_KEY = "integrity-test-webhook-key-0123456789abcdef";
  process.env.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT = "2";
  process.env.WEBHOOK_TIMEOUT_MS = "5000";
});

import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServerResponse } from "node:http";
import { newWorkspace, stopAll } from "../helpers/api.js";
import { startWorkers, type RunningWorkers } from "../../src/jobs/worker.js";
import { webhooksQueue } from "../../src/jobs/registry.js";
import { HttpWebhookSender } from "../../src/providers/webhooks/http.js";
import { createWebhook, listDeliveries } from "../../src/domain/webhooks/service.js";
import { deliverWebhook } from "../../src/domain/webhooks/delivery.js";
import { decryptSecret, encryptSecret } from "../../src/domain/webhooks/secrets.js";
import { recordWorkspaceEvents, emitWorkspaceEvents, watchWorkspaceEvents } from "../../src/domain/webhooks/outbox.js";
import { DeferJob } from "../../src/domain/shared/jobs.js";
import { subscribed } from "../../src/infra/events.js";
import { prisma } from "../../src/infra/db.js";
import { ensureLocalWebhookKey } from "../../src/main/webhook-key.js";
import type { WorkspaceEvent } from "../../src/domain/shared/workspace-events.js";
import { startReceiver, waitFor, type Receiver } from "../webhooks/receiver.js";

let receiver: Receiver;
let workers: RunningWorkers | undefined;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await stopAll(undefined, ...(workers ? [workers] : []));
});

let seq = 0;
async function endpoint(workspaceId?: string) {
  const ws = workspaceId ?? (await newWorkspace()).workspaceId;
  const path = `/ops-${++seq}`;
  const { webhook, secret } = await createWebhook(ws, { url: receiver.url(path), events: ["video.spike"] });
  return { workspaceId: ws, webhook, secret, path };
}

/** Holds the answers of `path` until `release()` (then 200). */
function holdAnswers(path: string) {
  const held: ServerResponse[] = [];
  let open = false;
  receiver.answer(path, () => (res) => (open ? res.writeHead(200).end("ok") : held.push(res)));
  return {
    held,
    release: () => {
      open = true;
      for (const res of held.splice(0)) res.writeHead(200).end("ok");
    },
  };
}

describe("the event's id in every webhook body", () => {
  it("is the id GraphQL's WorkspaceEvent carries, the same for every endpoint", async () => {
    const a = await endpoint();
    const b = await endpoint(a.workspaceId);
    const seen: WorkspaceEvent[] = [];
    const it = watchWorkspaceEvents(a.workspaceId)[Symbol.asyncIterator]();
    void it.next().then((r) => r.value && seen.push(r.value));
    await new Promise((r) => setTimeout(r, 20));
    await subscribed();
    await emitWorkspaceEvents([{ workspaceId: a.workspaceId, type: "video.spike", data: { videoId: "v-1" } }]);
    const sender = new HttpWebhookSender();
    for (const e of [a, b]) {
      const { items } = await listDeliveries(e.workspaceId, e.webhook.id, { limit: 10, offset: 0 });
      expect(await deliverWebhook(items[0]!.id, 1, sender)).toEqual({ status: "delivered" });
    }
    const [event] = await prisma.workspaceEventRecord.findMany({ where: { workspaceId: a.workspaceId } });
    const bodies = [a, b].map((e) => JSON.parse(receiver.at(e.path)[0]!.body));
    for (const body of bodies)
      expect(body).toEqual({ id: event!.id, type: "video.spike", timestamp: event!.createdAt.toISOString(), data: { videoId: "v-1" } });
    await waitFor("the GraphQL event", () => seen.length === 1);
    expect(seen[0]!.id).toBe(event!.id);
    void it.return?.();
  });
});

describe("WEBHOOK_SECRET_KEY_PREVIOUS", () => {
  it("decrypts secrets of the previous key; new secrets use the current one", () => {
    const id = "00000000-0000-4000-8000-000000000001";
    const oldKey = "the-previous-webhook-secret-key-0123456789";
    const newKey = "the-current-webhook-secret-key-9876543210";
    const stored = encryptSecret("whsec_old", id, oldKey);
    expect(() => decryptSecret(stored, id, newKey, undefined)).toThrow(/another WEBHOOK_SECRET_KEY/);
    expect(decryptSecret(stored, id, newKey, oldKey)).toBe("whsec_old");
    const fresh = encryptSecret("whsec_new", id, newKey);
    expect(decryptSecret(fresh, id, newKey, oldKey)).toBe("whsec_new");
    expect(() => decryptSecret(fresh, id, oldKey, undefined)).toThrow(/another WEBHOOK_SECRET_KEY/);
  });
});

describe("deliveries in flight per endpoint", () => {
  it("a third concurrent attempt to one endpoint is deferred (not made, no attempt used); another endpoint still goes", async () => {
    const slow = await endpoint();
    const other = await endpoint();
    const gate = holdAnswers(slow.path);
    const ids = await recordWorkspaceEvents(
      [1, 2, 3].map((n) => ({ workspaceId: slow.workspaceId, type: "video.spike" as const, data: { n }, endpointId: slow.webhook.id })),
    );
    const deliveries = await Promise.all(
      ids.map((eventId) => prisma.webhookDelivery.create({ data: { endpointId: slow.webhook.id, eventId, nextAttemptAt: new Date() } })),
    );
    const sender = new HttpWebhookSender();
    const first = [deliverWebhook(deliveries[0]!.id, 1, sender), deliverWebhook(deliveries[1]!.id, 1, sender)];
    await waitFor("two requests held", () => gate.held.length === 2);
    await expect(deliverWebhook(deliveries[2]!.id, 1, sender)).rejects.toBeInstanceOf(DeferJob);
    expect(receiver.at(slow.path)).toHaveLength(2);
    expect((await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: deliveries[2]!.id } })).attempts).toBe(0);
    // Another endpoint has its own places.
    const otherEvent = await recordWorkspaceEvents([
      { workspaceId: other.workspaceId, type: "video.spike", data: {}, endpointId: other.webhook.id },
    ]);
    const otherDelivery = await prisma.webhookDelivery.create({
      data: { endpointId: other.webhook.id, eventId: otherEvent[0]!, nextAttemptAt: new Date() },
    });
    expect(await deliverWebhook(otherDelivery.id, 1, sender)).toEqual({ status: "delivered" });
    gate.release();
    expect(await Promise.all(first)).toEqual([{ status: "delivered" }, { status: "delivered" }]);
    expect(await deliverWebhook(deliveries[2]!.id, 1, sender)).toEqual({ status: "delivered" });
  });

  it("through the worker: never more than the bound at the receiver, every delivery made on its first attempt", async () => {
    workers = await startWorkers([webhooksQueue(() => new HttpWebhookSender())]);
    const e = await endpoint();
    let inFlight = 0;
    let most = 0;
    receiver.answer(e.path, () => (res) => {
      most = Math.max(most, ++inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(200).end("ok");
      }, 300);
    });
    await emitWorkspaceEvents([1, 2, 3, 4, 5, 6].map((n) => ({ workspaceId: e.workspaceId, type: "video.spike" as const, data: { n } })));
    await waitFor(
      "six delivered",
      async () => (await prisma.webhookDelivery.count({ where: { endpointId: e.webhook.id, status: "delivered" } })) === 6,
      30_000,
    );
    expect(most).toBeLessThanOrEqual(2);
    expect(receiver.at(e.path)).toHaveLength(6);
    expect(await prisma.webhookDelivery.findMany({ where: { endpointId: e.webhook.id }, select: { attempts: true } })).toEqual(
      Array(6).fill({ attempts: 1 }),
    );
  });
});

describe("npm start without WEBHOOK_SECRET_KEY", () => {
  it("in development: generates a key into the local file once, then reuses it; never in production or tests", () => {
    const file = join(mkdtempSync(join(tmpdir(), "webhook-key-")), ".webhook-secret-key");
    const env: NodeJS.ProcessEnv = { WEBHOOK_SECRET_KEY_FILE: file };
    expect(ensureLocalWebhookKey(env)).toEqual({ file, generated: true });
    const key = env.WEBHOOK_SECRET_KEY!;
    expect(key.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(file, "utf8").trim()).toBe(key);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again: NodeJS.ProcessEnv = { NODE_ENV: "development", WEBHOOK_SECRET_KEY_FILE: file };
    expect(ensureLocalWebhookKey(again)).toEqual({ file, generated: false });
    expect(again.WEBHOOK_SECRET_KEY).toBe(key);
    for (const NODE_ENV of ["production", "test"]) {
      const env2: NodeJS.ProcessEnv = { NODE_ENV, WEBHOOK_SECRET_KEY_FILE: file };
      expect(ensureLocalWebhookKey(env2)).toBeNull();
      expect(env2.WEBHOOK_SECRET_KEY).toBeUndefined();
    }
    expect(ensureLocalWebhookKey({ WEBHOOK_SECRET_KEY: "x".repeat(40), WEBHOOK_SECRET_KEY_FILE: file })).toBeNull();
  });
});
