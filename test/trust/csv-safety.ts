/**
 * What a CSV must be to be safe whatever reads it, and the captions the red team used to break it
 * (test/trust/csv-injection.test.ts, test/trust/report-mails.test.ts).
 */
import { expect } from "vitest";
import { parse } from "csv-parse/sync";

/** The red team's captions: a formula after a line break (LF, CR, CRLF), one needing no comma or quote, ordinary multi-line text. */
export const HOSTILE = [
  "Great recipe\n=cmd|' /C calc'!A0",
  'look\r+IMAGE(CHAR(104)&CHAR(116)&"tps://evil.example/x.png")',
  "two\r\n@SUM(1+1)*cmd|' /C calc'!A0",
  "line one\nline two\n\n-2+3",
  "\ttab first\n\ttab again",
];

/** What a file must be to be safe: as many records as rows (whatever line break a reader ends records at), and no line anywhere that starts a formula. */
export function expectSafeCsv(text: string, rows: number): Record<string, string>[] {
  const body = text.replace(/^\uFEFF/, "");
  // A reader that ends a record at any line break outside quotes (csv-parse's default detection) sees the rows, no more.
  const records = parse(body, { columns: true, relax_column_count: false }) as Record<string, string>[];
  expect(records).toHaveLength(rows);
  // A reader that ends a row at every line break (quotes or not) never sees a line begin with a formula.
  for (const line of body.split(/\r\n|\r|\n/)) expect(line, JSON.stringify(line)).not.toMatch(/^"?[=+@\t]|^"?-(?!\d+(\.\d+)?(,|$))/);
  // Every line inside every cell is neutralised.
  for (const record of records) {
    for (const cell of Object.values(record)) {
      for (const line of cell.split(/\r\n|\r|\n/)) expect(line, JSON.stringify(cell)).not.toMatch(/^[=+@\t]|^-(?!\d+(\.\d+)?$)/);
    }
  }
  return records;
}
