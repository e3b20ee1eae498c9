/**
 * Events of a workspace that its integrations and dashboards follow: one source for every
 * transport. The areas emit them where the change happens (an analysis completing, a search
 * failing, an account scrape discovering a video …); each is published on the workspace's
 * channel (`workspaceEvent:<workspaceId>`, read by GraphQL subscriptions on every API process).
 *
 * The event names are the contract's webhook events (docs/contract/decisions.md, Webhooks).
 */
import { publishEvent, subscribeEvents } from "./events.js";

export const WORKSPACE_EVENT_TYPES = [
  "analysis.completed",
  "analysis.failed",
  "radar.completed",
  "radar.failed",
  "account.video_discovered",
  "video.spike",
  "credits.low",
  "webhook.test",
] as const;
export type WorkspaceEventType = (typeof WORKSPACE_EVENT_TYPES)[number];

export interface WorkspaceEvent {
  workspaceId: string;
  type: WorkspaceEventType;
  /** The event's payload: ids and the state that changed (JSON). */
  data: Record<string, unknown>;
  /** When it happened (ISO 8601). */
  at: string;
}

/** Emits events of workspaces, after the change they report is committed. */
export async function emitWorkspaceEvents(events: Omit<WorkspaceEvent, "at">[]): Promise<void> {
  const at = new Date().toISOString();
  await Promise.all(events.map((e) => publishEvent("workspaceEvent", e.workspaceId, { ...e, at })));
}

/** The workspace's events as they come (GraphQL subscriptions), until the consumer stops. */
export function watchWorkspaceEvents(workspaceId: string): AsyncIterable<WorkspaceEvent> {
  return subscribeEvents("workspaceEvent", workspaceId);
}
