/**
 * What is in a folder: its videos (sorted, filtered, paginated), its accounts, and its aggregates.
 * Everything is computed by PostgreSQL over the folder's video set (see video-set.ts): counts, sums
 * and averages are SQL aggregates, never loops over rows in JavaScript.
 */
import { Prisma } from "../../generated/prisma/client.js";
import { prisma } from "../../infra/db.js";
import { validationError } from "../shared/errors.js";
import type { FolderVideoQuery, FolderVideoSort, Page } from "./inputs.js";
import { requireFolder } from "./service.js";
import { folderVideoIds } from "./video-set.js";
import { toTrackedAccountView, type TrackedAccountView } from "../tracking/accounts.js";

export interface FolderVideoItem {
  id: string;
  description: string;
  viewCount: number | null;
  likeCount: number | null;
  engagementRate: number;
  postedAt: Date | null;
  username: string;
  type: string;
}


export interface FolderTopVideo {
  id: string;
  description: string;
  viewCount: number | null;
  username: string;
}

export interface FolderAnalytics {
  totalAccounts: number;
  totalVideos: number;
  totalViews: number;
  totalLikes: number;
  totalComments: number;
  totalShares: number;
  avgEngagementRate: number;
  topVideos: FolderTopVideo[];
}

/** Number of the folder's top videos in its analytics. */
export const FOLDER_TOP_VIDEOS = 5;

const num = (v: bigint | number | null): number | null => (v === null ? null : Number(v));

/** Sort keys to columns (a fixed map: user input never reaches the SQL text). */
const SORT_COLUMN: Record<FolderVideoSort, Prisma.Sql> = {
  views: Prisma.raw("v.view_count"),
  likes: Prisma.raw("v.like_count"),
  comments: Prisma.raw("v.comment_count"),
  shares: Prisma.raw("v.share_count"),
  engagement_rate: Prisma.raw("v.engagement_rate"),
  uploaded: Prisma.raw("v.posted_at"),
};

/** start_date must not be after end_date (both days are included). */
export function checkDateRange(startDate?: Date, endDate?: Date): void {
  if (startDate && endDate && startDate.getTime() > endDate.getTime()) {
    throw validationError("start_date must not be after end_date.", [{ path: "query.start_date", message: "must not be after end_date" }]);
  }
}

const DAY_MS = 86_400_000;

/**
 * A page of the folder's videos. Order: the sort column in the asked direction, videos without a
 * value (not scraped yet, or no posting date) last in both directions, then id ascending so that
 * equal values always come in the same order and pages never overlap. Dates: posted on or after
 * start_date 00:00 UTC and before the end of end_date (UTC); with a date filter, videos without a
 * posting date are left out.
 */
export async function listFolderVideos(
  workspaceId: string,
  folderId: string,
  q: FolderVideoQuery,
): Promise<{ items: FolderVideoItem[]; total: number }> {
  checkDateRange(q.startDate, q.endDate);
  await requireFolder(workspaceId, folderId);
  const filters: Prisma.Sql[] = [];
  if (q.startDate) filters.push(Prisma.sql`v.posted_at >= ${q.startDate}`);
  if (q.endDate) filters.push(Prisma.sql`v.posted_at < ${new Date(q.endDate.getTime() + DAY_MS)}`);
  const where = filters.length ? Prisma.sql`WHERE ${Prisma.join(filters, " AND ")}` : Prisma.empty;
  const direction = Prisma.raw(q.order === "asc" ? "ASC" : "DESC");
  const rows = await prisma.$queryRaw<
    {
      id: string;
      description: string;
      view_count: bigint | null;
      like_count: bigint | null;
      engagement_rate: number;
      posted_at: Date | null;
      username: string;
      type: string;
      total: bigint;
    }[]
  >`
    SELECT v.id::text, v.description, v.view_count, v.like_count, v.engagement_rate, v.posted_at, v.username,
           v.platform::text AS type, count(*) OVER () AS total
      FROM (${folderVideoIds(folderId)}) s
      JOIN videos v ON v.id = s.video_id
      ${where}
     ORDER BY ${SORT_COLUMN[q.sort]} ${direction} NULLS LAST, v.id ASC
     LIMIT ${q.limit} OFFSET ${q.offset}`;
  // Past the last page the window count is not there: count separately.
  const total = rows.length > 0 ? Number(rows[0]!.total) : q.offset === 0 ? 0 : await countFolderVideos(folderId, where);
  return {
    items: rows.map((r) => ({
      id: r.id,
      description: r.description,
      viewCount: num(r.view_count),
      likeCount: num(r.like_count),
      engagementRate: r.engagement_rate,
      postedAt: r.posted_at,
      username: r.username,
      type: r.type,
    })),
    total,
  };
}

async function countFolderVideos(folderId: string, where: Prisma.Sql): Promise<number> {
  const [row] = await prisma.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM (${folderVideoIds(folderId)}) s JOIN videos v ON v.id = s.video_id ${where}`;
  return row?.n ?? 0;
}

/** The folder's tracked accounts, most recently added first (ties by tracking id). */
export async function listFolderAccounts(
  workspaceId: string,
  folderId: string,
  page: Page,
): Promise<{ items: TrackedAccountView[]; total: number }> {
  await requireFolder(workspaceId, folderId);
  const where = { folderId };
  const [rows, total] = await Promise.all([
    prisma.folderAccount.findMany({
      where,
      include: { trackedAccount: { include: { account: true } } },
      orderBy: [{ addedAt: "desc" }, { trackedAccountId: "asc" }],
      take: page.limit,
      skip: page.offset,
    }),
    prisma.folderAccount.count({ where }),
  ]);
  return {
    items: rows.map(({ trackedAccount }) => toTrackedAccountView(trackedAccount)),
    total,
  };
}

/**
 * Aggregates over the folder's video set, in one statement. Sums treat a metric that is not known
 * yet (video not scraped) as 0. `avgEngagementRate` is the mean engagement rate (percent) of the
 * videos that have been scraped (known view count), 0 when there are none. `topVideos`: the 5
 * videos with the most views (ties by id), scraped videos only.
 */
export async function folderAnalytics(workspaceId: string, folderId: string): Promise<FolderAnalytics> {
  await requireFolder(workspaceId, folderId);
  const [row] = await prisma.$queryRaw<
    {
      total_accounts: number;
      total_videos: number;
      total_views: bigint;
      total_likes: bigint;
      total_comments: bigint;
      total_shares: bigint;
      avg_engagement_rate: number;
      top_videos: { id: string; description: string; view_count: number | null; username: string }[];
    }[]
  >`
    WITH fv AS MATERIALIZED (
      SELECT v.id, v.description, v.username, v.view_count, v.like_count, v.comment_count, v.share_count, v.engagement_rate
        FROM (${folderVideoIds(folderId)}) s JOIN videos v ON v.id = s.video_id
    )
    SELECT (SELECT count(*) FROM folder_accounts fa WHERE fa.folder_id = ${folderId}::uuid)::int AS total_accounts,
           count(*)::int AS total_videos,
           coalesce(sum(view_count), 0)::bigint AS total_views,
           coalesce(sum(like_count), 0)::bigint AS total_likes,
           coalesce(sum(comment_count), 0)::bigint AS total_comments,
           coalesce(sum(share_count), 0)::bigint AS total_shares,
           coalesce(avg(engagement_rate) FILTER (WHERE view_count IS NOT NULL), 0)::float8 AS avg_engagement_rate,
           (SELECT coalesce(json_agg(t ORDER BY t.view_count DESC, t.id), '[]'::json) FROM (
              SELECT id::text, description, view_count, username FROM fv
               WHERE view_count IS NOT NULL ORDER BY view_count DESC, id LIMIT ${FOLDER_TOP_VIDEOS}) t) AS top_videos
      FROM fv`;
  const r = row!;
  return {
    totalAccounts: r.total_accounts,
    totalVideos: r.total_videos,
    totalViews: Number(r.total_views),
    totalLikes: Number(r.total_likes),
    totalComments: Number(r.total_comments),
    totalShares: Number(r.total_shares),
    avgEngagementRate: r.avg_engagement_rate,
    topVideos: r.top_videos.map((t) => ({ id: t.id, description: t.description, viewCount: num(t.view_count), username: t.username })),
  };
}
