/** /analytics: top videos of the workspace and growth of its tracked accounts over time. */
import { z } from "zod";
import { growth, topVideoDisplayName, topVideos, type TopVideo } from "../../../domain/analytics/service.js";
import { growthQuery, topVideosQuery } from "../../../domain/analytics/inputs.js";
import { defineRoute } from "../route.js";
import { isoOrNull, platform, queryParams, timestamp } from "../schemas.js";

const int = () => z.number().int();

const topVideo = z
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

const growthPoint = z
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

export const analyticsRoutes = [
  defineRoute({
    method: "get",
    path: "/analytics/videos/top",
    summary: "Top videos of the workspace",
    description:
      "The workspace's tracked videos ranked by engagement rate (highest first), ties broken by view count (highest first), then by id. " +
      "Only videos that have been scraped are ranked (a video never scraped has no metrics); scraped videos with 0 views are included " +
      "and rank by their engagement rate of 0.",
    tags: ["Analytics"],
    query: queryParams(topVideosQuery),
    responses: { 200: { description: "The ranking, best first.", schema: z.object({ data: z.array(topVideo) }) } },
    async handler({ auth, query }) {
      const items = await topVideos(auth.workspaceId, { limit: query.limit, offset: 0 });
      return {
        body: {
          data: items.map(topVideoItem),
        },
      };
    },
  }),
  defineRoute({
    method: "get",
    path: "/analytics/growth",
    summary: "Growth of the tracked accounts over time",
    description:
      "Daily totals over all the workspace's tracked accounts (followers, total views, video count) from their daily snapshots, " +
      "newest date first. Days are UTC and the series ends today (UTC). `7d`, `30d`, `90d`: that many days, today included; `all`: " +
      "from the first day any tracked account has a snapshot (empty when none has one). Every day is present: an account without a " +
      "snapshot on a day counts with its last known values (carried forward, also from before the period); before its first snapshot " +
      "it counts 0. A metric the platform does not give counts 0.",
    tags: ["Analytics"],
    query: queryParams(growthQuery),
    responses: { 200: { description: "One point per day, newest first.", schema: z.object({ data: z.array(growthPoint) }) } },
    async handler({ auth, query }) {
      return { body: { data: await growth(auth.workspaceId, query.period) } };
    },
  }),
];
