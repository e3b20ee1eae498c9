/**
 * What a folder's shared page shows: the folder's name, its analytics cards, its
 * growth over 7, 30 or 90 days, its top videos and top accounts, and nothing else of the workspace.
 * The workspace and the folder come from the token only (./share-links.ts), and the reads are the
 * folder area's own (src/domain/folders/contents.ts: `folderAnalytics`, `folderGrowth`), over the
 * folder itself (not its sub-folders, whose names and existence stay private).
 *
 * No id that works elsewhere leaves here: videos and accounts are numbered by rank, and only what a
 * visitor of the platforms could see anyway is shown (usernames, descriptions, public counts).
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { sql } from "../../infra/db.ts";
import { folderAnalytics, folderGrowth } from "../folders/contents.ts";
import { requireFolder } from "../folders/service.ts";
import { folderAccountIds, folderVideoIds } from "../folders/video-set.ts";
import type { GrowthPoint } from "../analytics/service.ts";
import type { SharedReportPeriod } from "./inputs.ts";
import { resolveShareToken } from "./share-links.ts";

export interface SharedTopVideo {
  rank: number;
  username: string;
  description: string;
  views: number;
}

export interface SharedTopAccount {
  rank: number;
  platform: string;
  username: string;
  displayName: string;
  followers: number | null;
  totalViews: number | null;
}

export interface SharedFolderReport {
  folderName: string;
  period: SharedReportPeriod;
  generatedAt: Date;
  expiresAt: Date;
  cards: {
    totalVideos: number;
    totalAccounts: number;
    totalViews: number;
    totalLikes: number;
    totalComments: number;
    totalShares: number;
    avgEngagementRate: number;
  };
  /** Oldest day first. */
  growth: GrowthPoint[];
  topVideos: SharedTopVideo[];
  topAccounts: SharedTopAccount[];
  /** Some of its numbers come from the simulated provider (synthetic demo data), not from the platforms. */
  simulated: boolean;
}

const TOP_ACCOUNTS = 5;

/** The folder's accounts with the most followers (ties by username), at most 5. */
async function topAccounts(workspaceId: string, folderId: string): Promise<SharedTopAccount[]> {
  const rows = await sql<Omit<SharedTopAccount, "rank">>(Prisma.sql`
    SELECT a.platform::text AS platform, a.username, a.display_name AS "displayName", a.follower_count AS followers, a.total_views AS "totalViews"
      FROM (${folderAccountIds(folderId, false)}) fa
      JOIN tracked_accounts ta ON ta.id = fa.tracked_account_id AND ta.workspace_id = ${workspaceId}::uuid
      JOIN accounts a ON a.id = ta.account_id
     ORDER BY a.follower_count DESC NULLS LAST, a.username, a.id LIMIT ${TOP_ACCOUNTS}`);
  return rows.map((r, i) => ({ rank: i + 1, ...r }));
}

/** Whether any of the folder's videos or accounts has numbers from the simulated provider. */
async function simulatedNumbers(workspaceId: string, folderId: string): Promise<boolean> {
  const [row] = await sql<{ simulated: boolean }>(Prisma.sql`
    SELECT EXISTS (SELECT 1 FROM (${folderVideoIds(folderId)}) s JOIN videos v ON v.id = s.video_id WHERE v.data_source = 'simulated')
        OR EXISTS (SELECT 1 FROM (${folderAccountIds(folderId, false)}) fa
                     JOIN tracked_accounts ta ON ta.id = fa.tracked_account_id AND ta.workspace_id = ${workspaceId}::uuid
                     JOIN accounts a ON a.id = ta.account_id WHERE a.data_source = 'simulated') AS simulated`);
  return row?.simulated ?? false;
}

/** The folder's report a token opens, or null (unknown, revoked, expired: one answer). */
export async function sharedFolderReport(token: string, period: SharedReportPeriod, now = new Date()): Promise<SharedFolderReport | null> {
  const link = await resolveShareToken(token);
  if (!link) return null;
  const { workspaceId, folderId } = link;
  const [folder, analytics, growth, accounts, simulated] = await Promise.all([
    requireFolder(workspaceId, folderId),
    folderAnalytics(workspaceId, folderId),
    folderGrowth(workspaceId, folderId, period, {}, now),
    topAccounts(workspaceId, folderId),
    simulatedNumbers(workspaceId, folderId),
  ]);
  const { topVideos, ...cards } = analytics;
  return {
    folderName: folder.name,
    period,
    generatedAt: now,
    expiresAt: link.expiresAt,
    cards,
    growth: [...growth].reverse(),
    topVideos: topVideos.map((v, i) => ({ rank: i + 1, username: v.username, description: v.description, views: v.viewCount ?? 0 })),
    topAccounts: accounts,
    simulated,
  };
}
