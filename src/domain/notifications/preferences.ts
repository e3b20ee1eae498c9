/**
 * A person's choices: alert rules (./rules.ts) and the weekly digest, per workspace; their time zone
 * (one per person); and the workspace's credits threshold (owners).
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { prisma, sql, sqlExec } from "../../infra/db.ts";
import type { Actor } from "../actors/actor.ts";
import { authorize } from "../actors/roles.ts";
import { parseInput } from "../shared/inputs.ts";
import { creditsAlertInput, setAlertInput, setDigestInput, type SetAlertInput, type SetDigestInput } from "./inputs.ts";
import { personIn, type PersonInWorkspace } from "./person.ts";
import { ALERT_RULES, DEFAULT_CHOICE, type AlertChoice, type AlertRule } from "./rules.ts";

/** Every rule with the person's choice, or its default. */
export async function alertChoices(who: PersonInWorkspace): Promise<AlertChoice[]> {
  const rows = await sql<AlertChoice>(Prisma.sql`
    SELECT rule, in_dashboard AS "inDashboard", by_mail AS "byMail", min_views_per_hour AS "minViewsPerHour"
      FROM alert_preferences WHERE workspace_id = ${who.workspaceId}::uuid AND user_id = ${who.userId}::uuid`);
  const chosen = new Map(rows.map((r) => [r.rule, r]));
  return ALERT_RULES.map((rule) => chosen.get(rule) ?? { rule, ...DEFAULT_CHOICE });
}

export async function setAlertChoice(actor: Actor, input: SetAlertInput): Promise<AlertChoice> {
  const who = personIn(actor);
  const v = parseInput(setAlertInput, input);
  const min = v.rule === "video.spike" ? (v.minViewsPerHour ?? null) : null;
  await sqlExec(Prisma.sql`
    INSERT INTO alert_preferences (workspace_id, user_id, rule, in_dashboard, by_mail, min_views_per_hour)
    VALUES (${who.workspaceId}::uuid, ${who.userId}::uuid, ${v.rule}, ${v.inDashboard}, ${v.byMail}, ${min})
    ON CONFLICT (workspace_id, user_id, rule) DO UPDATE
      SET in_dashboard = EXCLUDED.in_dashboard, by_mail = EXCLUDED.by_mail, min_views_per_hour = EXCLUDED.min_views_per_hour, updated_at = now()`);
  return { rule: v.rule, inDashboard: v.inDashboard, byMail: v.byMail, minViewsPerHour: min };
}

/** The one-click unsubscribe of an alert mail: that rule, no more mail (the dashboard keeps its choice). */
export async function stopAlertMail(who: PersonInWorkspace, rule: AlertRule): Promise<void> {
  await sqlExec(Prisma.sql`
    INSERT INTO alert_preferences (workspace_id, user_id, rule, in_dashboard, by_mail)
    SELECT m.workspace_id, m.user_id, ${rule}, ${DEFAULT_CHOICE.inDashboard}, false
      FROM workspace_members m WHERE m.workspace_id = ${who.workspaceId}::uuid AND m.user_id = ${who.userId}::uuid
    ON CONFLICT (workspace_id, user_id, rule) DO UPDATE SET by_mail = false, updated_at = now()`);
}

export interface DigestChoice {
  enabled: boolean;
  weekday: number;
  hour: number;
  timeZone: string;
}

/** The person's digest of this workspace (off until they turn it on), and their time zone. */
export async function digestChoice(who: PersonInWorkspace): Promise<DigestChoice> {
  const [row] = await sql<DigestChoice>(Prisma.sql`
    SELECT COALESCE(d.enabled, false) AS enabled, COALESCE(d.weekday, 1) AS weekday, COALESCE(d.hour, 8) AS hour, u.time_zone AS "timeZone"
      FROM users u LEFT JOIN digest_subscriptions d ON d.user_id = u.id AND d.workspace_id = ${who.workspaceId}::uuid
     WHERE u.id = ${who.userId}::uuid`);
  return row ?? { enabled: false, weekday: 1, hour: 8, timeZone: "UTC" };
}

export async function setDigestChoice(actor: Actor, input: SetDigestInput): Promise<DigestChoice> {
  const who = personIn(actor);
  const v = parseInput(setDigestInput, input);
  await prisma.$transaction(async (tx) => {
    await sql(
      Prisma.sql`
      INSERT INTO digest_subscriptions (workspace_id, user_id, enabled, weekday, hour)
      VALUES (${who.workspaceId}::uuid, ${who.userId}::uuid, ${v.enabled}, ${v.weekday}, ${v.hour})
      ON CONFLICT (workspace_id, user_id) DO UPDATE SET enabled = EXCLUDED.enabled, weekday = EXCLUDED.weekday, hour = EXCLUDED.hour, updated_at = now()
      RETURNING 1`,
      { tx },
    );
    if (v.timeZone) await sql(Prisma.sql`UPDATE users SET time_zone = ${v.timeZone} WHERE id = ${who.userId}::uuid RETURNING 1`, { tx });
  });
  return digestChoice(who);
}

/** The one-click unsubscribe of a digest mail. */
export async function stopDigest(who: PersonInWorkspace): Promise<void> {
  await sqlExec(
    Prisma.sql`UPDATE digest_subscriptions SET enabled = false, updated_at = now() WHERE workspace_id = ${who.workspaceId}::uuid AND user_id = ${who.userId}::uuid`,
  );
}

/** Owners: the credits left below which `credits.low` fires (null: CREDITS_LOW_PERCENT of the allowance). */
export async function setCreditsAlertThreshold(actor: Actor, threshold: number | null): Promise<number | null> {
  authorize(actor, "alerts.manage");
  const v = parseInput(creditsAlertInput, { threshold });
  await sqlExec(Prisma.sql`UPDATE workspaces SET credits_alert_threshold = ${v.threshold} WHERE id = ${actor.workspaceId}::uuid`);
  return v.threshold;
}

export async function creditsAlertThreshold(workspaceId: string): Promise<number | null> {
  const [row] = await sql<{ t: number | null }>(
    Prisma.sql`SELECT credits_alert_threshold AS t FROM workspaces WHERE id = ${workspaceId}::uuid`,
  );
  return row?.t ?? null;
}
