/**
 * A folder's scheduled reports (docs/reports.md): an owner (`reports.manage`)
 * schedules a folder's report weekly or monthly, at a local day and hour of an IANA time zone (the
 * person's own by default), to at most 20 addresses, with the folder's videos as CSV or not. The
 * sweep (./produce.ts) makes each period's report once and mails it. Every member may read the
 * schedules and the produced reports; only owners see the page's URL and change anything.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import type { Actor } from "../actors/actor.ts";
import { recordAudit } from "../actors/audit.ts";
import { authorize, may } from "../actors/roles.ts";
import { prisma, sql, type Tx } from "../../infra/db.ts";
import { notFound } from "../shared/errors.ts";
import { requireFolder } from "../folders/service.ts";
import type { CreateReportScheduleInput, ReportFrequency, UpdateReportScheduleInput } from "./inputs.ts";
import { scheduleLinkToken, shareUrl } from "./share-links.ts";

export interface ReportSchedule {
  id: string;
  workspaceId: string;
  folderId: string;
  folderName: string;
  frequency: ReportFrequency;
  weekday: number;
  dayOfMonth: number;
  hour: number;
  timeZone: string;
  recipients: string[];
  attachCsv: boolean;
  enabled: boolean;
  shareLinkId: string | null;
  /** The schedule's link is active (not revoked, not expired). */
  shareLinkActive: boolean;
  createdByLabel: string;
  createdAt: Date;
  updatedAt: Date;
  sortKey: string;
}

export interface ReportTopVideo {
  rank: number;
  username: string;
  description: string;
  viewsGained: number;
}

export interface FolderReport {
  id: string;
  scheduleId: string;
  folderId: string;
  period: string;
  /** The period's first and last local days, YYYY-MM-DD. */
  periodStart: string;
  periodEnd: string;
  viewsGained: number;
  newVideos: number;
  totalVideos: number;
  totalViews: number;
  topVideos: ReportTopVideo[];
  recipients: number;
  createdAt: Date;
  sortKey: string;
}

const uuidLike = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

export const SCHEDULE_COLUMNS = Prisma.sql`s.id, s.workspace_id AS "workspaceId", s.folder_id AS "folderId", f.name AS "folderName", s.frequency, s.weekday::int AS weekday,
  s.day_of_month::int AS "dayOfMonth", s.hour::int AS hour, s.time_zone AS "timeZone", s.recipients, s.attach_csv AS "attachCsv", s.enabled,
  s.share_link_id AS "shareLinkId",
  EXISTS (SELECT 1 FROM folder_share_links l WHERE l.id = s.share_link_id AND l.revoked_at IS NULL AND l.expires_at > clock_timestamp()) AS "shareLinkActive",
  s.created_by_label AS "createdByLabel", s.created_at AS "createdAt", s.updated_at AS "updatedAt",
  (to_char(s.created_at AT TIME ZONE 'UTC', 'YYYYMMDDHH24MISSMS') || s.id::text) AS "sortKey"`;

const REPORT_COLUMNS = Prisma.sql`r.id, r.schedule_id AS "scheduleId", r.folder_id AS "folderId", r.period, to_char(r.period_start, 'YYYY-MM-DD') AS "periodStart",
  to_char(r.period_end, 'YYYY-MM-DD') AS "periodEnd", r.views_gained AS "viewsGained", r.new_videos AS "newVideos", r.total_videos AS "totalVideos",
  r.total_views AS "totalViews", r.top_videos AS "topVideos", r.recipients, r.created_at AS "createdAt",
  (to_char(r.created_at AT TIME ZONE 'UTC', 'YYYYMMDDHH24MISSMS') || r.id::text) AS "sortKey"`;

export async function reportSchedulesByIds(workspaceId: string, ids: readonly string[]): Promise<ReportSchedule[]> {
  const valid = ids.filter(uuidLike);
  if (valid.length === 0) return [];
  return sql<ReportSchedule>(Prisma.sql`
    SELECT ${SCHEDULE_COLUMNS} FROM report_schedules s JOIN folders f ON f.id = s.folder_id
     WHERE s.workspace_id = ${workspaceId}::uuid AND s.id = ANY(${valid}::uuid[])`);
}

async function requireSchedule(workspaceId: string, id: string): Promise<ReportSchedule> {
  const [s] = await reportSchedulesByIds(workspaceId, [id]);
  if (!s) throw notFound("Report schedule");
  return s;
}

/** A folder's schedules, oldest first (every member may read them). */
export async function listReportSchedules(actor: Actor, folderId: string): Promise<ReportSchedule[]> {
  await requireFolder(actor.workspaceId, folderId);
  return sql<ReportSchedule>(Prisma.sql`
    SELECT ${SCHEDULE_COLUMNS} FROM report_schedules s JOIN folders f ON f.id = s.folder_id
     WHERE s.workspace_id = ${actor.workspaceId}::uuid AND s.folder_id = ${folderId}::uuid ORDER BY s.created_at, s.id LIMIT 100`);
}

/** A folder's produced reports (of all its schedules), newest first, at most 100. */
export async function listFolderReports(actor: Actor, folderId: string): Promise<FolderReport[]> {
  await requireFolder(actor.workspaceId, folderId);
  return sql<FolderReport>(Prisma.sql`
    SELECT ${REPORT_COLUMNS} FROM folder_reports r
     WHERE r.workspace_id = ${actor.workspaceId}::uuid AND r.folder_id = ${folderId}::uuid ORDER BY r.created_at DESC, r.id DESC LIMIT 100`);
}

export async function folderReportsByIds(workspaceId: string, ids: readonly string[]): Promise<FolderReport[]> {
  const valid = ids.filter(uuidLike);
  if (valid.length === 0) return [];
  return sql<FolderReport>(
    Prisma.sql`SELECT ${REPORT_COLUMNS} FROM folder_reports r WHERE r.workspace_id = ${workspaceId}::uuid AND r.id = ANY(${valid}::uuid[])`,
  );
}

/** The URL of a schedule's shared page, for an owner (null for a member, or while the schedule has no active link). */
export async function scheduleShareUrl(actor: Actor, s: Pick<ReportSchedule, "shareLinkId" | "shareLinkActive">): Promise<string | null> {
  if (!may(actor.role, "reports.manage") || !s.shareLinkId || !s.shareLinkActive) return null;
  return shareUrl(await scheduleLinkToken(s.shareLinkId));
}

async function defaultTimeZone(actor: Actor): Promise<string> {
  if (actor.principal.kind !== "user") return "UTC";
  const [row] = await sql<{ timeZone: string }>(
    Prisma.sql`SELECT time_zone AS "timeZone" FROM users WHERE id = ${actor.principal.id}::uuid`,
  );
  return row?.timeZone ?? "UTC";
}

const label = (actor: Actor): Prisma.Sql =>
  actor.principal.kind === "user"
    ? Prisma.sql`${actor.principal.email}::text`
    : actor.principal.kind === "api_key"
      ? Prisma.sql`COALESCE((SELECT 'API key ' || k.name FROM api_keys k WHERE k.id = ${actor.principal.id}::uuid), 'API key')`
      : Prisma.sql`${actor.principal.label}::text`;

export async function createReportSchedule(actor: Actor, folderId: string, input: CreateReportScheduleInput): Promise<ReportSchedule> {
  authorize(actor, "reports.manage");
  const folder = await requireFolder(actor.workspaceId, folderId);
  const timeZone = input.timeZone ?? (await defaultTimeZone(actor));
  const id = await prisma.$transaction(async (tx) => {
    const [row] = await sql<{ id: string }>(
      Prisma.sql`INSERT INTO report_schedules (workspace_id, folder_id, frequency, weekday, day_of_month, hour, time_zone, recipients, attach_csv, created_by_id, created_by_label)
                 VALUES (${actor.workspaceId}::uuid, ${folder.id}::uuid, ${input.frequency}, ${input.weekday ?? 1}, ${input.dayOfMonth ?? 1}, ${input.hour ?? 8}, ${timeZone},
                         ${input.recipients}::text[], ${input.attachCsv ?? false}, ${actor.principal.kind === "user" ? actor.principal.id : null}::uuid, ${label(actor)})
                 RETURNING id`,
      { tx },
    );
    await recordAudit(
      {
        workspaceIds: [actor.workspaceId],
        by: actor,
        action: "report_schedule.created",
        target: folder.name,
        details: { scheduleId: row!.id, frequency: input.frequency },
      },
      tx,
    );
    return row!.id;
  });
  return requireSchedule(actor.workspaceId, id);
}

/**
 * Changes a schedule. Its link (the page its mails link to) is revoked when the change takes access away from
 * someone who has it: a recipient removed (their old mails link to it), or the schedule paused (no public page while
 * it is paused). The next report, if any, makes a new link and mails it to the recipients of the time.
 */
export async function updateReportSchedule(actor: Actor, id: string, input: UpdateReportScheduleInput): Promise<ReportSchedule> {
  authorize(actor, "reports.manage");
  await requireSchedule(actor.workspaceId, id);
  await prisma.$transaction(async (tx) => {
    const [before] = await sql<{ recipients: string[]; enabled: boolean; shareLinkId: string | null; folderName: string }>(
      Prisma.sql`SELECT s.recipients, s.enabled, s.share_link_id AS "shareLinkId", f.name AS "folderName"
                   FROM report_schedules s JOIN folders f ON f.id = s.folder_id
                  WHERE s.id = ${id}::uuid AND s.workspace_id = ${actor.workspaceId}::uuid FOR UPDATE OF s`,
      { tx },
    );
    if (!before) throw notFound("Report schedule");
    await sql(
      Prisma.sql`
      UPDATE report_schedules SET
        frequency = COALESCE(${input.frequency ?? null}, frequency),
        weekday = COALESCE(${input.weekday ?? null}::smallint, weekday),
        day_of_month = COALESCE(${input.dayOfMonth ?? null}::smallint, day_of_month),
        hour = COALESCE(${input.hour ?? null}::smallint, hour),
        time_zone = COALESCE(${input.timeZone ?? null}, time_zone),
        recipients = COALESCE(${input.recipients ?? null}::text[], recipients),
        attach_csv = COALESCE(${input.attachCsv ?? null}::boolean, attach_csv),
        enabled = COALESCE(${input.enabled ?? null}::boolean, enabled),
        updated_at = clock_timestamp()
      WHERE id = ${id}::uuid AND workspace_id = ${actor.workspaceId}::uuid RETURNING id`,
      { tx },
    );
    const removed = input.recipients ? before.recipients.filter((r) => !input.recipients!.includes(r)) : [];
    const paused = before.enabled && input.enabled === false;
    if (removed.length > 0 || paused) {
      await endScheduleLink(
        actor,
        { id, shareLinkId: before.shareLinkId, folderName: before.folderName },
        paused ? "paused" : "recipient_removed",
        tx,
      );
    }
  });
  return requireSchedule(actor.workspaceId, id);
}

/** Revokes a schedule's own link (if it has a live one), with the audit entry that says why. */
async function endScheduleLink(
  by: Actor,
  s: { id: string; shareLinkId: string | null; folderName: string },
  reason: "paused" | "recipient_removed" | "deleted",
  tx: Tx,
): Promise<void> {
  if (!s.shareLinkId) return;
  const ended = await sql<{ id: string }>(
    Prisma.sql`UPDATE folder_share_links SET revoked_at = clock_timestamp() WHERE id = ${s.shareLinkId}::uuid AND revoked_at IS NULL RETURNING id`,
    { tx },
  );
  if (ended.length === 0) return;
  await recordAudit(
    {
      workspaceIds: [by.workspaceId],
      by,
      action: "share_link.revoked",
      target: s.folderName,
      details: { linkId: s.shareLinkId, scheduleId: s.id, reason },
    },
    tx,
  );
}

/**
 * One recipient's one-click unsubscribe (RFC 8058) from a report mail: the address leaves the schedule, and the
 * schedule's link is revoked (the address's earlier mails link to it), as when an owner removes a recipient.
 */
export async function removeRecipient(scheduleId: string, address: string): Promise<void> {
  await prisma.$transaction(async (tx) => {
    const [s] = await sql<{ workspaceId: string; shareLinkId: string | null; folderName: string }>(
      Prisma.sql`UPDATE report_schedules s SET recipients = array_remove(s.recipients, ${address}), updated_at = clock_timestamp()
                   FROM folders f WHERE f.id = s.folder_id AND s.id = ${scheduleId}::uuid AND ${address} = ANY(s.recipients)
                 RETURNING s.workspace_id AS "workspaceId", s.share_link_id AS "shareLinkId", f.name AS "folderName"`,
      { tx },
    );
    if (!s) return;
    const by: Actor = {
      workspaceId: s.workspaceId,
      role: "member",
      principal: { kind: "system", label: "unsubscribe link" },
      clientAddress: null,
    };
    await endScheduleLink(by, { id: scheduleId, shareLinkId: s.shareLinkId, folderName: s.folderName }, "recipient_removed", tx);
  });
}

/** Deletes a schedule and its produced reports; its share link is revoked with it. Answers its id. */
export async function deleteReportSchedule(actor: Actor, id: string): Promise<string> {
  authorize(actor, "reports.manage");
  const s = await requireSchedule(actor.workspaceId, id);
  await prisma.$transaction(async (tx) => {
    await endScheduleLink(actor, s, "deleted", tx);
    await sql(Prisma.sql`DELETE FROM report_schedules WHERE id = ${id}::uuid AND workspace_id = ${actor.workspaceId}::uuid RETURNING id`, {
      tx,
    });
    await recordAudit(
      {
        workspaceIds: [actor.workspaceId],
        by: actor,
        action: "report_schedule.deleted",
        target: s.folderName,
        details: { scheduleId: id },
      },
      tx,
    );
  });
  return id;
}
