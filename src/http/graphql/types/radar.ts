/**
 * GraphQL: content radar, through the same services as REST (createSearch, searches and their
 * results, history) and a subscription to a search's progress. Arguments go through the REST
 * body's schema (createSearchInput), so both doors validate alike.
 */
import { ENGAGEMENT_RATE_DESCRIPTION } from "../../../domain/tracking/engagement.ts";
import { builder } from "../builder.ts";
import { sharedPerEvent } from "../subscriptions.ts";
import { batchedConnection, entityId, nodeUuid, pagedConnection } from "../connections.ts";
import { PlatformEnum, VideoRef } from "./tracking.ts";
import {
  createSearch,
  getSearchSummary,
  listHistory,
  resultsByIds,
  resultsOfSearches,
  RESULTS_ORDER,
  searchesByIds,
  SEARCHES_ORDER,
  type RadarResultItem,
  type RadarSearchSummary,
} from "../../../domain/radar/service.ts";
import { watchSearch } from "../../../domain/radar/watch.ts";
import { createSearchInput } from "../../../domain/radar/inputs.ts";
import { parseInput } from "../../../domain/shared/inputs.ts";

const RadarDepth = builder.enumType("RadarDepth", {
  description: "Research depth: number of generated queries (quick 3, standard 6, deep 12).",
  values: { QUICK: { value: "quick" }, STANDARD: { value: "standard" }, DEEP: { value: "deep" } } as const,
});

const RadarMinViews = builder.enumType("RadarMinViews", {
  description: "Minimum views, inclusive (MIN_10K = at least 10,000).",
  values: {
    ANY: { value: "any" },
    MIN_10K: { value: "10k" },
    MIN_25K: { value: "25k" },
    MIN_50K: { value: "50k" },
    MIN_100K: { value: "100k" },
  } as const,
});

const RadarTimePeriod = builder.enumType("RadarTimePeriod", {
  description: "Posting time: TODAY (since 00:00 UTC), WEEK (last 7 days), LAST_MONTH (since the same day a month ago), YEAR, ANY.",
  values: {
    ANY: { value: "any" },
    TODAY: { value: "today" },
    WEEK: { value: "week" },
    LAST_MONTH: { value: "last month" },
    YEAR: { value: "year" },
  } as const,
});

const RadarSearchStatus = builder.enumType("RadarSearchStatus", {
  values: {
    PENDING: { value: "pending" },
    SEARCHING: { value: "searching" },
    COMPLETED: { value: "completed" },
    FAILED: { value: "failed" },
  } as const,
});

const RadarResultRef = builder.loadableNodeRef("RadarResult", {
  id: { resolve: (r: RadarResultItem) => r.id, parse: nodeUuid },
  load: (ids: string[], ctx) => resultsByIds(ctx.auth.workspaceId, ids),
  sort: (r) => r.id,
  cacheResolved: (r) => r.id,
});

RadarResultRef.implement({
  description: "One result of a radar search, as found (metrics at search time).",
  fields: (t) => ({
    uuid: t.exposeID("id", { description: "The result's UUID." }),
    rank: t.exposeInt("rank", { description: "1 = the best result of its search." }),
    videoId: t.exposeID("videoId", { nullable: true, description: "UUID of the video in the service's catalog, when known." }),
    video: t.field({
      type: VideoRef,
      nullable: true,
      description: "The video, when the workspace tracks it.",
      resolve: (r) => (r.tracked && r.videoId ? r.videoId : null),
    }),
    url: t.exposeString("url"),
    type: t.field({ type: PlatformEnum, resolve: (r) => r.type }),
    platformVideoId: t.exposeString("platformVideoId"),
    description: t.exposeString("description"),
    username: t.exposeString("username"),
    viewCount: t.expose("viewCount", { type: "Count", nullable: true }),
    likeCount: t.expose("likeCount", { type: "Count", nullable: true }),
    commentCount: t.expose("commentCount", { type: "Count", nullable: true }),
    shareCount: t.expose("shareCount", { type: "Count", nullable: true }),
    engagementRate: t.exposeFloat("engagementRate", { description: ENGAGEMENT_RATE_DESCRIPTION }),
    postedAt: t.expose("postedAt", { type: "DateTime", nullable: true }),
    thumbnailUrl: t.exposeString("thumbnailUrl"),
    score: t.exposeFloat("score", { description: "0 to 1: relevance 0.40, views 0.30, engagement 0.15, recency 0.15." }),
    matchedQuery: t.exposeString("matchedQuery"),
    tracked: t.exposeBoolean("tracked", { description: "Whether your workspace tracks this video now." }),
  }),
});

const RadarResultsConnection = builder.connectionObject({ type: RadarResultRef, name: "RadarResultsConnection" });

const RadarSearchRef = builder.loadableNodeRef("RadarSearch", {
  id: { resolve: (s: RadarSearchSummary) => s.id, parse: nodeUuid },
  load: (ids: string[], ctx) => searchesByIds(ctx.auth.workspaceId, ids),
  sort: (s) => s.id,
  cacheResolved: (s) => s.id,
});

RadarSearchRef.implement({
  description: "A radar search of the workspace: its status, generated queries and ranked results.",
  fields: (t) => ({
    uuid: t.exposeID("id", { description: "The search's UUID (REST's searchId)." }),
    query: t.exposeString("query"),
    platform: t.field({ type: PlatformEnum, resolve: (s) => s.platform }),
    depth: t.field({ type: RadarDepth, resolve: (s) => s.depth }),
    minViews: t.field({ type: RadarMinViews, resolve: (s) => s.minViews }),
    timePeriod: t.field({ type: RadarTimePeriod, resolve: (s) => s.timePeriod }),
    language: t.exposeString("language"),
    status: t.field({ type: RadarSearchStatus, resolve: (s) => s.status }),
    resultCount: t.exposeInt("resultCount"),
    error: t.exposeString("error", {
      nullable: true,
      description:
        "Why it failed; or, completed, which providers failed when the results are partial, or that nothing matched (what was searched, what the catalog covers; the search is still charged).",
    }),
    queries: t.exposeStringList("queries"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    completedAt: t.expose("completedAt", { type: "DateTime", nullable: true }),
    results: t.loadable({
      type: RadarResultsConnection,
      byPath: true,
      description: "The ranked results, best first (at most 50 per search).",
      args: { ...t.arg.connectionArgs() },
      // Every search of the response in one statement.
      load: async (ids: string[], ctx, args) => {
        const { window, build } = batchedConnection(args, RESULTS_ORDER);
        const rows = await resultsOfSearches(ctx.auth.workspaceId, ids, window);
        const totals = new Map((await searchesByIds(ctx.auth.workspaceId, ids)).map((s) => [s.id, s.resultCount]));
        return ids.map((id) => build(rows.get(id) ?? [], totals.get(id) ?? 0));
      },
      resolve: (s) => s.id,
    }),
  }),
});

builder.queryFields((t) => ({
  radarSearches: t.connection(
    {
      type: RadarSearchRef,
      description: "The workspace's radar searches, newest first.",
      resolve: (_r, args, ctx) => pagedConnection(args, SEARCHES_ORDER, (window) => listHistory(ctx.auth.workspaceId, window)),
    },
    { name: "RadarSearchConnection" },
    { name: "RadarSearchEdge" },
  ),
  radarSearch: t.field({
    type: RadarSearchRef,
    description: "One radar search of the workspace, by its global ID or UUID (NOT_FOUND for another workspace's id).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => getSearchSummary(ctx.auth.workspaceId, entityId(args.id, "RadarSearch", "id")),
  }),
}));

builder.mutationFields((t) => ({
  createRadarSearch: t.field({
    type: RadarSearchRef,
    description: "Starts a radar search: charges 100 credits (INSUFFICIENT_CREDITS when fewer are available) and queues it.",
    args: {
      query: t.arg.string({ required: true }),
      platform: t.arg({ type: PlatformEnum, description: "Default PLATFORM_A." }),
      depth: t.arg({ type: RadarDepth }),
      minViews: t.arg({ type: RadarMinViews }),
      timePeriod: t.arg({ type: RadarTimePeriod }),
      language: t.arg.string({ description: "Preferred language of the generated queries (default English)." }),
    },
    resolve: async (_r, args, ctx) => {
      // The REST body's schema: absent or null arguments take its defaults.
      const input = parseInput(createSearchInput, {
        query: args.query,
        platform: args.platform ?? undefined,
        depth: args.depth ?? undefined,
        min_views: args.minViews ?? undefined,
        time_period: args.timePeriod ?? undefined,
        language: args.language ?? undefined,
      });
      const { searchId } = await createSearch(ctx.auth.workspaceId, input);
      return getSearchSummary(ctx.auth.workspaceId, searchId);
    },
  }),
}));

builder.subscriptionFields((t) => ({
  radarSearchUpdated: t.field({
    type: RadarSearchRef,
    description:
      "The search's state (status, resultCount, error) now and each time it changes, ending after completed or failed. " +
      "Only the caller's own searches (NOT_FOUND otherwise).",
    args: { id: t.arg.id({ required: true }) },
    subscribe: (_r, args, ctx) => sharedPerEvent(ctx, watchSearch(ctx.auth.workspaceId, entityId(args.id, "RadarSearch", "id"))),
    resolve: (s: RadarSearchSummary) => s,
  }),
}));
