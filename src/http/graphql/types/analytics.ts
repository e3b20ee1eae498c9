/** GraphQL: top videos and growth, through the same analytics services as REST. */
import { builder } from "../builder.ts";
import { keysetConnection, seriesConnection } from "../connections.ts";
import { VideoRef } from "./tracking.ts";
import { countTopVideos, growth, topVideos, TOP_VIDEOS_ORDER, type GrowthPoint } from "../../../domain/analytics/service.ts";

export const GrowthPeriodEnum = builder.enumType("GrowthPeriod", {
  values: {
    LAST_7_DAYS: { value: "7d" },
    LAST_30_DAYS: { value: "30d" },
    LAST_90_DAYS: { value: "90d" },
    ALL: { value: "all", description: "From the first day any tracked account has a snapshot." },
  } as const,
});

export const GrowthPointRef = builder.objectRef<GrowthPoint>("GrowthPoint").implement({
  description: "Totals over all tracked accounts on one UTC day (last known values carried over days without a snapshot).",
  fields: (t) => ({
    date: t.exposeString("date", { description: "YYYY-MM-DD" }),
    totalFollowers: t.expose("totalFollowers", { type: "Count" }),
    totalViews: t.expose("totalViews", { type: "Count" }),
    totalVideos: t.expose("totalVideos", { type: "Count" }),
  }),
});

builder.queryFields((t) => ({
  topVideos: t.connection(
    {
      type: VideoRef,
      description:
        "The workspace's tracked videos ranked by engagement rate (highest first), ties by views (highest first), then id. " +
        "Only scraped videos are ranked; scraped videos with 0 views are included.",
      resolve: (_r, args, ctx) =>
        keysetConnection(
          args,
          TOP_VIDEOS_ORDER,
          (window) => topVideos(ctx.auth.workspaceId, window),
          () => countTopVideos(ctx.auth.workspaceId),
        ),
    },
    { name: "TopVideoConnection" },
    { name: "TopVideoEdge" },
  ),
  growth: t.connection(
    {
      type: GrowthPointRef,
      description:
        "Daily totals of followers, views and videos over all tracked accounts, newest day first (see REST /analytics/growth); " +
        "cursors are days.",
      args: { period: t.arg({ type: GrowthPeriodEnum, defaultValue: "30d" }) },
      resolve: async (_r, args, ctx) =>
        seriesConnection(args, await growth(ctx.auth.workspaceId, args.period ?? "30d"), (p) => p.date, true),
    },
    { name: "GrowthConnection" },
    { name: "GrowthEdge" },
  ),
}));
