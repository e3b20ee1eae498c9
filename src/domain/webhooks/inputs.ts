/**
 * Inputs of the webhook use cases, shared by REST and GraphQL (docs/contract/decisions.md,
 * Webhooks). An unknown event name, a URL that is not an acceptable target, an empty event list:
 * 400 VALIDATION_ERROR naming the field.
 */
import { z } from "zod";
import { config } from "../../config.ts";
import { page } from "../shared/inputs.ts";
import { WORKSPACE_EVENT_TYPES, type WorkspaceEventType } from "../shared/workspace-events.ts";
import { targetProblem } from "../shared/public-targets.ts";

/** Endpoints per workspace (the 11th is 409 WEBHOOK_LIMIT_REACHED). */
export const MAX_WEBHOOKS = 10;
const MAX_WEBHOOK_URL = 2048;
const MAX_WEBHOOK_DESCRIPTION = 500;

const webhookEvent = z.enum(WORKSPACE_EVENT_TYPES, { message: `must be one of ${WORKSPACE_EVENT_TYPES.join(", ")}` });

const webhookUrl = z
  .string({ message: "url must be a string" })
  .trim()
  .max(MAX_WEBHOOK_URL, `url must be at most ${MAX_WEBHOOK_URL} characters`)
  .superRefine((url, ctx) => {
    const problem = targetProblem(url, config.webhooks.allowPrivate);
    if (problem) ctx.addIssue({ code: "custom", message: `url ${problem}` });
  })
  .meta({
    description:
      "Where events are POSTed: an https URL; a literal private address or localhost is refused now, and the resolved address must be public at every delivery; " +
      "http and private addresses only when the server runs with WEBHOOK_ALLOW_PRIVATE=true.",
    example: "https://hooks.example.com/video-service",
  });

const webhookEvents = z
  .array(webhookEvent, { message: "events must be an array of event names" })
  .min(1, "events must name at least one event")
  .max(WORKSPACE_EVENT_TYPES.length * 4, "events holds too many names")
  .transform((events) => [...new Set(events)] as WorkspaceEventType[])
  .meta({ description: `Event names to receive (duplicates are ignored): ${WORKSPACE_EVENT_TYPES.join(", ")}.` });

const webhookDescription = z
  .string({ message: "description must be a string" })
  .trim()
  .max(MAX_WEBHOOK_DESCRIPTION, `description must be at most ${MAX_WEBHOOK_DESCRIPTION} characters`)
  .meta({ description: `Free text for people, up to ${MAX_WEBHOOK_DESCRIPTION} characters (default empty).` });

export const createWebhookInput = z.strictObject({
  url: webhookUrl,
  events: webhookEvents,
  description: webhookDescription.optional(),
});
export type CreateWebhookInput = z.output<typeof createWebhookInput>;

export const listWebhooksQuery = page(20);
export const listDeliveriesQuery = page(20);
