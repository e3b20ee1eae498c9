/**
 * GraphQL: the workspace's integration events as a live stream (the same events webhooks deliver:
 * src/domain/shared/workspace-events.ts), for dashboards that want them without polling.
 */
import { builder } from "../builder.ts";
import { sharedPerEvent } from "../subscriptions.ts";
import { WORKSPACE_EVENT_TYPES, type WorkspaceEvent } from "../../../domain/shared/workspace-events.ts";
import { watchWorkspaceEvents } from "../../../domain/webhooks/outbox.ts";

/** `analysis.completed` → ANALYSIS_COMPLETED */
const enumName = (type: string) => type.replace(/[.]/g, "_").toUpperCase();

export const WorkspaceEventTypeEnum = builder.enumType("WorkspaceEventType", {
  description: "The event names of the webhook contract (analysis.completed → ANALYSIS_COMPLETED …).",
  values: Object.fromEntries(WORKSPACE_EVENT_TYPES.map((type) => [enumName(type), { value: type }])) as Record<
    string,
    { value: WorkspaceEvent["type"] }
  >,
});

const WorkspaceEventRef = builder.objectRef<WorkspaceEvent>("WorkspaceEvent").implement({
  description: "An event of the workspace, as webhooks deliver it.",
  fields: (t) => ({
    id: t.exposeID("id", {
      description:
        "The event's id (its row in the workspace's event log, unique per event): lets a client drop an event it has already seen, e.g. after reconnecting. Webhook bodies carry it too (their `id`); each delivery also has its own id (the webhook-id header), one per endpoint.",
    }),
    type: t.field({ type: WorkspaceEventTypeEnum, resolve: (e) => e.type }),
    data: t.field({
      type: "JSONObject",
      description: "The event's payload (ids and what changed), as in the webhook body's `data`.",
      resolve: (e) => e.data,
    }),
    at: t.field({ type: "DateTime", resolve: (e) => e.at }),
  }),
});

builder.subscriptionFields((t) => ({
  workspaceEvents: t.field({
    type: WorkspaceEventRef,
    description: "The workspace's events (analyses and radar searches finishing, discovered videos, spikes, low credits …) as they happen.",
    subscribe: (_r, _a, ctx) => sharedPerEvent(ctx, watchWorkspaceEvents(ctx.auth.workspaceId)),
    resolve: (event) => event,
  }),
}));
