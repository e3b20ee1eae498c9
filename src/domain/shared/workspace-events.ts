/**
 * The catalog of a workspace's events, which its integrations and dashboards follow: one source for
 * every transport. The areas record them where the change happens (an analysis completing, a search
 * failing, an account scrape discovering a video …), in the change's transaction when it has one,
 * into the outbox (src/domain/webhooks/outbox.ts: record, relay, watch); relaying an event publishes
 * it on the workspace's channel (`workspaceEvent:<workspaceId>`, read by GraphQL subscriptions on
 * every API process) and fans it out to the workspace's webhook endpoints. docs/webhooks.md.
 *
 * The event names are the contract's webhook events (docs/contract/decisions.md, Webhooks), and
 * `plan.limit_reached` (the plan's video tracking limit refused an addition; at most one a
 * day per workspace), which feeds the "plan limits reached" alert; `campaign.closed` and
 * `campaign.budget_reached` (src/domain/campaigns/close.ts; the latter feeds the "campaign
 * budget reached" alert).
 */

export const WORKSPACE_EVENT_TYPES = [
  "analysis.completed",
  "analysis.failed",
  "radar.completed",
  "radar.failed",
  "account.video_discovered",
  "video.spike",
  "credits.low",
  "plan.limit_reached",
  "campaign.closed",
  "campaign.budget_reached",
  "webhook.test",
] as const;
export type WorkspaceEventType = (typeof WORKSPACE_EVENT_TYPES)[number];

export interface WorkspaceEvent {
  /** The event's id (the outbox row). */
  id: string;
  workspaceId: string;
  type: WorkspaceEventType;
  /** The event's payload: ids and the state that changed (JSON). */
  data: Record<string, unknown>;
  /** When it happened (ISO 8601). */
  at: string;
}
