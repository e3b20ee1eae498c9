/**
 * The export job's body (queue `exports`, ./jobs.ts) and the sweep.
 *
 * `runExport`: claims the export (queued → running; a retried or restarted job takes a running one
 * again), checks the request again (the folder may have been deleted meanwhile: a permanent failure),
 * writes the file to `<EXPORT_DIR>/<workspace>/<id>.<ext>.part` through the same writers as REST, records
 * progress every EXPORT_PROGRESS_EVERY rows (and announces it), then renames the file into place and
 * records `completed` with the rows, bytes and `expires_at` = now + EXPORT_RETENTION_HOURS.
 *
 * `sweepExports`: deletes the files of exports past `expires_at` (they become `expired`; the rows go one
 * retention period later), and queues again an export queued for more than a minute (its job was lost
 * between the commit and the queue).
 */
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { Prisma } from "../../generated/prisma/client.ts";
import { sql } from "../../infra/db.ts";
import { logger } from "../../infra/logger.ts";
import { config } from "../../config.ts";
import { DomainError } from "../shared/errors.ts";
import { PermanentJobFailure, isLastAttempt, SINGLE_RUN, type JobRun } from "../shared/jobs.ts";
import { openExport } from "./stream.ts";
import { EXPORT_COLUMNS, type ExportRecord } from "./service.ts";
import { announceExport } from "./events.ts";
import { enqueueExport } from "./jobs.ts";

/** Where an export's file is kept. */
export const exportFilePath = (e: Pick<ExportRecord, "id" | "workspaceId" | "format">) =>
  join(config.exports.dir, e.workspaceId, `${e.id}.${e.format}`);

async function update(id: string, set: Prisma.Sql): Promise<ExportRecord | null> {
  const [row] = await sql<ExportRecord>(Prisma.sql`UPDATE exports AS e SET ${set} WHERE e.id = ${id}::uuid RETURNING ${EXPORT_COLUMNS}`);
  return row ?? null;
}

export async function runExport(exportId: string, run: JobRun = SINGLE_RUN): Promise<{ status: string; rows?: number }> {
  const [claimed] = await sql<ExportRecord>(Prisma.sql`
    UPDATE exports AS e SET status = 'running', started_at = now(), rows_written = 0
     WHERE e.id = ${exportId}::uuid AND e.status IN ('queued', 'running') RETURNING ${EXPORT_COLUMNS}`);
  if (!claimed) return { status: "gone" }; // finished, expired or deleted meanwhile
  announceExport(claimed);
  const file = exportFilePath(claimed);
  const part = `${file}.part`;
  try {
    // The creator's view of the workspace: the role was checked when it started (owner-only lists).
    const opened = await openExport({ workspaceId: claimed.workspaceId, role: "owner" }, claimed.kind, claimed.filter, {
      filterPath: "filter",
    });
    const counted = await update(exportId, Prisma.sql`total_rows = ${await opened.count()}`);
    if (counted) announceExport(counted);
    await mkdir(join(config.exports.dir, claimed.workspaceId), { recursive: true });
    const out = createWriteStream(part);
    let recorded = 0;
    const rows = await opened.write(claimed.format, out, {
      bom: claimed.bom,
      onProgress: async (n) => {
        if (n - recorded < config.exports.progressEvery) return;
        recorded = n;
        const row = await update(exportId, Prisma.sql`rows_written = ${n}`);
        if (row) announceExport(row);
      },
    });
    await rename(part, file);
    const bytes = (await stat(file)).size;
    const done = await update(
      exportId,
      Prisma.sql`status = 'completed', rows_written = ${rows}, bytes = ${bytes}, file_name = ${opened.fileName(claimed.format)}, error = NULL,
                 finished_at = now(), expires_at = now() + ${`${config.exports.retentionMs} milliseconds`}::interval`,
    );
    if (done) announceExport(done);
    else await rm(file, { force: true }); // deleted while it ran
    return { status: "completed", rows };
  } catch (err) {
    await rm(part, { force: true });
    const permanent = err instanceof DomainError;
    if (permanent || isLastAttempt(run)) {
      const message = permanent ? err.message : "The export failed; start it again.";
      logger.warn({ err, exportId }, "export failed");
      const failed = await update(
        exportId,
        Prisma.sql`status = 'failed', error = ${message}, finished_at = now(), expires_at = now() + ${`${config.exports.retentionMs} milliseconds`}::interval`,
      );
      if (failed) announceExport(failed);
      if (permanent) throw new PermanentJobFailure(message, { cause: err });
    }
    throw err;
  }
}

/** An export running this long lost its worker for good: failed, so it no longer counts against the cap. */
const RUNNING_DEADLINE = "6 hours";

/**
 * At `expires_at` an export's file is deleted and it becomes `expired` (a client that asks learns why the
 * link stopped working); its row is deleted one retention period later. Also fails exports running past
 * their deadline and queues again those whose job was lost.
 */
export async function sweepExports(now = new Date()): Promise<{ expired: number; deleted: number; requeued: number }> {
  const retention = `${config.exports.retentionMs} milliseconds`;
  const expired = await sql<ExportRecord>(Prisma.sql`
    UPDATE exports AS e SET status = 'expired', expires_at = ${now}::timestamptz + ${retention}::interval
     WHERE e.status IN ('completed', 'failed') AND e.expires_at <= ${now}::timestamptz RETURNING ${EXPORT_COLUMNS}`);
  for (const e of expired) {
    await rm(exportFilePath(e), { force: true });
    announceExport(e);
  }
  const deleted = await sql<Pick<ExportRecord, "id" | "workspaceId" | "format">>(Prisma.sql`
    DELETE FROM exports WHERE status = 'expired' AND expires_at <= ${now}::timestamptz RETURNING id, workspace_id AS "workspaceId", format`);
  for (const e of deleted) await rm(exportFilePath(e), { force: true });
  const stuck = await sql<ExportRecord>(Prisma.sql`
    UPDATE exports AS e SET status = 'failed', error = 'The export stopped (its worker was lost); start it again.', finished_at = ${now}::timestamptz,
           expires_at = ${now}::timestamptz + ${retention}::interval
     WHERE e.status = 'running' AND e.started_at < ${now}::timestamptz - ${RUNNING_DEADLINE}::interval RETURNING ${EXPORT_COLUMNS}`);
  for (const e of stuck) announceExport(e);
  const lost = await sql<{ id: string }>(
    Prisma.sql`SELECT id FROM exports WHERE status = 'queued' AND created_at < ${now}::timestamptz - interval '1 minute' LIMIT 100`,
  );
  for (const e of lost) await enqueueExport(e.id);
  return { expired: expired.length, deleted: deleted.length, requeued: lost.length };
}
