/**
 * The analytics MCP tools: top videos and the tracked accounts' growth (as REST /analytics).
 */
import { growthQuery, topVideosQuery } from "../../../domain/analytics/inputs.ts";
import { growth, topVideos } from "../../../domain/analytics/service.ts";
import { topVideoItem } from "../../records/analytics.ts";
import { READ, defineTool, type AnyTool } from "../tool.ts";

export const analyticsTools: AnyTool[] = [
  defineTool({
    name: "get_top_videos",
    title: "Top videos",
    description:
      "The workspace's tracked videos ranked by engagement rate (highest first), then views, then id; only scraped videos are ranked. Free.",
    input: topVideosQuery,
    annotations: READ,
    run: async ({ auth }, input) => ({ data: (await topVideos(auth.workspaceId, { limit: input.limit, offset: 0 })).map(topVideoItem) }),
  }),
  defineTool({
    name: "get_growth",
    title: "Growth of tracked accounts",
    description:
      "Daily totals of followers, views and videos over all the workspace's tracked accounts, newest UTC day first, for the " +
      "last 7, 30 or 90 days or since the first snapshot (`all`). Days without a snapshot carry the last known values. Free.",
    input: growthQuery,
    annotations: READ,
    run: async ({ auth }, input) => ({ data: await growth(auth.workspaceId, input.period) }),
  }),
];
