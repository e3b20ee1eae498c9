/**
 * Share links, report schedules and produced reports as the doors answer them (REST's
 * /folders/{id}/share-links, /share-links/{id}, /folders/{id}/report-schedules, /report-schedules/{id},
 * /folders/{id}/reports): the zod schemas of the OpenAPI document and the mappers from the domain's records.
 */
import { z } from "zod";
import type { ShareLink } from "../../domain/reports/share-links.ts";
import type { FolderReport, ReportSchedule } from "../../domain/reports/schedules.ts";
import { int, iso, isoOrNull, timestamp } from "../../domain/shared/records.ts";

export const shareLinkSchema = z
  .object({
    id: z.string(),
    folderId: z.string(),
    folderName: z.string(),
    createdBy: z
      .string()
      .meta({ description: "Who made it: a person's email, an API key's name, or `report schedule` for a schedule's own link." }),
    createdAt: timestamp,
    expiresAt: timestamp,
    revokedAt: timestamp.nullable(),
    lastViewedAt: timestamp.nullable().meta({ description: "When its page was last opened (to the minute); null: never." }),
    forSchedule: z.boolean().meta({ description: "The link of a report schedule (its mails carry it)." }),
    status: z.enum(["active", "expired", "revoked"]),
  })
  .meta({ id: "ShareLink" });

export const shareLinkItem = (l: ShareLink) => ({
  id: l.id,
  folderId: l.folderId,
  folderName: l.folderName,
  createdBy: l.createdByLabel,
  createdAt: iso(l.createdAt),
  expiresAt: iso(l.expiresAt),
  revokedAt: isoOrNull(l.revokedAt),
  lastViewedAt: isoOrNull(l.lastViewedAt),
  forSchedule: l.forSchedule,
  status: l.status,
});

export const reportScheduleSchema = z
  .object({
    id: z.string(),
    folderId: z.string(),
    frequency: z.enum(["weekly", "monthly"]),
    weekday: int().meta({ description: "Weekly: the local day, Sunday 0 … Saturday 6." }),
    dayOfMonth: int().meta({ description: "Monthly: the local day of the month, 1 to 28." }),
    hour: int().meta({ description: "The local hour, 0 to 23." }),
    timeZone: z.string().meta({ description: "IANA time zone of the day and hour." }),
    recipients: z.array(z.string()),
    attachCsv: z.boolean(),
    enabled: z.boolean(),
    shareUrl: z.string().nullable().meta({
      description: "The page the schedule's mails link to (owners only; null before its first report, or once its link was revoked).",
    }),
    createdBy: z.string(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: "ReportSchedule" });

export const reportScheduleItem = (s: ReportSchedule, shareUrl: string | null) => ({
  id: s.id,
  folderId: s.folderId,
  frequency: s.frequency,
  weekday: s.weekday,
  dayOfMonth: s.dayOfMonth,
  hour: s.hour,
  timeZone: s.timeZone,
  recipients: s.recipients,
  attachCsv: s.attachCsv,
  enabled: s.enabled,
  shareUrl,
  createdBy: s.createdByLabel,
  createdAt: iso(s.createdAt),
  updatedAt: iso(s.updatedAt),
});

export const folderReportSchema = z
  .object({
    id: z.string(),
    scheduleId: z.string(),
    period: z.string().meta({ description: "`2026-W47` (ISO week) or `2026-10` (month), of the schedule's time zone." }),
    periodStart: z.string().meta({ description: "The period's first local day, YYYY-MM-DD." }),
    periodEnd: z.string().meta({ description: "The period's last local day, YYYY-MM-DD." }),
    viewsGained: int(),
    newVideos: int(),
    totalVideos: int(),
    totalViews: int(),
    topVideos: z.array(z.object({ rank: int(), username: z.string(), description: z.string(), viewsGained: int() })),
    recipients: int().meta({ description: "How many addresses it was mailed to." }),
    createdAt: timestamp,
  })
  .meta({ id: "FolderReport" });

export const folderReportItem = (r: FolderReport) => ({
  id: r.id,
  scheduleId: r.scheduleId,
  period: r.period,
  periodStart: r.periodStart,
  periodEnd: r.periodEnd,
  viewsGained: r.viewsGained,
  newVideos: r.newVideos,
  totalVideos: r.totalVideos,
  totalViews: r.totalViews,
  topVideos: r.topVideos,
  recipients: r.recipients,
  createdAt: iso(r.createdAt),
});
