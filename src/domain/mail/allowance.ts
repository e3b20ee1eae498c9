/**
 * Per-address allowances: at most `max` mails of one kind to one address within a window, whoever asks. Each kind
 * that reaches an address on someone else's request has one: a password reset (the request needs no sign-in), an
 * invitation and a scheduled report (both go to addresses outside the workspace, chosen by its owners). Without them
 * anyone able to trigger the mail could fill a stranger's mailbox under the service's name.
 *
 * Counted from the outbox itself (`mails`, indexed by address, kind and time), inside the transaction that queues the
 * mail and under a transaction lock on the address and kind, so that concurrent requests are counted one after the
 * other and never both take the last place.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { sql, type Tx } from "../../infra/db.ts";
import type { MailKind } from "./templates.ts";

export interface Allowance {
  kind: MailKind;
  max: number;
  windowMs: number;
}

/** Whether one more mail of the allowance's kind may go to `to` now; if not, when the next one may (seconds from now). */
export async function allowanceLeft(
  tx: Tx,
  to: string,
  a: Allowance,
): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }> {
  await sql(Prisma.sql`SELECT pg_advisory_xact_lock(hashtextextended(${`mail-allowance:${a.kind}:${to}`}, 0)) IS NULL AS locked`, { tx });
  const [row] = await sql<{ n: number; oldest: Date | null }>(
    Prisma.sql`SELECT count(*)::int AS n, min(created_at) AS oldest FROM (
                 SELECT created_at FROM mails WHERE to_address = ${to} AND kind = ${a.kind}
                    AND created_at > clock_timestamp() - ${a.windowMs} * interval '1 millisecond'
                  ORDER BY created_at DESC LIMIT ${a.max}) recent`,
    { tx },
  );
  if (row!.n < a.max) return { allowed: true };
  const freeAt = (row!.oldest?.getTime() ?? Date.now()) + a.windowMs;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((freeAt - Date.now()) / 1000)) };
}
