/**
 * The campaigns' dashboard in Chromium, against the real service (API in this process, no worker): a
 * small campaign seeded through the GraphQL API over simulated history written into PostgreSQL (a
 * creator with two accounts and one single account, 7 videos, one of them not scraped for days). The campaigns list
 * shows it with its period and spend; its page shows one row per payee whose views and payouts are
 * the API's, totals equal to the API's (the sum of the rows), the evidence marked simulated and the
 * stale video; a creator's own rule set in the page; Close asks in words, then the page shows the frozen
 * state, and a member's open page follows it live (the workspace's `campaign.closed` event). The Creators page creates a
 * creator, assigns an account, and says in words why another creator's account is refused.
 * axe-core on the campaign page (an owner's, with every form) and the creators page; a member's view at 375 px
 * in dark mode without sideways scrolling; no uncaught error.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { gql, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { PASSWORD, newPerson } from "../helpers/people.js";
import { pgPool, prisma } from "../../src/infra/db.js";
import type { RunningApi } from "../../src/main/server.js";
import { dashboardContext, expectAccessible, launchBrowser, screenshot, signIn, signedInPage } from "./harness.js";

let api: RunningApi;
let browser: Browser;
let page: Page;
/** The member's page at 375 px, left open on the campaign: it follows the close as it happens. */
let memberPage: Page;
let errors: string[];
let key: string;
let campaignId: string;
let accounts: { id: string; username: string }[];
const EMAIL = "fin@brand.example";
const MEMBER = "max@brand.example";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const api$ = async <T = any>(query: string, variables?: Record<string, unknown>): Promise<T> => {
  const r = await gql<T>(api.url, key, query, variables);
  if (r.body.errors?.length) throw new Error(JSON.stringify(r.body.errors));
  return r.body.data as T;
};

/** How the page writes money and counts (Chromium runs en-US). */
const money = (minor: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "EUR", minimumFractionDigits: 2 }).format(minor / 100);
const whole = (n: number) => new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 }).format(n);
/** A UTC instant as a local date-time of Europe/Paris, YYYY-MM-DDTHH:MM. */
const parisLocal = (ms: number) => new Date(ms).toLocaleString("sv-SE", { timeZone: "Europe/Paris" }).replace(" ", "T").slice(0, 16);

beforeAll(async () => {
  [api, browser] = await Promise.all([startTestApi(), launchBrowser()]);
  let workspaceId: string;
  ({ workspaceId, key } = await newWorkspace("pro", "Brand"));
  await newPerson(EMAIL, workspaceId, "owner");
  await newPerson(MEMBER, workspaceId, "member");
  const now = Date.now();
  accounts = await prisma.account.createManyAndReturn({
    data: ["mia_makes", "mia_clips", "solo_sam"].map((username) => ({
      platform: "platformA" as const,
      username,
      displayName: username,
      followerCount: 1000n,
      videoCount: 3n,
      totalViews: 10_000n,
      dataSource: "simulated",
      scrapeStatus: "ready" as const,
      lastScrapedAt: new Date(now),
    })),
    select: { id: true, username: true },
  });
  await prisma.trackedAccount.createMany({ data: accounts.map((a) => ({ workspaceId, accountId: a.id, videoLimit: 10 })) });
  // Two videos per account posted inside the window (5 and 3 days ago), one more of solo_sam's last scraped 3 days ago.
  const specs = accounts.flatMap((a, i) => [
    { a, i, n: 0, posted: now - 5 * DAY, last: now - HOUR },
    { a, i, n: 1, posted: now - 3 * DAY, last: now - HOUR },
  ]);
  specs.push({ a: accounts[2]!, i: 2, n: 2, posted: now - 4 * DAY, last: now - 3 * DAY });
  for (const s of specs) {
    const views = 10_000 * (s.i + 1) + 4_321 * s.n;
    const v = await prisma.video.create({
      data: {
        platform: "platformA",
        platformVideoId: `camp${s.i}${s.n}`,
        url: `https://video.example.test/camp${s.i}${s.n}`,
        description: `Campaign clip ${s.a.username} ${s.n}`,
        username: s.a.username,
        accountId: s.a.id,
        viewCount: BigInt(views),
        likeCount: 10n,
        postedAt: new Date(s.posted),
        dataSource: "simulated",
        scrapeStatus: "ready",
        lastScrapedAt: new Date(s.last),
      },
      select: { id: true },
    });
    await prisma.trackedVideo.create({ data: { workspaceId, videoId: v.id } });
    // The history: a third of its views an hour after posting, all of them at its last scrape.
    for (const [at, n] of [
      [s.posted + HOUR, Math.round(views / 3)],
      [s.last, views],
    ] as const) {
      await pgPool.query(
        `INSERT INTO video_metric_points (video_id, captured_at, source, view_count, like_count) VALUES ($1, $2, 'simulated', $3, 10)`,
        [v.id, new Date(at), n],
      );
    }
  }
  // Through the API: a creator with two accounts, a campaign of that creator and one single account.
  const ids = Object.fromEntries(
    (
      await api$<{ accounts: { edges: { node: { id: string; username: string } }[] } }>(
        `{ accounts(first: 10) { edges { node { id username } } } }`,
      )
    ).accounts.edges.map((e) => [e.node.username, e.node.id]),
  );
  const mia = (await api$(`mutation { createCreator(name: "Mia Rossi", contact: "mia@example.test") { id } }`)).createCreator.id;
  await api$(`mutation($c: ID!, $a: [ID!]!) { assignCreatorAccounts(creatorId: $c, accountIds: $a) { success } }`, {
    c: mia,
    a: [ids.mia_makes, ids.mia_clips],
  });
  const created = await api$(`mutation($input: CampaignInput!) { createCampaign(input: $input) { id } }`, {
    input: {
      name: "Winter launch",
      startsAt: parisLocal(now - 7 * DAY),
      endsAt: parisLocal(now + 7 * DAY),
      timeZone: "Europe/Paris",
      currency: "EUR",
      budgetMinor: 20_000,
      cpmMinor: 250,
      feePerVideoMinor: 100,
      capPerCreatorMinor: 7_000,
    },
  });
  campaignId = created.createCampaign.id;
  await api$(
    `mutation($c: ID!, $cr: [ID!], $a: [ID!]) { addCampaignMembers(campaignId: $c, creatorIds: $cr, accountIds: $a) { success error } }`,
    { c: campaignId, cr: [mia], a: [ids.solo_sam] },
  );
  ({ page, errors } = await signedInPage(browser, api.url, EMAIL, PASSWORD));
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await stopAll(api);
});

const CAMPAIGN = `query($id: ID!) { campaign(id: $id) { uuid status totals { payout viewsEarned frozen } creators { payeeName viewsEarned payout creatorCapCut } } }`;

describe("campaigns and creators pages in Chromium", () => {
  it("lists the campaign, and its page shows each payee's views and payout as the API computes them, totals the sum of the rows", async () => {
    const { campaign } = await api$(CAMPAIGN, { id: campaignId });
    expect(campaign.creators.length).toBe(2);
    expect(campaign.totals.payout).toBe(campaign.creators.reduce((s: number, r: { payout: number }) => s + r.payout, 0));

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Campaigns", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Campaigns" }).waitFor();
    const row = page.locator("table.data-table tbody tr").filter({ hasText: "Winter launch" });
    await expect(row.locator(".cell-period").textContent()).resolves.toContain("(Europe/Paris)");
    await expect(row.locator(".cell-status").textContent()).resolves.toBe("Active");
    await expect(row.locator(".cell-spend").textContent()).resolves.toContain(`${money(campaign.totals.payout)} of ${money(20_000)}`);
    await expect(row.locator(".cell-members").textContent()).resolves.toBe("1 creator, 1 single account");

    await row.getByRole("link", { name: "Winter launch" }).click();
    await page.getByRole("heading", { level: 1, name: "Winter launch" }).waitFor();
    const payees = page.getByRole("table", { name: /Creators' earnings/ }).locator("tbody tr");
    await expect.poll(() => payees.count()).toBe(2);
    for (const r of campaign.creators as { payeeName: string; viewsEarned: number; payout: number; creatorCapCut: number }[]) {
      const tr = payees.filter({ hasText: r.payeeName });
      await expect(tr.locator(".cell-views").textContent()).resolves.toBe(whole(r.viewsEarned));
      await expect(tr.locator(".cell-payout").textContent()).resolves.toBe(money(r.payout));
      await expect(tr.locator(".cell-cap").textContent()).resolves.toMatch(r.creatorCapCut > 0 ? /^Yes/ : /^No$/);
    }
    await expect(page.getByTestId("campaign-owed").textContent()).resolves.toBe(`Owed so far${money(campaign.totals.payout)}`);
    await expect(page.getByTestId("payees-total").textContent()).resolves.toBe(
      `Total: ${whole(campaign.totals.viewsEarned)} views earned, ${money(campaign.totals.payout)} owed (the sum of the rows).`,
    );
    // The evidence says where the numbers come from; the video not scraped for 3 days is listed as such.
    await page
      .getByRole("table", { name: /Top videos/ })
      .getByText("simulated")
      .first()
      .waitFor();
    await page
      .getByRole("table", { name: /without a scrape/ })
      .getByText("Campaign clip solo_sam 2")
      .waitFor();
    await page.locator(".chart canvas").first().waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, "campaign.png");
    await expectAccessible(page, "Campaign");
  });

  it("shows a member the campaign read-only, usable at 375 px in dark mode", async () => {
    const small = await dashboardContext(browser, { baseURL: api.url, viewport: { width: 375, height: 800 }, colorScheme: "dark" });
    const p = await small.newPage();
    await signIn(p, MEMBER, PASSWORD);
    await p.goto("/campaigns");
    await p.getByText("Only owners of this workspace create campaigns").waitFor();
    expect(await p.getByRole("button", { name: "Create campaign" }).count()).toBe(0);
    await p.getByRole("link", { name: "Winter launch" }).click();
    await p.getByRole("heading", { level: 1, name: "Winter launch" }).waitFor();
    await p.getByRole("table", { name: /Creators' earnings/ }).waitFor();
    await p.getByText(/Only owners of this workspace change a campaign's members/).waitFor();
    for (const action of ["Close campaign", "Add creator", "Save rule and budget"])
      expect(await p.getByRole("button", { name: action }).count()).toBe(0);
    const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    const wide = await p.evaluate(() =>
      [...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > 376 && !e.closest(".table-scroll"))
        .slice(0, 8)
        .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`),
    );
    expect(overflow, wide.join("; ")).toBeLessThanOrEqual(0);
    memberPage = p;
  });

  it("gives a creator their own rule: the row says so and follows the API's figures", async () => {
    const rule = page.getByRole("region", { name: "A creator's own rule" });
    await rule.getByRole("combobox", { name: "Creator" }).selectOption({ label: "Mia Rossi" });
    await rule.getByLabel(/Pay per 1,000 views/).fill("1.00");
    await rule.getByLabel(/Fixed fee per video/).fill("");
    await rule.getByLabel(/At most per creator/).fill("");
    await rule.getByRole("button", { name: "Save Mia Rossi's rule" }).click();
    await rule.getByRole("status").getByText("Saved Mia Rossi's own rule.").waitFor();
    const { campaign } = await api$(CAMPAIGN, { id: campaignId });
    const mia = campaign.creators.find((r: { payeeName: string }) => r.payeeName === "Mia Rossi");
    const tr = page
      .getByRole("table", { name: /Creators' earnings/ })
      .locator("tbody tr")
      .filter({ hasText: "Mia Rossi" });
    await expect.poll(() => tr.locator(".cell-rule").textContent()).toBe("Own rule: €1.00 per 1,000 views");
    await expect.poll(() => tr.locator(".cell-payout").textContent()).toBe(money(mia.payout));
  });

  it("closes the campaign after a confirmation in words, and shows its figures frozen", async () => {
    const before = (await api$(CAMPAIGN, { id: campaignId })).campaign;
    await page.getByRole("button", { name: "Close campaign" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.textContent()).resolves.toContain(`Its payouts are frozen as they are now (${money(before.totals.payout)} owed)`);
    await dialog.getByRole("button", { name: "Close and freeze the figures" }).click();
    await page
      .getByRole("status")
      .getByText(/Closed “Winter launch”: its figures are frozen/)
      .waitFor();
    await page.getByText(/these figures are frozen/).waitFor();
    await expect(page.getByTestId("campaign-owed").textContent()).resolves.toBe(`Owed (frozen)${money(before.totals.payout)}`);
    await expect(page.locator(".page-header .badge").textContent()).resolves.toBe("Closed");
    // Closed: nothing can be changed any more, and the stale list is gone.
    expect(await page.getByRole("button", { name: "Close campaign" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Add creator" }).count()).toBe(0);
    // The member's open page hears `campaign.closed` and reads the campaign again, without a reload.
    await memberPage.getByText(/these figures are frozen/).waitFor();
    await expect(memberPage.locator(".page-header .badge").textContent()).resolves.toBe("Closed");
    const after = (await api$(CAMPAIGN, { id: campaignId })).campaign;
    expect(after.status).toBe("CLOSED");
    expect(after.totals.frozen).toBe(true);
    expect(after.totals.payout).toBe(before.totals.payout);
  });

  it("creates a creator, assigns an account, and says why another creator's account is refused", async () => {
    await page.goto("/creators");
    await page.getByRole("heading", { level: 1, name: "Creators" }).waitFor();
    await page
      .locator("[data-creator='Mia Rossi']")
      .getByRole("link", { name: /@mia_makes/ })
      .waitFor();
    await page.getByLabel("Name", { exact: true }).fill("Noor Haddad");
    await page.getByLabel("Contact").fill("noor@example.test");
    await page.getByRole("button", { name: "Add creator" }).click();
    await page.getByRole("status").getByText("Created the creator “Noor Haddad”.").waitFor();
    const noor = page.locator("[data-creator='Noor Haddad']");
    await noor.getByText("Contact: noor@example.test").waitFor();

    await noor.getByLabel("Tracked account for Noor Haddad").selectOption({ label: "solo_sam (@solo_sam)" });
    await noor.getByRole("button", { name: "Assign account" }).click();
    await noor.getByRole("status").getByText("Gave the account to Noor Haddad.").waitFor();
    await noor.getByRole("link", { name: "solo_sam (@solo_sam)" }).waitFor();

    await noor.getByLabel("Tracked account for Noor Haddad").selectOption({ label: "mia_makes (@mia_makes)" });
    await noor.getByRole("button", { name: "Assign account" }).click();
    await noor
      .getByRole("alert")
      .getByText(/belongs to another creator/)
      .waitFor();

    await noor.getByRole("button", { name: "Edit Noor Haddad" }).click();
    await noor.getByLabel("Notes").fill("Paid monthly");
    await noor.getByRole("button", { name: "Save" }).click();
    await noor.getByText("Paid monthly").waitFor();
    await expectAccessible(page, "Creators");
    expect(errors).toEqual([]);
  });
});
