/**
 * Inputs of exports, one schema each, shared by every door (REST's list routes and export routes,
 * GraphQL's `startExport`, MCP's `export_list`).
 */
import { z } from "zod";
import { page, uuid } from "../shared/inputs.ts";
import { EXPORT_KINDS } from "./kinds.ts";
import { EXPORT_FORMATS } from "./writers.ts";

export const exportKind = z
  .enum(EXPORT_KINDS, { message: `kind must be one of ${EXPORT_KINDS.join(", ")}` })
  .meta({ description: `The list: ${EXPORT_KINDS.join(", ")} (docs/exports.md).` });
export const exportFormat = z.enum(EXPORT_FORMATS, { message: "format must be csv or xlsx" }).meta({ description: "csv or xlsx." });
const bom = z.boolean({ message: "bom must be true or false" }).default(false).meta({
  description:
    "CSV only: begin the file with a UTF-8 byte order mark, for spreadsheet programs that guess the encoding otherwise. Default false.",
});

/**
 * A list's GET as a file (REST): `format` (json, the default, csv or xlsx; `Accept: text/csv` or the
 * XLSX media type choose too) and `bom`.
 */
export const listFormatQuery = z.object({
  format: z
    .enum(["json", ...EXPORT_FORMATS], { message: "format must be json, csv or xlsx" })
    .optional()
    .meta({
      description:
        "json (default): the page as documented. csv or xlsx: EVERY row matching the filters (not one page: limit and offset are ignored) " +
        "streamed as a file (docs/exports.md). `Accept: text/csv` or `Accept: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet` " +
        "ask for the same without this parameter.",
    }),
  bom,
});

/** Starting an export job: the list, the format, and the list's filter as that list takes it. */
export const startExportInput = z.strictObject({
  kind: exportKind,
  format: exportFormat,
  bom,
  filter: z
    .record(z.string(), z.unknown(), { message: "filter must be an object" })
    .default({})
    .meta({
      description:
        "The list's filter, with the names the list's REST query takes (e.g. videos: platform, q, tag, sort, order; folder_videos: folderId, " +
        "sort, sort_order, start_date, end_date, includeDescendants, tag; video_history: videoId, start_date, end_date, interval; " +
        "radar_results: searchId). Checked with the list's own schema (docs/exports.md).",
    }),
});
export type StartExportInput = z.output<typeof startExportInput>;

export const EXPORT_STATUSES = ["queued", "running", "completed", "failed", "expired"] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

export const listExportsQuery = page(20);
export const exportDownloadQuery = z.object({ token: z.string({ message: "token is required" }).min(1, "token is required").max(500) });
export const exportIdParams = z.object({ id: uuid });
