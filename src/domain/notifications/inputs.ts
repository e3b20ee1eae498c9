/**
 * The notifications area's inputs, shared by every door (REST, GraphQL, MCP).
 */
import { z } from "zod";
import { page, uuid } from "../shared/inputs.ts";
import { ALERT_RULES } from "./rules.ts";

export const alertRule = z.enum(ALERT_RULES).meta({ description: "An alert rule, named after the workspace event that feeds it." });

export const setAlertInput = z.strictObject({
  rule: alertRule,
  inDashboard: z.boolean().meta({ description: "Show it in the dashboard (the bell and the notifications page)." }),
  byMail: z.boolean().meta({ description: "Send it by mail (a burst: at most one mail per 10 minutes, saying how many)." }),
  minViewsPerHour: z.number().int().min(0).max(1_000_000_000).nullable().optional().meta({
    description: "video.spike only: the least views per hour over the last 24 hours worth an alert; null or absent: every spike.",
  }),
});
export type SetAlertInput = z.infer<typeof setAlertInput>;

/** An IANA time zone this runtime knows (Intl), e.g. `Europe/Paris`; `UTC` is the default. */
export const timeZone = z
  .string()
  .min(1)
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, "must be an IANA time zone name, e.g. Europe/Paris or UTC");

export const setDigestInput = z.strictObject({
  enabled: z.boolean().meta({ description: "Whether the weekly digest of this workspace is sent." }),
  weekday: z.number().int().min(0).max(6).meta({ description: "Day of the week, local time: 0 Sunday … 6 Saturday." }),
  hour: z.number().int().min(0).max(23).meta({ description: "Hour of the day, local time (0-23)." }),
  timeZone: timeZone.optional().meta({ description: "The person's IANA time zone (kept for every workspace); absent: unchanged." }),
});
export type SetDigestInput = z.infer<typeof setDigestInput>;

export const creditsAlertInput = z.strictObject({
  threshold: z
    .number()
    .int()
    .min(0)
    .max(100_000_000)
    .nullable()
    .meta({ description: "Credits left below which `credits.low` fires; null: CREDITS_LOW_PERCENT of the monthly allowance." }),
});

export const listNotificationsQuery = page(20).extend({
  unread: z.boolean().optional().meta({ description: "Only the unread ones." }),
});
export type ListNotificationsQuery = z.infer<typeof listNotificationsQuery>;

export const markReadInput = z
  .strictObject({
    ids: z.array(uuid).min(1).max(100).optional().meta({ description: "The notifications to mark read (at most 100)." }),
    all: z.boolean().optional().meta({ description: "Mark every notification of the person in this workspace read." }),
  })
  .refine((v) => (v.ids !== undefined) !== (v.all === true), { message: "give either ids or all: true" });
export type MarkReadInput = z.infer<typeof markReadInput>;
