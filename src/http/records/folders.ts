/**
 * Folders as every door answers them (REST /folders, MCP list_folders, get_folder_analytics): the
 * zod schemas of the OpenAPI document and the mappers from the domain's records.
 */
import { z } from "zod";
import type { FolderRecord, FolderSummary } from "../../domain/folders/service.ts";
import type { FolderAncestor } from "../../domain/folders/tree.ts";
import type { VideoRecord } from "../../domain/tracking/views.ts";
import { int, iso, isoOrNull, platform, timestamp } from "../../domain/shared/records.ts";

const count = (what: string) =>
  int()
    .nullable()
    .meta({ description: `${what}; null until the item is first scraped or where the platform does not give it.` });

const parentId = z
  .string()
  .nullable()
  .meta({ description: "The parent folder's id; null for a top-level folder (folders nest at most 5 levels deep)." });

/** A folder as a write answers it (POST and PATCH /folders). */
export const folderRecordSchema = z.object({ id: z.string(), name: z.string(), parentId, createdAt: timestamp });
export const folderRecordItem = (f: FolderRecord) => ({ id: f.id, name: f.name, parentId: f.parentId, createdAt: iso(f.createdAt) });

export const folderSummary = z
  .object({
    id: z.string(),
    name: z.string(),
    parentId,
    childCount: int().meta({ description: "Direct sub-folders." }),
    createdAt: timestamp,
    videoCount: int().meta({
      description: "Distinct videos in the folder: videos added directly plus the tracked videos of the accounts in the folder.",
    }),
    accountCount: int(),
  })
  .meta({ id: "Folder" });

export const folderVideoItem = z
  .object({
    id: z.string().meta({ description: "The video's UUID." }),
    description: z.string(),
    viewCount: count("Views"),
    likeCount: count("Likes"),
    engagementRate: z.number().meta({ description: "Engagement rate in percent units, as stored on the video at its last scrape." }),
    postedAt: timestamp.nullable(),
    username: z.string(),
    type: platform,
  })
  .meta({ id: "FolderVideo" });

export const folderAnalyticsSchema = z
  .object({
    totalAccounts: int(),
    totalVideos: int(),
    totalViews: int(),
    totalLikes: int(),
    totalComments: int(),
    totalShares: int(),
    avgEngagementRate: z.number(),
    topVideos: z.array(z.object({ id: z.string(), description: z.string(), viewCount: int().nullable(), username: z.string() })),
  })
  .meta({ id: "FolderAnalytics" });

/** A folder with its counts, as GET /folders answers it (also the MCP door's shape). */
export const folderSummaryItem = (f: FolderSummary) => ({ ...f, createdAt: iso(f.createdAt) });

/** GET /folders/{id}: the summary and the path from the top of the tree (breadcrumbs). */
export const folderDetail = folderSummary
  .extend({
    ancestors: z
      .array(z.object({ id: z.string(), name: z.string() }))
      .meta({ description: "The folders above this one, the top-level folder first; empty for a top-level folder." }),
  })
  .meta({ id: "FolderDetail" });
export const folderDetailItem = (f: FolderSummary, ancestors: FolderAncestor[]) => ({
  ...folderSummaryItem(f),
  ancestors: ancestors.map((a) => ({ id: a.id, name: a.name })),
});

/** A video of a folder, as GET /folders/{id}/videos lists it. */
export const folderVideoItemOf = (v: VideoRecord) => ({
  id: v.id,
  description: v.description,
  viewCount: v.viewCount,
  likeCount: v.likeCount,
  engagementRate: v.engagementRate,
  postedAt: isoOrNull(v.postedAt),
  username: v.username,
  type: v.platform,
});
