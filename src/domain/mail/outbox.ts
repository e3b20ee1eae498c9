/**
 * The mail outbox: a mail is a row of `mails`, written in the transaction of the change it tells
 * about (`queueMails(…, tx)`: an invitation and its mail commit together, or neither), then handed
 * to the `mail` queue after the commit (`dispatchMails`). A process that dies in between loses
 * nothing: the sweep queues every pending mail whose job is missing. Each mail's `dedupeKey` says
 * why it exists (`invitation:<id>`, `alert:<…>`, `digest:<…>`): the same reason inserts once, so a
 * retried request or job never queues a second mail.
 *
 * Without SMTP_URL the same rows are the dev mailbox (status `logged`, read by `npm run cli -- mail list`).
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { sql, sqlExec, type Tx } from "../../infra/db.ts";
import { logger } from "../../infra/logger.ts";
import { enqueueMails } from "./jobs.ts";
import type { MailKind } from "./templates.ts";

export interface NewMail {
  dedupeKey: string;
  workspaceId?: string | null;
  userId?: string | null;
  to: string;
  kind: MailKind;
  data: object;
  groupKey?: string | null;
  sendAfter?: Date;
}

export interface QueuedMail {
  id: string;
  sendAfter: Date;
}

/** Writes mails (in `tx` when given); a dedupe key already used writes nothing. Answers the new ones. */
export async function queueMails(mails: NewMail[], tx?: Tx): Promise<QueuedMail[]> {
  if (mails.length === 0) return [];
  return sql<QueuedMail>(
    Prisma.sql`
    INSERT INTO mails (dedupe_key, workspace_id, user_id, to_address, kind, data, group_key, send_after)
    SELECT k, w, u, t, kd, d::jsonb, g, COALESCE(s, clock_timestamp())
      FROM unnest(${mails.map((m) => m.dedupeKey)}::text[], ${mails.map((m) => m.workspaceId ?? null)}::uuid[], ${mails.map((m) => m.userId ?? null)}::uuid[],
                  ${mails.map((m) => m.to)}::text[], ${mails.map((m) => m.kind)}::text[], ${mails.map((m) => JSON.stringify(m.data))}::text[],
                  ${mails.map((m) => m.groupKey ?? null)}::text[], ${mails.map((m) => m.sendAfter?.toISOString() ?? null)}::timestamptz[]) AS x(k, w, u, t, kd, d, g, s)
    ON CONFLICT (dedupe_key) DO NOTHING
    RETURNING id, send_after AS "sendAfter"`,
    { tx },
  );
}

/** After the commit: queues the mails' send jobs. Never throws (the sweep queues what this could not). */
export async function dispatchMails(mails: QueuedMail[]): Promise<void> {
  try {
    await enqueueMails(mails);
  } catch (e) {
    logger.warn({ err: (e as Error).message, mails: mails.length }, "could not queue mails now; the sweep will");
  }
}

/** Writes and dispatches mails that have no transaction of their own to join. */
export async function sendMails(mails: NewMail[]): Promise<QueuedMail[]> {
  const queued = await queueMails(mails);
  await dispatchMails(queued);
  return queued;
}

/** A pending mail this late (or a claim expired this long ago) lost its job: queued again. */
const LOST_MAIL_GRACE_MS = 60_000;

/** Queues again the mails whose job was lost (a new round of job id: a job still queued is not doubled). */
export async function sweepMails(graceMs = LOST_MAIL_GRACE_MS): Promise<{ requeued: number }> {
  const lost = await sql<{ id: string; sendAfter: Date; attempts: number }>(Prisma.sql`
    SELECT id, send_after AS "sendAfter", attempts FROM mails
     WHERE (status = 'pending' AND send_after < clock_timestamp() - ${graceMs} * interval '1 millisecond')
        OR (status = 'sending' AND claimed_until < clock_timestamp())
     ORDER BY send_after LIMIT 1000`);
  await enqueueMails(lost.map((m) => ({ id: m.id, sendAfter: new Date(), attempts: m.attempts + 1000 })));
  return { requeued: lost.length };
}

/** How long sent (and capped, failed) mails stay in the outbox and dev mailbox, and read notifications in the bell. */
export const MAIL_RETENTION_DAYS = 30;
export const NOTIFICATION_RETENTION_DAYS = 90;

/** The hourly prune: old mails that are done, and old notifications, in batches. */
export async function pruneMail(): Promise<{ mails: number; notifications: number }> {
  const batch = async (statement: Prisma.Sql) => {
    let n = 0;
    for (;;) {
      const removed = await sqlExec(statement);
      n += removed;
      if (removed < 5000) return n;
    }
  };
  const mails = await batch(Prisma.sql`
    DELETE FROM mails WHERE id IN (SELECT id FROM mails WHERE created_at < clock_timestamp() - ${MAIL_RETENTION_DAYS} * interval '1 day'
                                     AND status NOT IN ('pending', 'sending') ORDER BY created_at LIMIT 5000)`);
  const notifications = await batch(Prisma.sql`
    DELETE FROM notifications WHERE id IN (SELECT id FROM notifications WHERE created_at < clock_timestamp() - ${NOTIFICATION_RETENTION_DAYS} * interval '1 day'
                                             ORDER BY created_at LIMIT 5000)`);
  return { mails, notifications };
}
