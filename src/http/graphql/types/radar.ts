/**
 * GraphQL: content radar, through the same services as REST (createSearch, getSearch, listHistory)
 * and a subscription to a search's progress.
 *
 * Counts are Float, not Int: GraphQL Int is 32-bit and view counts of popular videos exceed it.
 * Arguments go through the REST body's zod schema (createSearchInput), so both doors validate alike.
 */
import { ENGAGEMENT_RATE_DESCRIPTION } from "../../../domain/tracking/engagement.js";
import { z } from "zod";
import { builder } from "../builder.js";
import { PlatformEnum } from "./tracking.js";
import {
  createSearch,
  getSearchSummary,
  listHistory,
  listResultsOf,
  type PageInput,
  type RadarResultItem,
  type RadarSearchSummary,
} from "../../../domain/radar/service.js";
import { parseInput } from "../../../domain/shared/inputs.js";
import { eventsSubscribed, subscribeEvents } from "../../../domain/shared/events.js";

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
  values: { PENDING: { value: "pending" }, SEARCHING: { value: "searching" }, COMPLETED: { value: "completed" }, FAILED: { value: "failed" } } as const,
});

const RadarResultRef = builder.objectRef<RadarResultItem>("RadarResult").implement({
  fields: (t) => ({
    videoId: t.exposeID("videoId", { nullable: true, description: "The video in the service's catalog, when known." }),
    url: t.exposeString("url"),
    type: t.field({ type: PlatformEnum, resolve: (r) => r.type }),
    platformVideoId: t.exposeString("platformVideoId"),
    description: t.exposeString("description"),
    username: t.exposeString("username"),
    viewCount: t.exposeFloat("viewCount", { nullable: true }),
    likeCount: t.exposeFloat("likeCount", { nullable: true }),
    commentCount: t.exposeFloat("commentCount", { nullable: true }),
    shareCount: t.exposeFloat("shareCount", { nullable: true }),
    engagementRate: t.exposeFloat("engagementRate", { description: ENGAGEMENT_RATE_DESCRIPTION }),
    postedAt: t.expose("postedAt", { type: "DateTime", nullable: true }),
    thumbnailUrl: t.exposeString("thumbnailUrl"),
    score: t.exposeFloat("score", { description: "0 to 1: relevance 0.40, views 0.30, engagement 0.15, recency 0.15." }),
    matchedQuery: t.exposeString("matchedQuery"),
    tracked: t.exposeBoolean("tracked", { description: "Whether your workspace tracks this video now." }),
  }),
});

const RadarResultPage = builder
  .objectRef<{ items: RadarResultItem[]; total: number; limit: number; offset: number }>("RadarResultPage")
  .implement({
    fields: (t) => ({
      items: t.field({ type: [RadarResultRef], resolve: (p) => p.items }),
      total: t.exposeInt("total"),
      limit: t.exposeInt("limit"),
      offset: t.exposeInt("offset"),
      hasMore: t.boolean({ resolve: (p) => p.offset + p.limit < p.total }),
    }),
  });

type SearchParent = RadarSearchSummary & { workspaceId: string };

/**
 * Batches the `results` of every search resolved in the same tick into one query (a list of
 * searches asking for their results would otherwise cost one query per search). One batcher per
 * request context and page arguments.
 */
class ResultsBatch {
  private ids = new Set<string>();
  private pending: Promise<Map<string, RadarResultItem[]>> | null = null;
  constructor(
    private readonly workspaceId: string,
    private readonly page: PageInput,
  ) {}
  load(searchId: string): Promise<RadarResultItem[]> {
    this.ids.add(searchId);
    this.pending ??= new Promise<void>((r) => setImmediate(r)).then(() => {
      const ids = [...this.ids];
      this.ids = new Set();
      this.pending = null;
      return listResultsOf(this.workspaceId, ids, this.page);
    });
    return this.pending.then((m) => m.get(searchId) ?? []);
  }
}
const batches = new WeakMap<object, Map<string, ResultsBatch>>();
function resultsBatch(ctx: object, workspaceId: string, page: PageInput): ResultsBatch {
  let byPage = batches.get(ctx);
  if (!byPage) batches.set(ctx, (byPage = new Map()));
  const key = `${workspaceId}:${page.limit}:${page.offset}`;
  let batch = byPage.get(key);
  if (!batch) byPage.set(key, (batch = new ResultsBatch(workspaceId, page)));
  return batch;
}

const RadarSearchRef = builder.objectRef<SearchParent>("RadarSearch").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    query: t.exposeString("query"),
    platform: t.field({ type: PlatformEnum, resolve: (s) => s.platform }),
    depth: t.field({ type: RadarDepth, resolve: (s) => s.depth }),
    minViews: t.field({ type: RadarMinViews, resolve: (s) => s.minViews }),
    timePeriod: t.field({ type: RadarTimePeriod, resolve: (s) => s.timePeriod }),
    language: t.exposeString("language"),
    status: t.field({ type: RadarSearchStatus, resolve: (s) => s.status }),
    resultCount: t.exposeInt("resultCount"),
    error: t.exposeString("error", { nullable: true, description: "Why it failed, or which providers failed when the results are partial." }),
    queries: t.exposeStringList("queries"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    completedAt: t.expose("completedAt", { type: "DateTime", nullable: true }),
    results: t.field({
      type: RadarResultPage,
      description: "A page of the ranked results, best first (at most 50 per search).",
      args: { limit: t.arg.int({ defaultValue: 20 }), offset: t.arg.int({ defaultValue: 0 }) },
      resolve: async (s, args, ctx) => {
        const page = parseInput(pageArgs, { limit: args.limit, offset: args.offset });
        const items = s.resultCount > page.offset ? await resultsBatch(ctx, s.workspaceId, page).load(s.id) : [];
        return { items, total: s.resultCount, ...page };
      },
    }),
  }),
});

const RadarSearchPage = builder
  .objectRef<{ items: SearchParent[]; total: number; limit: number; offset: number }>("RadarSearchPage")
  .implement({
    fields: (t) => ({
      items: t.field({ type: [RadarSearchRef], resolve: (p) => p.items }),
      total: t.exposeInt("total"),
      limit: t.exposeInt("limit"),
      offset: t.exposeInt("offset"),
      hasMore: t.boolean({ resolve: (p) => p.offset + p.limit < p.total }),
    }),
  });

const pageArgs = z.object({
  limit: z.number().int().min(1, "limit must be an integer from 1 to 100").max(100, "limit must be an integer from 1 to 100"),
  offset: z.number().int().min(0, "offset must be a non-negative integer"),
});
const searchId = z.guid({ message: "must be a UUID" });

builder.queryFields((t) => ({
  radarSearches: t.field({
    type: RadarSearchPage,
    description: "The workspace's radar searches, newest first.",
    args: { limit: t.arg.int({ defaultValue: 20 }), offset: t.arg.int({ defaultValue: 0 }) },
    resolve: async (_r, args, ctx) => {
      const page = await listHistory(ctx.auth.workspaceId, parseInput(pageArgs, { limit: args.limit, offset: args.offset }));
      return { ...page, items: page.items.map((s) => ({ ...s, workspaceId: ctx.auth.workspaceId })) };
    },
  }),
  radarSearch: t.field({
    type: RadarSearchRef,
    description: "One radar search of the workspace (NOT_FOUND for another workspace's id).",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => ({
      ...(await getSearchSummary(ctx.auth.workspaceId, parseInput(searchId, String(args.id), "id"))),
      workspaceId: ctx.auth.workspaceId,
    }),
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
      const input = Object.fromEntries(
        Object.entries({
          query: args.query,
          platform: args.platform,
          depth: args.depth,
          min_views: args.minViews,
          time_period: args.timePeriod,
          language: args.language,
        }).filter(([, v]) => v !== null && v !== undefined),
      );
      const { searchId: id } = await createSearch(ctx.auth.workspaceId, input);
      return { ...(await getSearchSummary(ctx.auth.workspaceId, id)), workspaceId: ctx.auth.workspaceId };
    },
  }),
}));

const TERMINAL = new Set(["completed", "failed"]);

builder.subscriptionFields((t) => ({
  radarSearchUpdated: t.field({
    type: RadarSearchRef,
    description:
      "The search's state (status, resultCount, error) now and each time it changes, ending after completed or failed. " +
      "Only the caller's own searches (NOT_FOUND otherwise).",
    args: { id: t.arg.id({ required: true }) },
    subscribe: (_r, args, ctx) => searchUpdates(ctx.auth.workspaceId, parseInput(searchId, String(args.id), "id")),
    resolve: (s: SearchParent) => s,
  }),
}));

/**
 * The current state first, then the state after each event, until a terminal status. The event
 * subscription is active before the current state is read, so a change in between is not lost.
 */
async function* searchUpdates(workspaceId: string, id: string): AsyncGenerator<SearchParent> {
  const first = await getSearchSummary(workspaceId, id); // NOT_FOUND for another workspace's search
  if (TERMINAL.has(first.status)) {
    yield { ...first, workspaceId };
    return;
  }
  const events = subscribeEvents("radarSearchUpdated", id)[Symbol.asyncIterator]();
  const nextEvent = events.next(); // starts the Redis subscription
  try {
    await eventsSubscribed(); // SUBSCRIBE is active in Redis: no change after the read below can be missed
    let current = await getSearchSummary(workspaceId, id);
    yield { ...current, workspaceId };
    let pending = nextEvent;
    while (!TERMINAL.has(current.status)) {
      const ev = await pending;
      if (ev.done) return;
      current = await getSearchSummary(workspaceId, id);
      yield { ...current, workspaceId };
      pending = events.next();
    }
  } finally {
    await events.return?.();
  }
}

