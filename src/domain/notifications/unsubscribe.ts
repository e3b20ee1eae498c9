/**
 * One-click unsubscribe (RFC 8058) from an alert or digest mail, without signing in: the token
 * (src/domain/mail/tokens.ts) names one mail, and the mail names the one thing it may turn off: the
 * mail of that alert rule for that person in that workspace, or that person's digest of it. It can
 * change nothing else, and shows nothing but the workspace's name and what it turns off.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { sql } from "../../infra/db.ts";
import { mailOfToken } from "../mail/tokens.ts";
import { stopAlertMail, stopDigest } from "./preferences.ts";
import { isAlertRule, RULE_LABELS } from "./rules.ts";

export interface Unsubscription {
  /** What the link turns off, in words. */
  what: string;
  workspaceName: string;
  apply(): Promise<void>;
}

/** What the token would turn off; null for a token that opens nothing (404). */
export async function unsubscription(token: string): Promise<Unsubscription | null> {
  const mailId = await mailOfToken(token);
  if (!mailId) return null;
  const [mail] = await sql<{
    kind: string;
    workspaceId: string | null;
    userId: string | null;
    rule: string | null;
    workspaceName: string | null;
  }>(Prisma.sql`
    SELECT m.kind, m.workspace_id AS "workspaceId", m.user_id AS "userId", m.data->>'rule' AS rule, w.name AS "workspaceName"
      FROM mails m LEFT JOIN workspaces w ON w.id = m.workspace_id WHERE m.id = ${mailId}::uuid`);
  if (!mail?.workspaceId || !mail.userId || !mail.workspaceName) return null;
  const who = { workspaceId: mail.workspaceId, userId: mail.userId };
  if (mail.kind === "alert" && mail.rule && isAlertRule(mail.rule)) {
    const rule = mail.rule;
    return { what: `mails for "${RULE_LABELS[rule]}"`, workspaceName: mail.workspaceName, apply: () => stopAlertMail(who, rule) };
  }
  if (mail.kind === "digest") return { what: "the weekly digest", workspaceName: mail.workspaceName, apply: () => stopDigest(who) };
  return null;
}
