/**
 * Folder reports (docs/reports.md): a folder's read-only share links (owners only; the
 * URL is answered once), its report schedules (owners change them) and its produced reports.
 */
import { z } from "zod";
import { createReportScheduleInput, createShareLinkInput, updateReportScheduleInput } from "../../../domain/reports/inputs.ts";
import { createShareLink, listShareLinks, revokeShareLink } from "../../../domain/reports/share-links.ts";
import {
  createReportSchedule,
  deleteReportSchedule,
  listFolderReports,
  listReportSchedules,
  reportSchedulesByIds,
  scheduleShareUrl,
  updateReportSchedule,
  type ReportSchedule,
} from "../../../domain/reports/schedules.ts";
import { notFound } from "../../../domain/shared/errors.ts";
import type { Actor } from "../../../domain/actors/actor.ts";
import { defineRoute } from "../route.ts";
import { idParams } from "../schemas.ts";
import {
  folderReportItem,
  folderReportSchema,
  reportScheduleItem,
  reportScheduleSchema,
  shareLinkItem,
  shareLinkSchema,
} from "../../records/reports.ts";

const TAGS = ["Reports"];
const scheduleItem = async (auth: Actor, s: ReportSchedule) => reportScheduleItem(s, await scheduleShareUrl(auth, s));

export const reportRoutes = [
  defineRoute({
    method: "get",
    path: "/folders/{id}/share-links",
    operationId: "listFolderShareLinks",
    summary: "List a folder's share links",
    description:
      "Every share link of the folder (active, expired and revoked), newest first, with who made it and when it was last viewed. Never the token.",
    tags: TAGS,
    permission: "reports.manage",
    params: idParams,
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "The folder's links.", schema: z.object({ data: z.array(shareLinkSchema) }) } },
    async handler({ auth, params }) {
      return { body: { data: (await listShareLinks(auth, params.id)).map(shareLinkItem) } };
    },
  }),
  defineRoute({
    method: "post",
    path: "/folders/{id}/share-links",
    operationId: "createFolderShareLink",
    summary: "Make a read-only share link of a folder (the URL is shown once)",
    description:
      "A link to the folder's report page (`<PUBLIC_URL>/r/<token>`): it works without signing in and shows the folder's name, analytics, growth, " +
      "top videos and top accounts, nothing else of the workspace. It expires after `expiresInDays` (7, 30 or 90; default 30) or at `expiresAt` " +
      "(at most a year away) and can be revoked; afterwards the page answers 404. Only the token's SHA-256 is kept: store the URL now. Audited.",
    tags: TAGS,
    permission: "reports.manage",
    params: idParams,
    body: createShareLinkInput,
    errors: ["NOT_FOUND"],
    responses: {
      201: {
        description: "The new link; `url` is shown this once.",
        schema: z.object({
          data: shareLinkSchema.extend({ url: z.string().meta({ description: "The page's URL, with its token." }) }),
          message: z.string(),
        }),
      },
    },
    async handler({ auth, params, body }) {
      const { link, url } = await createShareLink(auth, params.id, body);
      return {
        status: 201,
        body: { data: { ...shareLinkItem(link), url }, message: "Share link created. Copy the URL now: it will not be shown again." },
      };
    },
  }),
  defineRoute({
    method: "delete",
    path: "/share-links/{id}",
    operationId: "revokeShareLink",
    summary: "Revoke a share link",
    description: "Its page answers 404 from the next request on. Revoking a revoked link changes nothing. Audited.",
    tags: TAGS,
    permission: "reports.manage",
    params: idParams,
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "The link, revoked.", schema: z.object({ data: shareLinkSchema, message: z.string() }) } },
    async handler({ auth, params }) {
      return { body: { data: shareLinkItem(await revokeShareLink(auth, params.id)), message: "Share link revoked." } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/folders/{id}/report-schedules",
    operationId: "listReportSchedules",
    summary: "List a folder's report schedules",
    description: "Oldest first. `shareUrl` is given to owners only.",
    tags: TAGS,
    params: idParams,
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "The folder's schedules.", schema: z.object({ data: z.array(reportScheduleSchema) }) } },
    async handler({ auth, params }) {
      const list = await listReportSchedules(auth, params.id);
      return { body: { data: await Promise.all(list.map((s) => scheduleItem(auth, s))) } };
    },
  }),
  defineRoute({
    method: "post",
    path: "/folders/{id}/report-schedules",
    operationId: "createReportSchedule",
    summary: "Schedule a folder's report, weekly or monthly",
    description:
      "At a local day and hour of an IANA time zone (default: the person's, else UTC), the report of the last whole week (Monday to Sunday) or month " +
      "is produced once, listed with the folder, and mailed to the recipients (1 to 20) with a link to the folder's shared page (the schedule's own " +
      "share link, kept valid). Owners only; audited.",
    tags: TAGS,
    permission: "reports.manage",
    params: idParams,
    body: createReportScheduleInput,
    errors: ["NOT_FOUND"],
    responses: { 201: { description: "The new schedule.", schema: z.object({ data: reportScheduleSchema, message: z.string() }) } },
    async handler({ auth, params, body }) {
      const s = await createReportSchedule(auth, params.id, body);
      return { status: 201, body: { data: await scheduleItem(auth, s), message: "Report scheduled." } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/report-schedules/{id}",
    operationId: "getReportSchedule",
    summary: "Get a report schedule",
    tags: TAGS,
    params: idParams,
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "The schedule.", schema: z.object({ data: reportScheduleSchema }) } },
    async handler({ auth, params }) {
      const [s] = await reportSchedulesByIds(auth.workspaceId, [params.id]);
      if (!s) throw notFound("Report schedule");
      return { body: { data: await scheduleItem(auth, s) } };
    },
  }),
  defineRoute({
    method: "patch",
    path: "/report-schedules/{id}",
    operationId: "updateReportSchedule",
    summary: "Change, pause or resume a report schedule",
    description: "Fields left out stay as they are. Owners only.",
    tags: TAGS,
    permission: "reports.manage",
    params: idParams,
    body: updateReportScheduleInput,
    errors: ["NOT_FOUND"],
    responses: {
      200: { description: "The schedule as this request wrote it.", schema: z.object({ data: reportScheduleSchema, message: z.string() }) },
    },
    async handler({ auth, params, body }) {
      const s = await updateReportSchedule(auth, params.id, body);
      return { body: { data: await scheduleItem(auth, s), message: "Report schedule updated." } };
    },
  }),
  defineRoute({
    method: "delete",
    path: "/report-schedules/{id}",
    operationId: "deleteReportSchedule",
    summary: "Delete a report schedule",
    description: "With its produced reports; its share link is revoked. Owners only; audited.",
    tags: TAGS,
    permission: "reports.manage",
    params: idParams,
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "Deleted.", schema: z.object({ data: z.object({ id: z.string() }), message: z.string() }) } },
    async handler({ auth, params }) {
      return { body: { data: { id: await deleteReportSchedule(auth, params.id) }, message: "Report schedule deleted." } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/folders/{id}/reports",
    operationId: "listFolderReports",
    summary: "List a folder's produced reports",
    description: "The reports its schedules produced, newest first (at most 100), with the period's numbers.",
    tags: TAGS,
    params: idParams,
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "The folder's reports.", schema: z.object({ data: z.array(folderReportSchema) }) } },
    async handler({ auth, params }) {
      return { body: { data: (await listFolderReports(auth, params.id)).map(folderReportItem) } };
    },
  }),
];
