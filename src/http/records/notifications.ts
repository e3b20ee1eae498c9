/** Notifications as REST and MCP answer them: schema and mapper. */
import { z } from "zod";
import { ALERT_RULES } from "../../domain/notifications/rules.ts";
import type { NotificationRecord } from "../../domain/notifications/service.ts";
import { iso, isoOrNull, timestamp } from "../../domain/shared/records.ts";

export const notificationItem = z
  .object({
    id: z.string(),
    rule: z.enum(ALERT_RULES).meta({ description: "The alert rule that made it (named after the workspace event)." }),
    title: z.string().meta({ description: "What happened, in words." }),
    path: z.string().meta({ description: "The dashboard page it is about (a path; prefix the service's address)." }),
    data: z.record(z.string(), z.unknown()).meta({ description: "The event's payload, as webhooks deliver it." }),
    createdAt: timestamp,
    readAt: timestamp.nullable().meta({ description: "When it was marked read; null while unread." }),
  })
  .meta({ id: "Notification" });

export const notificationItemOf = (n: NotificationRecord) => ({
  id: n.id,
  rule: n.rule as (typeof ALERT_RULES)[number],
  title: n.title,
  path: n.path,
  data: n.data,
  createdAt: iso(n.createdAt),
  readAt: isoOrNull(n.readAt),
});
