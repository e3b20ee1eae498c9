/**
 * Browser tests of the dashboard (web/): Debian's Chromium driven by playwright-core, against the
 * real service of this test file (its database, its Redis prefix) with the built dashboard
 * (web/dist, built by `npm ci`). One browser per test file; a person signs in once through the
 * sign-in page (`signIn`) and the file's pages share that context (its session cookie), or new
 * contexts start from its storage state (`withSession`).
 */
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";
import { AxeBuilder } from "@axe-core/playwright";
import { expect } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const SCREENSHOTS = join(ROOT, "docs/screenshots");

/** Flags for a closed network: no background requests to Google's hosts, no sandbox as root. */
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-default-apps",
  "--disable-dev-shm-usage",
];

export function requireBuiltDashboard(): void {
  if (!existsSync(join(ROOT, "web/dist/index.html")))
    throw new Error("web/dist is missing: run `npm run build:web` (npm ci runs it) before the browser tests");
}

export async function launchBrowser(): Promise<Browser> {
  requireBuiltDashboard();
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS, headless: true });
}

export interface ContextOptions {
  baseURL: string;
  colorScheme?: "light" | "dark";
  viewport?: { width: number; height: number };
  /** A signed-in context's cookies (`await context.storageState()`). */
  storageState?: BrowserContextOptions["storageState"];
}

/** A browser context as a person's browser: en-US, UTC, light, 1280 × 860 unless told otherwise. */
export async function dashboardContext(browser: Browser, o: ContextOptions): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: o.baseURL,
    locale: "en-US",
    timezoneId: "UTC",
    colorScheme: o.colorScheme ?? "light",
    viewport: o.viewport ?? { width: 1280, height: 860 },
    storageState: o.storageState,
  });
  context.setDefaultTimeout(15_000);
  return context;
}

/** Signs in through the sign-in page, as a person does, and waits for the Overview. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("navigation", { name: "Main" }).waitFor();
}

/** Fails on any serious or critical axe-core violation (WCAG 2.1 A and AA rules) of the page as it is now. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const report = bad
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 5)
          .join("\n  ")}`,
    )
    .join("\n");
  expect(report, `axe on ${what}`).toBe("");
}

/**
 * Takes the README's screenshot of the page as it is now. The pictures are committed, so a test run
 * takes them only when asked (UPDATE_SCREENSHOTS=1 npm test): an ordinary run leaves the tree clean.
 * The page is rendered either way, so a page that cannot be shown still fails the test.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.UPDATE_SCREENSHOTS !== "1") {
    await page.screenshot({ fullPage: false });
    return;
  }
  const file = join(SCREENSHOTS, name);
  mkdirSync(dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: false });
}

/** Collects what the page logs as errors (uncaught exceptions, console.error): a test asserts none. */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  return errors;
}

/** A person's browser signed in through the sign-in page: its context, its first page, and that page's errors. */
export async function signedInPage(
  browser: Browser,
  baseURL: string,
  email: string,
  password: string,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await dashboardContext(browser, { baseURL });
  const page = await context.newPage();
  const errors = pageErrors(page);
  await signIn(page, email, password);
  return { context, page, errors };
}
