/** Webhook endpoints and their deliveries as REST /webhooks answers them: schemas and mappers. */
import { z } from "zod";
import type { DeliveryRecord, WebhookRecord } from "../../domain/webhooks/service.js";
import { WORKSPACE_EVENT_TYPES } from "../../domain/shared/workspace-events.js";
import { iso, isoOrNull, timestamp } from "./common.js";

export const eventName = z.enum(WORKSPACE_EVENT_TYPES);

export const webhookItem = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(eventName),
    description: z.string().meta({ description: "Empty when none was given." }),
    status: z.enum(["active", "disabled"]),
    failingSince: timestamp.nullable().meta({ description: "First failed attempt since the last successful delivery; null while healthy." }),
    disabledAt: timestamp.nullable(),
    disabledReason: z.string().nullable().meta({ description: "Why the endpoint was disabled (null while active)." }),
    createdAt: timestamp,
  })
  .meta({ id: "Webhook" });

export const deliveryItem = z
  .object({
    id: z.string().meta({ description: "The delivery's id: the `webhook-id` header of every attempt." }),
    eventId: z.string(),
    event: eventName,
    status: z.enum(["pending", "delivered", "failed"]).meta({
      description: "`pending` while attempts remain (see nextAttemptAt), `delivered` after a 2xx answer, `failed` after the last attempt.",
    }),
    attempts: z.number().int().meta({ description: "Attempts made so far." }),
    responseStatus: z.number().int().nullable().meta({ description: "HTTP status of the last attempt's answer; null when none came (refused target, timeout, connection error)." }),
    lastError: z.string().nullable().meta({ description: "Why the last attempt failed; null once delivered." }),
    nextAttemptAt: timestamp.nullable(),
    createdAt: timestamp,
    deliveredAt: timestamp.nullable(),
  })
  .meta({ id: "WebhookDelivery" });

export const webhookItemOf = (w: WebhookRecord) => ({
  id: w.id,
  url: w.url,
  events: w.events,
  description: w.description,
  status: w.disabledAt ? ("disabled" as const) : ("active" as const),
  failingSince: isoOrNull(w.failingSince),
  disabledAt: isoOrNull(w.disabledAt),
  disabledReason: w.disabledReason,
  createdAt: iso(w.createdAt),
});

export const deliveryItemOf = (d: DeliveryRecord) => ({
  id: d.id,
  eventId: d.eventId,
  event: d.event,
  status: d.status,
  attempts: d.attempts,
  responseStatus: d.responseStatus,
  lastError: d.lastError,
  nextAttemptAt: isoOrNull(d.nextAttemptAt),
  createdAt: iso(d.createdAt),
  deliveredAt: isoOrNull(d.deliveredAt),
});
