/**
 * The shared folder report in Chromium: an owner makes a link on the folder's
 * page and schedules a report; signed out, the link shows the folder's cards, growth chart, top videos
 * and accounts (no sign-in redirect, noindex, prints without the period buttons); after the owner
 * revokes it in Settings → Share links, the page says the link is no longer valid.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { PASSWORD, newPerson } from "../helpers/people.js";
import type { RunningApi } from "../../src/main/server.js";
import { dashboardContext, expectAccessible, launchBrowser, pageErrors, signIn } from "../web/harness.js";
import { seedFolder } from "./fixtures.js";

let api: RunningApi;
let browser: Browser;
let folderId: string;
const OWNER = "owner@shared-page.test";

beforeAll(async () => {
  [api, browser] = await Promise.all([startTestApi(), launchBrowser()]);
  const ws = await newWorkspace("pro", "Page Studio");
  await newPerson(OWNER, ws.workspaceId, "owner");
  folderId = (await seedFolder(ws.workspaceId, "Launch Week", { prefix: "launch" })).folder.id;
  await seedFolder(ws.workspaceId, "Hidden Folder", { prefix: "hidden" });
});

afterAll(async () => {
  await browser?.close();
  await stopAll(api);
});

describe("the shared report page, in Chromium", () => {
  it("works signed out, shows only the folder, prints cleanly, and stops working once revoked", async () => {
    const owner = await dashboardContext(browser, { baseURL: api.url });
    const page = await owner.newPage();
    const errors = pageErrors(page);
    await signIn(page, OWNER, PASSWORD);
    await page.goto(`/folders/${folderId}`);
    const reports = page.getByRole("region", { name: "Reports" });
    await reports.getByLabel("Share a read-only report, valid for").selectOption("7");
    await reports.getByRole("button", { name: "Make share link" }).click();
    const url = await reports.getByRole("textbox", { name: "Share link of “Launch Week”" }).inputValue();
    expect(url).toMatch(/\/r\/[A-Za-z0-9_-]{43}$/);
    // Schedule a report from the same section.
    await reports.getByLabel("Send to (up to 20 addresses)").fill("client@example.test");
    await reports.getByRole("button", { name: "Schedule report" }).click();
    await reports.getByRole("row", { name: /Weekly, Monday at 08:00 .* client@example.test/ }).waitFor();
    await expectAccessible(page, "the folder's Reports section");

    const visitor = await dashboardContext(browser, { baseURL: api.url });
    const p = await visitor.newPage();
    const visitorErrors = pageErrors(p);
    const path = new URL(url).pathname;
    const response = await p.goto(path);
    expect(response!.headers()["x-robots-tag"]).toMatch(/noindex/);
    await p.getByRole("heading", { name: "Launch Week", level: 1 }).waitFor();
    expect(new URL(p.url()).pathname).toBe(path); // no redirect to sign-in
    // Its numbers come from the simulated provider, and it says so, as every other page does.
    await p.getByRole("note").getByText("Some of these numbers are simulated").waitFor();
    const totals = p.getByRole("region", { name: "Totals" });
    await expect.poll(() => totals.getByText("Videos", { exact: true }).locator("xpath=..").textContent()).toContain("3");
    await expect.poll(() => totals.getByText("Views", { exact: true }).locator("xpath=..").textContent()).toContain("6,000");
    await p
      .getByRole("img", { name: /Followers and views of the folder's accounts/ })
      .or(p.locator(".shared-report-growth canvas").first())
      .first()
      .waitFor();
    const videos = p.getByRole("region", { name: "Top videos" });
    await expect.poll(() => videos.getByRole("row").count()).toBe(4);
    await expect.poll(() => videos.getByRole("row").nth(1).textContent()).toContain("3,000");
    await p.getByRole("region", { name: "Top accounts" }).getByText("@launch_creator").waitFor();
    expect(await p.content()).not.toContain("Hidden Folder");
    await expect.poll(() => p.locator('meta[name="robots"]').first().getAttribute("content")).toMatch(/noindex/);
    await p.getByRole("button", { name: "7 days" }).click();
    await expect.poll(() => p.getByRole("button", { name: "7 days" }).getAttribute("aria-pressed")).toBe("true");
    await expectAccessible(p, "the shared report");
    await p.emulateMedia({ media: "print" });
    expect(await p.getByRole("group", { name: "Period" }).isVisible()).toBe(false);
    await p.emulateMedia({ media: "screen" });

    // Listed in Settings → Share links (with the schedule's own link once it makes one); revoke it there.
    await page.goto("/settings/share-links");
    const table = page.getByRole("table", { name: "Share links of this workspace, newest first" });
    await table
      .getByRole("row", { name: /Launch Week/ })
      .first()
      .waitFor();
    await table.getByRole("button", { name: "Revoke the link of Launch Week" }).first().click();
    await page.getByRole("dialog").getByRole("button", { name: "Revoke link" }).click();
    await page.getByText("Revoked the link of “Launch Week”.").waitFor();

    await p.reload();
    await p.getByRole("heading", { name: "This report link is no longer valid" }).waitFor();
    expect(await p.content()).not.toContain("Launch Week");
    expect(errors).toEqual([]);
    // The revoked page's 404 is the data request's; the browser logs that failed request, nothing else.
    expect(visitorErrors.filter((e) => !/404/.test(e))).toEqual([]);
    await owner.close();
    await visitor.close();
  });
});
