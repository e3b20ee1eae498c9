/**
 * CSV row injection and XML-invalid characters, probed on every door that writes a file: a creator controls a tracked
 * video's caption, a member names a folder or a creator. A caption with a line break and a formula after it
 * (`Great recipe\n=cmd|' /C calc'!A0`) must neither start a row nor start a line of a cell with an un-prefixed
 * formula, in the streamed lists (REST `?format=csv`), the export jobs' files, the campaign payouts and the scheduled
 * report's attachment (test/trust/report-mails.test.ts reads that one through SMTP); an XLSX with U+FFFF in a folder
 * name must still be a file a reader opens.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PassThrough } from "node:stream";
import ExcelJS from "exceljs";

vi.hoisted(() => {
  process.env.EXPORT_DIR = `${process.env.TMPDIR ?? "/tmp"}/trust-csv-${process.pid}`;
});

import { client, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import type { RunningApi } from "../../src/main/server.js";
import { startWorkers, type RunningWorkers } from "../../src/jobs/worker.js";
import { exportsQueue } from "../../src/jobs/registry.js";
import { neutralise, writeRows, type Column } from "../../src/domain/exports/writers.js";
import { createAccount, createTrackedVideo, trackAccount } from "../folders/fixtures.js";
import { waitUntil } from "../helpers/wait.js";
import { expectSafeCsv, HOSTILE } from "./csv-safety.js";

const P = "/api/v1";
let api: RunningApi;
let workers: RunningWorkers;
let ws: { workspaceId: string; key: string };
let c: ReturnType<typeof client>;

beforeAll(async () => {
  api = await startTestApi();
  workers = await startWorkers([exportsQueue()]);
  ws = await newWorkspace("pro");
  c = client(api.url, ws.key);
  const account = await createAccount({ username: "hostile" });
  await trackAccount(ws.workspaceId, account.id);
  for (const description of HOSTILE)
    await createTrackedVideo(ws.workspaceId, { description, accountId: account.id, postedAt: new Date("2026-10-10T10:00:00Z") });
});
afterAll(() => stopAll(api, workers));

async function raw(path: string) {
  const res = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${ws.key}` } });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe("the writers", () => {
  it("neutralise a formula at the start of every line of a cell, and nothing else", () => {
    expect(neutralise("a\n=b\r+c\r\n@d\n\te\n-f")).toBe("a\n'=b\r'+c\r\n'@d\n'\te\n'-f");
    expect(neutralise("\r=x")).toBe("'\r'=x");
    expect(neutralise("a = b\n c=d")).toBe("a = b\n c=d");
  });

  it("quote a field holding a bare CR or LF, so every reader counts the rows right", async () => {
    const columns: Column<string>[] = [
      { name: "n", type: "number", value: (_r) => -5 },
      { name: "text", type: "text", value: (r) => r },
    ];
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on("data", (b: Buffer) => chunks.push(b));
    async function* batches() {
      yield HOSTILE;
    }
    expect(await writeRows("csv", columns, batches(), out)).toBe(HOSTILE.length);
    const text = Buffer.concat(chunks).toString("utf8");
    const records = expectSafeCsv(text, HOSTILE.length);
    expect(records.map((r) => r.text)).toEqual(HOSTILE.map(neutralise));
    // A negative number stays a number.
    expect(records.every((r) => r.n === "-5")).toBe(true);
  });
});

describe("every door that writes CSV", () => {
  it("the streamed list (REST ?format=csv)", async () => {
    const r = await raw(`${P}/videos?format=csv`);
    expect(r.status).toBe(200);
    expectSafeCsv(r.bytes.toString("utf8"), HOSTILE.length);
  });

  it("an export job's file", async () => {
    const started = await c.post(`${P}/exports`, { kind: "videos", format: "csv", filter: {} });
    expect(started.status).toBe(202);
    const done = await waitUntil(
      "export finished",
      async () => (await c.get(`${P}/exports/${started.body.data.id}`)).body.data,
      (e: any) => e.status === "completed" || e.status === "failed",
      20_000,
    );
    expect(done.status).toBe("completed");
    const url = new URL(done.downloadUrl);
    const res = await fetch(`${api.url}${url.pathname}${url.search}`);
    expectSafeCsv(await res.text(), HOSTILE.length);
  });

  it("a campaign's payouts, with a creator named by a member", async () => {
    const creator = (await c.post(`${P}/creators`, { name: '=HYPERLINK("https://evil.example","pay")\n+1', contact: "@x\n-y" })).body.data;
    const [account] = (await c.get(`${P}/accounts`)).body.data;
    expect((await c.post(`${P}/creators/${creator.id}/accounts`, { account_ids: [account.id] })).status).toBe(200);
    const camp = (
      await c.post(`${P}/campaigns`, {
        name: "@campaign\n=1+1",
        starts_at: "2026-10-01",
        ends_at: "2026-11-01",
        currency: "EUR",
        fee_per_video_minor: 100,
      })
    ).body.data;
    await c.post(`${P}/campaigns/${camp.id}/members`, { creator_ids: [creator.id] });
    const r = await raw(`${P}/campaigns/${camp.id}/payouts/videos?format=csv`);
    expect(r.status).toBe(200);
    const text = r.bytes.toString("utf8");
    expect(text).toContain("'=HYPERLINK");
    expectSafeCsv(text, HOSTILE.length);
  });
});

describe("XLSX", () => {
  it("drops what XML cannot hold, so a folder named with U+FFFF still gives an audit log a reader opens", async () => {
    const name = "bad\uFFFFname\uFFFE";
    const made = await c.post(`${P}/folders`, { name });
    expect(made.status).toBe(201);
    // A share link's audit entry names the folder.
    expect((await c.post(`${P}/folders/${made.body.data.id}/share-links`, {})).status).toBe(201);
    for (const path of [`${P}/settings/audit-log?format=xlsx`]) {
      const r = await raw(path);
      expect(r.status, path).toBe(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(r.bytes as unknown as ArrayBuffer);
      const cells = book.worksheets[0]!.getSheetValues().flat().map(String);
      expect(
        cells.some((v) => v.includes("badname")),
        path,
      ).toBe(true);
    }
  });
});
