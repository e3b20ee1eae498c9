/**
 * The scheduled reports' sweep, the `reports` job of the mail queue, run every
 * few minutes like the digests (src/domain/notifications/digest.ts, whose due-time rule this
 * follows with luxon). A schedule's report is due once its local day and hour of the current week
 * (weekly) or month (monthly) has come, in its time zone; it covers the last whole period before
 * that day: the ISO week (Monday to Sunday) or the calendar month, in local days. A schedule made
 * after that moment waits for the next one.
 *
 * Each report is written once: the period's row of `folder_reports` (unique per schedule and period)
 * is inserted with the mails in one transaction, and each mail's dedupe key is the report's, so a
 * retried job, an overlapping sweep or a second worker neither produces nor mails a period twice.
 *
 * The numbers come from the folder's daily history (`video_snapshots`, UTC days), over the period's
 * local days: views gained per video = its greatest daily view count from the day before the period
 * to its last day minus its least (views only grow: the gain over the period, from the last count
 * before it, or from the first inside it for a video first seen then); new videos = the folder's
 * videos posted within the period (local midnights); top videos by views gained (5).
 */
import { DateTime } from "luxon";
import { Prisma } from "../../generated/prisma/client.ts";
import { prisma, sql, type Tx } from "../../infra/db.ts";
import { config } from "../../config.ts";
import { logger } from "../../infra/logger.ts";
import { allowanceLeft } from "../mail/allowance.ts";
import { dispatchMails, queueMails, type QueuedMail } from "../mail/outbox.ts";
import type { FolderReportData } from "../mail/templates.ts";
import { folderVideoIds } from "../folders/video-set.ts";
import { ensureScheduleLink, sharePath } from "./share-links.ts";
import { SCHEDULE_COLUMNS, type ReportSchedule, type ReportTopVideo } from "./schedules.ts";

export interface DuePeriod {
  period: string;
  /** First local day, and the day after the last (exclusive), YYYY-MM-DD. */
  start: string;
  end: string;
  /** When it became due. */
  dueAt: Date;
  label: string;
}

/** The period whose report is due at `now`, or null (not yet this week or month). */
export function duePeriod(
  s: Pick<ReportSchedule, "frequency" | "weekday" | "dayOfMonth" | "hour" | "timeZone">,
  now: Date,
): DuePeriod | null {
  const local = DateTime.fromJSDate(now, { zone: s.timeZone });
  if (!local.isValid) return null;
  if (s.frequency === "weekly") {
    const week = local.startOf("week");
    // luxon weeks start on Monday; the setting: Sunday 0 … Saturday 6.
    const dueAt = week.plus({ days: (s.weekday + 6) % 7 }).set({ hour: s.hour });
    if (local < dueAt) return null;
    const start = week.minus({ weeks: 1 });
    return {
      period: `${start.weekYear}-W${String(start.weekNumber).padStart(2, "0")}`,
      start: start.toISODate()!,
      end: week.toISODate()!,
      dueAt: dueAt.toJSDate(),
      label: `${start.toFormat("LLL d")} – ${week.minus({ days: 1 }).toFormat("LLL d, yyyy")}`,
    };
  }
  const month = local.startOf("month");
  const dueAt = month.set({ day: s.dayOfMonth, hour: s.hour });
  if (local < dueAt) return null;
  const start = month.minus({ months: 1 });
  return {
    period: start.toFormat("yyyy-LL"),
    start: start.toISODate()!,
    end: month.toISODate()!,
    dueAt: dueAt.toJSDate(),
    label: start.toFormat("LLLL yyyy"),
  };
}

const TOP = 5;

export interface PeriodNumbers {
  viewsGained: number;
  newVideos: number;
  totalVideos: number;
  totalViews: number;
  topVideos: ReportTopVideo[];
}

/** The folder's numbers over a period of local days (in `tx` when given). */
export async function periodNumbers(
  folderId: string,
  p: Pick<DuePeriod, "start" | "end">,
  timeZone: string,
  tx?: Tx,
): Promise<PeriodNumbers> {
  const [row] = await sql<PeriodNumbers>(
    Prisma.sql`
    WITH fv AS MATERIALIZED (
      SELECT v.id, v.username, v.description, v.view_count, v.posted_at FROM (${folderVideoIds(folderId, false)}) s JOIN videos v ON v.id = s.video_id
    ), gains AS (
      SELECT fv.id, fv.username, fv.description, (max(vs.view_count) - min(vs.view_count))::int8 AS gain
        FROM fv JOIN video_snapshots vs ON vs.video_id = fv.id
       WHERE vs.day BETWEEN ${p.start}::date - 1 AND ${p.end}::date - 1 AND vs.view_count IS NOT NULL
       GROUP BY fv.id, fv.username, fv.description
    )
    SELECT (SELECT coalesce(sum(gain), 0) FROM gains)::int8 AS "viewsGained",
           (SELECT count(*) FROM fv WHERE fv.posted_at >= (${p.start}::date::timestamp AT TIME ZONE ${timeZone})
                                      AND fv.posted_at < (${p.end}::date::timestamp AT TIME ZONE ${timeZone}))::int AS "newVideos",
           (SELECT count(*) FROM fv)::int AS "totalVideos",
           (SELECT coalesce(sum(view_count), 0) FROM fv)::int8 AS "totalViews",
           (SELECT coalesce(json_agg(json_build_object('rank', t.rank, 'username', t.username, 'description', t.description, 'viewsGained', t.gain) ORDER BY t.rank), '[]'::json)
              FROM (SELECT row_number() OVER (ORDER BY gain DESC, id) AS rank, username, description, gain FROM gains WHERE gain > 0 ORDER BY gain DESC, id LIMIT ${TOP}) t) AS "topVideos"`,
    { tx },
  );
  return row!;
}

/** How long a schedule's link is kept valid past a report: beyond the next one. */
const LINK_VALID_MS = 70 * 86_400_000;

/** Produces one schedule's due report and queues its mails (once). Answers the mails queued. */
async function produce(s: ReportSchedule & { workspaceName: string }, due: DuePeriod, now: Date): Promise<QueuedMail[]> {
  return prisma.$transaction(async (tx): Promise<QueuedMail[]> => {
    const numbers = await periodNumbers(s.folderId, due, s.timeZone, tx);
    const [report] = await sql<{ id: string }>(
      Prisma.sql`
      INSERT INTO folder_reports (workspace_id, schedule_id, folder_id, period, period_start, period_end, views_gained, new_videos, total_videos, total_views, top_videos, recipients)
      VALUES (${s.workspaceId}::uuid, ${s.id}::uuid, ${s.folderId}::uuid, ${due.period}, ${due.start}::date, ${due.end}::date - 1, ${numbers.viewsGained}, ${numbers.newVideos},
              ${numbers.totalVideos}, ${numbers.totalViews}, ${JSON.stringify(numbers.topVideos)}::jsonb, ${s.recipients.length})
      ON CONFLICT (schedule_id, period) DO NOTHING RETURNING id`,
      { tx },
    );
    if (!report) return [];
    const link = await ensureScheduleLink(s, new Date(now.getTime() + LINK_VALID_MS), tx);
    const data: FolderReportData = {
      workspaceName: s.workspaceName,
      folderName: s.folderName,
      frequency: s.frequency,
      periodLabel: due.label,
      timeZone: s.timeZone,
      viewsGained: numbers.viewsGained,
      newVideos: numbers.newVideos,
      totalVideos: numbers.totalVideos,
      totalViews: numbers.totalViews,
      topVideos: numbers.topVideos.map((v) => ({
        title: `${v.username ? `@${v.username}` : "A video"}${v.description ? `: ${v.description.split("\n")[0]!.slice(0, 60)}` : ""}`,
        viewsGained: v.viewsGained,
      })),
      secret: { sharePath: sharePath(link.token) },
      ...(s.attachCsv ? { attachFolderCsv: { folderId: s.folderId } } : {}),
      scheduleId: s.id,
    };
    // Each address gets at most MAIL_MAX_REPORTS_PER_ADDRESS_PER_DAY report mails, from every schedule together.
    const allowance = { kind: "folder_report" as const, max: config.mail.maxReportsPerAddressPerDay, windowMs: 86_400_000 };
    const allowed: string[] = [];
    for (const to of s.recipients) {
      if ((await allowanceLeft(tx, to, allowance)).allowed) allowed.push(to);
      else logger.warn({ scheduleId: s.id }, "a scheduled report's mail was not queued: its address had its daily allowance of reports");
    }
    return queueMails(
      allowed.map((to) => ({
        dedupeKey: `report:${report.id}:${to}`,
        workspaceId: s.workspaceId,
        to,
        kind: "folder_report" as const,
        data,
      })),
      tx,
    );
  });
}

/** Produces every scheduled report due at `now` (the `reports` job). */
export async function produceDueReports(now = new Date()): Promise<{ produced: number; mails: number }> {
  const schedules = await sql<ReportSchedule & { workspaceName: string }>(Prisma.sql`
    SELECT ${SCHEDULE_COLUMNS}, w.name AS "workspaceName"
      FROM report_schedules s JOIN folders f ON f.id = s.folder_id JOIN workspaces w ON w.id = s.workspace_id
     WHERE s.enabled`);
  let produced = 0;
  let mails = 0;
  for (const s of schedules) {
    const due = duePeriod(s, now);
    if (!due || s.createdAt > due.dueAt) continue;
    const [done] = await sql<{ one: number }>(
      Prisma.sql`SELECT 1 AS one FROM folder_reports WHERE schedule_id = ${s.id}::uuid AND period = ${due.period}`,
    );
    if (done) continue;
    const queued = await produce(s, due, now);
    if (queued.length === 0) continue;
    produced += 1;
    mails += queued.length;
    await dispatchMails(queued);
  }
  return { produced, mails };
}
