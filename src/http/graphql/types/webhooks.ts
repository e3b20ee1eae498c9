/**
 * GraphQL: webhook endpoints, their delivery log and test events, through the same webhook services
 * as REST (docs/contract/decisions.md, Webhooks; docs/webhooks.md). `Webhook` and `WebhookDelivery`
 * are nodes loaded per request through DataLoaders over workspace-scoped reads.
 */
import { builder } from "../builder.ts";
import { entityId, nodeUuid, pagedConnection } from "../connections.ts";
import { WorkspaceEventTypeEnum } from "./events.ts";
import { parseInput } from "../../../domain/shared/inputs.ts";
import {
  createWebhook,
  deleteWebhook,
  deliveriesByIds,
  DELIVERIES_ORDER,
  getWebhook,
  listDeliveries,
  listWebhooks,
  sendTestEvent,
  webhooksByIds,
  WEBHOOKS_ORDER,
  type DeliveryRecord,
  type WebhookRecord,
} from "../../../domain/webhooks/service.ts";
import { createWebhookInput } from "../../../domain/webhooks/inputs.ts";
import { authorize } from "../../../domain/actors/roles.ts";
import type { GraphQLContext } from "../builder.ts";

/** Webhooks are owners' (src/domain/actors/roles.ts): every field and node of this file asks first. */
const ownersOnly = (ctx: GraphQLContext) => authorize(ctx.auth, "webhooks.manage");

const WebhookStatusEnum = builder.enumType("WebhookStatus", {
  values: {
    ACTIVE: { value: "active" },
    DISABLED: {
      value: "disabled",
      description: "Every delivery attempt failed for too long; see disabledReason. A successful test enables it again.",
    },
  } as const,
});

const WebhookDeliveryStatusEnum = builder.enumType("WebhookDeliveryStatus", {
  values: {
    PENDING: { value: "pending", description: "Attempts remain (see nextAttemptAt)." },
    DELIVERED: { value: "delivered", description: "A 2xx answer came." },
    FAILED: { value: "failed", description: "The last attempt failed." },
  } as const,
});

const WebhookRef = builder.loadableNodeRef("Webhook", {
  id: { resolve: (w: WebhookRecord) => w.id, parse: nodeUuid },
  load: (ids: string[], ctx) => {
    ownersOnly(ctx);
    return webhooksByIds(ctx.auth.workspaceId, ids);
  },
  sort: (w) => w.id,
  cacheResolved: (w) => w.id,
});

const WebhookDeliveryRef = builder.loadableNodeRef("WebhookDelivery", {
  id: { resolve: (d: DeliveryRecord) => d.id, parse: nodeUuid },
  load: (ids: string[], ctx) => {
    ownersOnly(ctx);
    return deliveriesByIds(ctx.auth.workspaceId, ids);
  },
  sort: (d) => d.id,
  cacheResolved: (d) => d.id,
});

WebhookDeliveryRef.implement({
  description: "One event sent to one endpoint. Its uuid is the `webhook-id` header of every attempt.",
  fields: (t) => ({
    uuid: t.exposeID("id", { description: "The delivery's UUID (the `webhook-id` header)." }),
    event: t.field({ type: WorkspaceEventTypeEnum, resolve: (d) => d.event }),
    eventId: t.exposeID("eventId", { description: "The event's UUID (one event may go to several endpoints)." }),
    status: t.field({ type: WebhookDeliveryStatusEnum, resolve: (d) => d.status }),
    attempts: t.exposeInt("attempts", { description: "Attempts made so far." }),
    responseStatus: t.exposeInt("responseStatus", {
      nullable: true,
      description: "HTTP status of the last attempt's answer; null when none came.",
    }),
    lastError: t.exposeString("lastError", { nullable: true, description: "Why the last attempt failed; null once delivered." }),
    nextAttemptAt: t.expose("nextAttemptAt", { type: "DateTime", nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    deliveredAt: t.expose("deliveredAt", { type: "DateTime", nullable: true }),
    webhook: t.field({ type: WebhookRef, resolve: (d) => d.webhookId }),
  }),
});

const WebhookDeliveriesConnection = builder.connectionObject({ type: WebhookDeliveryRef, name: "WebhookDeliveriesConnection" });

WebhookRef.implement({
  description:
    "A webhook endpoint: the workspace's events it subscribed to are POSTed to its URL, signed (Standard Webhooks). The secret is shown " +
    "only when it is created (createWebhook).",
  fields: (t) => ({
    uuid: t.exposeID("id", { description: "The endpoint's UUID, as REST writes it." }),
    url: t.exposeString("url"),
    events: t.field({ type: [WorkspaceEventTypeEnum], resolve: (w) => w.events }),
    description: t.exposeString("description"),
    status: t.field({ type: WebhookStatusEnum, resolve: (w) => (w.disabledAt ? "disabled" : "active") }),
    failingSince: t.expose("failingSince", {
      type: "DateTime",
      nullable: true,
      description: "First failed attempt since the last successful delivery.",
    }),
    disabledAt: t.expose("disabledAt", { type: "DateTime", nullable: true }),
    disabledReason: t.exposeString("disabledReason", { nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    deliveries: t.field({
      type: WebhookDeliveriesConnection,
      description: "The endpoint's delivery log, newest first.",
      args: { ...t.arg.connectionArgs() },
      resolve: (w, args, ctx) => pagedConnection(args, DELIVERIES_ORDER, (window) => listDeliveries(ctx.auth.workspaceId, w.id, window)),
    }),
  }),
});

const CreatedWebhook = builder.objectRef<{ webhook: WebhookRecord; secret: string }>("CreatedWebhook").implement({
  fields: (t) => ({
    webhook: t.field({ type: WebhookRef, resolve: (c) => c.webhook }),
    secret: t.exposeString("secret", { description: "The signing secret (`whsec_…`), shown this once only." }),
  }),
});

builder.queryFields((t) => ({
  webhooks: t.connection(
    {
      type: WebhookRef,
      description: "The workspace's webhook endpoints, newest first. Owners only (FORBIDDEN for members).",
      resolve: (_r, args, ctx) => {
        ownersOnly(ctx);
        return pagedConnection(args, WEBHOOKS_ORDER, (window) => listWebhooks(ctx.auth.workspaceId, window));
      },
    },
    { name: "WebhookConnection" },
    { name: "WebhookEdge" },
  ),
  webhook: t.field({
    type: WebhookRef,
    description: "One webhook endpoint of the workspace, by its global ID or UUID (NOT_FOUND otherwise). Owners only.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => {
      ownersOnly(ctx);
      return getWebhook(ctx.auth.workspaceId, entityId(args.id, "Webhook", "id"));
    },
  }),
}));

builder.mutationFields((t) => ({
  createWebhook: t.field({
    type: CreatedWebhook,
    description:
      "Creates a webhook endpoint (at most 10 per workspace: WEBHOOK_LIMIT_REACHED beyond; WEBHOOKS_NOT_CONFIGURED when the server has no " +
      "WEBHOOK_SECRET_KEY). The URL must be https and public. Answers the secret, shown this once. Owners only; audited.",
    args: {
      url: t.arg.string({ required: true }),
      events: t.arg({ type: [WorkspaceEventTypeEnum], required: true }),
      description: t.arg.string(),
    },
    resolve: (_r, args, ctx) => {
      ownersOnly(ctx);
      const input = parseInput(createWebhookInput, { url: args.url, events: args.events, description: args.description ?? undefined });
      return createWebhook(ctx.auth.workspaceId, input, ctx.auth);
    },
  }),
  deleteWebhook: t.id({
    description: "Deletes the endpoint and its delivery log; answers its UUID. Owners only; audited.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      ownersOnly(ctx);
      return (await deleteWebhook(ctx.auth.workspaceId, entityId(args.id, "Webhook", "id"), ctx.auth)).id;
    },
  }),
  sendWebhookTest: t.field({
    type: WebhookDeliveryRef,
    description:
      "Sends a webhook.test event to the endpoint now (even when disabled: a successful test enables it again); answers the queued delivery. Owners only.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => {
      ownersOnly(ctx);
      return sendTestEvent(ctx.auth.workspaceId, entityId(args.id, "Webhook", "id"));
    },
  }),
}));
