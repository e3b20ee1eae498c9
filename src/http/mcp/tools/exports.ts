/**
 * The exports' MCP tools: a list as a CSV or XLSX file (as REST /exports; docs/exports.md).
 */
import { z } from "zod";
import type { Actor } from "../../../domain/actors/actor.ts";
import { uuid } from "../../../domain/shared/inputs.ts";
import { startExportInput } from "../../../domain/exports/inputs.ts";
import { getExport, startExport, type ExportRecord } from "../../../domain/exports/service.ts";
import { exportAnswer } from "../../records/exports.ts";
import { READ, defineTool, type AnyTool } from "../tool.ts";

/** How long export_list waits for its export before answering its id and status. */
export const EXPORT_WAIT_MS = 20_000;

/** Polls the export until it ends or `waitMs` passes. */
async function exportWithin(reader: Actor, first: ExportRecord, waitMs: number): Promise<ExportRecord> {
  const deadline = Date.now() + waitMs;
  let e = first;
  while ((e.status === "queued" || e.status === "running") && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    e = await getExport(reader, e.id);
  }
  return e;
}

export const exportTools: AnyTool[] = [
  defineTool({
    name: "export_list",
    title: "Export a list to a CSV or XLSX file",
    description:
      "Writes every row of a list (kind: videos, accounts, folder_videos, folder_accounts, video_history, account_history, radar_results, " +
      'credit_ledger, audit_log) matching `filter` (the list\'s REST query names, e.g. {folderId, sort: "views"}) to a CSV or XLSX file, ' +
      `and waits up to ${EXPORT_WAIT_MS / 1000} seconds for it: the answer's data.downloadUrl is a signed link (valid 15 minutes, no other ` +
      "credential needed) once status is completed; otherwise poll get_export with data.id. Errors: NOT_FOUND, VALIDATION_ERROR, " +
      "EXPORT_LIMIT_REACHED (two exports already running). Free.",
    input: startExportInput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    idempotent: true,
    run: async ({ auth }, input) => {
      const e = await exportWithin(auth, await startExport(auth, input), EXPORT_WAIT_MS);
      const data = await exportAnswer(e);
      return {
        data,
        message: data.downloadUrl
          ? `Done: ${e.rowsWritten} rows. Download the file from data.downloadUrl before ${data.downloadUrlExpiresAt}.`
          : e.status === "failed"
            ? `The export failed: ${e.error}`
            : `Still ${e.status} (${e.rowsWritten} rows so far): call get_export with export_id ${e.id}.`,
      };
    },
  }),
  defineTool({
    name: "get_export",
    title: "Read an export",
    description: "An export's status and rows written; once completed, a fresh signed downloadUrl (valid 15 minutes). Free.",
    input: z.object({ export_id: uuid.meta({ description: "The export's id (data.id of export_list)." }) }),
    annotations: READ,
    run: async ({ auth }, input) => ({ data: await exportAnswer(await getExport(auth, input.export_id)) }),
  }),
];
