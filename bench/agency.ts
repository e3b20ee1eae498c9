/**
 * An agency at full scale: one workspace tracking 200 accounts and 5,000 videos
 * with metric history (seeded with bulk SQL), organised client → campaign → creator THROUGH the REST API
 * (createFolder with parentId, bulk adds), then
 *
 *   - checked: GET /api/v1/folders/{id}/analytics?includeDescendants=true of every folder (clients first)
 *     equals a hand-written SQL over the same data (the sub-tree's folders listed from this script's own
 *     bookkeeping, not from the service's recursive CTE; each video once), and the video and account
 *     counts also equal those computed here in JavaScript from what was added; GET /folders/{id}/videos
 *     ?includeDescendants=true agrees on the total. Any difference fails the run (exit 1, no section).
 *   - browsed in Debian's Chromium (as bench/dashboard.ts, API in this process, built dashboard from
 *     web/dist): the folders page (the tree, read 100 folders a page: first row, then the whole tree
 *     with "Show more"), a client folder and a campaign folder with their sub-folders' analytics on
 *     (?sub=1), a creator folder, the "Include sub-folders" switch, and a walk by links from the tree down
 *     to a creator; navigation start → first data, p50 over cold loads (a new context each), and on each
 *     load what the page shows (tree levels and per-folder counts, analytics cards, breadcrumbs) checked
 *     against the expected figures.
 *
 * The structure: 4 clients × 3 campaigns; one creator folder per account under a campaign (account i in
 * campaign i mod 12), every 10th account also in a second campaign of the same client and every 25th
 * (i mod 25 = 5) in a campaign of the next client; every 4th creator folder also holds 5 of its account's
 * videos directly (the union counts them once); each campaign holds one of its creators' accounts directly,
 * its share of the account-less videos and 10 videos of other clients' creators; each client 15 videos of
 * its own creators and 5 of its account-less videos. 5 % of the tracked videos have no account, ~1 % are
 * not scraped yet (null metrics); another 5 % of videos belong to the accounts but are tracked only by a
 * second workspace (which also has a folder of the same accounts): neither may count.
 *
 * `npm run bench -- agency`; BENCH_AGENCY_ACCOUNTS (default 200, at least 12), BENCH_AGENCY_VIDEOS
 * (default 5000), BENCH_AGENCY_SAMPLES (cold loads per page, default 5). Creates, migrates and drops
 * `svc_bench_agency` (`--keep` keeps it); writes the `agency` section of bench/RESULTS.md.
 */
import { existsSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { admin, benchServiceEnv, closeServiceConnections, createMigratedDatabase, dropRedisKeys } from "./lib/db.js";
import { percentile, writeSection } from "./lib/results.js";

const BENCH_DB = "svc_bench_agency";
const REDIS_PREFIX = "bench_agency";
const ACCOUNTS = Number(process.env.BENCH_AGENCY_ACCOUNTS ?? 200);
const VIDEOS = Number(process.env.BENCH_AGENCY_VIDEOS ?? 5000);
const SAMPLES = Number(process.env.BENCH_AGENCY_SAMPLES ?? 5);
const KEEP = process.argv.includes("--keep");
const CLIENTS = 4;
const CAMPAIGNS_PER_CLIENT = 3;
const CAMPAIGNS = CLIENTS * CAMPAIGNS_PER_CLIENT;
const SNAPSHOT_DAYS_VIDEO = 30;
const SNAPSHOT_DAYS_ACCOUNT = 90;
const EMAIL = "agency@example.com";
const PASSWORD = "bench password 1234";
const WEB_DIST = fileURLToPath(new URL("../web/dist/index.html", import.meta.url));
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
const whole = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

if (!Number.isInteger(ACCOUNTS) || ACCOUNTS < CAMPAIGNS)
  throw new Error(`BENCH_AGENCY_ACCOUNTS must be an integer of at least ${CAMPAIGNS}`);
if (!Number.isInteger(VIDEOS) || VIDEOS < ACCOUNTS * 2) throw new Error("BENCH_AGENCY_VIDEOS must be at least twice the accounts");

// ---------------------------------------------------------------------------------------------
// Seed: bulk SQL. Video g (1..VIDEOS) belongs to account 1 + g mod ACCOUNTS, except every 20th (no account);
// every 97th is not scraped yet. Videos VIDEOS+1 .. VIDEOS+VIDEOS/20 belong to the accounts too but only the
// second workspace tracks them.
const EXTRA = Math.floor(VIDEOS / 20);
const SEED = [
  `SELECT setseed(0.34)`,
  `INSERT INTO accounts (platform, username, display_name, follower_count, video_count, total_views, scrape_status, data_source, last_scraped_at)
   SELECT (ARRAY['platformA','platformB','platformC'])[1 + g % 3]::"Platform", 'agency_creator_' || lpad(g::text, 4, '0'), 'Creator ' || g,
          (random() * 2e6)::bigint, 0, 0, 'ready', 'simulated', now()
     FROM generate_series(1, $1::int) g`,
  `WITH acc AS (SELECT id, platform, username, row_number() OVER (ORDER BY username) AS rn FROM accounts)
   INSERT INTO videos (platform, platform_video_id, url, description, username, display_name, account_id, view_count, like_count,
                       comment_count, share_count, engagement_rate, posted_at, scrape_status, data_source, last_scraped_at)
   SELECT coalesce(acc.platform, 'platformA'), 'ag' || lpad(r.g::text, 6, '0'), 'https://bench.invalid/agency/' || r.g,
          'Agency clip ' || r.g, coalesce(acc.username, 'independent_' || r.g), '', acc.id,
          r.views, r.likes, r.comments, r.shares,
          CASE WHEN coalesce(r.views, 0) > 0
               THEN round(((coalesce(r.likes, 0) + coalesce(r.comments, 0) + coalesce(r.shares, 0))::numeric / r.views * 100), 4)::float8
               ELSE 0 END,
          now() - r.r4 * interval '180 days', CASE WHEN r.views IS NULL THEN 'queued' ELSE 'ready' END::"ScrapeStatus", 'simulated',
          CASE WHEN r.views IS NULL THEN NULL ELSE now() END
     FROM (SELECT g, v.views,
                  (v.views * v.r1 * 0.12)::bigint AS likes, (v.views * v.r2 * 0.01)::bigint AS comments, (v.views * v.r3 * 0.005)::bigint AS shares, v.r4
             FROM generate_series(1, $2::int + $3::int) g
             CROSS JOIN LATERAL (SELECT CASE WHEN g % 97 = 0 THEN NULL ELSE floor(exp(random() * ln(5e6)))::bigint END AS views,
                                        random() AS r1, random() AS r2, random() AS r3, random() AS r4 WHERE g = g) v) r
     LEFT JOIN acc ON acc.rn = 1 + (r.g % $1::int) AND (r.g % 20 <> 0 OR r.g > $2::int)`,
  `UPDATE accounts a SET video_count = s.n, total_views = s.v FROM (SELECT account_id, count(*) AS n, coalesce(sum(view_count), 0) AS v FROM videos GROUP BY account_id) s
    WHERE s.account_id = a.id AND $1::int > 0`,
  // Tracked by the agency: accounts (all) and the first VIDEOS videos.
  `INSERT INTO tracked_accounts (workspace_id, account_id, video_limit) SELECT $1::uuid, id, 500 FROM accounts`,
  `INSERT INTO tracked_videos (workspace_id, video_id, via_account_id)
   SELECT $1::uuid, id, account_id FROM videos WHERE substr(platform_video_id, 3)::int <= $2::int`,
  // Tracked by the other workspace: the first quarter of the accounts, the extra videos and every 7th agency video.
  `INSERT INTO tracked_accounts (workspace_id, account_id, video_limit)
   SELECT $1::uuid, id, 500 FROM (SELECT id, row_number() OVER (ORDER BY username) AS rn FROM accounts) a WHERE a.rn <= greatest(1, $2::int / 4)`,
  `INSERT INTO tracked_videos (workspace_id, video_id, via_account_id)
   SELECT $1::uuid, id, account_id FROM videos WHERE substr(platform_video_id, 3)::int > $2::int OR substr(platform_video_id, 3)::int % 7 = 0`,
  // Metric history: a daily video snapshot for 30 days and the last 3 scrapes as points; account snapshots for 90 days.
  `INSERT INTO video_snapshots (video_id, day, captured_at, source, view_count, like_count, comment_count, share_count)
   SELECT v.id, (current_date - k), (current_date - k) + interval '6 hours', 'simulated',
          (v.view_count * (1 - k / 60.0))::bigint, (v.like_count * (1 - k / 60.0))::bigint, (v.comment_count * (1 - k / 60.0))::bigint, (v.share_count * (1 - k / 60.0))::bigint
     FROM videos v CROSS JOIN generate_series(0, $1::int - 1) k WHERE v.view_count IS NOT NULL`,
  `INSERT INTO video_metric_points (video_id, captured_at, source, view_count, like_count, comment_count, share_count)
   SELECT v.id, now() - k * interval '8 hours', 'simulated', (v.view_count * (1 - k / 100.0))::bigint, v.like_count, v.comment_count, v.share_count
     FROM videos v CROSS JOIN generate_series(0, 2) k WHERE v.view_count IS NOT NULL AND $1::int > 0`,
  `INSERT INTO account_snapshots (account_id, day, captured_at, source, follower_count, total_views, video_count)
   SELECT a.id, (current_date - k), (current_date - k) + interval '6 hours', 'simulated',
          (a.follower_count * (1 - k / 200.0))::bigint, (a.total_views * (1 - k / 120.0))::bigint, a.video_count
     FROM accounts a CROSS JOIN generate_series(0, $1::int - 1) k`,
];

async function seed(db: pg.Client, workspaceId: string, otherWorkspaceId: string): Promise<void> {
  await db.query(SEED[0]!);
  await db.query(SEED[1]!, [ACCOUNTS]);
  await db.query(SEED[2]!, [ACCOUNTS, VIDEOS, EXTRA]);
  await db.query(SEED[3]!, [ACCOUNTS]);
  await db.query(SEED[4]!, [workspaceId]);
  await db.query(SEED[5]!, [workspaceId, VIDEOS]);
  await db.query(SEED[6]!, [otherWorkspaceId, ACCOUNTS]);
  await db.query(SEED[7]!, [otherWorkspaceId, VIDEOS]);
  await db.query(SEED[8]!, [SNAPSHOT_DAYS_VIDEO]);
  await db.query(SEED[9]!, [1]);
  await db.query(SEED[10]!, [SNAPSHOT_DAYS_ACCOUNT]);
  await db.query("VACUUM ANALYZE");
}

// ---------------------------------------------------------------------------------------------
// The structure, planned here and built through REST. Bookkeeping: each folder's parent, direct accounts and videos.
interface PlannedFolder {
  key: string;
  name: string;
  level: 1 | 2 | 3;
  parent: string | null;
  accounts: string[];
  videos: string[];
  id?: string;
}

interface SeedRows {
  accounts: { id: string; username: string }[];
  /** The agency's tracked videos, in seed order (g = 1..VIDEOS). */
  videos: { id: string; accountId: string | null; g: number }[];
}

function plan(rows: SeedRows): PlannedFolder[] {
  const folders: PlannedFolder[] = [];
  const clientKey = (c: number) => `client${c}`;
  const campaignKey = (k: number) => `campaign${k}`;
  const clientOf = (k: number) => Math.floor(k / CAMPAIGNS_PER_CLIENT);
  for (let c = 0; c < CLIENTS; c++)
    folders.push({ key: clientKey(c), name: `Client ${c + 1}`, level: 1, parent: null, accounts: [], videos: [] });
  for (let k = 0; k < CAMPAIGNS; k++)
    folders.push({
      key: campaignKey(k),
      name: `Campaign ${clientOf(k) + 1}.${(k % CAMPAIGNS_PER_CLIENT) + 1}`,
      level: 2,
      parent: clientKey(clientOf(k)),
      accounts: [],
      videos: [],
    });
  const byKey = new Map(folders.map((f) => [f.key, f]));
  const videosOf = new Map<string, string[]>();
  for (const v of rows.videos) if (v.accountId) videosOf.set(v.accountId, [...(videosOf.get(v.accountId) ?? []), v.id]);
  const campaignsOfAccount = new Map<number, number[]>();
  rows.accounts.forEach((a, i) => {
    const home = i % CAMPAIGNS;
    const placements = [home];
    if (i % 10 === 0) placements.push(clientOf(home) * CAMPAIGNS_PER_CLIENT + (((home % CAMPAIGNS_PER_CLIENT) + 1) % CAMPAIGNS_PER_CLIENT));
    if (i % 25 === 5) placements.push((home + CAMPAIGNS_PER_CLIENT) % CAMPAIGNS);
    campaignsOfAccount.set(i, placements);
    placements.forEach((k, n) => {
      const own = videosOf.get(a.id) ?? [];
      folders.push({
        key: `creator${i}.${n}`,
        name: `Creator ${a.username}`,
        level: 3,
        parent: campaignKey(k),
        accounts: [a.id],
        videos: n === 0 && i % 4 === 0 ? own.slice(0, 5) : [],
      });
    });
  });
  // Campaigns: one of their creators' accounts directly, their share of the account-less videos, 10 videos of other clients' creators.
  const accountless = rows.videos.filter((v) => !v.accountId);
  for (let k = 0; k < CAMPAIGNS; k++) {
    const f = byKey.get(campaignKey(k))!;
    f.accounts.push(rows.accounts[k]!.id); // account k's home campaign is k
    f.videos.push(...accountless.filter((_, j) => j % CAMPAIGNS === k).map((v) => v.id));
    const foreign = rows.accounts
      .map((a, i) => ({ a, i }))
      .filter(({ i }) => (campaignsOfAccount.get(i) ?? []).every((c) => clientOf(c) !== clientOf(k)));
    for (let j = 0; j < 10 && foreign.length > 0; j++) {
      const own = videosOf.get(foreign[(k * 7 + j * 3) % foreign.length]!.a.id) ?? [];
      if (own.length > 0) f.videos.push(own[j % own.length]!);
    }
  }
  // Clients: 15 videos of their own creators (already in the sub-tree through the accounts) and 5 of their account-less videos.
  for (let c = 0; c < CLIENTS; c++) {
    const f = byKey.get(clientKey(c))!;
    const ownCreators = rows.accounts.filter((_, i) => clientOf(i % CAMPAIGNS) === c);
    for (let j = 0; j < 15; j++) {
      const own = videosOf.get(ownCreators[j % ownCreators.length]!.id) ?? [];
      if (own.length > 0) f.videos.push(own[(j * 2) % own.length]!);
    }
    const campaignVideos = [0, 1, 2].flatMap((n) =>
      byKey.get(campaignKey(c * CAMPAIGNS_PER_CLIENT + n))!.videos.filter((id) => accountless.some((v) => v.id === id)),
    );
    f.videos.push(...campaignVideos.slice(0, 5));
  }
  for (const f of folders) f.videos = [...new Set(f.videos)];
  return folders;
}

const chunks = <T>(xs: T[], n: number): T[][] => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

type Rest = <T = any>(method: string, path: string, body?: unknown) => Promise<{ status: number; body: T; ms: number }>;

function restClient(base: string, secret: string): Rest {
  return async (method, path, body) => {
    const started = performance.now();
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${secret}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const ms = performance.now() - started;
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 500)}`);
    return { status: res.status, body: JSON.parse(text), ms };
  };
}

/** Creates every folder (level by level, parents first) and fills them, one request at a time; the request times per kind. */
async function build(rest: Rest, folders: PlannedFolder[]) {
  const times = { createFolder: [] as number[], addAccounts: [] as number[], addVideos: [] as number[] };
  const ids = new Map<string, string>();
  const started = performance.now();
  for (const level of [1, 2, 3] as const) {
    for (const f of folders.filter((x) => x.level === level)) {
      const r = await rest<{ data: { id: string; parentId: string | null } }>(
        "POST",
        "/folders",
        f.parent ? { name: f.name, parentId: ids.get(f.parent) } : { name: f.name },
      );
      if (r.status !== 201 || r.body.data.parentId !== (f.parent ? ids.get(f.parent) : null))
        throw new Error(`createFolder ${f.name}: ${JSON.stringify(r.body)}`);
      f.id = r.body.data.id;
      ids.set(f.key, f.id);
      times.createFolder.push(r.ms);
    }
  }
  const createdAt = performance.now();
  for (const f of folders) {
    for (const part of chunks(f.accounts, 50)) {
      const r = await rest<{ data: { success: boolean }[] }>("POST", `/folders/${f.id}/accounts`, { account_ids: part });
      if (!r.body.data.every((x) => x.success)) throw new Error(`addAccounts ${f.name}: ${JSON.stringify(r.body)}`);
      times.addAccounts.push(r.ms);
    }
    for (const part of chunks(f.videos, 50)) {
      const r = await rest<{ data: { success: boolean }[] }>("POST", `/folders/${f.id}/videos`, { video_ids: part });
      if (!r.body.data.every((x) => x.success)) throw new Error(`addVideos ${f.name}: ${JSON.stringify(r.body)}`);
      times.addVideos.push(r.ms);
    }
  }
  return { times, createSeconds: (createdAt - started) / 1000, fillSeconds: (performance.now() - createdAt) / 1000 };
}

// ---------------------------------------------------------------------------------------------
// The check: REST analytics with includeDescendants against a hand-written SQL, and against this script's bookkeeping.
const EXPECTED_SQL = `
  WITH ids AS (
    SELECT tv.video_id FROM folder_videos fv JOIN tracked_videos tv ON tv.id = fv.tracked_video_id WHERE fv.folder_id = ANY($1::uuid[])
    UNION
    SELECT v.id FROM folder_accounts fa JOIN tracked_accounts ta ON ta.id = fa.tracked_account_id
      JOIN videos v ON v.account_id = ta.account_id JOIN tracked_videos tv ON tv.video_id = v.id AND tv.workspace_id = ta.workspace_id
     WHERE fa.folder_id = ANY($1::uuid[])
  )
  SELECT count(*)::int AS videos, coalesce(sum(v.view_count), 0)::text AS views, coalesce(sum(v.like_count), 0)::text AS likes,
         coalesce(sum(v.comment_count), 0)::text AS comments, coalesce(sum(v.share_count), 0)::text AS shares,
         coalesce(avg(v.engagement_rate) FILTER (WHERE v.view_count IS NOT NULL), 0)::float8 AS er,
         (SELECT count(DISTINCT tracked_account_id)::int FROM folder_accounts WHERE folder_id = ANY($1::uuid[])) AS accounts,
         (SELECT coalesce(array_agg(x.id::text ORDER BY x.view_count DESC, x.id), '{}') FROM (
            SELECT v2.id, v2.view_count FROM ids JOIN videos v2 ON v2.id = ids.video_id
             WHERE v2.view_count IS NOT NULL ORDER BY v2.view_count DESC, v2.id LIMIT 5) x) AS top
    FROM ids JOIN videos v ON v.id = ids.video_id`;

function subtree(folders: PlannedFolder[], root: PlannedFolder): PlannedFolder[] {
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...folders.filter((f) => f.parent === out[i]!.key));
  return out;
}

/** The video and account counts of a set of folders, from what was added (JavaScript, no SQL). */
function bookkept(set: PlannedFolder[], rows: SeedRows): { videos: number; accounts: number } {
  const accounts = new Set(set.flatMap((f) => f.accounts));
  const videos = new Set(set.flatMap((f) => f.videos));
  for (const v of rows.videos) if (v.accountId && accounts.has(v.accountId)) videos.add(v.id);
  return { videos: videos.size, accounts: accounts.size };
}

type Expected = {
  videos: number;
  accounts: number;
  views: string;
  likes: string;
  comments: string;
  shares: string;
  er: number;
  top: string[];
};

async function check(rest: Rest, db: pg.Client, folders: PlannedFolder[], rows: SeedRows) {
  const mismatches: string[] = [];
  const expectedOf = new Map<string, Expected>();
  const ownOf = new Map<string, { videos: number; accounts: number }>();
  const latency = { descendants: [] as number[], own: [] as number[] };
  for (const f of [...folders].sort((a, b) => a.level - b.level)) {
    const tree = subtree(folders, f);
    const [e] = (await db.query<Expected>(EXPECTED_SQL, [tree.map((x) => x.id)])).rows;
    const js = bookkept(tree, rows);
    const r = await rest<{ data: any }>("GET", `/folders/${f.id}/analytics?includeDescendants=true`);
    const a = r.body.data;
    const got = [a.totalVideos, a.totalAccounts, a.totalViews, a.totalLikes, a.totalComments, a.totalShares].map(String);
    const want = [e!.videos, e!.accounts, e!.views, e!.likes, e!.comments, e!.shares].map(String);
    const fields = ["totalVideos", "totalAccounts", "totalViews", "totalLikes", "totalComments", "totalShares"];
    got.forEach((g, i) => {
      if (g !== want[i]) mismatches.push(`${f.name}: ${fields[i]} ${g} ≠ SQL ${want[i]}`);
    });
    if (Math.abs(a.avgEngagementRate - e!.er) > 1e-9 * Math.max(1, Math.abs(e!.er)))
      mismatches.push(`${f.name}: avgEngagementRate ${a.avgEngagementRate} ≠ SQL ${e!.er}`);
    const top = a.topVideos.map((v: { id: string }) => v.id);
    if (JSON.stringify(top) !== JSON.stringify(e!.top))
      mismatches.push(`${f.name}: topVideos ${JSON.stringify(top)} ≠ SQL ${JSON.stringify(e!.top)}`);
    if (e!.videos !== js.videos || e!.accounts !== js.accounts)
      mismatches.push(`${f.name}: SQL ${e!.videos} videos / ${e!.accounts} accounts ≠ bookkeeping ${js.videos} / ${js.accounts}`);
    const listed = await rest<{ total: number }>("GET", `/folders/${f.id}/videos?includeDescendants=true&limit=1`);
    if (listed.body.total !== e!.videos) mismatches.push(`${f.name}: videos?includeDescendants total ${listed.body.total} ≠ ${e!.videos}`);
    const own = await rest<{ data: any }>("GET", `/folders/${f.id}/analytics`);
    const ownJs = bookkept([f], rows);
    if (own.body.data.totalVideos !== ownJs.videos || own.body.data.totalAccounts !== ownJs.accounts)
      mismatches.push(
        `${f.name}: own analytics ${own.body.data.totalVideos} / ${own.body.data.totalAccounts} ≠ bookkeeping ${ownJs.videos} / ${ownJs.accounts}`,
      );
    expectedOf.set(f.key, e!);
    ownOf.set(f.key, ownJs);
  }
  // Latency of the client folders' analytics (the biggest sub-trees), one request at a time, after a warm-up.
  const clients = folders.filter((f) => f.level === 1);
  for (const c of clients) await rest("GET", `/folders/${c.id}/analytics?includeDescendants=true`);
  for (let i = 0; i < 10; i++)
    for (const c of clients) {
      latency.descendants.push((await rest("GET", `/folders/${c.id}/analytics?includeDescendants=true`)).ms);
      latency.own.push((await rest("GET", `/folders/${c.id}/analytics`)).ms);
    }
  return { mismatches, expectedOf, ownOf, latency };
}

// ---------------------------------------------------------------------------------------------
// Chromium.
type Session = Awaited<ReturnType<BrowserContext["storageState"]>>;

async function context(browser: Browser, baseURL: string, session: Session): Promise<BrowserContext> {
  const ctx = await browser.newContext({
    baseURL,
    locale: "en-US",
    timezoneId: "UTC",
    viewport: { width: 1280, height: 860 },
    storageState: session,
  });
  ctx.setDefaultTimeout(60_000);
  return ctx;
}

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

const pageNow = (page: Page) => page.evaluate(() => performance.now());
const cards = (page: Page) =>
  page.$$eval("main .card", (els) =>
    Object.fromEntries(
      els.map((c) => [c.querySelector(".card-label")?.textContent ?? "", c.querySelector(".card-value")?.textContent ?? ""]),
    ),
  );
const crumbs = (page: Page) => page.getByRole("navigation", { name: "Breadcrumbs" }).getByRole("listitem").allTextContents();
const treeRows = (page: Page) =>
  page.$$eval("tr[data-folder-id]", (rows) =>
    rows.map((r) => ({
      level: Number(r.getAttribute("data-level")),
      id: r.getAttribute("data-folder-id")!,
      videos: (r as HTMLTableRowElement).cells[1]?.textContent ?? "",
      accounts: (r as HTMLTableRowElement).cells[2]?.textContent ?? "",
    })),
  );
const showMore = (page: Page) => page.locator("section[aria-labelledby=folders-heading]").getByRole("button", { name: "Show more" });

/** Loads every page of the tree ("Show more" until all rows are there). */
async function wholeTree(page: Page, total: number): Promise<void> {
  for (let guard = 0; guard < 50; guard++) {
    const n = await page.locator("tr[data-folder-id]").count();
    if (n >= total) return;
    await showMore(page).click();
    await page.waitForFunction((before) => document.querySelectorAll("tr[data-folder-id]").length > before, n);
  }
  throw new Error("the tree never showed every folder");
}

/** What is wrong with the tree shown (empty when right): every folder once, each below its parent, at its level, with its own counts. */
function treeProblems(
  rows: Awaited<ReturnType<typeof treeRows>>,
  folders: PlannedFolder[],
  ownOf: Map<string, { videos: number; accounts: number }>,
): string[] {
  const problems: string[] = [];
  const byId = new Map(folders.map((f) => [f.id!, f]));
  const keyToId = new Map(folders.map((f) => [f.key, f.id!]));
  if (rows.length !== folders.length) problems.push(`${rows.length} rows for ${folders.length} folders`);
  if (new Set(rows.map((r) => r.id)).size !== rows.length) problems.push("a folder shown twice");
  const stack: string[] = [];
  for (const r of rows) {
    const f = byId.get(r.id);
    if (!f) {
      problems.push(`unknown folder ${r.id}`);
      continue;
    }
    if (r.level !== f.level) problems.push(`${f.name} at level ${r.level}, expected ${f.level}`);
    stack.length = r.level - 1;
    const parentShown = stack[r.level - 2] ?? null;
    if ((f.parent ? keyToId.get(f.parent) : null) !== (r.level > 1 ? parentShown : null)) problems.push(`${f.name} not below its parent`);
    stack[r.level - 1] = r.id;
    const own = ownOf.get(f.key)!;
    if (r.videos !== whole.format(own.videos) || r.accounts !== whole.format(own.accounts))
      problems.push(`${f.name}: row shows ${r.videos} videos / ${r.accounts} accounts, expected ${own.videos} / ${own.accounts}`);
  }
  return problems.slice(0, 10);
}

interface Timing {
  page: string;
  firstData: number[];
  done?: number[];
  doneLabel?: string;
  note?: string;
}

async function browse(
  browser: Browser,
  baseURL: string,
  session: Session,
  folders: PlannedFolder[],
  expectedOf: Map<string, Expected>,
  ownOf: Map<string, { videos: number; accounts: number }>,
) {
  const problems: string[] = [];
  const timings: Timing[] = [];
  const pageErrors: string[] = [];
  const fresh = async () => {
    const ctx = await context(browser, baseURL, session);
    const page = await ctx.newPage();
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    return { ctx, page };
  };
  const clients = folders.filter((f) => f.level === 1);
  const client = clients.reduce((a, b) => (expectedOf.get(b.key)!.videos > expectedOf.get(a.key)!.videos ? b : a));
  const campaign = folders.find((f) => f.parent === client.key)!;
  const creator = folders.find((f) => f.parent === campaign.key && f.videos.length > 0) ?? folders.find((f) => f.parent === campaign.key)!;
  const nameOf = (key: string | null) => folders.find((f) => f.key === key)?.name;

  // The folders page: first row, then the whole tree.
  const tree: Timing = {
    page: `/folders (${folders.length} folders, 100 a page)`,
    firstData: [],
    done: [],
    doneLabel: "whole tree (Show more until every folder)",
  };
  let firstPage = { rows: 0, topLevel: 0, clientsShown: 0 };
  const clientIds = new Set(clients.map((c) => c.id));
  for (let i = 0; i < SAMPLES; i++) {
    const { ctx, page } = await fresh();
    await page.goto("/folders", { waitUntil: "commit" });
    await page.waitForSelector("tr[data-folder-id]");
    tree.firstData.push(await pageNow(page));
    const shown = await treeRows(page);
    firstPage = {
      rows: shown.length,
      topLevel: shown.filter((r) => r.level === 1).length,
      clientsShown: shown.filter((r) => clientIds.has(r.id)).length,
    };
    await wholeTree(page, folders.length);
    tree.done!.push(await pageNow(page));
    problems.push(...treeProblems(await treeRows(page), folders, ownOf).map((p) => `tree: ${p}`));
    await ctx.close();
  }
  tree.note =
    `first page (${firstPage.rows} folders, oldest first: a page holds its folders' parents): ${firstPage.topLevel} rows at the top level, of which ` +
    `${firstPage.clientsShown} of the ${CLIENTS} clients (a folder whose parent is not read yet would be shown at the top level)`;
  timings.push(tree);

  // A folder with its sub-folders' analytics on, and a creator folder: first data, and the cards checked on every load.
  const folderPage = async (f: PlannedFolder, sub: boolean, label: string) => {
    const t: Timing = { page: label, firstData: [] };
    const e = sub ? expectedOf.get(f.key)! : { videos: ownOf.get(f.key)!.videos, accounts: ownOf.get(f.key)!.accounts };
    for (let i = 0; i < SAMPLES; i++) {
      const { ctx, page } = await fresh();
      await page.goto(`/folders/${f.id}${sub ? "?sub=1" : ""}`, { waitUntil: "commit" });
      await page.waitForSelector("main .card-value");
      t.firstData.push(await pageNow(page));
      const c = await cards(page);
      if (c.Videos !== whole.format(e.videos) || c.Accounts !== whole.format(e.accounts))
        problems.push(`${label}: cards show ${c.Videos} videos / ${c.Accounts} accounts, expected ${e.videos} / ${e.accounts}`);
      const children = folders.filter((x) => x.parent === f.key).length;
      const shownChildren = await page
        .locator("section[aria-labelledby=subfolders-heading] tbody tr")
        .filter({ has: page.locator("a") })
        .count();
      if (shownChildren !== children) problems.push(`${label}: ${shownChildren} sub-folders shown, expected ${children}`);
      const path = [nameOf(subtreeParent(folders, f, 2)), nameOf(subtreeParent(folders, f, 1)), f.name].filter((x): x is string => !!x);
      const shown = await crumbs(page);
      if (JSON.stringify(shown) !== JSON.stringify(["Folders", ...path])) problems.push(`${label}: breadcrumbs ${JSON.stringify(shown)}`);
      await ctx.close();
    }
    timings.push(t);
  };
  await folderPage(client, true, `/folders/:client?sub=1 (${whole.format(expectedOf.get(client.key)!.videos)} videos in its sub-tree)`);
  const campaignFolder = campaign;
  await folderPage(campaignFolder, true, `/folders/:campaign?sub=1 (${whole.format(expectedOf.get(campaignFolder.key)!.videos)} videos)`);
  await folderPage(creator, false, `/folders/:creator (${whole.format(ownOf.get(creator.key)!.videos)} videos)`);

  // The switch: a client folder without, then "Include sub-folders in the analytics" → the cards with the sub-tree.
  const toggle: Timing = {
    page: "/folders/:client, then Include sub-folders (click → cards updated)",
    firstData: [],
    done: [],
    doneLabel: "click → sub-tree cards",
  };
  for (let i = 0; i < SAMPLES; i++) {
    const { ctx, page } = await fresh();
    await page.goto(`/folders/${client.id}`, { waitUntil: "commit" });
    await page.waitForSelector("main .card-value");
    toggle.firstData.push(await pageNow(page));
    const before = await pageNow(page);
    await page.getByLabel("Include sub-folders in the analytics").click();
    const want = whole.format(expectedOf.get(client.key)!.videos);
    await page.waitForFunction(
      (w) =>
        Array.from(document.querySelectorAll("main .card")).some(
          (c) => c.querySelector(".card-label")?.textContent === "Videos" && c.querySelector(".card-value")?.textContent === w,
        ),
      want,
      { timeout: 30_000 },
    );
    toggle.done!.push((await pageNow(page)) - before);
    await ctx.close();
  }
  timings.push(toggle);

  // By links: the tree → the client → the campaign → the creator (each click → the next heading).
  const walk: number[] = [];
  {
    const { ctx, page } = await fresh();
    await page.goto("/folders");
    await page.waitForSelector("tr[data-folder-id]");
    let clicksToFindClient = 0;
    while ((await page.locator(`tr[data-folder-id="${client.id}"]`).count()) === 0) {
      await wholeTreeStep(page);
      clicksToFindClient++;
    }
    for (const [f, scope] of [
      [client, `tr[data-folder-id="${client.id}"]`],
      [campaign, "section[aria-labelledby=subfolders-heading]"],
      [creator, "section[aria-labelledby=subfolders-heading]"],
    ] as const) {
      const t = Date.now();
      await page.locator(scope).getByRole("link", { name: f.name, exact: true }).first().click();
      await page.getByRole("heading", { level: 1, name: f.name }).waitFor();
      await page.waitForSelector("main .card-value");
      walk.push(Date.now() - t);
    }
    const shown = await crumbs(page);
    if (JSON.stringify(shown) !== JSON.stringify(["Folders", client.name, campaign.name, creator.name]))
      problems.push(`walk: breadcrumbs ${JSON.stringify(shown)}`);
    await ctx.close();
    timings.push({
      page: `by links: tree → client → campaign → creator`,
      firstData: [],
      note: `"Show more" pressed ${clicksToFindClient}× before the client's row was on the page; clicks ${walk.map((w) => `${w} ms`).join(", ")}`,
    });
  }
  return { problems, timings, pageErrors, client, campaign: campaignFolder, creator };
}

async function wholeTreeStep(page: Page): Promise<void> {
  const n = await page.locator("tr[data-folder-id]").count();
  await showMore(page).click();
  await page.waitForFunction((before) => document.querySelectorAll("tr[data-folder-id]").length > before, n);
}

/** The folder `up` levels above f (null when none). */
function subtreeParent(folders: PlannedFolder[], f: PlannedFolder, up: number): string | null {
  let key: string | null = f.key;
  for (let i = 0; i < up && key; i++) key = folders.find((x) => x.key === key)!.parent;
  return key === f.key ? null : key;
}

// ---------------------------------------------------------------------------------------------
async function main() {
  if (!existsSync(WEB_DIST)) throw new Error("web/dist is missing: run `npm run build:web` first");
  const loadStart = os.loadavg();
  const wallStart = performance.now();
  const databaseUrl = await createMigratedDatabase(BENCH_DB);
  Object.assign(process.env, benchServiceEnv(databaseUrl, REDIS_PREFIX));
  const { startApi } = await import("../src/main/server.js");
  const { createWorkspace } = await import("../src/domain/workspace/service.js");
  const { createUser } = await import("../src/domain/people/users.js");
  const { setMembership } = await import("../src/domain/people/members.js");
  const { OPERATOR } = await import("../src/domain/actors/actor.js");
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  let api: Awaited<ReturnType<typeof startApi>> | undefined;
  let browser: Browser | undefined;
  let failed = false;
  try {
    const { workspace, secret } = await createWorkspace({ name: "Agency", plan: "enterprise" });
    const other = await createWorkspace({ name: "Another agency", plan: "enterprise" });
    const user = await createUser({ email: EMAIL, password: PASSWORD });
    await setMembership({ workspaceId: workspace.id, userId: user.id, role: "owner", by: OPERATOR });
    let t = performance.now();
    await seed(db, workspace.id, other.workspace.id);
    const seedSeconds = (performance.now() - t) / 1000;
    const counts = (
      await db.query(
        `SELECT (SELECT count(*) FROM tracked_accounts WHERE workspace_id = $1)::int AS accounts, (SELECT count(*) FROM tracked_videos WHERE workspace_id = $1)::int AS videos,
                             (SELECT count(*) FROM videos)::int AS all_videos, (SELECT count(*) FROM video_snapshots)::int AS video_snapshots,
                             (SELECT count(*) FROM video_metric_points)::int AS points, (SELECT count(*) FROM account_snapshots)::int AS account_snapshots`,
        [workspace.id],
      )
    ).rows[0];
    const rows: SeedRows = {
      accounts: (await db.query(`SELECT id::text, username FROM accounts ORDER BY username`)).rows,
      videos: (
        await db.query(
          `SELECT v.id::text, v.account_id::text AS "accountId", substr(v.platform_video_id, 3)::int AS g FROM tracked_videos tv JOIN videos v ON v.id = tv.video_id
                         WHERE tv.workspace_id = $1 ORDER BY g`,
          [workspace.id],
        )
      ).rows,
    };

    api = await startApi(0, "127.0.0.1");
    const rest = restClient(api.url, secret);
    // The other workspace's folder holds some of the same accounts: it must never count in the agency's.
    const restOther = restClient(api.url, other.secret);
    const theirs = (await restOther<{ data: { id: string } }>("POST", "/folders", { name: "Client 1" })).body.data.id;
    const shared = (
      await db.query(`SELECT account_id::text FROM tracked_accounts WHERE workspace_id = $1 LIMIT 50`, [other.workspace.id])
    ).rows.map((r) => r.account_id);
    await restOther("POST", `/folders/${theirs}/accounts`, { account_ids: shared });

    const folders = plan(rows);
    t = performance.now();
    const built = await build(rest, folders);
    const buildSeconds = (performance.now() - t) / 1000;
    const requests = built.times.createFolder.length + built.times.addAccounts.length + built.times.addVideos.length;
    console.log(`built ${folders.length} folders in ${buildSeconds.toFixed(1)} s (${requests} requests)`);

    t = performance.now();
    const checked = await check(rest, db, folders, rows);
    const checkSeconds = (performance.now() - t) / 1000;
    if (checked.mismatches.length > 0) {
      failed = true;
      console.error(`includeDescendants: ${checked.mismatches.length} mismatch(es):\n${checked.mismatches.slice(0, 30).join("\n")}`);
    }
    console.log(
      `checked ${folders.length} folders against the hand-written SQL in ${checkSeconds.toFixed(1)} s: ${checked.mismatches.length} mismatches`,
    );

    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
    const session = await signIn(browser, api.url);
    t = performance.now();
    const seen = await browse(browser, api.url, session, folders, checked.expectedOf, checked.ownOf);
    const browseSeconds = (performance.now() - t) / 1000;
    const realErrors = seen.pageErrors;
    if (seen.problems.length > 0 || realErrors.length > 0) {
      failed = true;
      console.error(
        `dashboard: ${seen.problems.length} problem(s), ${realErrors.length} page error(s):\n${[...seen.problems, ...realErrors].slice(0, 30).join("\n")}`,
      );
    }
    if (failed) throw new Error("the agency bench found differences (above); no section written");

    const loadEnd = os.loadavg();
    const ms = (n: number) => `${Math.round(n)} ms`;
    const p = (xs: number[]) => `p50 ${ms(percentile(xs, 50))}, max ${ms(Math.max(...xs))}`;
    const clientRows = folders
      .filter((f) => f.level === 1)
      .map((f) => {
        const e = checked.expectedOf.get(f.key)!;
        return `| ${f.name} | ${subtree(folders, f).length} | ${whole.format(e.videos)} | ${e.accounts} | ${whole.format(Number(e.views))} | ✓ |`;
      });
    const level = (n: number) => folders.filter((f) => f.level === n).length;
    const md = [
      `## Agency: client → campaign → creator (${ACCOUNTS} accounts, ${whole.format(VIDEOS)} videos, in Chromium on loopback)`,
      "",
      `\`${ACCOUNTS === 200 && VIDEOS === 5000 ? "" : `BENCH_AGENCY_ACCOUNTS=${ACCOUNTS} BENCH_AGENCY_VIDEOS=${VIDEOS} `}${SAMPLES === 5 ? "" : `BENCH_AGENCY_SAMPLES=${SAMPLES} `}npm run bench -- agency\` (bench/agency.ts). ` +
        `One workspace tracking ${counts.accounts} accounts and ${whole.format(counts.videos)} videos (${whole.format(counts.all_videos)} videos in all: the rest belong to the same accounts but only a second workspace tracks them), ` +
        `with ${whole.format(counts.video_snapshots)} daily video snapshots (${SNAPSHOT_DAYS_VIDEO} days), ${whole.format(counts.points)} video metric points and ${whole.format(counts.account_snapshots)} account snapshots (${SNAPSHOT_DAYS_ACCOUNT} days), seeded with bulk SQL in ${seedSeconds.toFixed(1)} s. ` +
        `Load average (1/5/15 min) at the start ${loadStart.map((l) => l.toFixed(2)).join(" / ")}, at the end ${loadEnd.map((l) => l.toFixed(2)).join(" / ")}.`,
      "",
      `Structure built through REST, one request at a time: ${folders.length} folders (${level(1)} clients, ${level(2)} campaigns, ${level(3)} creator folders; ` +
        `${folders.length - level(1) - level(2) - ACCOUNTS} accounts in a second campaign), then ${built.times.addAccounts.length} account adds and ${built.times.addVideos.length} video adds (≤ 50 ids each).`,
      "",
      "| step | requests | time | per request |",
      "|---|---|---|---|",
      `| POST /folders (with parentId) | ${built.times.createFolder.length} | ${built.createSeconds.toFixed(1)} s | ${p(built.times.createFolder)} |`,
      `| POST /folders/{id}/accounts | ${built.times.addAccounts.length} | | ${p(built.times.addAccounts)} |`,
      `| POST /folders/{id}/videos | ${built.times.addVideos.length} | | ${p(built.times.addVideos)} |`,
      `| all adds | ${built.times.addAccounts.length + built.times.addVideos.length} | ${built.fillSeconds.toFixed(1)} s | |`,
      "",
      `includeDescendants checked on all ${folders.length} folders in ${checkSeconds.toFixed(1)} s: GET /api/v1/folders/{id}/analytics?includeDescendants=true equals a hand-written SQL ` +
        "(the sub-tree's folders listed from the bench's own bookkeeping; direct videos UNION the tracked videos of its accounts, each once) on every field " +
        "(videos, accounts, views, likes, comments, shares, average engagement, top 5), the video and account counts equal those computed in JavaScript from what was added, " +
        "GET /folders/{id}/videos?includeDescendants=true agrees on the total, and each folder's own analytics match its own contents. 0 mismatches. The clients:",
      "",
      "| client | folders in sub-tree | videos | accounts | views | = SQL |",
      "|---|---|---|---|---|---|",
      ...clientRows,
      "",
      `GET /folders/{client}/analytics, one request at a time (${checked.latency.descendants.length} each): with includeDescendants ${p(checked.latency.descendants)}; the client folder alone ${p(checked.latency.own)}.`,
      "",
      `The dashboard, cold (a new browser context each time; ${SAMPLES} loads each): navigation start → the page's first data in the DOM; on every load what it shows was checked ` +
        "(the tree: every folder once, under its parent, at its level, with its own video and account counts; the folder pages: the Videos and Accounts cards, the sub-folders, the breadcrumbs).",
      "",
      "| page | first data | then | note |",
      "|---|---|---|---|",
      ...seen.timings.map(
        (x) =>
          `| ${x.page} | ${x.firstData.length ? p(x.firstData) : ""} | ${x.done ? `${x.doneLabel}: ${p(x.done)}` : ""} | ${x.note ?? ""} |`,
      ),
      "",
      `Browsing took ${browseSeconds.toFixed(0)} s; the whole run ${((performance.now() - wallStart) / 1000).toFixed(0)} s. No uncaught page error.`,
    ].join("\n");
    console.log(md);
    await writeSection("agency", md);
  } finally {
    await browser?.close().catch(() => undefined);
    await api?.close().catch(() => undefined);
    await db.end().catch(() => undefined);
    await closeServiceConnections();
    await dropRedisKeys(REDIS_PREFIX).catch(() => undefined);
    if (!KEEP) await admin(`DROP DATABASE IF EXISTS "${BENCH_DB}" WITH (FORCE)`).catch(() => undefined);
  }
}

try {
  await main();
} catch (e) {
  console.error(e);
  process.exit(1);
}
process.exit(0);
