/**
 * Tracked accounts: track by URL, list, read, untrack, and an account's tracked videos.
 * Accounts are global (one row per platform and username, scraped once); a workspace's tracking is
 * a TrackedAccount row with its `videoLimit` (the most of the account's newest videos it tracks).
 */
import type { Account, Prisma, Video } from "../../generated/prisma/client.js";
import { prisma } from "../../infra/db.js";
import { logger } from "../../infra/logger.js";
import { notFound, validationError } from "../shared/errors.js";
import { enqueueAccountScrape } from "./jobs.js";
import { lockTrackingLimits } from "./limits.js";
import { parseAccountUrl } from "./urls.js";
import { relationQuery, type Page, type VideoQuery } from "./videos.js";

export const DEFAULT_ACCOUNT_VIDEO_LIMIT = 50;
export const MAX_ACCOUNT_VIDEO_LIMIT = 500;

export interface TrackAccountResult {
  added: string[];
  alreadyTracked: string[];
  failed: string[];
}

/** An account as a workspace sees it: the global record plus the workspace's tracking record. */
export type TrackedAccountView = Account & { trackedAccountId: string; videoLimit: number; trackedAt: Date };

/**
 * Starts tracking the account at `url` (INVALID_URL when it is not an accepted account link).
 * The username lands in exactly one list: `added`; `alreadyTracked` (the workspace tracks it;
 * its video limit is left unchanged); or `failed` when the plan's tracking limit is used up
 * (additions_remaining is 0). An added account is queued for scraping, which then tracks up to
 * min(videoLimit, additions_remaining) of its newest videos.
 */
export async function trackAccount(workspaceId: string, url: string, videoLimit = DEFAULT_ACCOUNT_VIDEO_LIMIT): Promise<TrackAccountResult> {
  const ref = parseAccountUrl(url);
  const outcome = await prisma.$transaction(async (tx) => {
    const limits = await lockTrackingLimits(tx, workspaceId);
    const existing = await tx.account.findUnique({
      where: { platform_username: { platform: ref.platform, username: ref.username } },
      select: { id: true, tracked: { where: { workspaceId }, select: { id: true } } },
    });
    if (existing?.tracked.length) return { kind: "alreadyTracked" as const };
    if (limits.additionsRemaining === 0) return { kind: "failed" as const };
    const accountId = existing?.id ?? (await upsertAccount(tx, ref.platform, ref.username));
    const tracked = await tx.trackedAccount.create({ data: { workspaceId, accountId, videoLimit }, select: { id: true } });
    return { kind: "added" as const, accountId, trackedAccountId: tracked.id };
  });
  const result: TrackAccountResult = { added: [], alreadyTracked: [], failed: [] };
  result[outcome.kind].push(ref.username);
  if (outcome.kind === "added") {
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
async function upsertAccount(tx: Prisma.TransactionClient, platform: Account["platform"], username: string): Promise<string> {
  const inserted = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO accounts (platform, username) VALUES (${platform}::"Platform", ${username})
    ON CONFLICT (platform, username) DO NOTHING RETURNING id`;
  if (inserted[0]) {
    await tx.$executeRaw`
      UPDATE videos SET account_id = ${inserted[0].id}::uuid
       WHERE platform = ${platform}::"Platform" AND username = ${username} AND account_id IS NULL`;
    return inserted[0].id;
  }
  const row = await tx.account.findUniqueOrThrow({ where: { platform_username: { platform, username } }, select: { id: true } });
  return row.id;
}

type TrackedAccountRow = { id: string; videoLimit: number; createdAt: Date; account: Account };
/** A tracking record with its account, as every account listing answers it (GET /accounts, folder accounts). */
export const toTrackedAccountView = (r: TrackedAccountRow): TrackedAccountView => ({
  ...r.account,
  trackedAccountId: r.id,
  videoLimit: r.videoLimit,
  trackedAt: r.createdAt,
});
const toView = toTrackedAccountView;
const trackedSelect = { id: true, videoLimit: true, createdAt: true, account: true } as const;

/** The workspace's tracked accounts, newest tracked first (ties by tracking id). */
export async function listTrackedAccounts(
  workspaceId: string,
  page: { limit: number; offset: number },
  accountQuery?: AccountQuery,
): Promise<Page<TrackedAccountView>> {
  const [rows, total] = await Promise.all([
    prisma.trackedAccount.findMany({
      where: { workspaceId },
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      take: page.limit,
      skip: page.offset,
      select: { ...trackedSelect, account: relationQuery(accountQuery) },
    }),
    prisma.trackedAccount.count({ where: { workspaceId } }),
  ]);
  return { items: rows.map((r) => toView(r as TrackedAccountRow)), total };
}

/** Extra relations of the account as GraphQL's query planner asks for them; REST passes nothing. */
export type AccountQuery = { include?: Prisma.AccountInclude; select?: Prisma.AccountSelect };

/** One account the workspace tracks, by its canonical account id; NOT_FOUND otherwise. */
export async function getTrackedAccount(workspaceId: string, accountId: string, accountQuery?: AccountQuery): Promise<TrackedAccountView> {
  const row = await prisma.trackedAccount.findUnique({
    where: { workspaceId_accountId: { workspaceId, accountId } },
    select: { ...trackedSelect, account: relationQuery(accountQuery) },
  });
  if (!row) throw notFound("Account");
  return toView(row as TrackedAccountRow);
}

/** Stops tracking the account. Its videos stay tracked (they are the workspace's TrackedVideo rows). */
export async function untrackAccount(workspaceId: string, accountId: string): Promise<{ id: string }> {
  const { count } = await prisma.trackedAccount.deleteMany({ where: { workspaceId, accountId } });
  if (count === 0) throw notFound("Account");
  return { id: accountId };
}

export interface AccountVideosFilter {
  limit: number;
  offset: number;
  /** Inclusive: videos posted on or after 00:00 UTC of this day. */
  startDate?: Date;
  /** Inclusive: videos posted on or before the end (24:00 UTC) of this day. */
  endDate?: Date;
}

const DAY_MS = 86_400_000;

/** The Prisma filter of an account's videos tracked by the workspace, with the date bounds. */
export function accountVideosWhere(workspaceId: string, accountId: string, f: Pick<AccountVideosFilter, "startDate" | "endDate">): Prisma.VideoWhereInput {
  const postedAt: Prisma.DateTimeNullableFilter = {};
  if (f.startDate) postedAt.gte = f.startDate;
  if (f.endDate) postedAt.lt = new Date(f.endDate.getTime() + DAY_MS);
  return {
    accountId,
    tracked: { some: { workspaceId } },
    ...(f.startDate || f.endDate ? { postedAt } : {}),
  };
}

/** Newest posted first; videos whose date is unknown (not scraped yet) last; ties by id. */
export const ACCOUNT_VIDEOS_ORDER: Prisma.VideoOrderByWithRelationInput[] = [{ postedAt: { sort: "desc", nulls: "last" } }, { id: "asc" }];

/**
 * The account's videos the workspace tracks (however they were added), newest posted first.
 * NOT_FOUND unless the workspace tracks the account. With a date filter, videos whose posting
 * date is not known yet are left out.
 */
export async function listAccountVideos(workspaceId: string, accountId: string, f: AccountVideosFilter, videoQuery?: VideoQuery) {
  if (f.startDate && f.endDate && f.startDate > f.endDate) {
    throw validationError("start_date must not be after end_date.", [{ path: "start_date", message: "must not be after end_date" }]);
  }
  await getTrackedAccount(workspaceId, accountId);
  const where = accountVideosWhere(workspaceId, accountId, f);
  const [items, total] = await Promise.all([
    prisma.video.findMany({ ...videoQuery, where, orderBy: ACCOUNT_VIDEOS_ORDER, take: f.limit, skip: f.offset }) as Promise<Video[]>,
    prisma.video.count({ where }),
  ]);
  return { items, total };
}
