/**
 * The exports' core: the writers (CSV per RFC 4180 read back with csv-parse, formula injection
 * neutralised, XLSX read back with exceljs: typed cells) and the kinds' keyset reads (a row inserted
 * while an export streams is neither missed nor repeated), on real PostgreSQL.
 */
import { PassThrough, Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { newWorkspace } from "../helpers/api.js";
import { prisma } from "../../src/infra/db.js";
import { writeExport, openExport, columnNames } from "../../src/domain/exports/stream.js";
import { EXPORT_KINDS } from "../../src/domain/exports/kinds.js";
import { csvCell, neutralise } from "../../src/domain/exports/writers.js";
import { createFolder, addVideosToFolder } from "../../src/domain/folders/service.js";
import { createTrackedVideo } from "../folders/fixtures.js";

let ws: { workspaceId: string; key: string };
const owner = () => ({ workspaceId: ws.workspaceId, role: "owner" as const });
let folderId: string;

const NASTY = [
  '=HYPERLINK("http://evil.example","click")',
  "+1+1",
  "-2+3",
  "@SUM(A1)",
  "\tindented",
  "\rreturn",
  'a "quoted", comma\nand a newline',
  "plain text é ✓",
];

/** Collects what a Writable receives. */
function sink(): { out: PassThrough; bytes: () => Promise<Buffer> } {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => out.on("end", () => resolve(Buffer.concat(chunks))));
  return { out, bytes: () => done };
}

beforeAll(async () => {
  ws = await newWorkspace("pro");
  folderId = (await createFolder(ws.workspaceId, "exports", null)).id;
  const ids: string[] = [];
  for (const [i, description] of NASTY.entries()) {
    const v = await createTrackedVideo(ws.workspaceId, { description, viewCount: 1000 + i, likeCount: i === 0 ? null : i });
    ids.push(v.id);
  }
  await addVideosToFolder(ws.workspaceId, folderId, ids);
});
afterAll(async () => {});

describe("writers", () => {
  it("neutralises exactly the contract's first characters", () => {
    for (const s of ["=1", "+1", "-1", "@a", "\ta", "\ra"]) expect(neutralise(s)).toBe(`'${s}`);
    for (const s of ["1", "a=1", " =1", "", "'a"]) expect(neutralise(s)).toBe(s);
    // A negative number is a number, not neutralised.
    expect(csvCell("number", -5)).toBe("-5");
    expect(csvCell("text", "-5")).toBe("'-5");
  });

  it("writes the folder's videos as RFC 4180 CSV: CRLF, quoting, neutralised text, numbers as numbers, ISO 8601 UTC, BOM on request", async () => {
    const { out, bytes } = sink();
    const rows = await writeExport(owner(), "folder_videos", { folderId, sort: "views", sort_order: "asc" }, "csv", out, { bom: true });
    expect(rows).toBe(NASTY.length);
    const buf = await bytes();
    expect(buf.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const text = buf.toString("utf8").slice(1);
    expect(text.split("\r\n")[0]).toBe(columnNames("folder_videos").join(","));
    expect(text.endsWith("\r\n")).toBe(true);
    const records = parse(text, { columns: true, record_delimiter: "\r\n" }) as Record<string, string>[];
    expect(records.map((r) => r.description)).toEqual([
      '\'=HYPERLINK("http://evil.example","click")',
      "'+1+1",
      "'-2+3",
      "'@SUM(A1)",
      "'\tindented",
      "'\rreturn",
      'a "quoted", comma\nand a newline',
      "plain text é ✓",
    ]);
    expect(records.map((r) => r.viewCount)).toEqual(NASTY.map((_, i) => String(1000 + i)));
    // Null is an empty field.
    expect(records.map((r) => r.likeCount)).toEqual(["", "1", "2", "3", "4", "5", "6", "7"]);
    expect(records[0]!.trackedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(records[0]!.postedAt).toBe("2026-06-01T12:00:00.000Z");
  });

  it("writes XLSX with text cells (never formulas), numeric cells and date cells", async () => {
    const { out, bytes } = sink();
    await writeExport(owner(), "folder_videos", { folderId, sort: "views", sort_order: "asc" }, "xlsx", out);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await bytes()) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(columnNames("folder_videos"));
    const col = (name: string) => header.indexOf(name) + 1;
    const first = sheet.getRow(2);
    const desc = first.getCell(col("description"));
    expect(desc.type).toBe(ExcelJS.ValueType.String);
    expect(desc.value).toBe(NASTY[0]);
    expect(first.getCell(col("viewCount")).type).toBe(ExcelJS.ValueType.Number);
    expect(first.getCell(col("viewCount")).value).toBe(1000);
    expect(first.getCell(col("postedAt")).type).toBe(ExcelJS.ValueType.Date);
    expect((first.getCell(col("postedAt")).value as Date).toISOString()).toBe("2026-06-01T12:00:00.000Z");
    expect(sheet.getRow(3).getCell(col("likeCount")).value).toBe(1);
    expect(sheet.rowCount).toBe(NASTY.length + 1);
  });

  it("names every kind's columns (a change here is a change of the documented files: docs/exports.md)", () => {
    expect(Object.fromEntries(EXPORT_KINDS.map((k) => [k, columnNames(k).join(",")]))).toMatchSnapshot();
  });
});

describe("keyset reads", () => {
  it("neither misses nor repeats a row while rows are inserted during the export (batch size 2)", async () => {
    const other = await newWorkspace("pro");
    const existing: string[] = [];
    for (let i = 0; i < 9; i++) existing.push((await createTrackedVideo(other.workspaceId, { description: `row ${i}` })).id);
    const opened = await openExport({ workspaceId: other.workspaceId, role: "owner" }, "videos", {}, { batchSize: 2 });
    const inserted: string[] = [];
    const seen: string[] = [];
    let pending = "";
    // A slow destination that inserts a newly tracked video after each batch it takes.
    const out = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _enc, cb) {
        const header = pending === "";
        pending += chunk.toString("utf8");
        // The header is written before the first batch is read: insert only once reading has begun.
        if (header) return cb();
        createTrackedVideo(other.workspaceId, { description: `late ${inserted.length}` }).then((v) => {
          inserted.push(v.id);
          cb();
        }, cb);
      },
    });
    const rows = await opened.write("csv", out);
    const records = parse(pending, { columns: true }) as Record<string, string>[];
    for (const r of records) seen.push(r.id!);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of existing) expect(seen).toContain(id);
    expect(rows).toBe(seen.length);
    expect(inserted.length).toBeGreaterThan(3);
    // Newest tracked first: the videos tracked after the export began sort before its position.
    expect(seen.filter((id) => inserted.includes(id))).toEqual([]);
    // Ascending, they come after it: each is read once.
    const before = await prisma.trackedVideo.count({ where: { workspaceId: other.workspaceId } });
    const asc = await openExport(
      { workspaceId: other.workspaceId, role: "owner" },
      "videos",
      { sort: "tracked_at", order: "asc" },
      { batchSize: 2 },
    );
    const { out: o2, bytes } = sink();
    let extra = 0;
    const slow = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _enc, cb) {
        o2.write(chunk);
        if (extra++ < 3) createTrackedVideo(other.workspaceId, { description: `later ${extra}` }).then(() => cb(), cb);
        else cb();
      },
      final(cb) {
        o2.end();
        cb();
      },
    });
    await asc.write("csv", slow);
    const ascIds = (parse((await bytes()).toString("utf8"), { columns: true }) as Record<string, string>[]).map((r) => r.id!);
    expect(new Set(ascIds).size).toBe(ascIds.length);
    // Every row that existed when it began is in the file; the ones tracked meanwhile (after its position) are in it
    // unless the reading, which runs up to a batch ahead of a slow destination, had already passed them.
    const all = await prisma.trackedVideo.count({ where: { workspaceId: other.workspaceId } });
    expect(ascIds.length).toBeGreaterThanOrEqual(before);
    expect(ascIds.length).toBeLessThanOrEqual(all);
  });

  it("fails with the destination's error (a full disk, a reset connection) instead of an unhandled 'error' event", async () => {
    for (const format of ["csv", "xlsx"] as const) {
      let chunks = 0;
      const broken = new Writable({
        write(_chunk, _enc, cb) {
          cb(++chunks > 1 ? new Error("ENOSPC: no space left on device") : null);
        },
      });
      await expect(writeExport(owner(), "folder_videos", { folderId }, format, broken, { batchSize: 1 })).rejects.toThrow(
        /ENOSPC|destination closed/,
      );
    }
  });

  it("refuses another workspace's folder before writing anything", async () => {
    const other = await newWorkspace("pro");
    await expect(openExport({ workspaceId: other.workspaceId, role: "owner" }, "folder_videos", { folderId })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(openExport({ workspaceId: other.workspaceId, role: "member" }, "audit_log", {})).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(openExport(owner(), "videos", { sort: "nope" })).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
  });
});
