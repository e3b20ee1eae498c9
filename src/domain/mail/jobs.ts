/**
 * The mail jobs (queue `mail`):
 * - `send` {mailId}: sends one mail of the outbox (./send.ts). Its job id is `send-<mailId>-<attempts
 *   already made>`, so the same mail is queued once per round; the sweep queues a new round only for
 *   a mail whose job was lost.
 * - `notify` {eventIds}: the notifications consumer of the workspace events (src/domain/notifications/consume.ts).
 * - `sweep` (a job scheduler): queues mails whose job was lost, and events no consumer read.
 * - `digests` (a job scheduler): queues the weekly digests due at the people's local time.
 * - `prune` (hourly): removes mails done for 30 days and notifications 90 days old (./outbox.ts).
 */
import { queue } from "../../infra/queues.ts";

export const SEND_MAIL_JOB = "send";
export const NOTIFY_JOB = "notify";
export const SWEEP_MAIL_JOB = "sweep";
export const DIGESTS_JOB = "digests";
export const PRUNE_MAIL_JOB = "prune";

export interface SendMailData {
  mailId: string;
}

export interface NotifyData {
  eventIds: string[];
}

/** How many times a mail is tried (SMTP refusals, connection failures), with backoff from 5 s. */
export const MAIL_ATTEMPTS = 6;

export async function enqueueMails(items: { id: string; sendAfter: Date; attempts?: number }[]): Promise<void> {
  if (items.length === 0) return;
  const now = Date.now();
  await queue("mail").addBulk(
    items.map((m) => ({
      name: SEND_MAIL_JOB,
      data: { mailId: m.id } satisfies SendMailData,
      opts: {
        jobId: `send-${m.id}-${m.attempts ?? 0}`,
        delay: Math.max(0, m.sendAfter.getTime() - now),
        attempts: MAIL_ATTEMPTS,
        backoff: { type: "exponential", delay: 5000 },
        removeOnComplete: { age: 3600, count: 1000 },
        removeOnFail: { age: 24 * 3600 },
      },
    })),
  );
}

export async function enqueueNotify(eventIds: string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await queue("mail").add(NOTIFY_JOB, { eventIds } satisfies NotifyData, {
    jobId: `notify-${eventIds[0]}-${eventIds.length}`,
    attempts: 5,
    backoff: { type: "exponential", delay: 1000 },
    removeOnComplete: { age: 600, count: 1000 },
    removeOnFail: true,
  });
}
