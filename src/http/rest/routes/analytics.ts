/** /analytics: top videos of the workspace and growth of its tracked accounts over time. */
import { z } from "zod";
import { growth, topVideos } from "../../../domain/analytics/service.ts";
import { growthQuery, topVideosQuery } from "../../../domain/analytics/inputs.ts";
import { defineRoute } from "../route.ts";
import { queryParams } from "../schemas.ts";
import { growthPoint, topVideo, topVideoItem } from "../../records/analytics.ts";

export const analyticsRoutes = [
  defineRoute({
    method: "get",
    path: "/analytics/videos/top",
    operationId: "getTopVideos",
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
    operationId: "getGrowth",
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
