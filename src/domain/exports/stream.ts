/**
 * One kind of list written onto any Writable in a format: what every door of exports calls (REST's
 * streamed answers, the export job's file, the scheduled reports' attachment).
 *
 * `openExport` checks everything first (the role rule of owner-only lists, the filter through the
 * list's own schema, and that the folder, video, account or search is the workspace's), so that a
 * refusal happens before the first byte; then `write` streams the rows in keyset batches.
 */
import type { Writable } from "node:stream";
import type { z } from "zod";
import { parseInput } from "../shared/inputs.ts";
import { authorize } from "../actors/roles.ts";
import type { Actor } from "../actors/actor.ts";
import { batchSize as configuredBatchSize, kindOf, type Batches, type ExportKind } from "./kinds.ts";
import type { FileRecord } from "./columns.ts";
import { MEDIA_TYPES, writeRows, type ExportFormat, type WriteOptions } from "./writers.ts";

export interface OpenedExport {
  kind: ExportKind;
  /** `<kind title>-<UTC date>.<csv|xlsx>` */
  fileName(format: ExportFormat, now?: Date): string;
  mediaType(format: ExportFormat): string;
  /** How many rows it will have, counted now. */
  count(): Promise<number>;
  /** Writes every row onto `out` (and ends it); answers the rows written. Call once. */
  write(format: ExportFormat, out: Writable, opts?: WriteOptions): Promise<number>;
}

/** Each batch of rows as their records (what the file's columns read). */
async function* recordsOf<Row>(batches: Batches<Row>, of: (row: Row) => FileRecord): AsyncGenerator<FileRecord[]> {
  for await (const batch of batches) yield batch.map(of);
}

/**
 * Checks an export of `kind` with the list's filter (raw input: the list's own zod schema parses it,
 * VALIDATION_ERROR under `filter`… unless `filterPath` names another place) and opens its rows.
 */
export async function openExport(
  actor: Pick<Actor, "workspaceId" | "role">,
  kind: ExportKind,
  filterInput: unknown,
  opts: {
    batchSize?: number;
    filterPath?: string;
    /** How the door reads the filter with the list's schema (REST: query-string coercion of numbers and booleans). */
    readFilter?: (schema: z.ZodObject) => z.ZodType;
  } = {},
): Promise<OpenedExport> {
  const def = kindOf(kind);
  if (def.permission) authorize(actor, def.permission);
  const schema = opts.readFilter ? opts.readFilter(def.filter as z.ZodObject) : def.filter;
  const filter = parseInput(schema, filterInput ?? {}, opts.filterPath);
  const batches = await def.open(actor.workspaceId, filter, opts.batchSize ?? configuredBatchSize());
  let used = false;
  return {
    kind,
    fileName: (format, now = new Date()) => `${def.title}-${now.toISOString().slice(0, 10)}.${format}`,
    mediaType: (format) => MEDIA_TYPES[format],
    count: () => def.count(actor.workspaceId, filter),
    async write(format, out, writeOpts = {}) {
      if (used) throw new Error("an opened export is written once");
      used = true;
      try {
        return await writeRows(format, def.file.columns, recordsOf(batches, def.file.of), out, { sheetName: def.title, ...writeOpts });
      } finally {
        await batches.return(undefined);
      }
    },
  };
}

/** Writes one kind of list onto `out` in `format` (the one call for any Writable): checks, then streams. */
export async function writeExport(
  actor: Pick<Actor, "workspaceId" | "role">,
  kind: ExportKind,
  filterInput: unknown,
  format: ExportFormat,
  out: Writable,
  opts: WriteOptions & { batchSize?: number } = {},
): Promise<number> {
  const opened = await openExport(actor, kind, filterInput, { batchSize: opts.batchSize });
  return opened.write(format, out, opts);
}

/** The header row of a kind (documented in docs/exports.md; a test snapshots them). */
export const columnNames = (kind: ExportKind): string[] => kindOf(kind).file.columns.map((c) => c.name);
