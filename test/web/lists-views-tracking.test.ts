/**
 * Lists, saved views and account tracking in Chromium against the real service. The videos and
 * accounts tables' columns and saved views: the creator column (display name and handle, a link to the account when the
 * workspace tracks it), the column chooser (kept in the URL and, for the next visit, in the
 * browser), a view saved and shared by one member, applied by another, and a private one the other
 * never sees. An account's tracking: its rules saved from the form, pause and resume, a
 * failed sync with its reason and a retry. One browser, one server; the data is seeded in the database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { PASSWORD, newPerson } from "../helpers/people.js";
import { createAccount, createTrackedVideo, trackAccount } from "../folders/fixtures.js";
import { prisma } from "../../src/infra/db.js";
import type { RunningApi } from "../../src/main/server.js";
import { expectAccessible, launchBrowser, signedInPage } from "./harness.js";

let api: RunningApi;
let browser: Browser;
let dee: Page;
let trackedAccountId: string;

beforeAll(async () => {
  [api, browser] = await Promise.all([startTestApi(), launchBrowser()]);
  const { workspaceId } = await newWorkspace("pro", "Bakery agency");
  await newPerson("dee@example.com", workspaceId, "owner");
  await newPerson("eli@example.com", workspaceId, "member");
  const bee = await createAccount({ username: "bakerbee", displayName: "Bee Bakes" });
  await trackAccount(workspaceId, bee.id);
  trackedAccountId = bee.id;
  const loose = await createAccount({ username: "loosecrumb", displayName: "Loose Crumb" });
  await createTrackedVideo(workspaceId, { accountId: bee.id, username: "bakerbee", description: "Sourdough at dawn", viewCount: 9000 });
  await createTrackedVideo(workspaceId, { accountId: loose.id, username: "loosecrumb", description: "Crumb shots", viewCount: 100 });
  ({ page: dee } = await signedInPage(browser, api.url, "dee@example.com", PASSWORD));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stopAll(api);
});

const headers = (p: Page) => p.locator("table.data-table thead th").allTextContents();

describe("columns and saved views in Chromium", () => {
  it("the videos table shows the creator, links a tracked one to its account, and lets a person choose the columns", async () => {
    await dee.goto("/videos");
    const bee = dee.locator("tbody tr").filter({ hasText: "Sourdough at dawn" });
    const creator = bee.locator(".cell-creator").getByRole("link", { name: "Bee Bakes @bakerbee" });
    await creator.waitFor();
    expect(await creator.getAttribute("href")).toBe(`/accounts/${trackedAccountId}`);
    const loose = dee.locator("tbody tr").filter({ hasText: "Crumb shots" }).locator(".cell-creator");
    // Polled: under load the row may be drawn before the page's live update settles it.
    await expect.poll(() => loose.textContent()).toBe("Loose Crumb @loosecrumb");
    await expect(loose.getByRole("link").count()).resolves.toBe(0);

    await dee.locator("summary", { hasText: "Columns" }).click();
    // The boxes follow the URL (?columns=): unchecked once the route has read it, which can lag the click under load.
    const likes = dee.getByRole("group", { name: "Columns shown" }).getByLabel("Likes");
    await likes.click();
    await expect.poll(() => likes.isChecked()).toBe(false);
    await dee.waitForURL(/columns=/);
    await expect.poll(() => headers(dee)).not.toContain("Likes");
    expect(await headers(dee)).toContain("Creator");
    // The choice stays for the next visit without ?columns= (this browser remembers it).
    await dee.goto("/videos");
    await dee.locator("tbody tr").first().waitFor();
    expect(await headers(dee)).not.toContain("Likes");
    await expectAccessible(dee, "Videos with the column chooser");

    // The accounts table has its own choice.
    await dee.goto("/accounts");
    await dee.locator("tbody tr").first().waitFor();
    expect(await headers(dee)).toContain("Followers");
    await dee.locator("summary", { hasText: "Columns" }).click();
    // The boxes follow the URL (?columns=): unchecked once the route has read it, which can lag the click under load.
    const followers = dee.getByRole("group", { name: "Columns shown" }).getByLabel("Followers");
    await followers.click();
    await expect.poll(() => followers.isChecked()).toBe(false);
    await expect.poll(() => headers(dee)).not.toContain("Followers");
  });

  it("a view saved and shared by one member is applied by another; a private one stays private", async () => {
    await dee.goto("/videos?sort=views&order=asc&q=sourdough");
    await dee.locator("tbody tr").first().waitFor();
    await dee.getByLabel("View name").fill("Sourdough, fewest views");
    await dee.getByLabel("Share with the workspace").check();
    await dee.getByRole("button", { name: "Save view" }).click();
    await dee.getByRole("status").getByText("Saved the view “Sourdough, fewest views”.").waitFor();
    await dee.getByLabel("View name").fill("Dee's own");
    await dee.getByLabel("Share with the workspace").uncheck();
    await dee.getByRole("button", { name: "Save view" }).click();
    await dee.getByRole("status").getByText("Saved the view “Dee's own”.").waitFor();

    const { context, page: eli } = await signedInPage(browser, api.url, "eli@example.com", PASSWORD);
    try {
      await eli.goto("/videos");
      await eli.locator("tbody tr").nth(1).waitFor();
      const options = await eli.getByLabel("Saved view").locator("option").allTextContents();
      expect(options).toEqual(["Choose a view…", "Sourdough, fewest views (shared by dee)"]);
      await eli.getByLabel("Saved view").selectOption({ label: "Sourdough, fewest views (shared by dee)" });
      await eli.waitForURL(/q=sourdough/);
      expect(eli.url()).toMatch(/sort=views/);
      expect(eli.url()).toMatch(/order=asc/);
      expect(eli.url()).not.toMatch(/likes/);
      await expect.poll(() => eli.locator("tbody tr").count()).toBe(1);
      await expect(eli.getByRole("searchbox", { name: "Search" }).inputValue()).resolves.toBe("sourdough");
      await expect.poll(() => headers(eli)).not.toContain("Likes");
      await expectAccessible(eli, "Videos with a saved view applied");
    } finally {
      await context.close();
    }
  });

  it("an account's page saves its rules, pauses and resumes it, and retries a failed sync", async () => {
    await prisma.account.update({
      where: { id: trackedAccountId },
      data: { scrapeStatus: "failed", scrapeError: "the profile is private" },
    });
    await dee.goto(`/accounts/${trackedAccountId}`);
    const panel = dee.getByRole("region", { name: "Tracking", exact: true });
    await panel.waitFor();
    await panel.getByLabel("Never videos with these hashtags").fill("#Ad #sponsored");
    await panel.getByLabel("Minimum duration (seconds)").fill("15");
    await panel.getByRole("button", { name: "Save rules" }).click();
    await panel.getByText("Rules saved: the account's next scrape applies them.").waitFor();
    const stored = await prisma.trackedAccount.findFirstOrThrow({ where: { accountId: trackedAccountId } });
    expect(stored.rules).toMatchObject({ excludeHashtags: ["ad", "sponsored"], minDurationSeconds: 15 });
    await panel.getByText("No video skipped.").waitFor();

    await panel.getByRole("button", { name: "Pause tracking" }).click();
    await panel
      .getByText(/Tracking paused/)
      .first()
      .waitFor();
    await panel.getByRole("button", { name: "Resume tracking" }).click();
    await panel.getByRole("button", { name: "Pause tracking" }).waitFor();

    await panel.getByText("The last sync failed: the profile is private").waitFor();
    await panel.getByRole("button", { name: "Retry sync" }).click();
    await panel.getByText("Retry queued: the account is scraped again within a few minutes.").waitFor();
    expect((await prisma.account.findUniqueOrThrow({ where: { id: trackedAccountId } })).scrapeStatus).toBe("queued");
    await expectAccessible(dee, "Account with its tracking panel");
  });
});
