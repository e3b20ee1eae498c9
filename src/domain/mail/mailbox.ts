/**
 * The dev mailbox (and the operator's view of the outbox): the latest mails, newest first, each
 * rendered as it was (or will be) sent. `npm run cli -- mail list [--json]`.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { sql } from "../../infra/db.ts";
import { composeMail } from "./compose.ts";

export interface MailboxEntry {
  id: string;
  to: string;
  kind: string;
  status: string;
  subject: string;
  createdAt: string;
  sentAt: string | null;
  links: string[];
  text: string;
}

export async function listMailbox(limit = 20, to?: string): Promise<MailboxEntry[]> {
  const rows = await sql<{
    id: string;
    kind: string;
    toAddress: string;
    data: unknown;
    status: string;
    createdAt: Date;
    sentAt: Date | null;
  }>(Prisma.sql`
    SELECT id, kind, to_address AS "toAddress", data, status::text AS status, created_at AS "createdAt", sent_at AS "sentAt"
      FROM mails ${to ? Prisma.sql`WHERE to_address = ${to.trim().toLowerCase()}` : Prisma.empty}
     ORDER BY created_at DESC, id DESC LIMIT ${Math.min(Math.max(limit, 1), 500)}`);
  return Promise.all(
    rows.map(async (r) => {
      const mail = await composeMail(r);
      return {
        id: r.id,
        to: r.toAddress,
        kind: r.kind,
        status: r.status,
        subject: mail.subject,
        createdAt: r.createdAt.toISOString(),
        sentAt: r.sentAt?.toISOString() ?? null,
        links: mail.links,
        text: mail.text,
      };
    }),
  );
}
