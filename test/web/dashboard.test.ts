/**
 * The dashboard end to end, in Chromium, against the real service (API in this process, a worker
 * process, the simulated scrape provider): sign in, track videos and watch their numbers arrive
 * without a reload, open a video's chart, refresh too soon, run an analysis and see each step,
 * switch workspace, sign out; axe-core on every page; the names of the contract's "dashboard
 * accessibility names"; 375 px and dark mode; the keyboard.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { spawnService, type ServiceProcess } from "../helpers/processes.js";
import type { RunningApi } from "../../src/main/server.js";
import { PASSWORD, newPerson } from "../helpers/people.js";
import { dashboardContext, expectAccessible, launchBrowser, pageErrors, screenshot, signIn } from "./harness.js";
import { seedRisingHistory } from "./history-seed.js";

let api: RunningApi;
let worker: ServiceProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
const EMAIL = "ada@example.com";

const VIDEO_URLS = ["https://www.tiktok.com/@bakery/video/7301234567890123456", "https://www.youtube.com/shorts/dQw4w9WgXcQ"];

beforeAll(async () => {
  [api, worker, browser] = await Promise.all([startTestApi(), spawnService("worker"), launchBrowser()]);
  const main = await newWorkspace("pro", "Studio");
  const other = await newWorkspace("free", "Side project");
  await newPerson(EMAIL, main.workspaceId, "owner");
  const { setMembership } = await import("../../src/domain/people/members.js");
  const { userByEmail } = await import("../../src/domain/people/users.js");
  const { OPERATOR } = await import("../../src/domain/actors/actor.js");
  await setMembership({ workspaceId: other.workspaceId, userId: (await userByEmail(EMAIL)).id, role: "member", by: OPERATOR });
  context = await dashboardContext(browser, { baseURL: api.url });
  page = await context.newPage();
  errors = pageErrors(page);
});

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await stopAll(api);
});

/** A marker that a full page load would erase: "no reload" is checked, not assumed. */
const markPage = (p: Page) => p.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
const stillSameDocument = (p: Page) => p.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

describe("dashboard in Chromium", () => {
  it("sends a signed-out person to the sign-in page, says a wrong password in words, then signs in", async () => {
    await page.goto("/videos?sort=views");
    await page.waitForURL(/\/sign-in\?next=/);
    await expectAccessible(page, "Sign in");
    await page.getByLabel("Email").fill(EMAIL);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").getByText("Wrong email or password.").waitFor();
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    // Back where the person was headed, signed in by the session cookie only.
    await page.waitForURL(/\/videos\?sort=views$/);
    await page.getByRole("heading", { level: 1, name: "Videos" }).waitFor();
    const cookies = await context.cookies();
    expect(cookies.some((c) => c.httpOnly)).toBe(true);
  });

  it("shows the shell with the main navigation and an overview of the plan, credits and slots", async () => {
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.waitFor();
    for (const name of ["Overview", "Videos", "Accounts", "Folders", "Radar", "Settings"])
      await expect(nav.getByRole("link", { name, exact: true }).count()).resolves.toBe(1);
    await page.getByRole("heading", { level: 1, name: "Overview" }).waitFor();
    await page.getByText("Credits remaining").waitFor();
    await expect(page.locator(".card").filter({ hasText: "Plan" }).textContent()).resolves.toContain("Pro");
    await page.getByText("No growth to show yet.").waitFor();
    await page.getByText("Waiting for events.").waitFor();
    await expectAccessible(page, "Overview");
  });

  it("tracks videos from a list of URLs, one result a line, and their metrics appear without a reload", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Videos" }).click();
    await page.getByText("No videos tracked yet.").waitFor();
    await expectAccessible(page, "Videos (empty)");
    await markPage(page);

    await page.getByLabel("Video URL").fill([...VIDEO_URLS, "https://example.com/not-a-video"].join("\n"));
    await page.getByRole("button", { name: "Track" }).click();
    const results = page.getByRole("list", { name: "Results" });
    await results.getByText("not-a-video").waitFor();
    const lines = await results.getByRole("listitem").allTextContents();
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain("Tracking");
    expect(lines[1]).toContain("Tracking");
    expect(lines[2]).toMatch(/not-a-video.*(link|URL|url)/);
    // The failed line stays in the box, to be fixed and sent again.
    await expect(page.getByLabel("Video URL").inputValue()).resolves.toBe("https://example.com/not-a-video");

    // Rows arrive through the live subscription, then their numbers when the worker's scrape lands.
    const rows = page.locator("table.data-table tbody tr");
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(2);
    await expect
      .poll(() => page.locator("table.data-table tbody .cell-status").allTextContents(), { timeout: 30_000 })
      .toEqual(["Ready", "Ready"]);
    const views = await page.locator("table.data-table tbody .cell-views").allTextContents();
    expect(views.every((v) => /\d/.test(v))).toBe(true);
    expect(await stillSameDocument(page)).toBe(true);

    // Tracking the same URL again says so on its line.
    await page.getByLabel("Video URL").fill(VIDEO_URLS[0]!);
    await page.getByRole("button", { name: "Track" }).click();
    await results.getByText("Already tracked").waitFor();
    await screenshot(page, "videos.png");
    await expectAccessible(page, "Videos (with rows)");
  });

  it("sorts by a column, filters by platform and searches, keeping the options in the URL", async () => {
    await page
      .getByRole("button", { name: /^Views/ })
      .first()
      .click();
    await page.waitForURL(/sort=views/);
    await expect(page.locator("th[aria-sort]").getAttribute("aria-sort")).resolves.toBe("descending");
    await page.getByLabel("Platform").selectOption("PLATFORM_B");
    await page.waitForURL(/platform=PLATFORM_B/);
    await expect.poll(() => page.locator("table.data-table tbody tr").count()).toBe(1);
    await page.getByLabel("Platform").selectOption("");
    await page.getByRole("searchbox", { name: "Search" }).fill("zzzz-no-such-words");
    await page.getByText("No video matches these filters.").waitFor();
    await page.getByRole("searchbox", { name: "Search" }).fill("");
    await expect.poll(() => page.locator("table.data-table tbody tr").count()).toBe(2);
  });

  it("opens a video: numbers, badges, the history chart by day and by hour, refresh too soon", async () => {
    await seedRisingHistory("video", VIDEO_URLS[0]!.split("/").pop()!);
    await page.locator("table.data-table tbody tr").filter({ hasText: "Platform A" }).getByRole("link").click();
    await page.waitForURL(/\/videos\/[0-9a-f-]{36}$/);
    await page.getByRole("heading", { name: "Metric history" }).waitFor();
    await page.getByText("Simulated data").waitFor();
    await page.locator(".chart canvas").first().waitFor();
    await screenshot(page, "video-chart.png");
    await page.getByRole("button", { name: "Hour" }).click();
    await expect(page.getByRole("button", { name: "Hour" }).getAttribute("aria-pressed")).resolves.toBe("true");
    await page.locator(".chart canvas").first().waitFor();

    // Scraped seconds ago: the service answers REFRESH_TOO_SOON with the seconds to wait.
    await page.getByRole("button", { name: "Refresh now" }).click();
    await page.getByText(/try again in \d+ s/).waitFor();
    await expectAccessible(page, "Video");
  });

  it("runs an analysis from its cost and balance, showing each step live, then the results", async () => {
    await page
      .getByText(/An analysis costs 5 credits.*Your balance: [\d,]+ credits/)
      .first()
      .waitFor();
    await page.getByRole("button", { name: "Analyse for 5 credits" }).click();
    const log = page.locator(".status-log li");
    await expect
      .poll(() => log.evaluateAll((items) => items.map((i) => i.getAttribute("data-status"))), { timeout: 45_000 })
      .toEqual(["PENDING", "DOWNLOADING", "TRANSCRIBED", "ANALYZING", "COMPLETED"]);
    await page.getByText("Heuristic analysis").waitFor();
    for (const term of ["Hook", "UGC fit", "Call to action"]) await page.locator(".findings dt", { hasText: term }).waitFor();
    await page.getByRole("heading", { name: /Transcript/ }).waitFor();
    await expect(page.locator(".segments li").count()).resolves.toBeGreaterThan(0);
    await expectAccessible(page, "Video (analysed)");

    // Force re-analysis asks first; cancelling changes nothing.
    await page.getByRole("button", { name: "Force re-analysis" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog.isVisible()).resolves.toBe(false);
  });

  it("adds selected videos to a folder, and untracks after a confirmation", async () => {
    // A folder made through GraphQL with the person's cookie (the Folders page is a later part's).
    const made = await page.request.post("/graphql", {
      data: { query: 'mutation { createFolder(name: "Best hooks") { id } }' },
      headers: { "x-requested-with": "dashboard" },
    });
    expect((await made.json()).data.createFolder.id).toBeTruthy();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Videos" }).click();
    const rowB = page.locator("table.data-table tbody tr").filter({ hasText: "Platform B" });
    await rowB.getByRole("checkbox").check();
    await page.getByRole("group", { name: "Selected videos" }).getByText("1 selected").waitFor();
    await page.getByRole("button", { name: "Add to folder" }).click();
    await page.getByRole("combobox", { name: "Folder", exact: true }).selectOption({ label: "Best hooks" });
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await page.getByRole("status").getByText("Added 1 video to Best hooks.").waitFor();
    await expectAccessible(page, "Videos (selection)");

    await rowB.getByRole("checkbox").check();
    await page.getByRole("button", { name: "Untrack" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Untrack" }).click();
    await page.getByRole("status").getByText("Untracked 1 video.").waitFor();
    await expect.poll(() => page.locator("table.data-table tbody tr").count()).toBe(1);
  });

  it("keeps unknown dashboard paths inside the app, and API paths out of it", async () => {
    await page.goto("/videos/00000000-0000-4000-8000-000000000000");
    await page.getByText(/Could not load this page/).waitFor();
    await page
      .getByText(/not found|does not exist/i)
      .first()
      .waitFor();
    const apiAnswer = await page.goto("/api/v1/no-such-route");
    expect(apiAnswer?.status()).toBe(404);
    expect(await apiAnswer?.json()).toMatchObject({ code: "NOT_FOUND" });
  });

  it("switches workspace: the pages read the other workspace's data", async () => {
    await page.goto("/");
    const switcher = page.getByRole("combobox", { name: "Workspace" });
    await expect(switcher.locator("option:checked").textContent()).resolves.toContain("Studio");
    await switcher.selectOption({ label: "Side project (member)" });
    await expect.poll(() => page.locator(".card").filter({ hasText: "Plan" }).textContent()).toContain("Free");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Videos" }).click();
    await page.getByText("No videos tracked yet.").waitFor();
    // The choice holds across a reload (this browser remembers it, the session too).
    await page.reload();
    await page.getByText("No videos tracked yet.").waitFor();
    await switcher.selectOption({ label: "Studio (owner)" });
    await expect.poll(() => page.locator("table.data-table tbody tr").count()).toBe(1);
  });

  it("is usable at 375 px in dark mode, by keyboard", async () => {
    const small = await dashboardContext(browser, {
      baseURL: api.url,
      viewport: { width: 375, height: 800 },
      colorScheme: "dark",
      storageState: await context.storageState(),
    });
    const p = await small.newPage();
    await p.goto("/videos");
    await p.locator("table.data-table tbody tr").first().waitFor();
    const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(p, "Videos at 375 px, dark");
    // The first Tab reaches the skip link, which moves focus to the page's content.
    await p.keyboard.press("Tab");
    await expect(p.evaluate(() => document.activeElement?.textContent)).resolves.toBe("Skip to content");
    await p.keyboard.press("Enter");
    await p.keyboard.press("Tab");
    await expect(p.evaluate(() => !!document.activeElement?.closest("main"))).resolves.toBe(true);
    await small.close();
  });

  it("signs out: the session ends and the pages ask to sign in again", async () => {
    await page.goto("/");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/sign-in$/);
    await page.goto("/videos");
    await page.waitForURL(/\/sign-in\?next=%2Fvideos$/);
  });

  it("sets a first password from a single-use link (the first run's path), then signs in with it", async () => {
    const { createUser, resetPasswordLink } = await import("../../src/domain/people/users.js");
    await createUser({ email: "grace@example.com" });
    const link = new URL(await resetPasswordLink("grace@example.com"));
    const fresh = await dashboardContext(browser, { baseURL: api.url });
    const p = await fresh.newPage();
    await p.goto(link.pathname + link.search);
    await p.getByRole("heading", { name: "Set your password" }).waitFor();
    await expectAccessible(p, "Set your password");
    await p.getByLabel("New password").fill("a new password 42");
    await p.getByLabel("Repeat the password").fill("a new password 43");
    await p.getByRole("button", { name: "Set password" }).click();
    await p.getByRole("alert").getByText("The two passwords differ").waitFor();
    await p.getByLabel("Repeat the password").fill("a new password 42");
    await p.getByRole("button", { name: "Set password" }).click();
    await p.getByText("Your password is set").waitFor();
    // A failed sign-in then says only what failed, not that the password is set.
    await p.getByLabel("Email").fill("grace@example.com");
    await p.getByLabel("Password").fill("not the new password");
    await p.getByRole("button", { name: "Sign in" }).click();
    await p.getByRole("alert").getByText("Wrong email or password.").waitFor();
    expect(await p.getByText("Your password is set").count()).toBe(0);
    // The link is single-use.
    await p.goto(link.pathname + link.search);
    await p.getByLabel("New password").fill("another password 42");
    await p.getByLabel("Repeat the password").fill("another password 42");
    await p.getByRole("button", { name: "Set password" }).click();
    await p.getByRole("alert").waitFor();
    await signIn(p, "grace@example.com", "a new password 42");
    await fresh.close();
  });

  it("logged no uncaught error", () => {
    // The browser logs every non-2xx answer as a console error; the 429 and 404 above are expected.
    expect(errors.filter((e) => !e.startsWith("Failed to load resource"))).toEqual([]);
  });
});
