/**
 * The reports area's inputs, shared by every door: a folder's share link
 * (its expiry), the shared page's period, and a folder's report schedule.
 */
import { z } from "zod";
import { timeZone } from "../notifications/inputs.ts";
import { emailInput } from "../people/inputs.ts";

/** The longest a share link may live. */
export const MAX_SHARE_LINK_DAYS = 366;
export const SHARE_LINK_DAY_CHOICES = [7, 30, 90] as const;

export const createShareLinkInput = z
  .strictObject({
    expiresInDays: z
      .union([z.literal(7), z.literal(30), z.literal(90)])
      .optional()
      .meta({ description: "The link works for 7, 30 or 90 days from now. Give this or `expiresAt`; neither: 30 days." }),
    expiresAt: z.iso.datetime({ offset: true }).optional().meta({
      description: "The link works until this moment (ISO 8601), in the future and at most one year away. Give this or `expiresInDays`.",
    }),
  })
  .refine((v) => !(v.expiresInDays !== undefined && v.expiresAt !== undefined), {
    message: "give expiresInDays or expiresAt, not both",
    path: ["expiresAt"],
  });
export type CreateShareLinkInput = z.infer<typeof createShareLinkInput>;

/** The windows the shared page's growth chart offers. */
export const SHARED_REPORT_PERIODS = ["7d", "30d", "90d"] as const;
export const sharedReportPeriod = z.enum(SHARED_REPORT_PERIODS).default("30d");
export type SharedReportPeriod = (typeof SHARED_REPORT_PERIODS)[number];

export const REPORT_FREQUENCIES = ["weekly", "monthly"] as const;
export type ReportFrequency = (typeof REPORT_FREQUENCIES)[number];
export const MAX_REPORT_RECIPIENTS = 20;

const recipients = z
  .array(
    z
      .email()
      .max(254)
      .transform((s) => s.toLowerCase()),
  )
  .min(1)
  .max(MAX_REPORT_RECIPIENTS)
  .refine((list) => new Set(list).size === list.length, "the same address is given twice")
  .meta({ description: `The addresses the report is mailed to (1 to ${MAX_REPORT_RECIPIENTS}, each once).` });

const scheduleFields = {
  frequency: z
    .enum(REPORT_FREQUENCIES)
    .meta({ description: "`weekly` (the ISO week before, Monday to Sunday) or `monthly` (the calendar month before)." }),
  weekday: z
    .number()
    .int()
    .min(0)
    .max(6)
    .optional()
    .meta({ description: "Weekly: the local day it is produced, Sunday 0 … Saturday 6 (default Monday, 1)." }),
  dayOfMonth: z
    .number()
    .int()
    .min(1)
    .max(28)
    .optional()
    .meta({ description: "Monthly: the local day of the month it is produced, 1 to 28 (default 1)." }),
  hour: z.number().int().min(0).max(23).optional().meta({ description: "The local hour it is produced, 0 to 23 (default 8)." }),
  timeZone: timeZone
    .optional()
    .meta({ description: "The IANA time zone of the day and hour (default: the time zone of the person scheduling, else UTC)." }),
  recipients,
  attachCsv: z.boolean().optional().meta({ description: "Attach the folder's videos as CSV to the mail (default false)." }),
};

export const createReportScheduleInput = z.strictObject(scheduleFields);
export type CreateReportScheduleInput = z.infer<typeof createReportScheduleInput>;

export const updateReportScheduleInput = z.strictObject({
  frequency: scheduleFields.frequency.optional(),
  weekday: scheduleFields.weekday,
  dayOfMonth: scheduleFields.dayOfMonth,
  hour: scheduleFields.hour,
  timeZone: scheduleFields.timeZone,
  recipients: recipients.optional(),
  attachCsv: scheduleFields.attachCsv,
  enabled: z.boolean().optional().meta({ description: "Pause (false) or resume (true) the schedule." }),
});
export type UpdateReportScheduleInput = z.infer<typeof updateReportScheduleInput>;
