/**
 * The file formats of exports (docs/exports.md): CSV (RFC 4180 through csv-stringify: CRLF, fields
 * quoted when they hold a comma, a quote or a line break, quotes doubled; UTF-8, header row, optional
 * BOM) and XLSX (exceljs's streaming writer: typed numeric cells, date cells, text cells).
 *
 * Both write rows as they arrive from an async iterable onto any Writable, awaiting the Writable's
 * `drain` whenever it asks to (backpressure), so an export holds one batch of rows in memory however
 * many rows it has.
 *
 * Formula injection (docs/contract/decisions.md, "Fourth wave": exports): a CSV text cell beginning with `=`, `+`, `-`,
 * `@`, a tab or a carriage return is prefixed with `'`, so no spreadsheet program reads it as a formula.
 * Numbers are written as numbers and never prefixed (a negative number stays `-5`). In XLSX the same text
 * is a text cell (never a formula cell), so it needs no prefix.
 */
import { once } from "node:events";
import type { Writable } from "node:stream";
import { stringify } from "csv-stringify/sync";
import ExcelJS from "exceljs";

export const EXPORT_FORMATS = ["csv", "xlsx"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const MEDIA_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

/** What a column holds: text (neutralised in CSV), a number, an instant (ISO 8601 UTC in CSV, a date cell in XLSX), a boolean. */
export type ColumnType = "text" | "number" | "date" | "boolean";

export interface Column<Row> {
  /** The header: the REST record's field name. */
  name: string;
  type: ColumnType;
  value: (row: Row) => unknown;
}

/** A cell a spreadsheet program would read as a formula, made plain text with a leading `'`. */
const FORMULA_START = /^[=+\-@\t\r]/;
export function neutralise(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** Any value as the text of a text column: arrays joined by spaces, objects as JSON. */
function asText(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v;
  if (Array.isArray(v)) return v.map((x) => asText(x)).join(" ");
  if (v instanceof Date) return v.toISOString();
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

function asDate(v: unknown): Date | null {
  if (v === null || v === undefined || v === "") return null;
  const d = v instanceof Date ? v : new Date(String(v));
  return Number.isNaN(d.getTime()) ? null : d;
}

function asNumber(v: unknown): number | null {
  if (v === null || v === undefined || v === "") return null;
  const n = typeof v === "number" ? v : Number(v);
  return Number.isFinite(n) ? n : null;
}

/** One CSV field: "" for null; numbers unformatted; instants ISO 8601 UTC; text neutralised. */
export function csvCell(type: ColumnType, v: unknown): string {
  switch (type) {
    case "number": {
      const n = asNumber(v);
      return n === null ? "" : String(n);
    }
    case "date":
      return asDate(v)?.toISOString() ?? "";
    case "boolean":
      return v === null || v === undefined ? "" : v ? "true" : "false";
    case "text":
      return neutralise(asText(v));
  }
}

function xlsxCell(type: ColumnType, v: unknown): string | number | boolean | Date | null {
  switch (type) {
    case "number":
      return asNumber(v);
    case "date":
      return asDate(v);
    case "boolean":
      return v === null || v === undefined ? null : Boolean(v);
    case "text": {
      const t = asText(v);
      return t === "" ? null : t;
    }
  }
}

export interface WriteOptions {
  /** CSV: begin with a UTF-8 byte order mark (for spreadsheet programs that guess the encoding otherwise). */
  bom?: boolean;
  /** XLSX: the sheet's name. */
  sheetName?: string;
  /** Called after each batch with the rows written so far (progress of export jobs). */
  onProgress?: (rows: number) => void | Promise<void>;
}

/** Resolves on the stream's `drain`; rejects (closedError) or resolves (else) on its `close`. Leaves no listener behind. */
async function drainOrClose(s: Writable, closedError?: Error): Promise<void> {
  const ac = new AbortController();
  const drain = once(s, "drain", { signal: ac.signal }).then(() => "drain" as const);
  const close = once(s, "close", { signal: ac.signal }).then(() => "close" as const);
  drain.catch(() => undefined);
  close.catch(() => undefined);
  try {
    if ((await Promise.race([drain, close])) === "close" && closedError) throw closedError;
  } finally {
    ac.abort();
  }
}

/** Waits for the Writable to take more when it asked to (backpressure); fails if it closed meanwhile. */
async function drained(out: Writable): Promise<void> {
  if (out.destroyed) throw new Error("the export's destination closed");
  if (out.writableNeedDrain) await drainOrClose(out, new Error("the export's destination closed"));
}

/** Rows of the iterable in batches (the iterable's own batches when it yields arrays). */
export type RowSource<Row> = AsyncIterable<Row[]>;

/** Writes the CSV of `batches` onto `out` and ends it; answers the number of rows written. */
export async function writeCsv<Row>(
  columns: readonly Column<Row>[],
  batches: RowSource<Row>,
  out: Writable,
  opts: WriteOptions = {},
): Promise<number> {
  const write = async (chunk: string) => {
    if (!out.write(chunk)) await drained(out);
  };
  await write((opts.bom ? "\uFEFF" : "") + stringify([columns.map((c) => c.name)], { record_delimiter: "\r\n" }));
  let rows = 0;
  for await (const batch of batches) {
    if (batch.length === 0) continue;
    const records = batch.map((row) => columns.map((c) => csvCell(c.type, c.value(row))));
    await write(stringify(records, { record_delimiter: "\r\n" }));
    rows += batch.length;
    await opts.onProgress?.(rows);
  }
  out.end();
  await finished(out);
  return rows;
}

/** Writes the XLSX workbook (one sheet) of `batches` onto `out` and ends it; answers the number of rows written. */
export async function writeXlsx<Row>(
  columns: readonly Column<Row>[],
  batches: RowSource<Row>,
  out: Writable,
  opts: WriteOptions = {},
): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet((opts.sheetName ?? "Export").slice(0, 31));
  sheet.columns = columns.map((c) => ({
    header: c.name,
    key: c.name,
    width: c.type === "date" ? 24 : c.type === "text" ? 30 : 14,
    ...(c.type === "date" ? { style: { numFmt: "yyyy-mm-dd hh:mm:ss" } } : {}),
  }));
  let rows = 0;
  for await (const batch of batches) {
    for (const row of batch) sheet.addRow(columns.map((c) => xlsxCell(c.type, c.value(row)))).commit();
    rows += batch.length;
    await zipDrained(sheet);
    await drained(out);
    await opts.onProgress?.(rows);
  }
  sheet.commit();
  await workbook.commit();
  await finished(out);
  return rows;
}

/**
 * Backpressure inside the XLSX writer: exceljs's sheet stream hands its bytes to the zip's compressor
 * without heeding its answer, so rows produced faster than they are deflated would pile up, uncompressed,
 * in the compressor's queue (the destination drains fast: it only sees compressed bytes). Wait for the
 * compressor to drain as well, so a batch of rows at most is waiting for it.
 */
async function zipDrained(sheet: unknown): Promise<void> {
  type Dest = Writable & { _writableState?: { needDrain?: boolean; length?: number; highWaterMark?: number } };
  const buffered = (sheet as { stream?: { pipes?: Dest[] } }).stream;
  for (const dest of buffered?.pipes ?? []) {
    // archiver's streams are readable-stream's (no writableNeedDrain): read their state as Node's own streams keep it.
    const state = dest._writableState;
    const full =
      dest.writableNeedDrain ?? (state ? state.needDrain === true || (state.length ?? 0) >= (state.highWaterMark ?? Infinity) : false);
    if (full && !dest.destroyed) await drainOrClose(dest);
  }
}

/** Resolves once `out` has flushed everything (or at once when it already has). */
async function finished(out: Writable): Promise<void> {
  if (out.writableFinished) return;
  await new Promise<void>((resolve, reject) => {
    out.once("finish", () => resolve());
    out.once("error", reject);
    out.once("close", () => resolve());
  });
}

/**
 * Writes `batches` onto `out` in `format` and ends it; answers the rows written. An error of the destination (a full
 * disk, a reset connection) fails the write with that error (the destination closes, so the next wait for its drain
 * stops), rather than being an unhandled 'error' event.
 */
export async function writeRows<Row>(
  format: ExportFormat,
  columns: readonly Column<Row>[],
  batches: RowSource<Row>,
  out: Writable,
  opts: WriteOptions = {},
): Promise<number> {
  let failure: Error | null = null;
  const onError = (err: Error) => {
    failure ??= err;
  };
  out.on("error", onError);
  try {
    const rows = await (format === "csv" ? writeCsv(columns, batches, out, opts) : writeXlsx(columns, batches, out, opts));
    if (failure) throw failure;
    return rows;
  } catch (err) {
    throw failure ?? err;
  } finally {
    out.off("error", onError);
  }
}
