/**
 * Reaching people, the whole flow in Chromium, against the real service and a real SMTP server on
 * loopback, with PUBLIC_URL the server's own address so every link in a mail is followed as sent:
 * an owner invites a teammate from Settings → Members and the teammate signs up from the mail; a
 * forgotten password is reset from a mail; a spike and an account's new video (recorded in the
 * workspace events outbox as the scrape records them) reach the teammate by mail and in the bell,
 * live, within a minute; the notifications page marks them read. One browser, one server.
 */
import { createServer } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startSmtp, linksOf, type Inbox } from "./smtp.js";

/** A free loopback port, so PUBLIC_URL can name the server before its configuration is read. */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

const inbox: Inbox = await startSmtp();
const port = await freePort();
process.env.SMTP_URL = inbox.url;
process.env.PUBLIC_URL = `http://127.0.0.1:${port}`;

const { newWorkspace, stopAll } = await import("../helpers/api.js");
const { newPerson, PASSWORD } = await import("../helpers/people.js");
const { startApi } = await import("../../src/main/server.js");
const { startWorkers } = await import("../../src/jobs/worker.js");
const { mailQueue } = await import("../../src/jobs/registry.js");
const { createMailTransport, lazy } = await import("../../src/main/providers.js");
const { emitWorkspaceEvents } = await import("../../src/domain/webhooks/outbox.js");
const { createAccount, createVideo } = await import("../folders/fixtures.js");
const { dashboardContext, expectAccessible, launchBrowser, pageErrors, signIn } = await import("../web/harness.js");

const api = await startApi(port, "127.0.0.1");
const workers = await startWorkers([mailQueue(lazy(() => createMailTransport()))]);
const browser: Browser = await launchBrowser();
const studio = await newWorkspace("pro", "Rooftop Studio");
await newPerson("ada@flow.test", studio.workspaceId, "owner");

afterAll(async () => {
  await browser.close();
  await workers.close();
  await inbox.close();
  await stopAll(api);
});

/** The link of the mail to `to` whose path starts with `path`. */
async function linkIn(to: string, path: string, subject?: RegExp): Promise<string> {
  const [mail] = await inbox.waitFor((r) => r.envelope.to.includes(to) && (!subject || subject.test(r.mail.subject ?? "")));
  const link = linksOf(mail!).find((l) => new URL(l).pathname === path);
  expect(link, `a ${path} link in the mail to ${to}`).toBeDefined();
  expect(link!.startsWith(`${api.url}/`)).toBe(true);
  return link!;
}

describe("reaching people, in Chromium", () => {
  it("an owner invites a teammate, who signs up from the mail; alerts reach them by mail and in the bell, live", async () => {
    const owner = await dashboardContext(browser, { baseURL: api.url });
    const page = await owner.newPage();
    const errors = pageErrors(page);
    await signIn(page, "ada@flow.test", PASSWORD);
    await page.goto("/settings/members");
    await page.getByLabel("Email to invite").fill("grace@flow.test");
    await page.getByRole("button", { name: "Invite" }).click();
    await page.getByRole("region", { name: "Invitation link for grace@flow.test" }).waitFor();

    const invite = await linkIn("grace@flow.test", "/accept-invitation");
    const mate = await dashboardContext(browser, { baseURL: api.url, viewport: { width: 375, height: 800 } });
    const p = await mate.newPage();
    const mateErrors = pageErrors(p);
    await p.goto(invite);
    await p.getByText("Rooftop Studio").first().waitFor();
    await p.getByLabel("Your name").fill("Grace");
    await p.getByLabel("Password", { exact: true }).fill("a long password 42");
    await p.getByLabel("Repeat the password").fill("a long password 42");
    await p.getByRole("button", { name: "Create account and join" }).click();
    await p.getByRole("heading", { level: 1, name: "Overview" }).waitFor();

    // Grace wants spikes and new videos of tracked accounts by mail too.
    await p.goto("/settings/alerts");
    await p.getByLabel("Video spikes by mail").check();
    await p.getByText("Video spikes: in the dashboard and by mail.").waitFor();
    await p.getByLabel("New videos of tracked accounts by mail").check();
    await p.getByText("New videos of tracked accounts: in the dashboard and by mail.").waitFor();
    await expectAccessible(p, "Settings → Alerts at 375 px");
    const bell = p.getByRole("link", { name: /^Notifications/ });
    const bellSays = (words: string) =>
      p.getByRole("link", { name: new RegExp(`^Notifications\\s*,\\s*${words}$`) }).waitFor({ timeout: 60_000 });
    await bellSays("none unread");

    // The scrape records its events in the outbox; from there, within a minute, the bell and the mail.
    const account = await createAccount({ username: "skater" });
    const video = await createVideo({ username: "skater", description: "Kickflip over the fountain", accountId: account.id });
    const { pgPool } = await import("../../src/infra/db.js");
    await pgPool.query(`INSERT INTO tracked_accounts (workspace_id, account_id) VALUES ($1, $2)`, [studio.workspaceId, account.id]);
    await pgPool.query(`INSERT INTO tracked_videos (workspace_id, video_id, via_account_id) VALUES ($1, $2, $3)`, [
      studio.workspaceId,
      video.id,
      account.id,
    ]);
    const started = Date.now();
    await emitWorkspaceEvents([
      { workspaceId: studio.workspaceId, type: "video.spike", data: { videoId: video.id, views24h: 48_000, outlierScore: 12 } },
      {
        workspaceId: studio.workspaceId,
        type: "account.video_discovered",
        data: { accountId: account.id, username: "skater", videoId: video.id },
      },
    ]);
    await bellSays("2 unread");
    const spike = await linkIn("grace@flow.test", `/videos/${video.id}`, /^Video spikes/);
    await linkIn("grace@flow.test", `/videos/${video.id}`, /^New videos of tracked accounts/);
    expect(Date.now() - started).toBeLessThan(60_000);

    // The mail's link opens the video's page; the bell opens the list, which marks them read.
    await p.goto(spike);
    await p.getByRole("heading", { level: 1 }).first().waitFor();
    await bell.click();
    await p.getByRole("heading", { level: 1, name: "Notifications" }).waitFor();
    await p.getByRole("link", { name: "Spike: @skater: Kickflip over the fountain (2,000 views/hour)" }).waitFor();
    await expectAccessible(p, "Notifications at 375 px");
    expect(await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await p.getByRole("button", { name: "Mark all read" }).click();
    await p.getByText("Marked 2 read.").waitFor();
    await bellSays("none unread");
    expect(errors).toEqual([]);
    expect(mateErrors).toEqual([]);
    await owner.close();
    await mate.close();
  });

  it("a forgotten password is reset from a mail", async () => {
    await newPerson("forgetful@flow.test", studio.workspaceId, "member");
    const context = await dashboardContext(browser, { baseURL: api.url });
    const page = await context.newPage();
    const errors = pageErrors(page);
    await page.goto("/sign-in");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    // The page is loaded on demand: its heading first, or the sign-in page's Email field would be filled.
    await page.getByRole("heading", { level: 1, name: "Forgot your password?" }).waitFor();
    await page.getByLabel("Email").fill("forgetful@flow.test");
    await page.getByRole("button", { name: "Send me a link" }).click();
    await page.getByText("If forgetful@flow.test has an account, a link to set a new password is on its way.").waitFor();

    const link = await linkIn("forgetful@flow.test", "/reset-password");
    await page.goto(link);
    await page.getByRole("heading", { level: 1, name: "Set your password" }).waitFor();
    await page.getByLabel("New password").fill("a fresh long password");
    await page.getByLabel("Repeat the password").fill("a fresh long password");
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByText("Your password is set").waitFor();
    await signIn(page, "forgetful@flow.test", "a fresh long password");
    expect(errors).toEqual([]);
    await context.close();
  });
});
