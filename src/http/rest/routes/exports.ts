/**
 * /exports (docs/exports.md): export jobs of a list to a CSV or XLSX file, their status, and the
 * signed download of the file. (Each list's own GET also answers its file directly, streamed: `format`.)
 */
import { createReadStream } from "node:fs";
import { z } from "zod";
import { config } from "../../../config.ts";
import { exportForDownload, getExport, listExports, startExport } from "../../../domain/exports/service.ts";
import { exportFilePath } from "../../../domain/exports/run.ts";
import { exportDownloadQuery, listExportsQuery, startExportInput } from "../../../domain/exports/inputs.ts";
import { MEDIA_TYPES } from "../../../domain/exports/writers.ts";
import { defineRoute } from "../route.ts";
import { idParams, queryParams } from "../schemas.ts";
import { pagination, paginationSchema } from "../../records/common.ts";
import { exportAnswer, exportSchema } from "../../records/exports.ts";

const CAP_NOTE =
  `At most EXPORT_MAX_CONCURRENT (${config.exports.maxConcurrent}) exports of a workspace are queued or running at once: ` +
  "one more is 429 EXPORT_LIMIT_REACHED (with Retry-After).";

export const exportRoutes = [
  defineRoute({
    method: "post",
    path: "/exports",
    operationId: "startExport",
    summary: "Start an export of a list to a CSV or XLSX file",
    description:
      "Checks the list's filter with the list's own rules (unknown folder, video, account or search: 404; bad filter: 400; the audit log: " +
      `owners only), then queues a job that writes every matching row to a file (docs/exports.md). ${CAP_NOTE} Poll GET /exports/{id} ` +
      "(or GraphQL exportUpdated) until `completed`, then download from `downloadUrl`.",
    tags: ["Exports"],
    body: startExportInput,
    errors: ["NOT_FOUND", "FORBIDDEN", "EXPORT_LIMIT_REACHED"],
    responses: { 202: { description: "The export, queued.", schema: z.object({ data: exportSchema }) } },
    async handler({ auth, body }) {
      return { status: 202, body: { data: await exportAnswer(await startExport(auth, body)) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/exports",
    operationId: "listExports",
    summary: "The workspace's exports",
    description: "Newest first (ties by id). Expired exports stay listed (status expired) for one more retention period, then disappear.",
    tags: ["Exports"],
    query: queryParams(listExportsQuery),
    responses: {
      200: { description: "A page of exports.", schema: z.object({ data: z.array(exportSchema), pagination: paginationSchema }) },
    },
    async handler({ auth, query }) {
      const { items, total } = await listExports(auth, query);
      return { body: { data: await Promise.all(items.map(exportAnswer)), pagination: pagination(total, query.limit, query.offset) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/exports/{id}",
    operationId: "getExport",
    summary: "One export: status, progress and, once completed, a signed download link",
    tags: ["Exports"],
    params: idParams,
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "The export.", schema: z.object({ data: exportSchema }) } },
    async handler({ auth, params }) {
      return { body: { data: await exportAnswer(await getExport(auth, params.id)) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/exports/{id}/download",
    operationId: "downloadExport",
    summary: "Download an export's file (signed link)",
    description:
      "The `downloadUrl` of a completed export: the token authorises this one file of this workspace until it expires (EXPORT_URL_TTL_MINUTES), " +
      "with no other credential. An expired or altered token, another workspace's export, or a file not ready or already deleted: 404 NOT_FOUND.",
    tags: ["Exports"],
    auth: false,
    params: idParams,
    query: queryParams(exportDownloadQuery),
    errors: ["NOT_FOUND"],
    responses: {
      200: {
        description: "The file: text/csv or the XLSX media type (Content-Disposition: attachment).",
        mediaType: "application/octet-stream",
        schema: z.string().meta({ format: "binary" }),
      },
    },
    async handler({ params, query }) {
      const e = await exportForDownload(params.id, query.token);
      return {
        body: createReadStream(exportFilePath(e)),
        headers: {
          "Content-Type": MEDIA_TYPES[e.format],
          "Content-Disposition": `attachment; filename="${e.fileName ?? `export.${e.format}`}"`,
          "Cache-Control": "private, no-store",
          ...(e.bytes !== null ? { "Content-Length": String(e.bytes) } : {}),
        },
      };
    },
  }),
];
