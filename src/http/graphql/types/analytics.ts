/** GraphQL: top videos and growth, through the same analytics services as REST. */
import { z } from "zod";
import { builder } from "../builder.js";
import { VideoRef } from "./tracking.js";
import { parseInput } from "../../../domain/shared/inputs.js";
import { growth, topVideos, type GrowthPoint } from "../../../domain/analytics/service.js";
import { videosInOrder } from "../../../domain/folders/queries.js";

const GrowthPeriodEnum = builder.enumType("GrowthPeriod", {
  values: {
    LAST_7_DAYS: { value: "7d" },
    LAST_30_DAYS: { value: "30d" },
    LAST_90_DAYS: { value: "90d" },
    ALL: { value: "all", description: "From the first day any tracked account has a snapshot." },
  } as const,
});

const GrowthPointRef = builder.objectRef<GrowthPoint>("GrowthPoint").implement({
  description: "Totals over all tracked accounts on one UTC day (last known values carried over days without a snapshot).",
  fields: (t) => ({
    date: t.exposeString("date", { description: "YYYY-MM-DD" }),
    totalFollowers: t.exposeFloat("totalFollowers"),
    totalViews: t.exposeFloat("totalViews"),
    totalVideos: t.exposeFloat("totalVideos"),
  }),
});

const limit = z.number().int().min(1, "limit must be an integer from 1 to 100").max(100, "limit must be an integer from 1 to 100");

builder.queryFields((t) => ({
  topVideos: t.prismaField({
    type: [VideoRef],
    description:
      "The workspace's tracked videos ranked by engagement rate (highest first), ties by views (highest first), then id. " +
      "Only scraped videos are ranked; scraped videos with 0 views are included.",
    args: { limit: t.arg.int({ defaultValue: 10, description: "1 to 100." }) },
    resolve: async (query, _r, args, ctx) => {
      const ranked = await topVideos(ctx.auth.workspaceId, parseInput(limit, args.limit ?? 10, "limit"));
      return videosInOrder(ranked.map((v) => v.id), query);
    },
  }),
  growth: t.field({
    type: [GrowthPointRef],
    description: "Daily totals of followers, views and videos over all tracked accounts, newest day first (see REST /analytics/growth).",
    args: { period: t.arg({ type: GrowthPeriodEnum, defaultValue: "30d" }) },
    resolve: (_r, args, ctx) => growth(ctx.auth.workspaceId, args.period ?? "30d"),
  }),
}));
