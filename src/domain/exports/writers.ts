/**
 * The file formats of exports (docs/exports.md): CSV (RFC 4180 through csv-stringify's stream: CRLF, fields
 * quoted when they hold a comma, a quote, `\r` or `\n`, quotes doubled; UTF-8, header row, optional BOM) and XLSX
 * (exceljs's streaming writer: typed numeric cells, date cells, text cells without the characters XML cannot hold).
 *
 * Both stream rows as they arrive from an async iterable onto any Writable through `pipeline` (node:stream/promises),
 * which carries the destination's backpressure back to the rows' source and fails the write with the first error on
 * either side, so an export holds about one batch of rows in memory however many rows it has.
 *
 * Formula injection (docs/contract/decisions.md, "Fourth wave": exports): a CSV text cell, or any line inside it,
 * beginning with `=`, `+`, `-`, `@`, a tab or a carriage return gets a `'` before it, so no spreadsheet program reads
 * it as a formula. Numbers are written as numbers and never prefixed (a negative number stays `-5`). In XLSX the same
 * text is a text cell (never a formula cell), so it needs no prefix.
 */
import { once } from "node:events";
import { PassThrough, Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { stringify } from "csv-stringify";

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

/**
 * A text a spreadsheet program would read as a formula, made plain text: a `'` before the text, and before every line
 * inside it, that begins with `=`, `+`, `-`, `@`, a tab or a carriage return. Every line counts: a program that reads a
 * line break as the end of a record (many do, quoted or not) would otherwise start a row with `=cmd|…`.
 */
const FORMULA_START = /(?<=^|[\r\n])(?=[=+\-@\t\r])/g;
export function neutralise(text: string): string {
  return text.replace(FORMULA_START, "'");
}

/**
 * Characters XML 1.0 cannot hold (C0 controls but tab, line feed and carriage return; U+FFFE, U+FFFF; a lone
 * surrogate): an XLSX file holding one is refused by every reader, so they are dropped from its text.
 */
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
export function xmlSafe(text: string): string {
  return text.replace(NOT_XML, "");
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
      const t = xmlSafe(asText(v));
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

/** Rows of the iterable in batches (the iterable's own batches when it yields arrays). */
export type RowSource<Row> = AsyncIterable<Row[]>;

/** The header, then each row as its cells, counting rows and reporting progress after each batch. */
async function* records<Row, Cell>(
  columns: readonly Column<Row>[],
  batches: RowSource<Row>,
  cell: (type: ColumnType, v: unknown) => Cell,
  counted: { rows: number },
  onProgress: WriteOptions["onProgress"],
): AsyncGenerator<(string | Cell)[]> {
  yield columns.map((c) => c.name);
  for await (const batch of batches) {
    for (const row of batch) yield columns.map((c) => cell(c.type, c.value(row)));
    counted.rows += batch.length;
    if (batch.length > 0) await onProgress?.(counted.rows);
  }
}

/**
 * Writes the CSV of `batches` onto `out` and ends it; answers the number of rows written. csv-stringify quotes a field
 * holding the delimiter, a quote or the whole record delimiter; `quoted_match` adds a bare `\r` or `\n`, which
 * spreadsheet programs and most parsers also read as the end of a record.
 */
export async function writeCsv<Row>(
  columns: readonly Column<Row>[],
  batches: RowSource<Row>,
  out: Writable,
  opts: WriteOptions = {},
): Promise<number> {
  const counted = { rows: 0 };
  await pipeline(
    Readable.from(records(columns, batches, csvCell, counted, opts.onProgress)),
    stringify({ record_delimiter: "\r\n", quoted_match: /[\r\n]/, bom: opts.bom ?? false }),
    out,
  );
  return counted.rows;
}

/**
 * Writes the XLSX workbook (one sheet) of `batches` onto `out` and ends it; answers the number of rows written.
 * exceljs writes into a PassThrough that `pipeline` joins to `out` (so `out`'s backpressure reaches the zip, and an
 * error on either side fails the write).
 */
export async function writeXlsx<Row>(
  columns: readonly Column<Row>[],
  batches: RowSource<Row>,
  out: Writable,
  opts: WriteOptions = {},
): Promise<number> {
  // Loaded on the first workbook: exceljs and its zip libraries are a sixth of what a process loads at start.
  const { default: ExcelJS } = await import("exceljs");
  const zipped = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: zipped, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(xmlSafe(opts.sheetName ?? "Export").slice(0, 31) || "Export");
  sheet.columns = columns.map((c) => ({
    header: xmlSafe(c.name),
    key: c.name,
    width: c.type === "date" ? 24 : c.type === "text" ? 30 : 14,
    ...(c.type === "date" ? { style: { numFmt: "yyyy-mm-dd hh:mm:ss" } } : {}),
  }));
  const counted = { rows: 0 };
  // A failed destination stops the rows' loop where it waits for the compressor.
  const stop = new AbortController();
  const delivered = pipeline(zipped, out).catch((err: unknown) => {
    stop.abort(err);
    throw err;
  });
  const afterBatch = async (rows: number) => {
    stop.signal.throwIfAborted();
    await zipCaughtUp(sheet, stop.signal);
    await opts.onProgress?.(rows);
  };
  const written = (async () => {
    let header = true;
    for await (const cells of records(columns, batches, xlsxCell, counted, afterBatch)) {
      if (header) header = false;
      else sheet.addRow(cells).commit();
    }
    sheet.commit();
    await workbook.commit();
  })().catch((err: unknown) => {
    zipped.destroy(err as Error);
    throw err;
  });
  const [wrote, sent] = await Promise.allSettled([written, delivered]);
  // The destination's own error (a full disk, a reset connection) is the one that says what happened.
  if (sent.status === "rejected") throw sent.reason;
  if (wrote.status === "rejected") throw wrote.reason;
  return counted.rows;
}

/**
 * exceljs's sheet stream writes into the zip's compressor without heeding its answer (its own code says `write` never
 * returns false), so rows produced faster than they are deflated would pile up, uncompressed, in the compressor's
 * buffer, whatever the destination's backpressure. After each batch, wait until the compressor has taken in what it
 * was given, reading its public stream state (`writableNeedDrain`, or `writableLength` against
 * `writableHighWaterMark`: archiver's streams are readable-stream's). The one thing read from exceljs is where its
 * sheet stream pipes to (`pipes`); if an upgrade moves it, this fails loudly (test/exports/core.test.ts) rather than
 * silently buffering a whole export.
 */
async function zipCaughtUp(sheet: unknown, signal: AbortSignal): Promise<void> {
  const pipes = (sheet as { stream?: { pipes?: Writable[] } }).stream?.pipes;
  if (!Array.isArray(pipes))
    throw new Error("exceljs's sheet stream no longer says where it writes: the XLSX writer cannot bound its memory");
  for (const dest of pipes) {
    const full = dest.writableNeedDrain ?? dest.writableLength >= dest.writableHighWaterMark;
    if (full && !dest.destroyed) await once(dest, "drain", { signal });
  }
}

/**
 * Writes `batches` onto `out` in `format` and ends it; answers the rows written. An error of the destination (a full
 * disk, a reset connection) fails the write with that error, and the rows' source is closed.
 */
export async function writeRows<Row>(
  format: ExportFormat,
  columns: readonly Column<Row>[],
  batches: RowSource<Row>,
  out: Writable,
  opts: WriteOptions = {},
): Promise<number> {
  return format === "csv" ? writeCsv(columns, batches, out, opts) : writeXlsx(columns, batches, out, opts);
}
