/**
 * A scheduled report's CSV attachment: the folder's videos, written by the exports
 * area (src/domain/exports/stream.ts `writeExport`, kind `folder_videos`, CSV with its columns and
 * formula-injection rule) into memory when the mail is composed, so every attempt attaches the
 * folder as it is then. Bounded: past MAX_ATTACHMENT_BYTES the CSV is left out (the mail still
 * links to the shared page) and a warning is logged.
 */
import { Writable } from "node:stream";
import { logger } from "../../infra/logger.ts";
import { writeExport } from "../exports/stream.ts";
import type { MailAttacher, MailAttachers } from "../mail/compose.ts";

/** The largest CSV attached to a report mail (most mail servers refuse mails past 10 to 25 MB). */
export const MAX_ATTACHMENT_BYTES = 8 * 1024 * 1024;

/** The attachments a report mail's data asks for: the folder's videos as CSV, or none. */
export const reportAttachments: MailAttacher = async ({ workspaceId, data }) => {
  const ask = (data as { attachFolderCsv?: { folderId: string } } | null)?.attachFolderCsv;
  if (!ask || !workspaceId) return [];
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > MAX_ATTACHMENT_BYTES) {
        tooLarge = true;
        return done(new Error("the report's CSV is too large to attach"));
      }
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  try {
    // The workspace's own folder, read as its owner would (the schedule was made by one).
    await writeExport({ workspaceId, role: "owner" }, "folder_videos", { folderId: ask.folderId }, "csv", sink, { bom: true });
  } catch (e) {
    if (tooLarge) {
      logger.warn(
        { workspaceId, folderId: ask.folderId, maxBytes: MAX_ATTACHMENT_BYTES },
        "report CSV too large to attach; the mail links to the shared page only",
      );
      return [];
    }
    if ((e as { code?: string }).code === "NOT_FOUND") return [];
    throw e;
  }
  return [
    {
      filename: `folder-videos-${new Date().toISOString().slice(0, 10)}.csv`,
      contentType: "text/csv; charset=utf-8",
      content: Buffer.concat(chunks),
    },
  ];
};

/** What the reports area attaches to the mails it queues (./produce.ts), handed to the mail queue by src/jobs/registry.ts. */
export const REPORT_MAIL_ATTACHERS: MailAttachers = { folder_report: reportAttachments };
