/**
 * One-click unsubscribe (RFC 8058) of every mail that carries it, without signing in. The token
 * (src/domain/mail/tokens.ts) names one mail; a scheduled report's mail may take its own address off
 * its schedule (the address is outside the workspace: nobody there would otherwise stop the mails),
 * and nothing else; an alert's or a digest's is the notifications area's (../notifications/unsubscribe.ts).
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { sql } from "../../infra/db.ts";
import { mailOfToken } from "../mail/tokens.ts";
import { quoted } from "../mail/text.ts";
import { alertUnsubscription, type Unsubscription } from "../notifications/unsubscribe.ts";
import { removeRecipient } from "./schedules.ts";

export type { Unsubscription };

/** What the token would turn off; null for a token that opens nothing (404). */
export async function unsubscription(token: string): Promise<Unsubscription | null> {
  const mailId = await mailOfToken(token);
  if (!mailId) return null;
  const [mail] = await sql<{
    kind: string;
    to: string;
    scheduleId: string | null;
    folderName: string | null;
    workspaceName: string | null;
  }>(
    Prisma.sql`
    SELECT m.kind, m.to_address AS "to", s.id::text AS "scheduleId", f.name AS "folderName", w.name AS "workspaceName"
      FROM mails m
      LEFT JOIN report_schedules s ON m.kind = 'folder_report' AND s.id::text = m.data->>'scheduleId' AND s.workspace_id = m.workspace_id
      LEFT JOIN folders f ON f.id = s.folder_id
      LEFT JOIN workspaces w ON w.id = m.workspace_id
     WHERE m.id = ${mailId}::uuid`,
  );
  if (!mail) return null;
  if (mail.kind !== "folder_report") return alertUnsubscription(mailId);
  if (!mail.scheduleId || !mail.workspaceName) return null;
  const scheduleId = mail.scheduleId;
  return {
    what: `the reports of the folder ${quoted(mail.folderName ?? "")} to ${mail.to}`,
    workspaceName: mail.workspaceName,
    undo: "An owner of the workspace can add your address again.",
    apply: () => removeRecipient(scheduleId, mail.to),
  };
}
