/**
 * /webhooks: signed webhook endpoints of the workspace, their delivery log and test events
 * (docs/contract/decisions.md, Webhooks; the design in docs/webhooks.md).
 */
import { z } from "zod";
import { createWebhook, deleteWebhook, getWebhook, listDeliveries, listWebhooks, sendTestEvent } from "../../../domain/webhooks/service.ts";
import { createWebhookInput, listDeliveriesQuery, listWebhooksQuery, MAX_WEBHOOKS } from "../../../domain/webhooks/inputs.ts";
import { defineRoute } from "../route.ts";
import { idParams, queryParams } from "../schemas.ts";
import { iso, timestamp } from "../../../domain/shared/records.ts";
import { pagination, paginationSchema } from "../../records/common.ts";
import { deliveryItem, deliveryItemOf, eventName, webhookItem, webhookItemOf } from "../../records/webhooks.ts";

const SIGNING =
  "Each event is POSTed as JSON `{id, type, timestamp, data}` (`id`: the event's id, the one GraphQL's WorkspaceEvent.id carries, the " +
  "same for every endpoint) with the Standard Webhooks headers `webhook-id` (the delivery's id, the same on " +
  "every attempt: use it to drop duplicates), `webhook-timestamp` (Unix seconds, of this attempt) and `webhook-signature` (`v1,` + base64 " +
  "HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the base64-decoded part of the secret after `whsec_`). A 2xx " +
  "answer within 10 s is delivered; otherwise it is retried after 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (7 attempts in all, the server's " +
  "WEBHOOK_RETRY_SCHEDULE). Redirects are not followed.";

const DISABLING =
  "An endpoint whose every delivery attempt failed for 72 hours (WEBHOOK_DISABLE_AFTER_HOURS) is disabled: `status` becomes `disabled` and " +
  "`disabledReason` says why; it receives nothing more until a test event (POST /webhooks/{id}/test) succeeds, which enables it again.";

export const webhookRoutes = [
  defineRoute({
    method: "post",
    path: "/webhooks",
    operationId: "createWebhook",
    summary: "Create a webhook endpoint (its signing secret is shown once)",
    description:
      `At most ${MAX_WEBHOOKS} per workspace (the next is 409 WEBHOOK_LIMIT_REACHED). An unknown event name is 400 VALIDATION_ERROR. ` +
      "The URL must be https and must not point at a loopback, private, link-local or otherwise non-public address (checked again on the " +
      "resolved address at every delivery). When the server has no WEBHOOK_SECRET_KEY it cannot store secrets encrypted and answers 503 " +
      `WEBHOOKS_NOT_CONFIGURED. ${SIGNING}`,
    tags: ["Webhooks"],
    permission: "webhooks.manage",
    body: createWebhookInput,
    errors: ["INVALID_URL", "WEBHOOK_LIMIT_REACHED", "WEBHOOKS_NOT_CONFIGURED"],
    responses: {
      201: {
        description: "The new endpoint. `secret` (`whsec_` + base64 of 32 random bytes) is shown this once only.",
        schema: z.object({
          data: z.object({
            id: z.string(),
            url: z.string(),
            events: z.array(eventName),
            description: z.string(),
            secret: z.string().meta({ example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" }),
            createdAt: timestamp,
          }),
          message: z.string(),
        }),
      },
    },
    async handler({ auth, body }) {
      const { webhook, secret } = await createWebhook(auth.workspaceId, body, auth);
      return {
        status: 201,
        body: {
          data: {
            id: webhook.id,
            url: webhook.url,
            events: webhook.events,
            description: webhook.description,
            secret,
            createdAt: iso(webhook.createdAt),
          },
          message: "Webhook created. Store the secret now: it will not be shown again.",
        },
      };
    },
  }),
  defineRoute({
    method: "get",
    path: "/webhooks",
    operationId: "listWebhooks",
    summary: "List the workspace's webhook endpoints",
    description: `Newest first; never the secret. ${DISABLING}`,
    tags: ["Webhooks"],
    permission: "webhooks.manage",
    query: queryParams(listWebhooksQuery),
    responses: {
      200: { description: "A page of endpoints.", schema: z.object({ data: z.array(webhookItem), pagination: paginationSchema }) },
    },
    async handler({ auth, query }) {
      const { items, total } = await listWebhooks(auth.workspaceId, query);
      return { body: { data: items.map(webhookItemOf), pagination: pagination(total, query.limit, query.offset) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/webhooks/{id}",
    operationId: "getWebhook",
    summary: "Get one webhook endpoint",
    description: DISABLING,
    tags: ["Webhooks"],
    permission: "webhooks.manage",
    params: idParams,
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "The endpoint (never the secret).", schema: z.object({ data: webhookItem }) } },
    async handler({ auth, params }) {
      return { body: { data: webhookItemOf(await getWebhook(auth.workspaceId, params.id)) } };
    },
  }),
  defineRoute({
    method: "delete",
    path: "/webhooks/{id}",
    operationId: "deleteWebhook",
    summary: "Delete a webhook endpoint",
    description: "Its delivery log goes with it, and its pending deliveries are not sent any more.",
    tags: ["Webhooks"],
    permission: "webhooks.manage",
    params: idParams,
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "Deleted.", schema: z.object({ data: z.object({ id: z.string() }), message: z.string() }) } },
    async handler({ auth, params }) {
      const { id } = await deleteWebhook(auth.workspaceId, params.id, auth);
      return { body: { data: { id }, message: "Webhook deleted." } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/webhooks/{id}/deliveries",
    operationId: "listWebhookDeliveries",
    summary: "The endpoint's delivery log",
    description: "Newest first. Deliveries are kept WEBHOOK_RETENTION_DAYS (default 30) days.",
    tags: ["Webhooks"],
    permission: "webhooks.manage",
    params: idParams,
    query: queryParams(listDeliveriesQuery),
    errors: ["NOT_FOUND"],
    responses: {
      200: { description: "A page of deliveries.", schema: z.object({ data: z.array(deliveryItem), pagination: paginationSchema }) },
    },
    async handler({ auth, params, query }) {
      const { items, total } = await listDeliveries(auth.workspaceId, params.id, query);
      return { body: { data: items.map(deliveryItemOf), pagination: pagination(total, query.limit, query.offset) } };
    },
  }),
  defineRoute({
    method: "post",
    path: "/webhooks/{id}/test",
    operationId: "testWebhook",
    summary: "Send a webhook.test event to the endpoint now",
    description:
      "Queues a `webhook.test` event for this endpoint only (whether or not it subscribed to it, and even when it is disabled: a successful " +
      "test enables it again). Follow it in the delivery log.",
    tags: ["Webhooks"],
    permission: "webhooks.manage",
    params: idParams,
    errors: ["NOT_FOUND"],
    responses: { 202: { description: "The test delivery, queued.", schema: z.object({ data: deliveryItem, message: z.string() }) } },
    async handler({ auth, params }) {
      const delivery = await sendTestEvent(auth.workspaceId, params.id);
      return { status: 202, body: { data: deliveryItemOf(delivery), message: "Test event queued." } };
    },
  }),
];
