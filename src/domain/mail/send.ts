/**
 * Sends one mail of the outbox (the `mail` queue's `send` job), at most once:
 *
 * 1. Claim: one conditional UPDATE moves the row from `pending` (or a `sending` whose claim expired:
 *    its sender died) to `sending` for a while. A second job for the same mail (a retry after a
 *    success, the sweep's) claims nothing and does nothing.
 * 2. The workspace's cap (MAIL_MAX_PER_WORKSPACE_PER_HOUR), decided with the claim: past it the mail is
 *    `capped`, not sent.
 * 3. Send through the transport, with the Message-ID made from the mail's id; then `sent` (or
 *    `logged` without SMTP_URL: the dev mailbox). A failure puts it back to `pending` and the job
 *    retries with backoff; the last attempt's failure marks it `failed`.
 *
 * A sender that dies after the SMTP server accepted the mail and before step 3 is recorded leaves a
 * claim that expires: the mail is then sent again with the same Message-ID, which receivers use to
 * drop the duplicate. That window is the only way a mail goes out twice.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { config } from "../../config.ts";
import { prisma, sql, sqlExec } from "../../infra/db.ts";
import { logger } from "../../infra/logger.ts";
import type { JobRun } from "../shared/jobs.ts";
import { composeMail, type MailAttachers, type MailRow } from "./compose.ts";
import type { MailTransport } from "./ports.ts";

const CLAIM_MS = 120_000;

export type SendOutcome = "sent" | "logged" | "capped" | "skipped";

interface ClaimedRow extends MailRow {
  workspaceId: string | null;
}

/**
 * Claims the mail and, for a workspace's mail, decides the cap in the same transaction: the
 * workspace's mails sent in the last hour and those being sent now, counted under a lock of the
 * workspace's mail, so senders running side by side cannot all pass it.
 */
async function claim(mailId: string): Promise<{ row: ClaimedRow; capped: boolean } | null> {
  return prisma.$transaction(async (tx) => {
    const [row] = await sql<ClaimedRow>(
      Prisma.sql`
      UPDATE mails SET status = 'sending', attempts = attempts + 1, claimed_until = clock_timestamp() + ${CLAIM_MS} * interval '1 millisecond'
       WHERE id = ${mailId}::uuid AND send_after <= clock_timestamp() + interval '1 second'
         AND (status = 'pending' OR (status = 'sending' AND claimed_until < clock_timestamp()))
      RETURNING id, kind, to_address AS "toAddress", data, workspace_id AS "workspaceId"`,
      { tx },
    );
    if (!row) return null;
    if (!row.workspaceId) return { row, capped: false };
    await sql(Prisma.sql`SELECT pg_advisory_xact_lock(hashtextextended(${`mail-cap:${row.workspaceId}`}, 0)) IS NULL AS locked`, { tx });
    const [used] = await sql<{ n: number }>(
      Prisma.sql`
      SELECT count(*)::int AS n FROM mails
       WHERE workspace_id = ${row.workspaceId}::uuid AND id <> ${row.id}::uuid
         AND ((status IN ('sent', 'logged') AND sent_at > clock_timestamp() - interval '1 hour') OR status = 'sending')`,
      { tx },
    );
    return { row, capped: used!.n >= config.mail.maxPerWorkspacePerHour };
  });
}

async function settle(mailId: string, status: "sent" | "logged" | "capped", subject: string | null): Promise<void> {
  // Once sent through SMTP, the row no longer keeps the mail's secret link (the dev mailbox does: its operator reads it there).
  await sqlExec(Prisma.sql`
    UPDATE mails SET status = ${status}::"MailStatus", sent_at = CASE WHEN ${status} = 'capped' THEN NULL ELSE clock_timestamp() END,
           claimed_until = NULL, last_error = NULL, subject = ${subject},
           data = CASE WHEN ${status} = 'sent' THEN data - 'secret' ELSE data END
     WHERE id = ${mailId}::uuid`);
}

/** Sends the mail through `transport`, with the files `attachers` make for its kind. */
export async function sendMail(mailId: string, transport: MailTransport, run?: JobRun, attachers?: MailAttachers): Promise<SendOutcome> {
  const claimed = await claim(mailId);
  if (!claimed) return "skipped";
  const { row } = claimed;
  if (claimed.capped) {
    logger.warn(
      { mailId, workspaceId: row.workspaceId, kind: row.kind, cap: config.mail.maxPerWorkspacePerHour },
      "mail not sent: the workspace's hourly mail cap is reached",
    );
    await settle(mailId, "capped", null);
    return "capped";
  }
  const mail = await composeMail(row, attachers);
  try {
    await transport.send(mail);
  } catch (e) {
    const last = !run || run.attempt >= run.maxAttempts;
    await sqlExec(Prisma.sql`
      UPDATE mails SET status = ${last ? "failed" : "pending"}::"MailStatus", claimed_until = NULL, last_error = ${(e as Error).message.slice(0, 500)}
       WHERE id = ${mailId}::uuid`);
    throw e;
  }
  const status = transport.name === "smtp" ? "sent" : "logged";
  await settle(mailId, status, mail.subject);
  return status;
}
