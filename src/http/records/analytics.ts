/**
 * Analytics as every door answers them (REST /analytics, MCP get_top_videos, get_growth): the zod
 * schemas of the OpenAPI document and the mapper of a ranked video.
 */
import { z } from "zod";
import { topVideoDisplayName, type TopVideo } from "../../domain/analytics/service.ts";
import { int, isoOrNull, platform, timestamp } from "../../domain/shared/records.ts";

export const topVideo = z
  .object({
    id: z.string(),
    platformVideoId: z.string(),
    description: z.string(),
    viewCount: int(),
    likeCount: int().nullable().meta({ description: "null where the platform does not give it." }),
    commentCount: int().nullable().meta({ description: "null where the platform does not give it." }),
    shareCount: int().nullable().meta({ description: "null where the platform does not give it." }),
    engagementRate: z.number().meta({ description: "Percent units." }),
    postedAt: timestamp.nullable(),
    url: z.string(),
    type: platform,
    thumbnailUrl: z.string(),
    username: z.string(),
    displayName: z.string(),
  })
  .meta({ id: "TopVideo" });

export const growthPoint = z
  .object({
    date: z.string().meta({ format: "date", example: "2026-11-21" }),
    totalFollowers: int(),
    totalViews: int(),
    totalVideos: int(),
  })
  .meta({ id: "GrowthPoint" });

/** A ranked video as GET /analytics/videos/top answers it (also the MCP door's shape). */
export function topVideoItem(v: TopVideo) {
  return {
    id: v.id,
    platformVideoId: v.platformVideoId,
    description: v.description,
    viewCount: v.viewCount!,
    likeCount: v.likeCount,
    commentCount: v.commentCount,
    shareCount: v.shareCount,
    engagementRate: v.engagementRate,
    postedAt: isoOrNull(v.postedAt),
    url: v.url,
    type: v.platform,
    thumbnailUrl: v.thumbnailUrl,
    username: v.username,
    displayName: topVideoDisplayName(v),
  };
}
