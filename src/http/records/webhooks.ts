/** Webhook endpoints and their deliveries as REST /webhooks answers them: schemas and mappers. */
import { z } from "zod";
import type { DeliveryRecord, WebhookRecord } from "../../domain/webhooks/service.ts";
import { WORKSPACE_EVENT_TYPES } from "../../domain/shared/workspace-events.ts";
import { iso, isoOrNull, timestamp } from "../../domain/shared/records.ts";

export const eventName = z.enum(WORKSPACE_EVENT_TYPES);

export const webhookItem = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(eventName),
    description: z.string().meta({ description: "Empty when none was given." }),
    status: z.enum(["active", "disabled"]),
    failingSince: timestamp
      .nullable()
      .meta({ description: "First failed attempt since the last successful delivery; null while healthy." }),
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
    responseStatus: z
      .number()
      .int()
      .nullable()
      .meta({ description: "HTTP status of the last attempt's answer; null when none came (refused target, timeout, connection error)." }),
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

// --- What a delivery carries: one payload per event (docs/webhooks.md, "Events' data"), documented under the
// OpenAPI document's `webhooks` (src/http/rest/openapi.ts). The shapes are those the areas record
// (src/domain/analysis/service.ts, radar/lifecycle.ts, tracking/scrape-jobs.ts, credits/service.ts, webhooks/service.ts).
const id = z.string().meta({ format: "uuid" });
const count = z.number().int();
const nullable = <T extends z.ZodType>(t: T) => t.nullable();

const analysisData = z.object({
  analysisId: id,
  videoId: id,
  status: z.enum(["completed", "failed"]),
  error: nullable(z.string()).meta({ description: "Why it failed (null when it completed)." }),
  completedAt: nullable(timestamp),
  updatedAt: timestamp,
});

export const webhookEventData = {
  "analysis.completed": { summary: "A video analysis completed (its 5 credits were charged)", data: analysisData },
  "analysis.failed": { summary: "A video analysis failed (its reserved credits were released)", data: analysisData },
  "radar.completed": {
    summary: "A radar search completed",
    data: z.object({
      searchId: id,
      query: z.string(),
      status: z.literal("completed"),
      resultCount: count,
      note: nullable(z.string()).meta({
        description: "Partial results (a provider failed while others answered), or why nothing was found.",
      }),
      completedAt: timestamp,
    }),
  },
  "radar.failed": {
    summary: "A radar search failed (its 100 credits were refunded)",
    data: z.object({
      searchId: id,
      query: z.string(),
      status: z.literal("failed"),
      error: z.string(),
      refunded: z.literal(true),
      failedAt: timestamp,
    }),
  },
  "account.video_discovered": {
    summary: "An account scrape found a new video of a tracked account",
    data: z.object({
      accountId: id,
      username: z.string(),
      platform: z.string(),
      videoId: id,
      trackedVideoId: id,
      postedAt: nullable(timestamp),
    }),
  },
  "video.spike": {
    summary: "A tracked video's outlier score crossed SPIKE_OUTLIER_THRESHOLD",
    data: z.object({
      videoId: id,
      accountId: nullable(id),
      outlierScore: z.number(),
      previousOutlierScore: nullable(z.number()),
      threshold: z.number(),
      viewCount: nullable(count),
      views24h: nullable(count),
      trackedVideoId: id,
    }),
  },
  "credits.low": {
    summary:
      "A charge took total_remaining below the threshold: the owners' (thresholdSetByOwner), else CREDITS_LOW_PERCENT of the monthly allowance",
    data: z.object({
      totalRemaining: count,
      threshold: count,
      thresholdPercent: z.number().meta({ description: "The server's CREDITS_LOW_PERCENT (the threshold when the owners set none)." }),
      thresholdSetByOwner: z
        .boolean()
        .meta({ description: "Whether `threshold` is the one the workspace's owners set (GraphQL setCreditsAlertThreshold)." }),
      monthlyTotal: count,
      reserved: count,
    }),
  },
  "plan.limit_reached": {
    summary: "The plan's video tracking limit refused an addition (at most one such event a day per workspace)",
    data: z.object({ limit: z.enum(["videos"]).meta({ description: "Which limit: the plan's tracked videos." }), videoLimit: count }),
  },
  "campaign.closed": {
    summary: "A campaign was closed: its payouts are frozen (src/domain/campaigns/close.ts)",
    data: z.object({
      campaignId: id,
      name: z.string(),
      currency: z.string().meta({ description: "ISO 4217; every amount is integer minor units of it." }),
      payoutMinor: count.meta({ description: "The frozen total owed (the sum of the rows' payouts)." }),
      viewsEarned: count,
      videos: count,
      budgetMinor: nullable(count),
      closedAt: timestamp,
    }),
  },
  "campaign.budget_reached": {
    summary: "A campaign's spend reached 80 % or 100 % of its budget (each threshold once per campaign)",
    data: z.object({
      campaignId: id,
      name: z.string(),
      percent: z.union([z.literal(80), z.literal(100)]).meta({ description: "The threshold reached, in percent of the budget." }),
      budgetMinor: count,
      spentMinor: count.meta({ description: "The spend when it was seen (the sum of the rows' payouts)." }),
      currency: z.string(),
    }),
  },
  "webhook.test": {
    summary: "A test event (POST /webhooks/{id}/test)",
    data: z.object({ webhookId: id, message: z.string() }),
  },
} satisfies Record<(typeof WORKSPACE_EVENT_TYPES)[number], { summary: string; data: z.ZodType }>;

/** The body of a delivery: `{id, type, timestamp, data}` (id: the event's; timestamp: when it happened). */
export const webhookPayload = (type: (typeof WORKSPACE_EVENT_TYPES)[number]) =>
  z.object({
    id: id.meta({
      description: "The event's id: the same for every endpoint, and GraphQL's `WorkspaceEvent.id` (`webhook-id` is the delivery's).",
    }),
    type: z.literal(type),
    timestamp,
    data: webhookEventData[type].data,
  });
