/**
 * Tracked accounts: track by URL, list, read, untrack, and an account's tracked videos.
 * Accounts are global (one row per platform and username, scraped once); a workspace's tracking is
 * a TrackedAccount row with its `videoLimit` (the most of the account's newest videos it tracks).
 */
import { announceAccountTracking } from "./events.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { prisma, sql, sqlExec, type Tx } from "../../infra/db.ts";
import { logger } from "../../infra/logger.ts";
import { notFound } from "../shared/errors.ts";
import { checkDayRange, type PostedDays } from "../shared/inputs.ts";
import { pageSql, rowNumberRange, type PageRequest, type Page } from "../shared/pages.ts";
import { enqueueAccountScrape } from "./jobs.ts";
import { accountAdditionsRemaining } from "./limits.ts";
import { parseAccountUrl } from "./urls.ts";
import {
  ACCOUNT_COLUMNS,
  ACCOUNT_VIDEOS_ORDER,
  postedDaysSql,
  accountFilterSql,
  trackedAccountsOrder,
  type AccountListOptions,
  TRACKED_VIDEO_COLUMNS,
  TRACKING_COLUMNS,
  type AccountView,
  type TrackedAccountView,
  type TrackedVideoRecord,
} from "./views.ts";

export interface TrackAccountResult {
  added: string[];
  alreadyTracked: string[];
  failed: string[];
}

/**
 * Starts tracking the account at `url` (INVALID_URL when it is not an accepted account link).
 * The username lands in exactly one list: `added`; `alreadyTracked` (the workspace tracks it;
 * its video limit is left unchanged); or `failed` when the plan's tracking limit leaves no room:
 * no additions remain beyond the workspace's pending accounts (tracked, none of their videos
 * tracked yet: each holds one addition, ./limits.ts). An added account is queued for scraping,
 * which lists, stores and tracks up to min(videoLimit, additions_remaining) of its newest videos.
 */
export async function trackAccount(workspaceId: string, url: string, videoLimit: number): Promise<TrackAccountResult> {
  const ref = parseAccountUrl(url);
  const outcome = await prisma.$transaction(async (tx) => {
    const room = await accountAdditionsRemaining(workspaceId, tx);
    const existing = await tx.account.findUnique({
      where: { platform_username: { platform: ref.platform, username: ref.username } },
      select: { id: true, tracked: { where: { workspaceId }, select: { id: true } } },
    });
    if (existing?.tracked.length) return { kind: "alreadyTracked" as const };
    if (room === 0) return { kind: "failed" as const };
    const accountId = existing?.id ?? (await upsertAccount(tx, ref.platform, ref.username));
    const tracked = await tx.trackedAccount.create({ data: { workspaceId, accountId, videoLimit }, select: { id: true } });
    return { kind: "added" as const, accountId, trackedAccountId: tracked.id };
  });
  const result: TrackAccountResult = { added: [], alreadyTracked: [], failed: [] };
  result[outcome.kind].push(ref.username);
  if (outcome.kind === "added") {
    await announceAccountTracking(workspaceId, outcome.accountId, "added");
    await enqueueAccountScrape(outcome.accountId, `track-${outcome.trackedAccountId}`).catch((e) =>
      logger.warn({ err: (e as Error).message, accountId: outcome.accountId }, "could not enqueue scrape-account"),
    );
  }
  return result;
}

/**
 * Creates the global account row if missing (the unique key decides between concurrent callers)
 * and links the videos already known under its username that have no account yet.
 */
async function upsertAccount(tx: Tx, platform: AccountView["platform"], username: string): Promise<string> {
  const [inserted] = await sql<{ id: string }>(
    Prisma.sql`INSERT INTO accounts (platform, username) VALUES (${platform}::"Platform", ${username})
      ON CONFLICT (platform, username) DO NOTHING RETURNING id`,
    { tx },
  );
  if (inserted) {
    await sqlExec(
      Prisma.sql`UPDATE videos SET account_id = ${inserted.id}::uuid
        WHERE platform = ${platform}::"Platform" AND username = ${username} AND account_id IS NULL`,
      { tx },
    );
    return inserted.id;
  }
  const row = await tx.account.findUniqueOrThrow({ where: { platform_username: { platform, username } }, select: { id: true } });
  return row.id;
}

/**
 * A page of the workspace's tracked accounts (TRACKED_ACCOUNTS_ORDER unless `list` sorts otherwise,
 * ./views.ts trackedAccountsOrder), filtered by platform and words; the total counts the matches.
 */
export async function listTrackedAccounts(
  workspaceId: string,
  page: PageRequest,
  list: AccountListOptions = {},
): Promise<Page<TrackedAccountView>> {
  const p = pageSql(trackedAccountsOrder(list.sort, list.order), page);
  const filter = accountFilterSql(list);
  const [items, [count]] = await Promise.all([
    sql<TrackedAccountView>(
      Prisma.sql`SELECT ${ACCOUNT_COLUMNS}, ${TRACKING_COLUMNS}
        FROM tracked_accounts ta JOIN accounts a ON a.id = ta.account_id
       WHERE ta.workspace_id = ${workspaceId}::uuid ${filter} ${p.where}
       ${p.orderBy} ${p.limit}`,
      { prepare: true },
    ),
    filter === Prisma.empty
      ? sql<{ n: number }>(Prisma.sql`SELECT count(*) AS n FROM tracked_accounts WHERE workspace_id = ${workspaceId}::uuid`, {
          prepare: true,
        })
      : sql<{ n: number }>(
          Prisma.sql`SELECT count(*) AS n FROM tracked_accounts ta JOIN accounts a ON a.id = ta.account_id WHERE ta.workspace_id = ${workspaceId}::uuid ${filter}`,
          { prepare: true },
        ),
  ]);
  return { items, total: count!.n };
}

/**
 * Accounts by id, as the workspace sees them: those it tracks (with its tracking record) and those
 * that own a video it tracks (tracking fields null). Other ids are left out; any order.
 */
export async function accountsByIds(workspaceId: string, accountIds: readonly string[]): Promise<AccountView[]> {
  if (accountIds.length === 0) return [];
  return sql<AccountView>(
    Prisma.sql`SELECT ${ACCOUNT_COLUMNS}, ${TRACKING_COLUMNS}
      FROM accounts a
      LEFT JOIN tracked_accounts ta ON ta.account_id = a.id AND ta.workspace_id = ${workspaceId}::uuid
     WHERE a.id = ANY(${accountIds as string[]}::uuid[])
       AND (ta.id IS NOT NULL OR EXISTS (
             SELECT 1 FROM videos v JOIN tracked_videos tv ON tv.video_id = v.id AND tv.workspace_id = ${workspaceId}::uuid
              WHERE v.account_id = a.id))`,
    { prepare: true },
  );
}

/** One account the workspace tracks, by its canonical account id; NOT_FOUND otherwise. */
export async function getTrackedAccount(workspaceId: string, accountId: string): Promise<TrackedAccountView> {
  const row = await findTrackedAccount(workspaceId, accountId);
  if (!row) throw notFound("Account");
  return row;
}

/** The account as the workspace tracks it, or null when it does not (a live list's REMOVED change, say). */
export async function findTrackedAccount(workspaceId: string, accountId: string): Promise<TrackedAccountView | null> {
  const [row] = await sql<TrackedAccountView>(
    Prisma.sql`SELECT ${ACCOUNT_COLUMNS}, ${TRACKING_COLUMNS}
      FROM tracked_accounts ta JOIN accounts a ON a.id = ta.account_id
     WHERE ta.workspace_id = ${workspaceId}::uuid AND ta.account_id = ${accountId}::uuid`,
    { prepare: true },
  );
  return row ?? null;
}

/** Stops tracking the account. Its videos stay tracked (they are the workspace's TrackedVideo rows). */
export async function untrackAccount(workspaceId: string, accountId: string): Promise<{ id: string }> {
  const { count } = await prisma.trackedAccount.deleteMany({ where: { workspaceId, accountId } });
  if (count === 0) throw notFound("Account");
  await announceAccountTracking(workspaceId, accountId, "removed");
  return { id: accountId };
}

/**
 * The accounts' videos the workspace tracks (however they came to be tracked), within the days:
 * `videos v` joined to the workspace's tracking records `tv`.
 */
function accountVideosFrom(workspaceId: string, accountIds: readonly string[], f: PostedDays): Prisma.Sql {
  return Prisma.sql`videos v JOIN tracked_videos tv ON tv.video_id = v.id AND tv.workspace_id = ${workspaceId}::uuid
    WHERE v.account_id = ANY(${accountIds as string[]}::uuid[]) ${postedDaysSql(f)}`;
}

/**
 * A page of each account's videos the workspace tracks (ACCOUNT_VIDEOS_ORDER: newest posted first,
 * unknown dates last), for several accounts in one statement. With a date filter, videos whose
 * posting date is not known yet are left out. Accounts must already be known to the caller as
 * visible to the workspace; only the workspace's tracked videos are ever returned.
 */
export async function videosOfAccounts(
  workspaceId: string,
  accountIds: readonly string[],
  page: PageRequest,
  f: PostedDays = {},
): Promise<Map<string, TrackedVideoRecord[]>> {
  checkDayRange(f.start_date, f.end_date);
  const out = new Map<string, TrackedVideoRecord[]>(accountIds.map((id) => [id, []]));
  if (accountIds.length === 0) return out;
  const p = pageSql(ACCOUNT_VIDEOS_ORDER, page);
  const { from, to } = rowNumberRange(page);
  const rows = await sql<TrackedVideoRecord & { n: number }>(Prisma.sql`
    SELECT * FROM (
      SELECT ${TRACKED_VIDEO_COLUMNS}, row_number() OVER (PARTITION BY v.account_id ${p.orderBy}) AS n
        FROM ${accountVideosFrom(workspaceId, accountIds, f)} ${p.where}
    ) x WHERE n BETWEEN ${from} AND ${to} ORDER BY "accountId", n`);
  for (const { n: _n, ...v } of rows) out.get(v.accountId!)?.push(v as TrackedVideoRecord);
  return out;
}

/** How many of each account's videos the workspace tracks within the days (the lists' totals). */
export async function countVideosOfAccounts(
  workspaceId: string,
  accountIds: readonly string[],
  f: PostedDays = {},
): Promise<Map<string, number>> {
  const out = new Map<string, number>(accountIds.map((id) => [id, 0]));
  if (accountIds.length === 0) return out;
  const rows = await sql<{ accountId: string; n: number }>(Prisma.sql`
    SELECT v.account_id AS "accountId", count(*) AS n FROM ${accountVideosFrom(workspaceId, accountIds, f)} GROUP BY v.account_id`);
  for (const r of rows) out.set(r.accountId, r.n);
  return out;
}

/**
 * The account's videos the workspace tracks, newest posted first, with the total. NOT_FOUND unless
 * the workspace tracks the account.
 */
export async function listAccountVideos(
  workspaceId: string,
  accountId: string,
  page: PageRequest,
  f: PostedDays = {},
): Promise<Page<TrackedVideoRecord>> {
  checkDayRange(f.start_date, f.end_date);
  await getTrackedAccount(workspaceId, accountId);
  const [items, totals] = await Promise.all([
    videosOfAccounts(workspaceId, [accountId], page, f),
    countVideosOfAccounts(workspaceId, [accountId], f),
  ]);
  return { items: items.get(accountId) ?? [], total: totals.get(accountId) ?? 0 };
}
