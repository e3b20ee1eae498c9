/**
 * The dashboard's house, in Chromium against the real service (API in this process, no
 * worker: nothing here needs a scrape): every page's data loads from its route (a child route's query
 * starts with its parent's, a signed-out visit sends no query), and the defects found on the way,
 * each checked as a person meets it: the server's reason in words, a page that keeps what was typed
 * when moving within it, list counts that stay true, the workspace switcher's name, a picker that
 * says it lists only the first 100.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page, Request } from "playwright-core";
import { newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { PASSWORD, newPerson, removeMemberships } from "../helpers/people.js";
import { prisma } from "../../src/infra/db.js";
import type { RunningApi } from "../../src/main/server.js";
import { dashboardContext, launchBrowser, signedInPage } from "./harness.js";

let api: RunningApi;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let studio: { workspaceId: string };
let side: { workspaceId: string };
const OWNER = "lin@example.com";

beforeAll(async () => {
  [api, browser] = await Promise.all([startTestApi(), launchBrowser()]);
  studio = await newWorkspace("pro", "Studio");
  side = await newWorkspace("free", "Side project");
  const { userId } = await newPerson(OWNER, studio.workspaceId, "owner");
  await prisma.workspaceMember.create({ data: { workspaceId: side.workspaceId, userId, role: "member" } });
  ({ context, page, errors } = await signedInPage(browser, api.url, OWNER, PASSWORD));
});

afterAll(async () => {
  await browser?.close();
  await stopAll(api);
});

/** A GraphQL call with the page's session, as the dashboard makes it. */
async function gql(query: string, variables: Record<string, unknown> = {}) {
  const res = await page.request.post("/graphql", { data: { query, variables }, headers: { "x-requested-with": "dashboard" } });
  const body = await res.json();
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

/** The GraphQL operations a page sends, with when each was asked for and answered. */
function operations(p: Page) {
  const seen: { name: string; sentAt: number; answeredAt: number | null }[] = [];
  const byRequest = new Map<Request, (typeof seen)[number]>();
  p.on("request", (r) => {
    if (!r.url().endsWith("/graphql") || r.method() !== "POST") return;
    const name = /(?:query|mutation)\s+(\w+)/.exec(String(r.postDataJSON()?.query))?.[1] ?? "?";
    const op = { name, sentAt: Date.now(), answeredAt: null as number | null };
    seen.push(op);
    byRequest.set(r, op);
  });
  p.on("requestfinished", (r) => {
    const op = byRequest.get(r);
    if (op) op.answeredAt = Date.now();
  });
  return seen;
}

const op = (ops: ReturnType<typeof operations>, name: string) => {
  const found = ops.find((o) => o.name === name);
  expect(found, `${name} was sent`).toBeTruthy();
  return found!;
};

describe("the dashboard's house in Chromium", () => {
  it("sends no query on a signed-out visit before the sign-in page", async () => {
    const fresh = await dashboardContext(browser, { baseURL: api.url });
    const p = await fresh.newPage();
    const ops = operations(p);
    await p.goto("/videos?sort=views");
    await p.waitForURL(/\/sign-in\?next=%2Fvideos%3Fsort%3Dviews$/);
    await p.getByRole("button", { name: "Sign in" }).waitFor();
    expect(ops.map((o) => o.name)).toEqual([]);
    await fresh.close();
  });

  it("starts a child route's query with its parent's: a folder's pickers, a radar search", async () => {
    const { createFolder } = await gql(`mutation { createFolder(name: "Loaded together") { uuid } }`);
    const { createRadarSearch } = await gql(`mutation { createRadarSearch(query: "parallel loading") { uuid } }`);
    for (const [path, parent, child] of [
      [`/folders/${createFolder.uuid}`, "FolderPageQuery", "AddToFolderQuery"],
      [`/radar/${createRadarSearch.uuid}`, "RadarPageQuery", "RadarSearchViewQuery"],
    ] as const) {
      // A cold load in a new page of the same session: nothing of it is in a store yet.
      const p = await context.newPage();
      const ops = operations(p);
      await p.goto(path);
      await p.getByRole("heading", { level: 1 }).waitFor();
      await expect.poll(() => ops.filter((o) => o.answeredAt !== null).map((o) => o.name)).toContain(child);
      // Asked for before the parent's answer came back: not after the parent page rendered.
      expect(op(ops, child).sentAt, `${child} waits for ${parent}`).toBeLessThanOrEqual(op(ops, parent).answeredAt!);
      await p.close();
    }
  });

  it("keeps what is typed in the radar form when another search is opened (the page is not remounted)", async () => {
    await page.goto("/radar");
    const form = page.getByLabel("Search for", { exact: true });
    await form.fill("handmade ceramics for small kitchens");
    await page.getByRole("list", { name: "Past searches" }).getByRole("link", { name: "parallel loading" }).click();
    await page.waitForURL(/\/radar\/[0-9a-f-]{36}$/);
    await page.locator("[data-search-id]").waitFor();
    await expect(form.inputValue()).resolves.toBe("handmade ceramics for small kitchens");
  });

  it("counts a list right after an item is added or removed (totalCount moves with the edges)", async () => {
    await page.goto("/settings");
    for (const name of ["First script", "Second script"]) {
      await page.getByLabel("Key name").fill(name);
      await page.getByRole("button", { name: "Create key" }).click();
      await page.getByRole("button", { name: "Done" }).click();
    }
    // The workspace's own key (newWorkspace makes one) and the two made here.
    await page.getByText("Showing 3 of 3 keys").waitFor();

    await page.goto("/settings/members");
    await page.getByLabel("Email to invite").fill("kim@example.com");
    await page.getByRole("button", { name: "Invite", exact: true }).click();
    await page.getByRole("button", { name: "Done" }).click();
    await page.getByText("Showing 1 of 1 invitations").waitFor();
  });

  it("shows the server's reason when the folder refuses to remove an account, not a dashboard error", async () => {
    await gql(`mutation { trackAccount(url: "https://www.youtube.com/@potterypal", videoLimit: 1) { added } }`);
    const { accounts } = await gql(`{ accounts(first: 1, q: "potterypal") { edges { node { id } } } }`);
    const accountId = accounts.edges[0].node.id;
    const { createFolder } = await gql(`mutation { createFolder(name: "Clay") { id uuid } }`);
    await gql(`mutation($f: ID!, $a: [ID!]!) { addAccountsToFolder(folderId: $f, accountIds: $a) { success } }`, {
      f: createFolder.id,
      a: [accountId],
    });
    await page.goto(`/folders/${createFolder.uuid}`);
    const remove = page.getByRole("button", { name: "Remove @potterypal from the folder" });
    await remove.waitFor();
    // Taken out behind the page's back: the server answers this account with a reason.
    await gql(`mutation($f: ID!, $a: [ID!]!) { removeAccountsFromFolder(folderId: $f, accountIds: $a) { success } }`, {
      f: createFolder.id,
      a: [accountId],
    });
    await remove.click();
    await page.getByRole("alert").getByText("Account is not in this folder").waitFor();
    // The folder's live update may take the row (and its outcome) away right after: ask the whole
    // page, not that alert, whether a dashboard error was shown.
    await expect(page.getByText("Something went wrong").count()).resolves.toBe(0);
  });

  it("lists the folders in the folder picker page by page, saying how many of how many", async () => {
    await prisma.folder.createMany({
      data: Array.from({ length: 101 }, (_, i) => ({ workspaceId: studio.workspaceId, name: `Bulk folder ${i}` })),
    });
    await gql(`mutation { trackVideo(url: "https://www.youtube.com/shorts/pickerprobe") { videoId } }`);
    await page.goto("/videos");
    await page.locator("table.data-table tbody tr").first().getByRole("checkbox").check();
    await page.getByRole("button", { name: "Add to folder" }).click();
    const bulk = page.locator(".bulk");
    await bulk.getByText(/^Showing 50 of 10[3-9] folders/).waitFor();
    await bulk.getByRole("button", { name: "Show more" }).click();
    await bulk.getByText(/^Showing 100 of 10[3-9] folders/).waitFor();
  });

  it("keeps the workspace switcher's name when switching fails: the error is not in its label", async () => {
    await page.goto("/");
    const switcher = page.getByRole("combobox", { name: "Workspace", exact: true });
    await switcher.waitFor();
    // No longer a member of the other workspace: switching to it is refused.
    await removeMemberships(side.workspaceId);
    await switcher.selectOption({ label: "Side project (member)" });
    await page.getByRole("alert").waitFor();
    await expect(page.getByRole("combobox", { name: "Workspace", exact: true }).count()).resolves.toBe(1);
  });

  it("logged no uncaught error", () => {
    expect(errors).toEqual([]);
  });
});
