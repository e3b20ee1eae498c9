/**
 * Radar searches as every door answers them (REST /radar, MCP get_radar_search), their results as
 * the `radar_results` export writes them: the zod schemas of the OpenAPI document and the mappers
 * from the domain's records (in the domain, which writes the export: src/domain/exports/).
 */
import { z } from "zod";
import { ENGAGEMENT_RATE_DESCRIPTION } from "../tracking/engagement.ts";
import { RADAR_STATUSES, type RadarResultItem, type RadarSearchSummary } from "./service.ts";
import { STORED_TIME_PERIODS } from "./inputs.ts";
import { DEPTHS, MIN_VIEWS_VALUES } from "./filters.ts";
import { int, iso, isoOrNull, platform, timestamp } from "../shared/records.ts";

const count = () => int().nullable().meta({ description: "Integer; null when the source does not give this metric for the video." });

const status = z.enum(RADAR_STATUSES).meta({
  description:
    "pending (queued), searching (queries generated and being run), completed (results ready) or failed (see `error`; the credits were refunded).",
});

export const historyItem = z
  .object({
    id: z.string().meta({ description: "Equals the searchId returned on creation." }),
    query: z.string(),
    platform,
    status,
    resultCount: int(),
    createdAt: timestamp,
  })
  .meta({ id: "RadarSearchItem" });

export const resultItem = z
  .object({
    videoId: z
      .string()
      .optional()
      .meta({ description: "The video in the service's catalog, when the result is a video the service knows; absent otherwise." }),
    url: z.string(),
    type: platform,
    platformVideoId: z.string(),
    description: z.string(),
    username: z.string(),
    viewCount: count(),
    likeCount: count(),
    commentCount: count(),
    shareCount: count(),
    engagementRate: z
      .number()
      .meta({ description: `${ENGAGEMENT_RATE_DESCRIPTION} Saves are unknown (0) for results of yt-dlp searches.` }),
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

export const searchDetail = z
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
    error: z
      .string()
      .optional()
      .meta({
        description:
          "Present when the search failed (every search provider failed; the 100 credits were refunded), or when it completed " +
          "with partial results because some provider calls failed (it names them). Results are never invented to fill a failure.",
      }),
    queries: z
      .array(z.string())
      .meta({ description: "The search queries generated from `query` (quick 3, standard 6, deep 12); empty until generated." }),
    results: z
      .array(resultItem)
      .meta({ description: "This page of the results, best first; paginated by `limit`/`offset`, see the top-level `pagination`." }),
  })
  .meta({ id: "RadarSearch" });

export function toHistoryItem(s: RadarSearchSummary) {
  return { id: s.id, query: s.query, platform: s.platform, status: s.status, resultCount: s.resultCount, createdAt: iso(s.createdAt) };
}

/** One result as a search answers it (and the `radar_results` export writes it, after its rank). */
export function toResult(r: RadarResultItem) {
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
