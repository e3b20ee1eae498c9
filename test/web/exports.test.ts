/**
 * The dashboard's Export button in Chromium, against the real service (API and the exports
 * worker in this process): on the Videos page with the list's filters in the URL, the person picks CSV,
 * follows the progress in words and downloads the file through its link; the file holds the filtered
 * list in its order. On a folder's page, the XLSX of the folder's videos. axe-core on the page.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Browser, Page } from "playwright-core";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";

vi.hoisted(() => {
  process.env.EXPORT_DIR = `${process.env.TMPDIR ?? "/tmp"}/exports-web-${process.pid}`;
});

import { newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { PASSWORD, newPerson } from "../helpers/people.js";
import type { RunningApi } from "../../src/main/server.js";
import { startWorkers, type RunningWorkers } from "../../src/jobs/worker.js";
import { exportsQueue } from "../../src/jobs/registry.js";
import { createFolder, addVideosToFolder } from "../../src/domain/folders/service.js";
import { createTrackedVideo } from "../folders/fixtures.js";
import { prisma } from "../../src/infra/db.js";
import { expectAccessible, launchBrowser, requireBuiltDashboard, signedInPage } from "./harness.js";

let api: RunningApi;
let workers: RunningWorkers;
let browser: Browser;
let page: Page;
let errors: string[];
let folderId: string;
const EMAIL = "exporter@example.test";

beforeAll(async () => {
  requireBuiltDashboard();
  [api, browser] = await Promise.all([startTestApi(), launchBrowser()]);
  workers = await startWorkers([exportsQueue()]);
  const { workspaceId } = await newWorkspace("pro", "Exporters");
  await newPerson(EMAIL, workspaceId, "owner");
  const ids = [];
  for (let i = 0; i < 6; i++)
    ids.push((await createTrackedVideo(workspaceId, { description: i % 2 ? `recipe ${i}` : `=cmd ${i}`, viewCount: 100 * (i + 1) })).id);
  // No thumbnails: their made-up host would not resolve in the browser.
  await prisma.video.updateMany({ where: { id: { in: ids } }, data: { thumbnailUrl: "" } });
  folderId = (await createFolder(workspaceId, "Campaign", null)).id;
  await addVideosToFolder(workspaceId, folderId, ids.slice(0, 4));
  ({ page, errors } = await signedInPage(browser, api.url, EMAIL, PASSWORD));
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await stopAll(api, workers);
});

/** Follows the page's download link (a signed URL: no cookie needed) and answers the file. */
async function downloaded(): Promise<{ href: string; bytes: Buffer }> {
  const link = page.getByRole("link", { name: /^download / });
  await link.waitFor({ timeout: 20_000 });
  const href = (await link.getAttribute("href"))!;
  const r = await fetch(`${api.url}${new URL(href).pathname}${new URL(href).search}`);
  expect(r.status).toBe(200);
  return { href, bytes: Buffer.from(await r.arrayBuffer()) };
}

describe("the Export button", () => {
  it("exports the Videos list with its filters as CSV, with progress in words and a download link", async () => {
    await page.goto("/videos?sort=views&order=asc&q=recipe");
    await page.getByRole("heading", { level: 1, name: "Videos" }).waitFor();
    const group = page.getByRole("group", { name: "Export videos" });
    await group.getByLabel("File format").selectOption("CSV");
    await group.getByRole("button", { name: "Export videos" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: /Export ready \(3 rows\)/ })
      .waitFor({ timeout: 20_000 });
    const { bytes } = await downloaded();
    const rows = parse(bytes.toString("utf8"), { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.description)).toEqual(["recipe 1", "recipe 3", "recipe 5"]);
    expect(rows.map((r) => r.viewCount)).toEqual(["200", "400", "600"]);
    await expectAccessible(page, "the Videos page with an export ready");
  });

  it("exports a folder's videos as XLSX from its page", async () => {
    await page.goto(`/folders/${folderId}?sort=views`);
    await page.getByRole("heading", { level: 1, name: "Campaign" }).waitFor();
    const group = page.getByRole("group", { name: "Export the folder's videos" });
    await group.getByLabel("File format").selectOption("XLSX");
    await group.getByRole("button", { name: "Export the folder's videos" }).click();
    const { bytes } = await downloaded();
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.rowCount).toBe(5);
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const views = [2, 3, 4, 5].map((r) => sheet.getRow(r).getCell(header.indexOf("viewCount") + 1).value);
    expect(views).toEqual([400, 300, 200, 100]);
    expect(sheet.getRow(2).getCell(header.indexOf("description") + 1).value).toBe("recipe 3");
    expect(errors).toEqual([]);
  });
});
