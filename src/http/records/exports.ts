/** Exports as every door answers them (REST /exports, GraphQL's Export node, MCP export_list and get_export). */
import { z } from "zod";
import { progressOf, type ExportRecord } from "../../domain/exports/service.ts";
import { downloadUrl } from "../../domain/exports/links.ts";
import { EXPORT_KINDS } from "../../domain/exports/kinds.ts";
import { EXPORT_STATUSES } from "../../domain/exports/inputs.ts";
import { int, iso, isoOrNull, timestamp, uuid } from "../../domain/shared/records.ts";

export const exportSchema = z
  .object({
    id: uuid,
    kind: z.enum(EXPORT_KINDS).meta({ description: "The list exported (docs/exports.md)." }),
    format: z.enum(["csv", "xlsx"]),
    bom: z.boolean(),
    filter: z.record(z.string(), z.unknown()).meta({ description: "The list's filter, as given." }),
    status: z.enum(EXPORT_STATUSES).meta({
      description:
        "queued → running → completed (the file can be downloaded until expiresAt) or failed (with `error`); expired once the file is deleted " +
        "(EXPORT_RETENTION_HOURS after it finished).",
    }),
    rowsWritten: int().meta({
      description: "Rows written so far (updated every EXPORT_PROGRESS_EVERY rows while it runs), all of them once completed.",
    }),
    totalRows: int().nullable().meta({ description: "The rows the list had when the job started (null while queued)." }),
    progress: z.number().nullable().meta({
      description:
        "0 to 1: rowsWritten / totalRows while running (at most 1), 1 once completed, 0 while queued; null once failed or expired.",
    }),
    bytes: int().nullable().meta({ description: "The file's size once completed." }),
    error: z.string().nullable(),
    fileName: z.string().nullable().meta({ description: "The file's name once completed, e.g. folder-videos-2026-11-27.csv." }),
    createdAt: timestamp,
    startedAt: timestamp.nullable(),
    finishedAt: timestamp.nullable(),
    expiresAt: timestamp.nullable().meta({ description: "When the file is deleted (completed or failed exports)." }),
    downloadUrl: z.string().nullable().meta({
      description:
        "Once completed: a signed link to the file that needs no other credential, valid until downloadUrlExpiresAt (EXPORT_URL_TTL_MINUTES, 15 by default; ask again for a fresh one).",
    }),
    downloadUrlExpiresAt: timestamp.nullable(),
  })
  .meta({ id: "Export", description: "An export job of a list to a CSV or XLSX file (docs/exports.md)." });

export function exportItem(e: ExportRecord, link: { url: string; expiresAt: Date } | null) {
  return {
    id: e.id,
    kind: e.kind,
    format: e.format,
    bom: e.bom,
    filter: e.filter,
    status: e.status,
    rowsWritten: e.rowsWritten,
    totalRows: e.totalRows,
    progress: progressOf(e),
    bytes: e.bytes,
    error: e.error,
    fileName: e.fileName,
    createdAt: iso(e.createdAt),
    startedAt: isoOrNull(e.startedAt),
    finishedAt: isoOrNull(e.finishedAt),
    expiresAt: isoOrNull(e.expiresAt),
    downloadUrl: link?.url ?? null,
    downloadUrlExpiresAt: link ? iso(link.expiresAt) : null,
  };
}

/** The record, with a fresh signed link when the file is ready (every door's answer). */
export async function exportAnswer(e: ExportRecord) {
  return exportItem(e, e.status === "completed" ? await downloadUrl(e) : null);
}
