/**
 * A worker process SIGKILLed while a delivery is in flight (the receiver holds the request
 * unanswered): the job's lock expires, another worker process makes the attempt again with the same
 * webhook-id and body, and the delivery is recorded delivered exactly once.
 */
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.WEBHOOK_ALLOW_PRIVATE = "true";
  process.env.WEBHOOK_SECRET_KEY = "test-only-webhook-secret-key-0123456789";
  // A killed worker's delivery is picked up within about 2-3 seconds; the held request must not time out first.
  process.env.WEBHOOK_LOCK_MS = "2000";
  process.env.WEBHOOK_STALLED_INTERVAL_MS = "1000";
  process.env.WEBHOOK_TIMEOUT_MS = "30000";
});

import { newWorkspace, stopAll } from "../helpers/api.js";
import { spawnService, type ServiceProcess } from "../helpers/processes.js";
import { createWebhook, listDeliveries } from "../../src/domain/webhooks/service.js";
import { emitWorkspaceEvents } from "../../src/domain/webhooks/outbox.js";
import { startReceiver, verifySignature, waitFor } from "./receiver.js";

const processes: ServiceProcess[] = [];
afterEach(async () => {
  for (const p of processes.splice(0)) await p.stop();
});
afterAll(() => stopAll());

async function worker(): Promise<ServiceProcess> {
  const p = await spawnService("worker");
  processes.push(p);
  return p;
}

describe("a worker killed mid-delivery", () => {
  it("another worker delivers it: same webhook-id, recorded delivered once", async () => {
    const receiver = await startReceiver();
    try {
      const path = "/kill";
      // The first request is held unanswered (its worker is killed meanwhile); later ones are answered.
      receiver.answer(path, (n) => (n === 1 ? () => undefined : 200));
      const { workspaceId } = await newWorkspace();
      const { webhook, secret } = await createWebhook(workspaceId, { url: receiver.url(path), events: ["account.video_discovered"] });

      const first = await worker();
      await emitWorkspaceEvents([{ workspaceId, type: "account.video_discovered", data: { accountId: "a", videoId: "v" } }]);
      await waitFor("the first worker's request", () => receiver.at(path).length === 1, 30_000);
      await first.stop("SIGKILL");
      const [pending] = (await listDeliveries(workspaceId, webhook.id, { limit: 5, offset: 0 })).items;
      expect(pending).toMatchObject({ status: "pending", attempts: 0 });

      await worker();
      const done = await waitFor(
        "the delivery to be recorded",
        async () => {
          const [d] = (await listDeliveries(workspaceId, webhook.id, { limit: 5, offset: 0 })).items;
          return d?.status === "delivered" ? d : null;
        },
        45_000,
      );
      expect(done).toMatchObject({ id: pending!.id, status: "delivered", attempts: 1, responseStatus: 200 });
      const got = receiver.at(path);
      expect(got).toHaveLength(2);
      expect(got.map((r) => r.headers["webhook-id"])).toEqual([pending!.id, pending!.id]);
      expect(got[0]!.body).toBe(got[1]!.body);
      for (const r of got) expect(verifySignature(secret, r)).toBe(true);
      // Nothing more arrives later (no second recorded delivery, no extra attempt).
      await new Promise((r) => setTimeout(r, 2500));
      expect(receiver.at(path)).toHaveLength(2);
      const all = (await listDeliveries(workspaceId, webhook.id, { limit: 5, offset: 0 })).items;
      expect(all).toHaveLength(1);
      expect(all[0]).toMatchObject({ status: "delivered", attempts: 1 });
    } finally {
      await receiver.close();
    }
  });
});
