/** Content radar: create a search, read one search with its results, and the search history. */
import { ENGAGEMENT_RATE_DESCRIPTION } from "../../../domain/tracking/engagement.js";
import { z } from "zod";
import { createSearch, getSearch, listHistory, RADAR_SEARCH_COST, RADAR_STATUSES, type RadarResultItem, type RadarSearchSummary } from "../../../domain/radar/service.js";
import { createSearchInput, radarHistoryQuery, searchResultsQuery, STORED_TIME_PERIODS } from "../../../domain/radar/inputs.js";
import { DEPTHS, MIN_VIEWS_VALUES } from "../../../domain/radar/filters.js";
import { defineRoute } from "../route.js";
import { idParams, iso, isoOrNull, pagination, paginationSchema, platform, queryParams, timestamp } from "../schemas.js";

const int = () => z.number().int();
const count = () =>
  int().nullable().meta({ description: "Integer; null when the source does not give this metric for the video." });

const status = z.enum(RADAR_STATUSES).meta({
  description: "pending (queued), searching (queries generated and being run), completed (results ready) or failed (see `error`; the credits were refunded).",
});

const historyItem = z
  .object({
    id: z.string().meta({ description: "Equals the searchId returned on creation." }),
    query: z.string(),
    platform,
    status,
    resultCount: int(),
    createdAt: timestamp,
  })
  .meta({ id: "RadarSearchItem" });

const resultItem = z
  .object({
    videoId: z.string().optional().meta({ description: "The video in the service's catalog, when the result is a video the service knows; absent otherwise." }),
    url: z.string(),
    type: platform,
    platformVideoId: z.string(),
    description: z.string(),
    username: z.string(),
    viewCount: count(),
    likeCount: count(),
    commentCount: count(),
    shareCount: count(),
    engagementRate: z.number().meta({ description: `${ENGAGEMENT_RATE_DESCRIPTION} Saves are unknown (0) for results of yt-dlp searches.` }),
    postedAt: timestamp.nullable().meta({ description: "Null when the source does not give the posting time." }),
    thumbnailUrl: z.string(),
    score: z.number().meta({
      description:
        "0 to 1: 0.40 × text relevance + 0.30 × views (log scale, 100M = 1) + 0.15 × engagement (10 % = 1) + 0.15 × recency (halves every 30 days).",
    }),
    matchedQuery: z.string().meta({ description: "The generated query that found the result (its best-scoring one)." }),
    tracked: z.boolean().meta({ description: "Whether your workspace tracks this video now (evaluated when you read the search)." }),
  })
  .meta({ id: "RadarResult" });

const searchDetail = z
  .object({
    id: z.string(),
    query: z.string(),
    platform,
    depth: z.enum(DEPTHS),
    min_views: z.enum(MIN_VIEWS_VALUES),
    time_period: z.enum(STORED_TIME_PERIODS).meta({ description: "`month` given on creation is returned as `last month`." }),
    language: z.string(),
    status,
    resultCount: int().meta({ description: "Number of results, set when the search completes (0 before)." }),
    createdAt: timestamp,
    completedAt: timestamp.nullable().meta({ description: "When the search completed or failed; null while it runs." }),
    error: z.string().optional().meta({
      description:
        "Present when the search failed (every search provider failed; the 100 credits were refunded), or when it completed " +
        "with partial results because some provider calls failed (it names them). Results are never invented to fill a failure.",
    }),
    queries: z.array(z.string()).meta({ description: "The search queries generated from `query` (quick 3, standard 6, deep 12); empty until generated." }),
    results: z.array(resultItem).meta({ description: "This page of the results, best first; paginated by `limit`/`offset`, see the top-level `pagination`." }),
  })
  .meta({ id: "RadarSearch" });

function toHistoryItem(s: RadarSearchSummary) {
  return { id: s.id, query: s.query, platform: s.platform, status: s.status, resultCount: s.resultCount, createdAt: iso(s.createdAt) };
}

function toResult(r: RadarResultItem) {
  return {
    ...(r.videoId ? { videoId: r.videoId } : {}),
    url: r.url,
    type: r.type,
    platformVideoId: r.platformVideoId,
    description: r.description,
    username: r.username,
    viewCount: r.viewCount,
    likeCount: r.likeCount,
    commentCount: r.commentCount,
    shareCount: r.shareCount,
    engagementRate: r.engagementRate,
    postedAt: isoOrNull(r.postedAt),
    thumbnailUrl: r.thumbnailUrl,
    score: r.score,
    matchedQuery: r.matchedQuery,
    tracked: r.tracked,
  };
}

/** One search with a page of its results, as GET /radar/search/{id} answers it (also the MCP door's shape). */
export function searchDetailItem(s: RadarSearchSummary & { results: RadarResultItem[] }) {
  return {
    id: s.id,
    query: s.query,
    platform: s.platform,
    depth: s.depth,
    min_views: s.minViews,
    time_period: s.timePeriod,
    language: s.language,
    status: s.status,
    resultCount: s.resultCount,
    createdAt: iso(s.createdAt),
    completedAt: isoOrNull(s.completedAt),
    ...(s.error !== null ? { error: s.error } : {}),
    queries: s.queries,
    results: s.results.map(toResult),
  };
}

export const radarRoutes = [
  defineRoute({
    method: "post",
    path: "/radar/search",
    summary: "Start a radar search (costs 100 credits)",
    description:
      `Charges ${RADAR_SEARCH_COST} credits at once, atomically with the balance check (402 INSUFFICIENT_CREDITS, stating the required ` +
      "and available credits, when fewer are available; nothing is charged then), and queues the search: status 202 Accepted, because " +
      "the search runs in the background. Follow it with GET /radar/search/{searchId} (or the GraphQL subscription radarSearchUpdated). " +
      "If the search fails, the credits are refunded once.",
    tags: ["Content radar"],
    body: createSearchInput,
    errors: ["INSUFFICIENT_CREDITS"],
    responses: {
      202: {
        description: "The search is queued.",
        schema: z.object({ data: z.object({ searchId: z.string().meta({ format: "uuid" }) }) }),
      },
    },
    async handler({ auth, body }) {
      const { searchId } = await createSearch(auth.workspaceId, body);
      return { status: 202, body: { data: { searchId } } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/radar/history",
    summary: "The workspace's radar searches, newest first",
    tags: ["Content radar"],
    query: queryParams(radarHistoryQuery),
    responses: {
      200: {
        description: "A page of searches (newest first) and the pagination object.",
        schema: z.object({ data: z.array(historyItem), pagination: paginationSchema }),
      },
    },
    async handler({ auth, query }) {
      const page = await listHistory(auth.workspaceId, query);
      return { body: { data: page.items.map(toHistoryItem), pagination: pagination(page.total, query.limit, query.offset) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/radar/search/{id}",
    summary: "One radar search: status, generated queries and a page of its ranked results",
    description:
      "`limit` (default 20, 1 to 100) and `offset` page the search's results; the top-level `pagination` object describes that page " +
      "(`total` = resultCount). A search keeps at most its 50 best results. Statuses: pending → searching → completed, or failed " +
      "with `error` (credits refunded). A search not finished 30 minutes after creation is failed and refunded by a sweep.",
    tags: ["Content radar"],
    params: idParams,
    query: queryParams(searchResultsQuery),
    errors: ["NOT_FOUND"],
    responses: {
      200: { description: "The search.", schema: z.object({ data: searchDetail, pagination: paginationSchema }) },
    },
    async handler({ auth, params, query }) {
      const s = await getSearch(auth.workspaceId, params.id, query);
      return { body: { data: searchDetailItem(s), pagination: pagination(s.resultCount, query.limit, query.offset) } };
    },
  }),
];
