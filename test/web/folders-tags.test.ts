/**
 * Nested folders and tags in Chromium, against the real service (API in this process, no worker): an
 * agency's structure (client → campaign → creator, 3 levels) is built in the dashboard over a small
 * seeded workspace (20 accounts, 200 videos), browsed through the tree and the breadcrumbs, its
 * analytics read with and without sub-folders (the cards agree with the service's numbers), a folder
 * moved with "Move to" and by dragging, a parent deleted keeping its children; a tag made, put on
 * videos in bulk, shown as chips and used as the videos and accounts lists' filter. axe-core on the new
 * pages; no uncaught error.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { PASSWORD, newPerson } from "../helpers/people.js";
import { prisma } from "../../src/infra/db.js";
import type { RunningApi } from "../../src/main/server.js";
import { folderAnalytics } from "../../src/domain/folders/contents.js";
import { expectAccessible, launchBrowser, signedInPage } from "./harness.js";

let api: RunningApi;
let browser: Browser;
let page: Page;
let errors: string[];
let workspaceId: string;
let accounts: { id: string; username: string }[];
let videos: { id: string }[];
const EMAIL = "ana@agency.example";

beforeAll(async () => {
  [api, browser] = await Promise.all([startTestApi(), launchBrowser()]);
  ({ workspaceId } = await newWorkspace("pro", "Agency"));
  await newPerson(EMAIL, workspaceId, "owner");
  // 20 tracked creators with 10 tracked videos each, written straight into PostgreSQL.
  accounts = await prisma.account.createManyAndReturn({
    data: Array.from({ length: 20 }, (_, i) => ({
      platform: "platformA" as const,
      username: `agency_creator_${i}`,
      displayName: `Creator ${i}`,
      followerCount: 1000n * BigInt(i + 1),
      videoCount: 10n,
      totalViews: 10_000n * BigInt(i + 1),
      dataSource: "simulated",
      scrapeStatus: "ready" as const,
      lastScrapedAt: new Date(),
    })),
    select: { id: true, username: true },
  });
  await prisma.trackedAccount.createMany({ data: accounts.map((a) => ({ workspaceId, accountId: a.id, videoLimit: 10 })) });
  videos = await prisma.video.createManyAndReturn({
    data: Array.from({ length: 200 }, (_, i) => ({
      platform: "platformA" as const,
      platformVideoId: `agency${i}`,
      url: `https://video.example.test/agency${i}`,
      description: `Agency clip ${i}`,
      username: accounts[i % 20]!.username,
      accountId: accounts[i % 20]!.id,
      viewCount: BigInt(1000 + i * 37),
      likeCount: BigInt(10 + i),
      commentCount: 3n,
      shareCount: 1n,
      engagementRate: 1.5,
      postedAt: new Date(Date.UTC(2026, 9, 1 + (i % 28))),
      dataSource: "simulated",
      scrapeStatus: "ready" as const,
      lastScrapedAt: new Date(),
    })),
    select: { id: true },
  });
  await prisma.trackedVideo.createMany({ data: videos.map((v) => ({ workspaceId, videoId: v.id })) });
  ({ page, errors } = await signedInPage(browser, api.url, EMAIL, PASSWORD));
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await stopAll(api);
});

const folderId = async (name: string) => (await prisma.folder.findFirstOrThrow({ where: { workspaceId, name } })).id;
const card = (label: string) =>
  page
    .locator(".card")
    .filter({ has: page.locator(".card-label", { hasText: new RegExp(`^${label}$`) }) })
    .locator(".card-value");
const crumbs = () => page.getByRole("navigation", { name: "Breadcrumbs" }).getByRole("listitem").allTextContents();
/** The folder rows of the tree, in order, with their level. */
const treeRows = () =>
  page
    .locator("tr[data-folder-id]")
    .evaluateAll((rows) => rows.map((r) => `${r.getAttribute("data-level")} ${r.querySelector("a")?.textContent ?? ""}`));

describe("nested folders and tags in the dashboard", () => {
  it("builds client → campaign → creator in the dashboard and browses it by tree and breadcrumbs", async () => {
    await page.goto("/folders");
    await page.getByRole("heading", { level: 1, name: "Folders" }).waitFor();
    await page.getByLabel("Folder name").fill("Client Acme");
    await page.getByRole("button", { name: "Create folder" }).click();
    await page.getByRole("status").getByText("Created the folder “Client Acme”.").waitFor();
    await page.getByLabel("Folder name").fill("Campaign Spring");
    await page.getByLabel("Inside").selectOption({ label: "Client Acme" });
    await page.getByRole("button", { name: "Create folder" }).click();
    await page.getByRole("link", { name: "Campaign Spring" }).click();
    await page.getByRole("heading", { level: 1, name: "Campaign Spring" }).waitFor();
    await page.getByLabel("Sub-folder name").fill("Creator Ana");
    await page.getByRole("button", { name: "Create sub-folder" }).click();
    await page.getByRole("link", { name: "Creator Ana" }).click();
    await page.getByRole("heading", { level: 1, name: "Creator Ana" }).waitFor();
    await expect.poll(crumbs).toEqual(["Folders", "Client Acme", "Campaign Spring", "Creator Ana"]);
    await expectAccessible(page, "a folder three levels down");

    // The accounts go in through the API (the dashboard adds one at a time): 5 creators under the
    // creator folder, 5 more and 20 single videos under the campaign, 10 videos directly on the client.
    const [client, campaign, creator] = [await folderId("Client Acme"), await folderId("Campaign Spring"), await folderId("Creator Ana")];
    const { addAccountsToFolder, addVideosToFolder } = await import("../../src/domain/folders/service.js");
    await addAccountsToFolder(
      workspaceId,
      creator,
      accounts.slice(0, 5).map((a) => a.id),
    );
    await addAccountsToFolder(
      workspaceId,
      campaign,
      accounts.slice(3, 10).map((a) => a.id),
    );
    await addVideosToFolder(
      workspaceId,
      campaign,
      videos.slice(100, 120).map((v) => v.id),
    );
    await addVideosToFolder(
      workspaceId,
      client,
      videos.slice(0, 10).map((v) => v.id),
    );

    await page.getByRole("navigation", { name: "Breadcrumbs" }).getByRole("link", { name: "Client Acme" }).click();
    await page.getByRole("heading", { level: 1, name: "Client Acme" }).waitFor();
    await expect.poll(() => card("Videos").textContent()).toBe("10");
    // The box follows the URL (?sub=1): it shows checked once the route has read it, which can lag the click under load.
    const sub = page.getByLabel("Include sub-folders in the analytics");
    await sub.click();
    await expect.poll(() => sub.isChecked()).toBe(true);
    await page.waitForURL(/sub=1/);
    const all = await folderAnalytics(workspaceId, client, { includeDescendants: true });
    // Accounts 0-9 (10 videos each) and videos 100-119, of which 100-109 are those accounts' own.
    expect(all.totalVideos).toBe(110);
    await expect.poll(() => card("Videos").textContent()).toBe(String(all.totalVideos));
    await expect.poll(() => card("Accounts").textContent()).toBe("10");

    await page.goto("/folders");
    await expect.poll(treeRows).toEqual(["1 Client Acme", "2 Campaign Spring", "3 Creator Ana"]);
    await expectAccessible(page, "the folders tree");
  });

  it("moves a folder with Move to and by dragging, and deletes a parent keeping its children", async () => {
    await page.getByRole("link", { name: "Creator Ana" }).click();
    await page.getByRole("button", { name: "Move to…" }).click();
    // Every folder, by its path in creation order; the folder itself is listed but cannot take itself.
    const into = page.getByRole("combobox", { name: "Move into" });
    await expect
      .poll(() => into.locator("option").allTextContents())
      .toEqual(["Top level", "Client Acme", "Client Acme / Campaign Spring", "Client Acme / Campaign Spring / Creator Ana (this folder)"]);
    expect(await into.locator("option", { hasText: "(this folder)" }).isDisabled()).toBe(true);
    await into.selectOption({ label: "Client Acme" });
    await page.getByRole("button", { name: "Move", exact: true }).click();
    await expect.poll(crumbs).toEqual(["Folders", "Client Acme", "Creator Ana"]);

    await page.goto("/folders");
    await expect.poll(treeRows).toEqual(["1 Client Acme", "2 Campaign Spring", "2 Creator Ana"]);
    const handle = page.locator("tr[data-folder-id]").filter({ hasText: "Creator Ana" }).locator(".drag-handle");
    await handle.dragTo(page.locator("tr[data-folder-id]").filter({ hasText: "Campaign Spring" }));
    await expect.poll(treeRows).toEqual(["1 Client Acme", "2 Campaign Spring", "3 Creator Ana"]);

    await page.getByRole("link", { name: "Campaign Spring" }).click();
    await page.getByRole("button", { name: "Delete folder" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Keep them: move them up one level").check();
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();
    await page.waitForURL(/\/folders$/);
    await expect.poll(treeRows).toEqual(["1 Client Acme", "2 Creator Ana"]);
  });

  it("makes a tag, tags videos in bulk, shows chips and filters the videos and accounts lists by it", async () => {
    await page.getByLabel("Tag name").fill("Hero content");
    await page.getByLabel("Colour").selectOption({ label: "Red" });
    await page.getByRole("button", { name: "Create tag" }).click();
    await page.getByRole("status").getByText("Created the tag “Hero content”.").waitFor();

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Videos", exact: true }).click();
    const rows = page.locator("table.data-table tbody tr");
    await rows.first().waitFor();
    for (const i of [0, 1, 2]) await rows.nth(i).getByRole("checkbox").check();
    await page.getByRole("button", { name: "Tag", exact: true }).click();
    await page.getByRole("button", { name: "Add tag" }).click();
    await page.getByRole("status").getByText("Tagged 3 videos “Hero content”.").waitFor();
    await expect.poll(() => page.getByRole("list", { name: "Tags" }).count()).toBe(3);

    await page.getByRole("search").getByLabel(/^Tag/).selectOption({ label: "Hero content" });
    await page.waitForURL(/tag=/);
    await expect.poll(() => rows.count()).toBe(3);
    await page.getByText("Tracked videos, 3 in all").waitFor({ state: "attached" });
    await expectAccessible(page, "videos filtered by a tag");

    // An account tagged on its page, then the accounts list filtered by the tag.
    await page.goto(`/accounts/${accounts[0]!.id}`);
    const tags = page.locator("section", { has: page.getByRole("heading", { name: "Tags" }) });
    await tags.getByRole("button", { name: "Add tag" }).click();
    await page.getByRole("status").getByText("Tagged 1 account “Hero content”.").waitFor();
    await page.goto("/accounts");
    await page.getByRole("search").getByLabel(/^Tag/).selectOption({ label: "Hero content" });
    await expect.poll(() => page.locator("table.data-table tbody tr").count()).toBe(1);
    await page.getByText("agency_creator_0").first().waitFor();
  });

  it("logged no uncaught error", () => {
    expect(errors.filter((e) => !e.startsWith("Failed to load resource"))).toEqual([]);
  });
});
