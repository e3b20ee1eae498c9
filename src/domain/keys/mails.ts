/**
 * The keys' mail: a security notice to each owner of the workspace when an API key is made, queued in
 * the outbox (src/domain/mail/outbox.ts) inside the key's transaction. The workspace's name and who
 * made the key are read in that transaction.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { sql, type Tx } from "../../infra/db.ts";
import type { Acting } from "../actors/actor.ts";
import { actingLabel } from "../actors/audit.ts";
import { queueMails, type NewMail, type QueuedMail } from "../mail/outbox.ts";
import type { SecurityNoticeData } from "../mail/templates.ts";

/** A new API key: a notice to each owner of the workspace, in the key's transaction. */
export async function queueApiKeyNotice(tx: Tx, key: { id: string; workspaceId: string; name: string }, by: Acting): Promise<QueuedMail[]> {
  const owners = await sql<{ id: string; email: string; workspaceName: string }>(
    Prisma.sql`
      SELECT u.id, u.email, w.name AS "workspaceName"
        FROM workspace_members m JOIN users u ON u.id = m.user_id JOIN workspaces w ON w.id = m.workspace_id
       WHERE m.workspace_id = ${key.workspaceId}::uuid AND m.role = 'owner'`,
    { tx },
  );
  if (owners.length === 0) return [];
  const data: SecurityNoticeData = {
    what: "api_key_created",
    workspaceName: owners[0]!.workspaceName,
    keyName: key.name,
    by: await actingLabel(by, tx),
    at: new Date().toISOString(),
  };
  const mails: NewMail[] = owners.map((o) => ({
    dedupeKey: `security:api_key:${key.id}:${o.id}`,
    workspaceId: key.workspaceId,
    userId: o.id,
    to: o.email,
    kind: "security_notice",
    data,
  }));
  return queueMails(mails, tx);
}
