/**
 * Exports through REST: every list's GET answers CSV (format=csv or Accept: text/csv) and XLSX
 * (format=xlsx or the XLSX media type), every row matching the filter (not one page), as an
 * attachment; the JSON answers are unchanged; refusals are `{code, message}`; no other workspace's rows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { client, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import type { RunningApi } from "../../src/main/server.js";
import { prisma } from "../../src/infra/db.js";
import { recordAudit } from "../../src/domain/actors/audit.js";
import { columnNames } from "../../src/domain/exports/stream.js";
import type { ExportKind } from "../../src/domain/exports/kinds.js";
import { createAccount, createTrackedVideo, trackAccount } from "../folders/fixtures.js";

const P = "/api/v1";
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
let api: RunningApi;
let c: ReturnType<typeof client>;
let other: ReturnType<typeof client>;
let ws: { workspaceId: string; key: string };
const ids: Record<string, string> = {};
/** The rows each list has (all of them, more than one JSON page where it matters). */
const expected: Record<string, number> = {};

async function fetchRaw(path: string, headers: Record<string, string> = {}, key = ws.key) {
  const res = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

beforeAll(async () => {
  api = await startTestApi();
  ws = await newWorkspace("pro");
  c = client(api.url, ws.key);
  const o = await newWorkspace("pro");
  other = client(api.url, o.key);
  // 25 videos (more than a default page of 20), 3 accounts, one in a folder with 4 videos.
  const videos = [];
  for (let i = 0; i < 25; i++)
    videos.push(await createTrackedVideo(ws.workspaceId, { description: i === 0 ? "=1+1" : `clip ${i}`, viewCount: 100 * i }));
  await createTrackedVideo(o.workspaceId, { description: "other workspace" });
  const accounts = [];
  for (let i = 0; i < 3; i++) {
    const a = await createAccount({ followerCount: 10 * i });
    await trackAccount(ws.workspaceId, a.id);
    accounts.push(a);
  }
  ids.folder = (await c.post(`${P}/folders`, { name: "exported" })).body.data.id;
  await c.post(`${P}/folders/${ids.folder}/videos`, { video_ids: videos.slice(0, 4).map((v) => v.id) });
  await c.post(`${P}/folders/${ids.folder}/accounts`, { account_ids: [accounts[0]!.id] });
  ids.video = videos[0]!.id;
  ids.account = accounts[0]!.id;
  // History: three daily points of the video and two of the account, in the default 30-day range.
  const day = (n: number) => new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - n));
  for (const n of [1, 2, 3]) {
    await prisma.videoSnapshot.create({
      data: {
        videoId: ids.video,
        day: day(n),
        capturedAt: new Date(day(n).getTime() + 3_600_000),
        source: "simulated",
        viewCount: 10n * BigInt(n),
      },
    });
  }
  for (const n of [1, 2]) {
    await prisma.accountSnapshot.create({
      data: {
        accountId: ids.account,
        day: day(n),
        capturedAt: new Date(day(n).getTime() + 3_600_000),
        source: "simulated",
        followerCount: 5n,
      },
    });
  }
  // A radar search with 3 results.
  const search = await prisma.radarSearch.create({
    data: {
      workspaceId: ws.workspaceId,
      query: "cooking",
      platform: "platformA",
      depth: "quick",
      minViews: "any",
      timePeriod: "any",
      language: "en",
      status: "completed",
      resultCount: 3,
    },
  });
  ids.search = search.id;
  for (const rank of [1, 2, 3]) {
    await prisma.radarResult.create({
      data: {
        searchId: search.id,
        rank,
        platform: "platformA",
        platformVideoId: `r${rank}`,
        url: `https://video.example.test/r${rank}`,
        description: `-result ${rank}`,
        score: 1 - rank / 10,
        matchedQuery: "cooking",
      },
    });
  }
  // Ledger entries and audit entries.
  for (let i = 0; i < 3; i++) {
    await prisma.creditLedgerEntry.create({
      data: {
        workspaceId: ws.workspaceId,
        kind: "charge",
        amount: -10,
        balanceAfter: 100 - 10 * i,
        reason: "@test",
        idempotencyKey: `t${i}`,
      },
    });
  }
  for (let i = 0; i < 2; i++)
    await recordAudit({
      workspaceIds: [ws.workspaceId],
      by: { principal: { kind: "system", label: "test" }, clientAddress: null },
      action: "api_key.created",
      target: `k${i}`,
    });
  Object.assign(expected, {
    videos: 25,
    accounts: 3,
    folder_videos: 4,
    folder_accounts: 1,
    video_history: 3,
    account_history: 2,
    radar_results: 3,
    credit_ledger: await prisma.creditLedgerEntry.count({ where: { workspaceId: ws.workspaceId } }),
    audit_log: Number(
      (
        await prisma.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM audit_log WHERE workspace_id = $1::uuid`, ws.workspaceId)
      )[0]!.n,
    ),
  });
});
afterAll(() => stopAll(api));

const LISTS: [ExportKind, () => string][] = [
  ["videos", () => `${P}/videos`],
  ["accounts", () => `${P}/accounts`],
  ["folder_videos", () => `${P}/folders/${ids.folder}/videos`],
  ["folder_accounts", () => `${P}/folders/${ids.folder}/accounts`],
  ["video_history", () => `${P}/videos/${ids.video}/history`],
  ["account_history", () => `${P}/accounts/${ids.account}/history`],
  ["radar_results", () => `${P}/radar/search/${ids.search}`],
  ["credit_ledger", () => `${P}/credits/ledger`],
  ["audit_log", () => `${P}/settings/audit-log`],
];

describe.each(LISTS)("%s", (kind, path) => {
  it("answers every row as CSV (format=csv and Accept: text/csv) and as XLSX", async () => {
    const viaParam = await fetchRaw(`${path()}?format=csv&limit=1`);
    expect(viaParam.status).toBe(200);
    expect(viaParam.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(viaParam.headers.get("content-disposition")).toMatch(new RegExp(`^attachment; filename="[a-z-]+-\\d{4}-\\d{2}-\\d{2}\\.csv"$`));
    const text = viaParam.bytes.toString("utf8");
    expect(text.split("\r\n")[0]).toBe(columnNames(kind).join(","));
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(expected[kind]!);
    const viaAccept = await fetchRaw(path(), { accept: "text/csv" });
    expect(viaAccept.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(viaAccept.bytes.toString("utf8")).toBe(text);

    const xlsx = await fetchRaw(`${path()}?format=xlsx`);
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get("content-type")).toBe(XLSX);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(columnNames(kind));
    expect(sheet.rowCount).toBe(expected[kind]! + 1);
    const viaAcceptX = await fetchRaw(path(), { accept: XLSX });
    expect(viaAcceptX.headers.get("content-type")).toBe(XLSX);
  });
});

describe("the JSON answers and refusals", () => {
  it("leaves the JSON answers unchanged (no format, Accept: application/json or */*)", async () => {
    for (const headers of [
      {} as Record<string, string>,
      { accept: "application/json" },
      { accept: "*/*" },
      { accept: "application/json, text/csv;q=0.5" },
    ]) {
      const r = await c.get(`${P}/videos`, headers);
      expect(r.status).toBe(200);
      expect(r.body.data).toHaveLength(20);
      expect(r.body.pagination.total).toBe(25);
    }
    expect((await c.get(`${P}/videos?format=json`)).body.data).toHaveLength(20);
    const ledger = await c.get(`${P}/credits/ledger?limit=2`);
    expect(ledger.status).toBe(200);
    expect(ledger.body.data).toHaveLength(2);
    expect(ledger.body.pagination.total).toBe(expected.credit_ledger);
  });

  it("keeps the list's filters and sort, neutralises formulas, and shows only the workspace's rows", async () => {
    const r = await fetchRaw(`${P}/videos?format=csv&sort=views&order=asc&q=clip`);
    const rows = parse(r.bytes.toString("utf8"), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(24);
    expect(rows.map((x) => Number(x.viewCount))).toEqual([...Array(24).keys()].map((i) => 100 * (i + 1)));
    const all = parse((await fetchRaw(`${P}/videos?format=csv`)).bytes.toString("utf8"), { columns: true }) as Record<string, string>[];
    expect(all.map((x) => x.description)).toContain("'=1+1");
    expect(all.map((x) => x.description)).not.toContain("other workspace");
    const bom = await fetchRaw(`${P}/credits/ledger?format=csv&bom=true`);
    expect(bom.bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });

  it("refuses with {code, message}: an unknown format, a bad filter, another workspace's folder, video or search", async () => {
    const bad = await c.get(`${P}/videos?format=pdf`);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("VALIDATION_ERROR");
    const sort = await c.get(`${P}/videos?format=csv&sort=nope`);
    expect(sort.status).toBe(400);
    expect(sort.body.code).toBe("VALIDATION_ERROR");
    for (const path of [
      `${P}/folders/${ids.folder}/videos`,
      `${P}/videos/${ids.video}/history`,
      `${P}/accounts/${ids.account}/history`,
      `${P}/radar/search/${ids.search}`,
    ]) {
      const r = await other.get(`${path}?format=csv`);
      expect(r.status, path).toBe(404);
      expect(r.body.code).toBe("NOT_FOUND");
    }
  });

  it("documents format, bom and both media types in OpenAPI", async () => {
    const doc = (await c.get(`${P}/openapi.json`)).body;
    const op = doc.paths["/api/v1/folders/{id}/videos"].get;
    expect(op.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(["format", "bom", "sort"]));
    expect(Object.keys(op.responses["200"].content)).toEqual(["application/json", "text/csv", XLSX]);
    expect(doc.paths["/api/v1/credits/ledger"].get.operationId).toBe("listCreditLedger");
  });
});
