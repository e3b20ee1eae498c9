/**
 * The dashboard (web/), measured in Debian's Chromium against the real service on
 * loopback (API in this process, built dashboard from web/dist), one workspace tracking 1,000 videos:
 *
 *   - JavaScript shipped on first load of `/` and of `/videos`: every script the page loads until the
 *     network is idle, raw and gzipped (zlib level 6, as the service's compression middleware sends
 *     them to a browser that accepts gzip). Target: at most 250 KB gzipped.
 *   - Time to the first page rendered with data: navigation start → the first row of /videos in the
 *     DOM, cold (a new browser context, empty cache) and warm (same context, cached assets).
 *     Target: under 1 s on loopback.
 *   - First data on every page: navigation start → what the page shows of its own
 *     data in the DOM (a table's row or its empty state, the video's numbers, the folder's cards …),
 *     cold, for each page of the route table. Target: p50 ≤ 600 ms.
 *   - The 1,000-row table: "Show more" until all 1,000 rows are shown, a scroll from top to bottom
 *     in 100 px steps with the frame times (requestAnimationFrame deltas) and long tasks (≥ 50 ms)
 *     seen meanwhile (target: no frame over 100 ms, no visible stall), then a sort (click → the
 *     first page in the new order rendered).
 *   - GraphQL per page: the operations each page sends on load (HTTP queries and WebSocket
 *     subscriptions) and the SQL statements they cost the API process.
 *
 * A dedicated database (`svc_bench_dashboard`) is created, migrated, seeded with INSERT ... SELECT,
 * measured and dropped (`--keep` keeps it). Run alone with `npx tsx bench/dashboard.ts` (after
 * `npm run build:web`); writes the `dashboard` section of bench/RESULTS.md. Never part of `npm test`.
 * BENCH_DASHBOARD_SAMPLES (default 10) sets the page loads per timing.
 */
import { existsSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { admin, benchServiceEnv, closeServiceConnections, createMigratedDatabase, dropRedisKeys } from "./lib/db.js";
import { percentile, writeSection } from "./lib/results.js";

const BENCH_DB = "svc_bench_dashboard";
const REDIS_PREFIX = "bench_dashboard";
const VIDEOS = 1_000;
const SAMPLES = Number(process.env.BENCH_DASHBOARD_SAMPLES ?? 10);
const KEEP = process.argv.includes("--keep");
const EMAIL = "bench@example.com";
const PASSWORD = "bench password 1234";
const BUDGET_GZIP_BYTES = 250 * 1024;
const WEB_DIST = fileURLToPath(new URL("../web/dist/index.html", import.meta.url));
// The same flags as the browser tests (test/web/harness.ts): a closed network, root.
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

async function seed(databaseUrl: string, workspaceId: string): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(`SELECT setseed(0.2)`);
    await db.query(
      `INSERT INTO videos (platform, platform_video_id, url, description, username, view_count, like_count, comment_count, share_count,
         engagement_rate, posted_at, scrape_status, data_source, last_scraped_at)
       SELECT 'platformA', 'db' || lpad(i::text, 9, '0'), 'https://www.tiktok.com/@bench_' || (i % 50) || '/video/' || (7300000000000000000 + i),
              'Dashboard bench video ' || i || ': three tips for better sourdough, number ' || i, 'bench_' || (i % 50),
              v, v / 10, v / 100, v / 200, 11.5, now() - (i || ' hours')::interval, 'ready', 'simulated', now()
         FROM (SELECT i, floor(exp(random() * ln(5e6)))::bigint AS v FROM generate_series(1, $1::int) i) s`,
      [VIDEOS],
    );
    await db.query(`INSERT INTO tracked_videos (workspace_id, video_id) SELECT $1::uuid, id FROM videos`, [workspaceId]);
    await db.query(`VACUUM ANALYZE`);
  } finally {
    await db.end();
  }
}

/** The statements the in-process API sends to PostgreSQL while `fn` runs (as test/graphql/frontends.test.ts counts them). */
async function statementsOf<T>(fn: () => Promise<T>): Promise<{ result: T; statements: number }> {
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const original = proto.query;
  let statements = 0;
  proto.query = function (this: unknown, ...args: unknown[]) {
    statements++;
    return original.apply(this, args);
  };
  try {
    return { result: await fn(), statements };
  } finally {
    proto.query = original;
  }
}

type Session = Awaited<ReturnType<BrowserContext["storageState"]>>;

/** A new browser context (empty cache) with the person's session cookie. */
function context(browser: Browser, baseURL: string, session: Session): Promise<BrowserContext> {
  return browser.newContext({ baseURL, locale: "en-US", timezoneId: "UTC", viewport: { width: 1280, height: 860 }, storageState: session });
}

/** Signs in through the sign-in page once; the session cookie is reused by every context. */
async function signIn(browser: Browser, baseURL: string): Promise<Session> {
  const ctx = await browser.newContext({ baseURL });
  const page = await ctx.newPage();
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(EMAIL);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("navigation", { name: "Main" }).waitFor();
  const session = await ctx.storageState();
  await ctx.close();
  return session;
}

async function firstLoadScripts(ctx: BrowserContext, path: string): Promise<{ files: number; raw: number; gzip: number }> {
  const page = await ctx.newPage();
  const bodies: Promise<Buffer>[] = [];
  page.on("response", (r) => {
    if (r.request().resourceType() === "script") bodies.push(r.body());
  });
  await page.goto(path, { waitUntil: "networkidle" });
  const all = await Promise.all(bodies);
  await page.close();
  return {
    files: all.length,
    raw: all.reduce((n, b) => n + b.length, 0),
    gzip: all.reduce((n, b) => n + gzipSync(b, { level: 6 }).length, 0),
  };
}

/** Navigation start → the first row of /videos in the DOM, in ms (the page's own clock). */
async function timeToData(page: Page): Promise<number> {
  await page.goto("/videos", { waitUntil: "commit" });
  await page.waitForSelector("table.data-table tbody tr");
  return page.evaluate(() => performance.now());
}

/** Each page of the route table, and what on it is its own first data (not the shell, not a loading state). */
function pagesToTime(ids: { video: string; account: string; folder: string }) {
  const list = "main table.data-table tbody tr, main .empty";
  return [
    { path: "/", shows: "main .card-value" },
    { path: "/videos", shows: list },
    { path: `/videos/${ids.video}`, shows: "main dl.stats" },
    { path: "/accounts", shows: list },
    { path: `/accounts/${ids.account}`, shows: "main dl.stats" },
    { path: "/folders", shows: list },
    { path: `/folders/${ids.folder}`, shows: "main .card-value" },
    { path: "/radar", shows: "main [aria-label='Past searches'], main .empty" },
    { path: "/settings", shows: list },
    { path: "/settings/members", shows: list },
    { path: "/settings/sessions", shows: list },
  ];
}

/** Navigation start → the page's first data in the DOM, cold (a new context each time), p50 and p99 per page. */
async function firstDataPerPage(
  browser: Browser,
  baseURL: string,
  session: Session,
  ids: { video: string; account: string; folder: string },
) {
  const out: { path: string; p50: number; p99: number }[] = [];
  for (const { path, shows } of pagesToTime(ids)) {
    const times: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const ctx = await context(browser, baseURL, session);
      const page = await ctx.newPage();
      await page.goto(path, { waitUntil: "commit" });
      await page.waitForSelector(shows);
      times.push(await page.evaluate(() => performance.now()));
      await ctx.close();
    }
    out.push({
      path: Object.entries(ids).reduce((p, [k, id]) => p.replace(id, `:${k}`), path),
      p50: percentile(times, 50),
      p99: percentile(times, 99),
    });
  }
  return out;
}

async function table(page: Page) {
  await page.goto("/videos");
  await page.waitForSelector("table.data-table tbody tr");
  const rows = () => page.locator("table.data-table tbody tr").count();
  const showMore: number[] = [];
  while ((await rows()) < VIDEOS) {
    const before = await rows();
    const t = Date.now();
    await page.getByRole("button", { name: "Show more" }).click();
    await page.waitForFunction((n) => document.querySelectorAll("table.data-table tbody tr").length > n, before);
    showMore.push(Date.now() - t);
  }
  const scroll = await page.evaluate(async () => {
    const frames: number[] = [];
    const longTasks: number[] = [];
    const observer = new PerformanceObserver((list) => list.getEntries().forEach((e) => longTasks.push(e.duration)));
    observer.observe({ type: "longtask", buffered: false });
    let last = performance.now();
    const height = document.documentElement.scrollHeight;
    for (let y = 0; y < height; y += 100) {
      window.scrollTo(0, y);
      await new Promise((r) => requestAnimationFrame(r));
      const now = performance.now();
      frames.push(now - last);
      last = now;
    }
    observer.disconnect();
    return { frames, longTasks };
  });
  // Sorting reads the first page in the new order (the server sorts; the table shows what it answers).
  const t = Date.now();
  await page
    .getByRole("button", { name: /^Views/ })
    .first()
    .click();
  await page.waitForFunction(() => document.querySelector("th[aria-sort]") !== null && !document.querySelector("[aria-busy=true]"));
  const sortMs = Date.now() - t;
  return { showMore, sortMs, scroll };
}

async function perPage(browser: Browser, baseURL: string, session: Session, videoId: string) {
  const out: { path: string; queries: number; subscriptions: number; statements: number }[] = [];
  for (const path of ["/", "/videos", `/videos/${videoId}`, "/accounts"]) {
    const ctx = await context(browser, baseURL, session);
    const page = await ctx.newPage();
    let queries = 0;
    let subscriptions = 0;
    page.on("request", (r) => {
      if (r.url().endsWith("/graphql") && r.method() === "POST") queries++;
    });
    page.on("websocket", (ws) =>
      ws.on("framesent", (f) => {
        if (String(f.payload).includes('"type":"subscribe"')) subscriptions++;
      }),
    );
    const { statements } = await statementsOf(async () => {
      await page.goto(path, { waitUntil: "networkidle" });
      await page.waitForTimeout(300);
    });
    out.push({ path: path.replace(videoId, ":id"), queries, subscriptions, statements });
    await ctx.close();
  }
  return out;
}

async function main() {
  if (!existsSync(WEB_DIST)) throw new Error("web/dist is missing: run `npm run build:web` first");
  const databaseUrl = await createMigratedDatabase(BENCH_DB);
  Object.assign(process.env, benchServiceEnv(databaseUrl, REDIS_PREFIX));
  const { startApi } = await import("../src/main/server.js");
  const { createWorkspace } = await import("../src/domain/workspace/service.js");
  const { createUser } = await import("../src/domain/people/users.js");
  const { setMembership } = await import("../src/domain/people/members.js");
  const { createFolder } = await import("../src/domain/folders/service.js");
  const { trackAccount } = await import("../src/domain/tracking/accounts.js");
  const { OPERATOR } = await import("../src/domain/actors/actor.js");
  const { workspace } = await createWorkspace({ name: "Dashboard bench", plan: "pro" });
  const user = await createUser({ email: EMAIL, password: PASSWORD });
  await setMembership({ workspaceId: workspace.id, userId: user.id, role: "owner", by: OPERATOR });
  await seed(databaseUrl, workspace.id);
  // An account (queued: no worker runs here, its page shows it all the same) and a folder, for their pages.
  await trackAccount(workspace.id, "https://www.youtube.com/@benchcreator", 10);
  const folder = await createFolder(workspace.id, "Bench folder");
  const api = await startApi(0, "127.0.0.1");
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    const session = await signIn(browser, api.url);
    const ctx = await context(browser, api.url, session);
    const overviewJs = await firstLoadScripts(ctx, "/");
    await ctx.close();
    const videosCtx = await context(browser, api.url, session);
    const videosJs = await firstLoadScripts(videosCtx, "/videos");
    await videosCtx.close();

    const cold: number[] = [];
    const warm: number[] = [];
    const warmCtx = await context(browser, api.url, session);
    const warmPage = await warmCtx.newPage();
    await timeToData(warmPage);
    for (let i = 0; i < SAMPLES; i++) {
      const c = await context(browser, api.url, session);
      cold.push(await timeToData(await c.newPage()));
      await c.close();
      warm.push(await timeToData(warmPage));
    }
    const t = await table(warmPage);
    await warmCtx.close();

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const videoId = (await db.query(`SELECT id FROM videos ORDER BY view_count DESC LIMIT 1`)).rows[0].id as string;
    const accountId = (await db.query(`SELECT account_id FROM tracked_accounts LIMIT 1`)).rows[0].account_id as string;
    await db.end();
    const pages = await perPage(browser, api.url, session, videoId);
    const firstData = await firstDataPerPage(browser, api.url, session, { video: videoId, account: accountId, folder: folder.id });

    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    const ms = (n: number) => `${n.toFixed(0)} ms`;
    const frames = t.scroll.frames;
    const md = [
      `## Dashboard (web/, in Chromium on loopback; ${VIDEOS} tracked videos)`,
      "",
      "| measure | value | target |",
      "|---|---|---|",
      `| JavaScript on first load of / | ${overviewJs.files} files, ${kb(overviewJs.raw)} raw, **${kb(overviewJs.gzip)} gzipped** | ≤ ${kb(BUDGET_GZIP_BYTES)} gzipped ${overviewJs.gzip <= BUDGET_GZIP_BYTES ? "✓" : "✗"} |`,
      `| JavaScript on first load of /videos | ${videosJs.files} files, ${kb(videosJs.raw)} raw, **${kb(videosJs.gzip)} gzipped** | ≤ ${kb(BUDGET_GZIP_BYTES)} gzipped ${videosJs.gzip <= BUDGET_GZIP_BYTES ? "✓" : "✗"} |`,
      `| first page rendered with data (/videos, first row), cold | p50 ${ms(percentile(cold, 50))}, p99 ${ms(percentile(cold, 99))} (${SAMPLES} loads) | < 1000 ms ${percentile(cold, 99) < 1000 ? "✓" : "✗"} |`,
      `| the same, warm (cached assets) | p50 ${ms(percentile(warm, 50))}, p99 ${ms(percentile(warm, 99))} | |`,
      `| "Show more" (50 rows) up to ${VIDEOS} rows | p50 ${ms(percentile(t.showMore, 50))}, last ${ms(t.showMore[t.showMore.length - 1] ?? NaN)} | |`,
      `| sort of the ${VIDEOS}-row table (click → first page in the new order) | ${ms(t.sortMs)} | |`,
      `| scroll through ${VIDEOS} rows (100 px steps) | ${frames.length} frames, p50 ${ms(percentile(frames, 50))}, max ${ms(Math.max(...frames))}; ${t.scroll.longTasks.length} long tasks | no frame > 100 ms ${Math.max(...frames) <= 100 ? "✓" : "✗"} |`,
      "",
      `First data on each page, cold (navigation start → the page's own data in the DOM; ${SAMPLES} loads each):`,
      "",
      "| page | p50 | p99 | target p50 ≤ 600 ms |",
      "|---|---|---|---|",
      ...firstData.map((p) => `| ${p.path} | ${ms(p.p50)} | ${ms(p.p99)} | ${p.p50 <= 600 ? "✓" : "✗"} |`),
      "",
      "GraphQL per page load (operations the page sends, and the SQL statements they cost the API process):",
      "",
      "| page | queries (HTTP) | subscriptions (WebSocket) | SQL statements |",
      "|---|---|---|---|",
      ...pages.map((p) => `| ${p.path} | ${p.queries} | ${p.subscriptions} | ${p.statements} |`),
      "",
      "JavaScript gzipped here with zlib level 6; the service sends the brotli (quality 11) or gzip (level 9) copies made at build time, which are smaller (src/http/dashboard.ts).",
    ].join("\n");
    console.log(md);
    await writeSection("dashboard", md);
  } finally {
    await browser.close();
    await api.close();
    await closeServiceConnections();
    await dropRedisKeys(REDIS_PREFIX);
    if (!KEEP) await admin(`DROP DATABASE IF EXISTS "${BENCH_DB}" WITH (FORCE)`);
  }
}

await main();
