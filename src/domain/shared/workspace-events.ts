/**
 * Events of a workspace that its integrations and dashboards follow: one source for every
 * transport. The areas record them where the change happens (an analysis completing, a search
 * failing, an account scrape discovering a video …), in the change's transaction when it has one,
 * into the outbox (src/domain/webhooks/outbox.ts); relaying an event publishes it on the
 * workspace's channel (`workspaceEvent:<workspaceId>`, read by GraphQL subscriptions on every API
 * process) and fans it out to the workspace's webhook endpoints. docs/webhooks.md.
 *
 * The event names are the contract's webhook events (docs/contract/decisions.md, Webhooks).
 */
import { subscribeEvents } from "./events.js";
import { emitEvents, recordEvents, relayEvents, relayWorkspaceBacklog as relayBacklog } from "../webhooks/outbox.js";

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
  /** The event's id (the outbox row). */
  id: string;
  workspaceId: string;
  type: WorkspaceEventType;
  /** The event's payload: ids and the state that changed (JSON). */
  data: Record<string, unknown>;
  /** When it happened (ISO 8601). */
  at: string;
}

export type NewEvent = Pick<WorkspaceEvent, "workspaceId" | "type" | "data">;

/** Emits events of workspaces right after the change they report was committed (no transaction to join). */
export async function emitWorkspaceEvents(events: NewEvent[]): Promise<void> {
  await emitEvents(events);
}

/**
 * Records events in the transaction `tx` of the change they report; call `relay` with the answer
 * after the commit (an event nobody relays is relayed by the webhook sweep within seconds).
 */
export const recordWorkspaceEvents = (events: NewEvent[], tx: Parameters<typeof recordEvents>[1]) => recordEvents(events, tx);
export const relayWorkspaceEvents = (ids: string[]) => relayEvents(ids);

/** The workspace's events as they come (GraphQL subscriptions), until the consumer stops. */
export function watchWorkspaceEvents(workspaceId: string): AsyncIterable<WorkspaceEvent> {
  return subscribeEvents("workspaceEvent", workspaceId);
}

/** Relays the workspace's events that are recorded and not yet relayed (after a commit that may have recorded some). */
export const relayWorkspaceBacklog = (workspaceId: string) => relayBacklog(workspaceId);
