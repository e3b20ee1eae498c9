/**
 * The webhook jobs (queue `webhooks`):
 * - `deliver` {deliveryId, attempt}: one attempt of one delivery (./delivery.ts). The job id is
 *   `<deliveryId>-<attempt>`, so the same attempt is never queued twice; the next attempt is a new
 *   delayed job queued by the one before (the contract's retry schedule, WEBHOOK_RETRY_SCHEDULE).
 * - `sweep` (a job scheduler): relays events no process relayed and re-enqueues deliveries whose
 *   job was lost (./outbox.ts).
 * - `prune` (hourly): removes events, and their delivery log, past WEBHOOK_RETENTION_DAYS.
 */
import { queue } from "../../infra/queues.ts";

export const DELIVER_JOB = "deliver";
export const SWEEP_JOB = "sweep";
export const PRUNE_JOB = "prune";

export interface DeliverJobData {
  deliveryId: string;
  /** The attempt this job makes, from 1. */
  attempt: number;
}

export const deliveryJobId = (deliveryId: string, attempt: number) => `${deliveryId}-${attempt}`;

/**
 * Queues attempts (`delayMs` later). An infrastructure error inside an attempt (database down)
 * retries the job itself a few times; the delivery's own retries are new jobs.
 */
export async function enqueueDeliveries(items: { deliveryId: string; attempt: number; delayMs?: number }[]): Promise<void> {
  if (items.length === 0) return;
  await queue("webhooks").addBulk(
    items.map((i) => ({
      name: DELIVER_JOB,
      data: { deliveryId: i.deliveryId, attempt: i.attempt } satisfies DeliverJobData,
      opts: {
        jobId: deliveryJobId(i.deliveryId, i.attempt),
        delay: i.delayMs ?? 0,
        attempts: 3,
        backoff: { type: "exponential", delay: 1000 },
        removeOnComplete: { age: 600, count: 1000 },
        // The delivery's row is the record: a job that failed for good is removed, so the outbox sweep
        // can queue the same attempt again under the same job id (BullMQ ignores an add of an existing id).
        removeOnFail: true,
      },
    })),
  );
}
