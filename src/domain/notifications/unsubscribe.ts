/**
 * One-click unsubscribe (RFC 8058) from an alert or digest mail, without signing in: the token
 * (src/domain/mail/tokens.ts) names one mail, and the mail names the one thing it may turn off: the
 * mail of that alert rule for that person in that workspace, or that person's digest of it. It can
 * change nothing else, and shows nothing but the workspace's name and what it turns off. Report mails
 * have their own (src/domain/reports/unsubscribe.ts, which asks this one for the other kinds).
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { sql } from "../../infra/db.ts";
import { stopAlertMail, stopDigest } from "./preferences.ts";
import { isAlertRule, RULE_LABELS } from "./rules.ts";

export interface Unsubscription {
  /** What the link turns off, in words. */
  what: string;
  workspaceName: string;
  /** How to get it back, in words. */
  undo: string;
  apply(): Promise<void>;
}

const IN_SETTINGS = "You can turn them on again in the dashboard's settings.";

/** What the mail's unsubscribe link would turn off (an alert rule's mails, a digest); null when it opens nothing (404). */
export async function alertUnsubscription(mailId: string): Promise<Unsubscription | null> {
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
    return {
      what: `mails for "${RULE_LABELS[rule]}"`,
      workspaceName: mail.workspaceName,
      undo: IN_SETTINGS,
      apply: () => stopAlertMail(who, rule),
    };
  }
  if (mail.kind === "digest")
    return { what: "the weekly digest", workspaceName: mail.workspaceName, undo: IN_SETTINGS, apply: () => stopDigest(who) };
  return null;
}
