/**
 * The alert rules a person chooses from, per workspace. A rule is named after the
 * workspace event that feeds it (docs/contract/decisions.md, Fourth wave: one name across doors);
 * each person picks, per rule: in the dashboard (the bell), by mail, both or neither, and for spikes a
 * minimum view velocity. Without a choice a rule shows in the dashboard and sends no mail.
 */
import type { WorkspaceEventType } from "../shared/workspace-events.ts";

export const ALERT_RULES = [
  "video.spike",
  "account.video_discovered",
  "analysis.completed",
  "analysis.failed",
  "radar.completed",
  "credits.low",
  "plan.limit_reached",
  "campaign.budget_reached",
] as const satisfies readonly WorkspaceEventType[];
export type AlertRule = (typeof ALERT_RULES)[number];

export const RULE_LABELS: Record<AlertRule, string> = {
  "video.spike": "Video spikes",
  "account.video_discovered": "New videos of tracked accounts",
  "analysis.completed": "Analyses completed",
  "analysis.failed": "Analyses failed",
  "radar.completed": "Radar searches completed",
  "credits.low": "Credits low",
  "plan.limit_reached": "Plan limits reached",
  "campaign.budget_reached": "Campaign budget reached",
};

export interface AlertChoice {
  rule: AlertRule;
  inDashboard: boolean;
  byMail: boolean;
  /** video.spike only: the least views per hour (views of the last 24 hours / 24) worth an alert; null: every spike. */
  minViewsPerHour: number | null;
}

export const DEFAULT_CHOICE = { inDashboard: true, byMail: false, minViewsPerHour: null } as const;

export const isAlertRule = (type: string): type is AlertRule => (ALERT_RULES as readonly string[]).includes(type);

/** A burst of one rule makes at most one mail per person per this long (the mail says how many). */
export const ALERT_MAIL_EVERY_MS = 10 * 60_000;
