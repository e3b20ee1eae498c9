/**
 * Content radar: creating a search (validation, the 100-credit charge and the search row in one
 * transaction, then the job), reading one search with its ranked results, and the history.
 *
 * The state changes of a running search (pending → searching → completed | failed, with the refund)
 * live in ./lifecycle.ts; the search itself (expansion, providers, ranking) in ./run.ts.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { Prisma } from "../../generated/prisma/client.js";
import { prisma } from "../../infra/db.js";
import { logger } from "../../infra/logger.js";
import { publishEvent } from "../shared/events.js";
import { charge, creditsChanged } from "../credits/service.js";
import { enqueueSearch } from "./jobs.js";
import { notFound } from "../shared/errors.js";
import { parseInput } from "../shared/inputs.js";
import { PLATFORMS, type Platform } from "../shared/platform.js";
import { DEPTHS, MIN_VIEWS_VALUES, TIME_PERIODS, type Depth, type MinViewsOption } from "./filters.js";

/** Credits one radar search costs, charged at creation and refunded once if the search fails. */
export const RADAR_SEARCH_COST = 100;
export const MAX_QUERY_LENGTH = 1000;
export const MAX_LANGUAGE_LENGTH = 50;

export const RADAR_STATUSES = ["pending", "searching", "completed", "failed"] as const;
export type RadarStatus = (typeof RADAR_STATUSES)[number];

/** Time periods as stored and returned: `month` is accepted on input as a synonym of `last month`. */
export const STORED_TIME_PERIODS = TIME_PERIODS.filter((p) => p !== "month") as ["any", "today", "week", "last month", "year"];
export type StoredTimePeriod = (typeof STORED_TIME_PERIODS)[number];

export const chargeKey = (searchId: string) => `radar:${searchId}:charge`;
export const refundKey = (searchId: string) => `radar:${searchId}:refund`;

/**
 * The one input schema of a radar search, used by REST (request body) and GraphQL (mutation
 * arguments) alike. Body field names are CONTRACT.md's (snake_case like other request bodies).
 */
export const createSearchInput = z.strictObject({
  query: z
    .string({ message: "query is required and must be a string" })
    .trim()
    .min(1, "query must not be empty")
    .max(MAX_QUERY_LENGTH, `query must be at most ${MAX_QUERY_LENGTH} characters`)
    .meta({ description: "What content is sought; a detailed, specific description gives better results. 1 to 1000 characters (surrounding spaces trimmed)." }),
  platform: z
    .enum(PLATFORMS, { message: `platform must be one of ${PLATFORMS.join(", ")}` })
    .default("platformA")
    .meta({ description: "Platform searched (default platformA)." }),
  depth: z
    .enum(DEPTHS, { message: `depth must be one of ${DEPTHS.join(", ")}` })
    .default("standard")
    .meta({ description: "Research depth: quick (3 generated queries), standard (6) or deep (12). Default standard." }),
  min_views: z
    .enum(MIN_VIEWS_VALUES, { message: `min_views must be one of ${MIN_VIEWS_VALUES.join(", ")}` })
    .default("any")
    .meta({ description: "Minimum views, an inclusive bound (10k = at least 10,000). Results whose views are unknown pass only `any`. Default any." }),
  time_period: z
    .enum(TIME_PERIODS, { message: `time_period must be one of ${TIME_PERIODS.join(", ")}` })
    .default("any")
    .transform((p): StoredTimePeriod => (p === "month" ? "last month" : p))
    .meta({
      description:
        "Posting time: today (since 00:00 UTC), week (last 7 days), `last month` (since the same day one calendar month ago; " +
        "`month` is accepted as a synonym and stored as `last month`), year, or any (default).",
    }),
  language: z
    .string({ message: "language must be a string" })
    .trim()
    .min(1, "language must not be empty")
    .max(MAX_LANGUAGE_LENGTH, `language must be at most ${MAX_LANGUAGE_LENGTH} characters`)
    .default("English")
    .meta({ description: "Preferred language for generating the search queries, a name (English) or code (en). Default English." }),
});
export type CreateSearchInput = z.output<typeof createSearchInput>;

export interface RadarSearchSummary {
  id: string;
  query: string;
  platform: Platform;
  depth: Depth;
  minViews: MinViewsOption;
  timePeriod: StoredTimePeriod;
  language: string;
  status: RadarStatus;
  resultCount: number;
  error: string | null;
  queries: string[];
  createdAt: Date;
  completedAt: Date | null;
}

export interface RadarResultItem {
  /** The video in the service's catalog, when the result is (or has since become) a known video. */
  videoId: string | null;
  url: string;
  type: Platform;
  platformVideoId: string;
  description: string;
  username: string;
  viewCount: number | null;
  likeCount: number | null;
  commentCount: number | null;
  shareCount: number | null;
  engagementRate: number;
  postedAt: Date | null;
  thumbnailUrl: string;
  score: number;
  matchedQuery: string;
  /** Whether the caller's workspace tracks this video now (computed at read time, never stored). */
  tracked: boolean;
}

export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

const pageInput = z.object({
  limit: z.number().int().min(1, "limit must be an integer from 1 to 100").max(100, "limit must be an integer from 1 to 100"),
  offset: z.number().int().min(0, "offset must be a non-negative integer").max(1_000_000_000, "offset is too large"),
});
export type PageInput = z.infer<typeof pageInput>;

/** Publishes the search's current status and result count (after commit; a lost event only delays a client). */
export function announceSearch(s: { id: string; status: string; resultCount: number; error: string | null }): void {
  void publishEvent("radarSearchUpdated", s.id, { searchId: s.id, status: s.status, resultCount: s.resultCount, error: s.error, at: new Date().toISOString() });
}

/**
 * Creates a search: validates the input, then in ONE transaction charges 100 credits (the
 * workspace row lock makes the balance check and the charge atomic against concurrent requests)
 * and inserts the search row; then enqueues the job. Too few credits: InsufficientCreditsError
 * (402) and nothing is charged or stored. Should enqueuing fail after the commit, the sweep
 * (lifecycle.ts) enqueues the pending search again.
 */
export async function createSearch(workspaceId: string, rawInput: unknown): Promise<{ searchId: string }> {
  const input = parseInput(createSearchInput, rawInput);
  const searchId = randomUUID();
  await prisma.$transaction(async (tx) => {
    await charge(
      { workspaceId, amount: RADAR_SEARCH_COST, idempotencyKey: chargeKey(searchId), reason: `radar search ${searchId}`, what: "a radar search" },
      tx,
    );
    await tx.radarSearch.create({
      data: {
        id: searchId,
        workspaceId,
        query: input.query,
        platform: input.platform,
        depth: input.depth,
        minViews: input.min_views,
        timePeriod: input.time_period,
        language: input.language,
      },
    });
  });
  creditsChanged(workspaceId);
  announceSearch({ id: searchId, status: "pending", resultCount: 0, error: null });
  try {
    await enqueueSearch(searchId);
  } catch (e) {
    // Charged and stored: the sweep re-enqueues it. The client still gets its search id.
    logger.error({ err: (e as Error).message, searchId }, "could not enqueue radar search; the sweep will retry");
  }
  return { searchId };
}

type SearchRow = Prisma.RadarSearchGetPayload<object>;

function toSummary(s: SearchRow): RadarSearchSummary {
  return {
    id: s.id,
    query: s.query,
    platform: s.platform,
    depth: s.depth as Depth,
    minViews: s.minViews as MinViewsOption,
    timePeriod: s.timePeriod as StoredTimePeriod,
    language: s.language,
    status: s.status,
    resultCount: s.resultCount,
    error: s.error,
    queries: s.queries,
    createdAt: s.createdAt,
    completedAt: s.completedAt,
  };
}

/** One search of the workspace (another workspace's id: NOT_FOUND), without its results. */
export async function getSearchSummary(workspaceId: string, searchId: string): Promise<RadarSearchSummary> {
  const s = await prisma.radarSearch.findFirst({ where: { id: searchId, workspaceId } });
  if (!s) throw notFound("Radar search");
  return toSummary(s);
}

interface ResultRow {
  video_id: string | null;
  url: string;
  platform: Platform;
  platform_video_id: string;
  description: string;
  username: string;
  view_count: bigint | null;
  like_count: bigint | null;
  comment_count: bigint | null;
  share_count: bigint | null;
  engagement_rate: number;
  posted_at: Date | null;
  thumbnail_url: string;
  score: number;
  matched_query: string;
  tracked: boolean;
}

const num = (n: bigint | null) => (n === null ? null : Number(n));

/**
 * A page of each search's results in rank order, for several searches of the workspace in one
 * query (GraphQL lists ask for the results of many searches at once). `tracked` and a missing
 * `videoId` are resolved at read time through the global video (platform + platformVideoId,
 * unique) and the workspace's tracking row, so a result found by yt-dlp and tracked later shows
 * as tracked. Searches of another workspace yield nothing.
 */
export async function listResultsOf(workspaceId: string, searchIds: string[], page: PageInput): Promise<Map<string, RadarResultItem[]>> {
  const out = new Map<string, RadarResultItem[]>(searchIds.map((id) => [id, []]));
  if (searchIds.length === 0) return out;
  const rows = await prisma.$queryRaw<(ResultRow & { search_id: string })[]>`
    SELECT p.search_id::text AS search_id, coalesce(p.video_id, v.id) AS video_id, p.url, p.platform::text AS platform,
           p.platform_video_id, p.description, p.username, p.view_count, p.like_count, p.comment_count, p.share_count,
           p.engagement_rate, p.posted_at, p.thumbnail_url, p.score, p.matched_query, (tv.id IS NOT NULL) AS tracked
    FROM (
      SELECT r.*, row_number() OVER (PARTITION BY r.search_id ORDER BY r.rank, r.id) AS n
      FROM radar_results r
      JOIN radar_searches s ON s.id = r.search_id AND s.workspace_id = ${workspaceId}::uuid
      WHERE r.search_id = ANY(${searchIds}::uuid[])
    ) p
    LEFT JOIN videos v ON v.platform = p.platform AND v.platform_video_id = p.platform_video_id
    LEFT JOIN tracked_videos tv ON tv.workspace_id = ${workspaceId}::uuid AND tv.video_id = coalesce(p.video_id, v.id)
    WHERE p.n > ${page.offset} AND p.n <= ${page.offset + page.limit}
    ORDER BY p.search_id, p.n`;
  for (const r of rows) {
    out.get(r.search_id)?.push({
      videoId: r.video_id,
      url: r.url,
      type: r.platform,
      platformVideoId: r.platform_video_id,
      description: r.description,
      username: r.username,
      viewCount: num(r.view_count),
      likeCount: num(r.like_count),
      commentCount: num(r.comment_count),
      shareCount: num(r.share_count),
      engagementRate: Number(r.engagement_rate),
      postedAt: r.posted_at,
      thumbnailUrl: r.thumbnail_url,
      score: Number(r.score),
      matchedQuery: r.matched_query,
      tracked: r.tracked,
    });
  }
  return out;
}

/** A page of one search's results (see listResultsOf). */
export async function listResults(workspaceId: string, searchId: string, page: PageInput): Promise<RadarResultItem[]> {
  return (await listResultsOf(workspaceId, [searchId], page)).get(searchId) ?? [];
}

/** One search with its status, generated queries and a page of its results. */
export async function getSearch(
  workspaceId: string,
  searchId: string,
  page: Partial<PageInput> = {},
): Promise<RadarSearchSummary & { results: Page<RadarResultItem> }> {
  const p = parseInput(pageInput, { limit: page.limit ?? 20, offset: page.offset ?? 0 });
  const summary = await getSearchSummary(workspaceId, searchId);
  // resultCount is written with the results in one transaction, so it is the results' total.
  const items = summary.resultCount > p.offset ? await listResults(workspaceId, searchId, p) : [];
  return { ...summary, results: { items, total: summary.resultCount, limit: p.limit, offset: p.offset } };
}

/** The workspace's searches, newest first. */
export async function listHistory(workspaceId: string, page: Partial<PageInput> = {}): Promise<Page<RadarSearchSummary>> {
  const p = parseInput(pageInput, { limit: page.limit ?? 20, offset: page.offset ?? 0 });
  const [rows, total] = await Promise.all([
    prisma.radarSearch.findMany({
      where: { workspaceId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: p.limit,
      skip: p.offset,
    }),
    prisma.radarSearch.count({ where: { workspaceId } }),
  ]);
  return { items: rows.map(toSummary), total, limit: p.limit, offset: p.offset };
}
