/**
 * The dashboard's Settings, the accept-invitation page and GraphiQL for people, in Chromium against
 * the real service (API in this process, a worker process delivering webhooks to a receiver on
 * loopback): make an API key, see it once, use it, revoke it; make a webhook, send a test and see its
 * delivery in the log; invite people and accept in other browsers (signed in, and by creating an
 * account); change a role, remove a member; sign out another session; read the audit log; GraphiQL
 * signed in (the session fills the docs explorer) and signed out (the Authorization template);
 * axe-core on every state; 375 px in dark mode; no page errors.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Loopback receivers are allowed, and webhooks are configured (read by the API here and by the
// spawned worker, which inherits this environment).
vi.hoisted(() => {
  process.env.WEBHOOK_ALLOW_PRIVATE = "true";
  process.env.WEBHOOK_SECRET_KEY = "test-only-webhook-secret-key-0123456789";
});

import type { Browser, BrowserContext, Page } from "playwright-core";
import { newWorkspace, request, startTestApi, stopAll } from "../helpers/api.js";
import { spawnService, type ServiceProcess } from "../helpers/processes.js";
import type { RunningApi } from "../../src/main/server.js";
import { PASSWORD, newPerson } from "../helpers/people.js";
import { startReceiver, verifySignature, type Receiver } from "../webhooks/receiver.js";
import { dashboardContext, expectAccessible, launchBrowser, pageErrors, signIn } from "./harness.js";

let api: RunningApi;
let worker: ServiceProcess;
let browser: Browser;
let receiver: Receiver;
let context: BrowserContext;
let page: Page;
let errors: string[];
const OWNER = "ada@example.com";
const GRACE = "grace@example.com";

beforeAll(async () => {
  [api, worker, browser, receiver] = await Promise.all([
    startTestApi(),
    spawnService("worker", {}, 120_000),
    launchBrowser(),
    startReceiver(),
  ]);
  const studio = await newWorkspace("pro", "Studio");
  const lab = await newWorkspace("free", "Grace's lab");
  await newPerson(OWNER, studio.workspaceId, "owner");
  await newPerson(GRACE, lab.workspaceId, "owner");
  context = await dashboardContext(browser, { baseURL: api.url });
  page = await context.newPage();
  errors = pageErrors(page);
  await signIn(page, OWNER, PASSWORD);
});

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await receiver?.close();
  await stopAll(api);
});

const settingsNav = (p: Page) => p.getByRole("navigation", { name: "Settings" });
const confirmDialog = (p: Page) => p.getByRole("dialog");

describe("settings in Chromium", () => {
  it("makes an API key, shows it once, the key works, then a revoked key is refused", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
    await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    await page.getByRole("heading", { name: "API keys" }).waitFor();
    await expectAccessible(page, "Settings: API keys");

    // By keyboard: type the name, Enter submits.
    await page.getByLabel("Key name").fill("Reporting script");
    await page.getByLabel("Key name").press("Enter");
    const shown = page.getByRole("region", { name: /Your new API key/ });
    await shown.getByText("you will not see it again").waitFor();
    const secret = await shown.getByRole("textbox").inputValue();
    expect(secret.length).toBeGreaterThan(20);
    await expect(shown.getByRole("button", { name: "Copy" }).isVisible()).resolves.toBe(true);
    await expectAccessible(page, "Settings: API key shown once");

    // The key works against REST, as an integration uses it.
    const ok = await request(api.url, "GET", "/api/v1/workspace", { key: secret });
    expect(ok.status).toBe(200);

    // Listed with its prefix; once dismissed (or after a reload) the secret is nowhere on the page.
    const row = page.locator("table.data-table tbody tr").filter({ hasText: "Reporting script" });
    const prefix = (await row.locator("code").textContent())!.replace("…", "");
    expect(secret.startsWith(prefix)).toBe(true);
    await shown.getByRole("button", { name: "Done" }).click();
    await expect(page.content()).resolves.not.toContain(secret);
    await page.reload();
    await row.waitFor();
    await expect(page.content()).resolves.not.toContain(secret);

    // Revoke asks first; cancelling keeps the key.
    await row.getByRole("button", { name: "Revoke Reporting script" }).click();
    await confirmDialog(page).getByRole("button", { name: "Cancel" }).click();
    expect((await request(api.url, "GET", "/api/v1/workspace", { key: secret })).status).toBe(200);
    await row.getByRole("button", { name: "Revoke Reporting script" }).click();
    await confirmDialog(page).getByRole("button", { name: "Revoke key" }).click();
    await page.getByRole("status").getByText("Revoked “Reporting script”").waitFor();
    await row.getByText("Revoked").waitFor();
    const refused = await request(api.url, "GET", "/api/v1/workspace", { key: secret });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("UNAUTHORIZED");
  });

  it("makes a webhook to a receiver, sends a test and shows its delivery in the log, then deletes it", async () => {
    await settingsNav(page).getByRole("link", { name: "Webhooks" }).click();
    await page.getByText("No webhooks yet.").waitFor();
    await expectAccessible(page, "Settings: webhooks (empty)");

    // Without an event the form says so, in words.
    const url = receiver.url("/dashboard-hook");
    await page.getByLabel("Endpoint URL").fill(url);
    await page.getByLabel("Description").fill("Loopback receiver");
    await page.getByRole("button", { name: "Create webhook" }).click();
    await page.getByRole("alert").getByText("Choose at least one event.").waitFor();
    await page.getByRole("checkbox", { name: /analysis\.completed/ }).check();
    await page.getByRole("checkbox", { name: /video\.spike/ }).check();
    await page.getByRole("button", { name: "Create webhook" }).click();
    const shown = page.getByRole("region", { name: /signing secret/ });
    await shown.getByText("you will not see it again").waitFor();
    const secret = await shown.getByRole("textbox").inputValue();
    expect(secret).toMatch(/^whsec_/);
    const row = page.locator("table.data-table tbody tr").filter({ hasText: url });
    await row.getByText("analysis.completed, video.spike").waitFor();
    await row.getByText("Active").waitFor();
    await expectAccessible(page, "Settings: webhooks (secret shown)");

    await row.getByRole("link", { name: `Delivery log of ${url}` }).click();
    await page.getByRole("heading", { name: `Webhook to ${url}` }).waitFor();
    await page.getByText("Nothing delivered yet.").waitFor();
    await expectAccessible(page, "Settings: a webhook (no deliveries)");

    await page.getByRole("button", { name: "Send a test" }).click();
    const delivered = page.locator("table.deliveries tbody tr[data-status='DELIVERED']");
    await delivered.waitFor({ timeout: 30_000 });
    await expect(delivered.textContent()).resolves.toMatch(/webhook\.test.*Delivered.*1.*HTTP 200/);
    // The receiver got it, signed with the secret shown once.
    expect(receiver.at("/dashboard-hook")).toHaveLength(1);
    expect(verifySignature(secret, receiver.at("/dashboard-hook")[0]!)).toBe(true);
    expect(JSON.parse(receiver.at("/dashboard-hook")[0]!.body).type).toBe("webhook.test");
    await expectAccessible(page, "Settings: a webhook (delivered)");

    await page.getByRole("button", { name: `Delete the webhook to ${url}` }).click();
    await confirmDialog(page).getByRole("button", { name: "Delete webhook" }).click();
    await page.waitForURL(/\/settings\/webhooks$/);
    await page.getByText("No webhooks yet.").waitFor();
  });

  it("invites by email and role, shows the link to copy, and revokes a pending invitation", async () => {
    await settingsNav(page).getByRole("link", { name: "Members" }).click();
    const members = page.getByRole("table", { name: "Members of this workspace" });
    await members.getByRole("row").filter({ hasText: OWNER }).getByText("You").waitFor();
    await page.getByText("No invitations yet.").waitFor();
    await expectAccessible(page, "Settings: members");

    await page.getByLabel("Email to invite").fill("someone@example.com");
    await page.getByRole("button", { name: "Invite" }).click();
    await page
      .getByRole("region", { name: "Invitation link for someone@example.com" })
      .getByText("An invitation mail with this link is on its way")
      .waitFor();
    const invitations = page.getByRole("table", { name: /Invitations of this workspace/ });
    const pending = invitations.getByRole("row").filter({ hasText: "someone@example.com" });
    await pending.getByText("Pending").waitFor();
    await pending.getByRole("button", { name: "Revoke the invitation for someone@example.com" }).click();
    await confirmDialog(page).getByRole("button", { name: "Revoke invitation" }).click();
    await pending.getByText("Revoked").waitFor();

    // Inviting someone who is a member already is refused in words.
    await page.getByLabel("Email to invite").fill(OWNER);
    await page.getByRole("button", { name: "Invite" }).click();
    await page
      .getByRole("alert")
      .getByText(/Could not invite/)
      .waitFor();
  });

  it("lets another person accept: signed out, they sign in and come back; signed in, they join and switch to the workspace", async () => {
    await page.getByLabel("Email to invite").fill(GRACE);
    await page.getByRole("button", { name: "Invite" }).click();
    const link = new URL(
      await page
        .getByRole("region", { name: `Invitation link for ${GRACE}` })
        .getByRole("textbox")
        .inputValue(),
    );
    expect(link.pathname).toBe("/accept-invitation");

    const other = await dashboardContext(browser, { baseURL: api.url });
    const p = await other.newPage();
    const otherErrors = pageErrors(p);
    await p.goto(link.pathname + link.search);
    await p.getByRole("heading", { level: 1, name: "Accept an invitation" }).waitFor();
    await p.getByText(/You are invited to join\s*Studio\s*as\s*a member/).waitFor();
    await expectAccessible(p, "Accept invitation (signed out)");
    await p.getByRole("link", { name: `Sign in as ${GRACE}` }).click();
    await p.getByLabel("Email").fill(GRACE);
    await p.getByLabel("Password").fill(PASSWORD);
    await p.getByRole("button", { name: "Sign in" }).click();
    // Back on the invitation, signed in now.
    await p.getByText(`Signed in as ${GRACE}.`).waitFor();
    await expectAccessible(p, "Accept invitation (signed in)");
    await p.getByRole("button", { name: "Accept invitation" }).click();
    await p.getByRole("heading", { level: 1, name: "Overview" }).waitFor();
    const switcher = p.getByRole("combobox", { name: "Workspace" });
    await expect.poll(() => switcher.locator("option:checked").textContent()).toContain("Studio");
    await expect.poll(() => p.locator(".card").filter({ hasText: "Plan" }).textContent()).toContain("Pro");

    // A member sees why the owners' sections hold no forms (the server refuses them anyway).
    await p.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
    await p.getByText("Only owners of this workspace manage API keys.").waitFor();
    await expect(p.getByLabel("Key name").count()).resolves.toBe(0);
    await expect(settingsNav(p).getByRole("link", { name: "Webhooks" }).count()).resolves.toBe(0);
    await settingsNav(p).getByRole("link", { name: "Members" }).click();
    await p.getByRole("table", { name: "Members of this workspace" }).getByRole("row").filter({ hasText: OWNER }).waitFor();
    await expect(p.getByRole("button", { name: "Invite" }).count()).resolves.toBe(0);
    await expectAccessible(p, "Settings as a member");

    // The link works once.
    await p.goto(link.pathname + link.search);
    await p.getByText(/was used already/).waitFor();
    expect(otherErrors.filter((e) => !e.startsWith("Failed to load resource"))).toEqual([]);
    await other.close();

    // The owner sees the new member, makes her an owner, then removes her.
    await page.reload();
    const row = page.getByRole("table", { name: "Members of this workspace" }).getByRole("row").filter({ hasText: GRACE });
    await row.waitFor();
    await row.getByLabel("Role of grace").selectOption("OWNER");
    await page.getByRole("status").getByText("grace is now an owner.").waitFor();
    await row.getByRole("button", { name: "Remove grace" }).click();
    await confirmDialog(page).getByRole("button", { name: "Remove member" }).click();
    await page.getByRole("status").getByText("Removed grace from the workspace.").waitFor();
    await expect(row.count()).resolves.toBe(0);
  });

  it("lets a newcomer create an account from the invitation and land in the workspace", async () => {
    await page.getByLabel("Email to invite").fill("newcomer@example.com");
    await page.getByLabel("Role", { exact: true }).selectOption("OWNER");
    await page.getByRole("button", { name: "Invite" }).click();
    const link = new URL(
      await page.getByRole("region", { name: "Invitation link for newcomer@example.com" }).getByRole("textbox").inputValue(),
    );

    const fresh = await dashboardContext(browser, { baseURL: api.url, viewport: { width: 375, height: 800 } });
    const p = await fresh.newPage();
    await p.goto(link.pathname + link.search);
    await p.getByText(/as\s*an owner/).waitFor();
    await p.getByLabel("Your name").fill("Newcomer");
    await p.getByLabel("Password", { exact: true }).fill("a long password 42");
    await p.getByLabel("Repeat the password").fill("a long password 42");
    await p.getByRole("button", { name: "Create account and join" }).click();
    await p.getByRole("heading", { level: 1, name: "Overview" }).waitFor();
    await p.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
    // An owner of Studio: the owners' sections are there.
    await settingsNav(p).getByRole("link", { name: "Audit log" }).waitFor();
    await fresh.close();

    // A token that opens nothing is a bad link, in words.
    const stranger = await dashboardContext(browser, { baseURL: api.url });
    const s = await stranger.newPage();
    await s.goto("/accept-invitation?token=svc_inv_not-a-real-token");
    await s
      .getByRole("alert")
      .getByText(/does not open an invitation/)
      .waitFor();
    await expectAccessible(s, "Accept invitation (bad link)");
    await stranger.close();
  });

  it("lists the person's sessions, marks this one, and signs another one out", async () => {
    // A second browser of the same person.
    const second = await dashboardContext(browser, { baseURL: api.url });
    const p2 = await second.newPage();
    await signIn(p2, OWNER, PASSWORD);

    await settingsNav(page).getByRole("link", { name: "Sessions" }).click();
    const table = page.getByRole("table", { name: /Your signed-in sessions/ });
    await expect.poll(() => table.locator("tbody tr").count()).toBe(2);
    await table.getByRole("row").filter({ hasText: "This session" }).waitFor();
    await expect(table.locator("tbody").textContent()).resolves.toContain("Headless Chrome on Linux");
    await expect(table.locator("tbody").textContent()).resolves.toContain("127.0.0.1");
    await expectAccessible(page, "Settings: sessions");

    const others = table.locator("tbody tr:not([aria-current])");
    await others.getByRole("button", { name: /^Sign out/ }).click();
    await confirmDialog(page).getByRole("button", { name: "Sign it out" }).click();
    await page
      .getByRole("status")
      .getByText(/^Signed out /)
      .waitFor();
    await expect.poll(() => table.locator("tbody tr").count()).toBe(1);

    // That browser is signed out: its next page asks to sign in.
    await p2.goto("/settings");
    await p2.waitForURL(/\/sign-in\?next=%2Fsettings$/);
    await second.close();
  });

  it("shows the audit log to owners", async () => {
    await settingsNav(page).getByRole("link", { name: "Audit log" }).click();
    const table = page.getByRole("table", { name: /Recorded actions/ });
    for (const action of [
      "API key created",
      "API key revoked",
      "Webhook created",
      "Webhook deleted",
      "Invitation created",
      "Invitation accepted",
      "Session revoked",
    ]) {
      await table.getByRole("cell", { name: action, exact: true }).first().waitFor();
    }
    await expectAccessible(page, "Settings: audit log");
  });

  it("saves a spike alert's least views per hour and the credits-low threshold, and clears them", async () => {
    await settingsNav(page).getByRole("link", { name: "Alerts" }).click();
    const minViews = page.getByLabel("Least views per hour for a spike alert");
    await minViews.fill("500");
    await minViews.press("Enter");
    await page
      .getByRole("status")
      .getByText(/^Video spikes: /)
      .waitFor();
    const threshold = page.getByLabel("Alert when fewer credits than this are left");
    await threshold.fill("100");
    await page.getByRole("button", { name: "Save threshold" }).click();
    await page.getByRole("status").getByText("Credits low fires below 100 credits.").waitFor();

    // Read again from the server: both numbers stayed; emptied, they are none of their own again.
    await page.reload();
    await expect(minViews.inputValue()).resolves.toBe("500");
    await expect(threshold.inputValue()).resolves.toBe("100");
    await threshold.fill("");
    await page.getByRole("button", { name: "Save threshold" }).click();
    await page.getByRole("status").getByText("Credits low uses the server's percentage.").waitFor();
    await minViews.fill("");
    await minViews.press("Enter");
    await page
      .getByRole("status")
      .getByText(/^Video spikes: /)
      .waitFor();
    await page.reload();
    await expect(minViews.inputValue()).resolves.toBe("");
    await expect(threshold.inputValue()).resolves.toBe("");
    await expectAccessible(page, "Settings: alerts");
  });

  it("is usable at 375 px in dark mode", async () => {
    const small = await dashboardContext(browser, {
      baseURL: api.url,
      viewport: { width: 375, height: 800 },
      colorScheme: "dark",
      storageState: await context.storageState(),
    });
    const p = await small.newPage();
    for (const path of ["/settings", "/settings/alerts", "/settings/webhooks", "/settings/members", "/settings/sessions"]) {
      await p.goto(path);
      await p.getByRole("navigation", { name: "Settings" }).waitFor();
      await p.locator("section.panel h2").first().waitFor();
      await p
        .getByRole("status")
        .filter({ hasText: /^Loading/ })
        .waitFor({ state: "detached" });
      const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      // What sticks out, to say where in the message.
      const wide = await p.evaluate(() =>
        [...document.querySelectorAll("body *")]
          .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
          .slice(0, 5)
          .map((e) => `${e.tagName.toLowerCase()}.${e.className}`),
      );
      expect(overflow, `${path}: ${wide.join(", ")}`).toBeLessThanOrEqual(0);
      // Every field and button outside a table on the screen (a table's row actions may sit behind its sideways scroll).
      const offScreen = await p.evaluate(() =>
        [...document.querySelectorAll("main :is(input, select, button, textarea):not(.table-scroll *)")]
          .filter((e) => e.getBoundingClientRect().width > 0 && e.getBoundingClientRect().right > document.documentElement.clientWidth)
          .map((e) => e.getAttribute("aria-label") || e.id || e.getAttribute("name") || e.textContent?.trim() || e.tagName),
      );
      expect(offScreen, `${path}: controls off the screen`).toEqual([]);
      await expectAccessible(p, `${path} at 375 px, dark`);
    }
    // The spike alerts' threshold is a field of the page, not a fourth column behind the table's scroll.
    await p.goto("/settings/alerts");
    const least = p.getByLabel("Least views per hour for a spike alert");
    await least.waitFor();
    const right = await least.evaluate((e) => e.getBoundingClientRect().right - document.documentElement.clientWidth);
    expect(right).toBeLessThanOrEqual(0);
    // A checkbox's words stand beside it, not below it.
    const digest = p.getByLabel("Send me a weekly digest of this workspace");
    await digest.waitFor();
    const gap = await digest.evaluate((box) => {
      const text = [...box.closest("label")!.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim())!;
      const range = document.createRange();
      range.selectNodeContents(text);
      return range.getClientRects()[0]!.left - box.getBoundingClientRect().right;
    });
    expect(gap).toBeGreaterThan(0);
    await small.close();
  });

  it("opens GraphiQL from the header with the person's session: the docs explorer fills, queries run", async () => {
    const link = page.getByRole("link", { name: "GraphQL explorer" });
    await expect(link.getAttribute("href")).resolves.toBe("/graphql");
    const g = await context.newPage();
    // GraphiQL's editor is megabytes of script (served from this process, read on first use): slower than a dashboard page.
    g.setDefaultTimeout(45_000);
    await g.goto("/graphql", { timeout: 60_000 });
    await g.getByRole("button", { name: /Show Documentation Explorer/i }).click();
    await g.getByRole("link", { name: "Query" }).first().waitFor();
    // The default operation asks who is signed in; it runs with the cookie and the dashboard's headers.
    await g.getByRole("button", { name: /Execute query/i }).click();
    await expect.poll(() => g.locator(".graphiql-response").textContent(), { timeout: 20_000 }).toContain(OWNER);
    await expect(g.locator(".graphiql-response").textContent()).resolves.toContain("Studio");
    await g.close();
  });

  it("opens GraphiQL signed out with an Authorization template and where to get a key", async () => {
    const anonymous = await dashboardContext(browser, { baseURL: api.url });
    const g = await anonymous.newPage();
    g.setDefaultTimeout(45_000);
    await g.goto("/graphql", { timeout: 60_000 });
    await g.getByRole("button", { name: "Headers" }).click();
    const headers = g.locator(".graphiql-editor-tool .monaco-editor .view-lines").last();
    // Monaco draws spaces as no-break spaces.
    const text = async () => (await headers.innerText()).replace(/\s+/g, " ");
    await expect.poll(text, { timeout: 30_000 }).toContain('"Authorization": "Bearer <your API key>"');
    await expect(text()).resolves.toContain("Settings → API keys");
    await anonymous.close();
  });

  it("logged no uncaught error", () => {
    // The browser logs every non-2xx answer as a console error; the refusals above are expected.
    expect(errors.filter((e) => !e.startsWith("Failed to load resource"))).toEqual([]);
  });
});
