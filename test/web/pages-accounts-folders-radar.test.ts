/**
 * The Accounts, Folders and Radar pages end to end, in Chromium, against the real service (API in
 * this process, a worker process, the simulated scrape provider, the catalog radar provider): track
 * an account and open its page with its chart; make a folder, rename it, add a video, see its
 * analytics, remove the video, delete the folder; run a radar search and see its status change live
 * (the radar queue is held paused so "pending" is seen, then released) and its results, and a search
 * that finds nothing. axe-core on each page; 375 px in dark mode; no uncaught error.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { spawnService, type ServiceProcess } from "../helpers/processes.js";
import type { RunningApi } from "../../src/main/server.js";
import { PASSWORD, newPerson } from "../helpers/people.js";
import { prisma } from "../../src/infra/db.js";
import { queue } from "../../src/infra/queues.js";
import { dashboardContext, expectAccessible, launchBrowser, pageErrors, screenshot, signIn } from "./harness.js";
import { seedRisingHistory } from "./history-seed.js";

let api: RunningApi;
let worker: ServiceProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
const EMAIL = "lin@example.com";
const ACCOUNT_URL = "https://www.tiktok.com/@knitwitch";
/** A word only this file's catalog videos carry, so the radar search's results are known. */
const TOPIC = "crochetquilt";

beforeAll(async () => {
  // A shared, busy machine can take more than the default 30 s to start a worker.
  [api, worker, browser] = await Promise.all([startTestApi(), spawnService("worker", {}, 90_000), launchBrowser()]);
  const { workspaceId } = await newWorkspace("pro", "Makers");
  await newPerson(EMAIL, workspaceId, "owner");
  // Videos the service already knows (the catalog the radar searches), as other workspaces' scrapes leave them.
  for (let i = 0; i < 3; i++) {
    await prisma.video.create({
      data: {
        platform: "platformA",
        platformVideoId: `pafr${i}`,
        url: `https://www.tiktok.com/@maker/video/7300000000000000${i}0`,
        description: `Cozy ${TOPIC} pattern number ${i}`,
        username: "maker",
        viewCount: BigInt(1000 * (i + 1)),
        likeCount: BigInt(100),
        postedAt: new Date(Date.now() - 86_400_000),
        language: "en",
      },
    });
  }
  context = await dashboardContext(browser, { baseURL: api.url });
  page = await context.newPage();
  errors = pageErrors(page);
  await signIn(page, EMAIL, PASSWORD);
}, 150_000);

afterAll(async () => {
  await queue("radar")
    .resume()
    .catch(() => undefined);
  await browser?.close();
  await worker?.stop();
  await stopAll(api);
});

const markPage = (p: Page) => p.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
const stillSameDocument = (p: Page) => p.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);
const nav = (p: Page, name: string) => p.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true }).click();

describe("accounts, folders and radar pages in Chromium", () => {
  it("tracks an account with a video limit (its slot cost said first), lists it, and opens its page with its chart and videos", async () => {
    await nav(page, "Accounts");
    await page.getByRole("heading", { level: 1, name: "Accounts" }).waitFor();
    await page.getByText("No accounts tracked yet.").waitFor();
    await expectAccessible(page, "Accounts (empty)");

    await page.getByLabel("Account URL").fill("https://example.com/nobody");
    await page.getByRole("button", { name: "Track account" }).click();
    await page
      .getByRole("alert")
      .getByText(/link|URL|url/)
      .waitFor();

    await page.getByLabel("Account URL").fill(ACCOUNT_URL);
    await page.getByLabel("Video limit").fill("3");
    await page.getByText(/This account may take up to 3 slots/).waitFor();
    await page.getByRole("button", { name: "Track account" }).click();
    await page
      .getByRole("status")
      .getByText(/Tracking @knitwitch/)
      .waitFor();

    const row = page.locator("table.data-table tbody tr").filter({ hasText: "knitwitch" });
    await row.waitFor();
    await expect.poll(() => row.locator(".cell-status").textContent(), { timeout: 30_000 }).toBe("Ready");
    await expect(row.locator(".cell-limit").textContent()).resolves.toBe("3");
    await expect(row.locator(".cell-followers").textContent()).resolves.toMatch(/\d/);
    // Sorting (a header button), the platform filter and the search are the server's, kept in the URL.
    await page.getByRole("button", { name: /^Followers/ }).click();
    await page.waitForURL(/sort=followers/);
    await expect(page.locator("th[aria-sort]").getAttribute("aria-sort")).resolves.toBe("descending");
    await page.getByLabel("Platform").selectOption("PLATFORM_B");
    await page.getByText("No account matches these filters.").waitFor();
    await page.getByLabel("Platform").selectOption("");
    await row.waitFor();
    await page.getByRole("searchbox", { name: "Search" }).fill("zzzz-nobody");
    await page.waitForURL(/q=zzzz-nobody/);
    await page.getByText("No account matches these filters.").waitFor();
    // Two changes while the first still loads (its answer held back): the second keeps the first.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      "**/graphql",
      async (route) => {
        await held;
        await route.continue();
      },
      { times: 1 },
    );
    await page.getByLabel("Platform").selectOption("PLATFORM_B");
    await page.getByRole("searchbox", { name: "Search" }).fill("zzzz-anybody");
    await page.waitForURL((url) => url.searchParams.get("q") === "zzzz-anybody");
    release();
    expect(new URL(page.url()).searchParams.get("platform")).toBe("PLATFORM_B");
    await page.getByLabel("Platform").selectOption("");
    await page.waitForURL((url) => !url.searchParams.has("platform"));
    await page.getByRole("searchbox", { name: "Search" }).fill("knit");
    await page.waitForURL(/q=knit/);
    await row.waitFor();
    await expectAccessible(page, "Accounts (with a row)");

    // A month behind its one scrape, so the chart (and the README's screenshot) shows a curve.
    await seedRisingHistory("account", "knitwitch");
    await row.getByRole("link").click();
    await page.waitForURL(/\/accounts\/[0-9a-f-]{36}$/);
    await page.getByRole("heading", { name: "Follower and view history" }).waitFor();
    await page.getByText("Simulated data").waitFor();
    await page.locator(".chart canvas").first().waitFor();
    await expect(page.locator(".chart [role=img]").getAttribute("aria-label")).resolves.toMatch(
      /Followers and total views.*latest Followers \d/,
    );
    await page.getByRole("button", { name: "Hour" }).click();
    await expect(page.getByRole("button", { name: "Hour" }).getAttribute("aria-pressed")).resolves.toBe("true");
    await page.locator(".chart canvas").first().waitFor();
    // Its videos, up to the limit, tracked when it was scraped.
    const videos = page.getByRole("table", { name: /tracked videos/ }).locator("tbody tr");
    await expect.poll(() => videos.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await videos.count()).toBeLessThanOrEqual(3);
    await screenshot(page, "account.png");
    // Scraped seconds ago: the refresh is refused with the seconds to wait.
    await page.getByRole("button", { name: "Refresh now" }).click();
    await page.getByText(/try again in \d+ s/).waitFor();
    await expectAccessible(page, "Account");
  });

  it("makes a folder, renames it, adds a video, shows its analytics and top videos, removes the video, then deletes it", async () => {
    await nav(page, "Folders");
    await page.getByRole("heading", { level: 1, name: "Folders" }).waitFor();
    await page.getByText("No folders yet.").waitFor();
    await expectAccessible(page, "Folders (empty)");

    await page.getByLabel("Folder name").fill("  ");
    await page.getByRole("button", { name: "Create folder" }).click();
    await page.getByRole("alert").waitFor();
    await page.getByLabel("Folder name").fill("Yarn ideas");
    await page.getByRole("button", { name: "Create folder" }).click();
    await page.getByRole("link", { name: "Yarn ideas" }).click();
    await page.waitForURL(/\/folders\/[0-9a-f-]{36}$/);
    await page.getByRole("heading", { level: 1, name: "Yarn ideas" }).waitFor();
    await page.getByText("No videos in this folder.").waitFor();
    await expectAccessible(page, "Folder (empty)");

    await page.getByRole("button", { name: "Rename" }).click();
    await page.getByLabel("New name").fill("Best of yarn");
    await page.getByRole("button", { name: "Save name" }).click();
    await page.getByRole("heading", { level: 1, name: "Best of yarn" }).waitFor();

    await page.getByRole("button", { name: "Add video" }).click();
    await page.getByRole("status").getByText("Added the video to the folder.").waitFor();
    const card = (label: string) =>
      page
        .locator(".card")
        .filter({ has: page.locator(".card-label", { hasText: new RegExp(`^${label}$`) }) })
        .locator(".card-value");
    await expect.poll(() => card("Videos").textContent()).toBe("1");
    await expect(card("Views").textContent()).resolves.toMatch(/\d/);
    await expect(page.locator(".top-videos li").count()).resolves.toBe(1);
    const folderVideos = page.getByRole("table", { name: "The folder's videos" }).locator("tbody tr");
    await expect(folderVideos.count()).resolves.toBe(1);
    await page.getByLabel("Sort by").selectOption("VIEWS");
    await expect.poll(() => folderVideos.count()).toBe(1);
    await expectAccessible(page, "Folder (with a video)");

    await folderVideos.getByRole("button", { name: /^Remove / }).click();
    await page.getByText("No videos in this folder.").waitFor();
    await expect.poll(() => card("Videos").textContent()).toBe("0");

    await page.getByRole("button", { name: "Delete folder" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await page.waitForURL(/\/folders$/);
    await page.getByText("No folders yet.").waitFor();
  });

  it("untracks an account after a confirmation; its videos stay tracked", async () => {
    await nav(page, "Accounts");
    await page.locator("table.data-table tbody tr").filter({ hasText: "knitwitch" }).getByRole("link").click();
    await page.getByRole("button", { name: "Untrack account" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    await expect(page.url()).toMatch(/\/accounts\/[0-9a-f-]{36}$/);
    await page.getByRole("button", { name: "Untrack account" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Untrack" }).click();
    await page.waitForURL(/\/accounts$/);
    await page.getByText("No accounts tracked yet.").waitFor();
    await nav(page, "Videos");
    await page.locator("table.data-table tbody tr").first().waitFor();
  });

  it("runs a radar search from its cost and balance, its status changing live, then its ranked results", async () => {
    await nav(page, "Radar");
    await page.getByRole("heading", { level: 1, name: "Radar" }).waitFor();
    await page.getByText("No searches yet.").waitFor();
    const cost = page.getByText(/A search costs 100 credits\. Your balance: ([\d,]+) credits\./);
    const before = Number((await cost.textContent())!.match(/balance: ([\d,]+)/)![1]!.replace(/,/g, ""));
    await expectAccessible(page, "Radar (empty)");
    for (const label of ["Search for", "Platform", "Depth", "Minimum views", "Posted", "Language"])
      await page.getByLabel(label).first().waitFor();

    // Held in the queue: the page shows it pending, then follows it live once the worker may take it.
    await queue("radar").pause();
    await page.getByLabel("Search for", { exact: true }).fill(`${TOPIC} pattern`);
    await page.getByLabel("Depth").selectOption("QUICK");
    await page.getByLabel("Posted").selectOption("WEEK");
    await page.getByRole("button", { name: "Search for 100 credits" }).click();
    await page.waitForURL(/\/radar\/[0-9a-f-]{36}$/);
    const view = page.locator("[data-search-id]");
    await view.getByText("Queued: the search starts in a moment.").waitFor();
    await page.getByText(`Your balance: ${(before - 100).toLocaleString("en-US")} credits.`).waitFor();
    await markPage(page);
    await queue("radar").resume();
    const log = view.locator(".status-log li");
    await expect
      .poll(() => log.evaluateAll((items) => items.map((i) => i.getAttribute("data-status"))), { timeout: 30_000 })
      .toContain("COMPLETED");
    const statuses = await log.evaluateAll((items) => items.map((i) => i.getAttribute("data-status")));
    expect(statuses[0]).toBe("PENDING");
    expect(statuses[statuses.length - 1]).toBe("COMPLETED");
    const results = view.getByRole("table", { name: "Results, best first" }).locator("tbody tr");
    await expect.poll(() => results.count(), { timeout: 15_000 }).toBe(3);
    expect(await stillSameDocument(page)).toBe(true);
    const scores = (await view.locator(".cell-score").allTextContents()).map(Number);
    expect(scores.every((s) => s > 0 && s <= 1)).toBe(true);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    await expect(results.first().getByRole("link").getAttribute("href")).resolves.toMatch(/^https:\/\/www\.tiktok\.com\/@maker\/video\//);
    await view.getByText("Done: 3 results.").waitFor();
    // The history row followed the same updates.
    const history = page.getByRole("list", { name: "Past searches" });
    await history.getByText("Completed").waitFor();
    await expectAccessible(page, "Radar (results)");

    await page.getByLabel("Search for", { exact: true }).fill("zzqx nothingmatches");
    await page.getByRole("button", { name: "Search for 100 credits" }).click();
    await page.getByText("This search found nothing.").waitFor({ timeout: 30_000 });
    await expect.poll(() => history.getByRole("listitem").count()).toBe(2);
    await expectAccessible(page, "Radar (found nothing)");
  });

  it("is usable at 375 px in dark mode", async () => {
    const small = await dashboardContext(browser, {
      baseURL: api.url,
      viewport: { width: 375, height: 800 },
      colorScheme: "dark",
      storageState: await context.storageState(),
    });
    const p = await small.newPage();
    for (const [path, ready] of [
      ["/accounts", "Track an account"],
      ["/folders", "Create a folder"],
      ["/radar", "Past searches"],
    ] as const) {
      await p.goto(path);
      await p.getByRole("heading", { name: ready }).waitFor();
      const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
      await expectAccessible(p, `${path} at 375 px, dark`);
    }
    await small.close();
  });

  it("logged no uncaught error", () => {
    // The browser logs every non-2xx answer as a console error; the 429 above is expected.
    expect(errors.filter((e) => !e.startsWith("Failed to load resource"))).toEqual([]);
  });
});
