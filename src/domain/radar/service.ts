/**
 * Content radar: creating a search (validation, the 100-credit charge and the search row in one
 * transaction, then the job), reading one search with its ranked results, and the history.
 *
 * The state changes of a running search (pending → searching → completed | failed, with the refund)
 * live in ./lifecycle.ts; the search itself (expansion, providers, ranking) in ./run.ts.
 */
import { randomUUID } from "node:crypto";
import { Prisma } from "../../generated/prisma/client.ts";
import { prisma, sql } from "../../infra/db.ts";
import { logger } from "../../infra/logger.ts";
import { announceSearch } from "./events.ts";
import { charge, creditsChanged } from "../credits/service.ts";
import { enqueueSearch } from "./jobs.ts";
import { notFound } from "../shared/errors.ts";
import { pageSql, rowNumberRange, type Order, type PageRequest, type Page } from "../shared/pages.ts";
import type { Platform } from "../shared/platform.ts";
import type { Depth, MinViewsOption } from "./filters.ts";
import type { SearchCandidate } from "./ports.ts";
import type { CreateSearchInput, StoredTimePeriod } from "./inputs.ts";
import { MAX_RESULTS } from "./ranking.ts";

/** Credits one radar search costs, charged at creation and refunded once if the search fails. */
export const RADAR_SEARCH_COST = 100;

export const RADAR_STATUSES = ["pending", "searching", "completed", "failed"] as const;
export type RadarStatus = (typeof RADAR_STATUSES)[number];

export const chargeKey = (searchId: string) => `radar:${searchId}:charge`;
export const refundKey = (searchId: string) => `radar:${searchId}:refund`;

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

/** A stored result: the candidate a search found (./ports.ts), ranked. */
export interface RadarResultItem
  extends Pick<
    SearchCandidate,
    | "url"
    | "platformVideoId"
    | "description"
    | "username"
    | "viewCount"
    | "likeCount"
    | "commentCount"
    | "shareCount"
    | "postedAt"
    | "thumbnailUrl"
  > {
  /** The result's own id and its rank in the search (1 = best). */
  id: string;
  rank: number;
  /** The video in the service's catalog, when the result is (or has since become) a known video. */
  videoId: string | null;
  type: Platform;
  engagementRate: number;
  score: number;
  matchedQuery: string;
  /** Whether the caller's workspace tracks this video now (computed at read time, never stored). */
  tracked: boolean;
}

/**
 * Creates a search: validates the input, then in ONE transaction charges 100 credits (the
 * workspace row lock makes the balance check and the charge atomic against concurrent requests)
 * and inserts the search row; then enqueues the job. Too few credits: InsufficientCreditsError
 * (402) and nothing is charged or stored. Should enqueuing fail after the commit, the sweep
 * (lifecycle.ts) enqueues the pending search again.
 */
export async function createSearch(workspaceId: string, input: CreateSearchInput): Promise<{ searchId: string }> {
  const searchId = randomUUID();
  await prisma.$transaction(async (tx) => {
    await charge(
      {
        workspaceId,
        amount: RADAR_SEARCH_COST,
        idempotencyKey: chargeKey(searchId),
        reason: `radar search ${searchId}`,
        what: "a radar search",
      },
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

const SEARCH_COLUMNS = Prisma.raw(`s.id, s.query, s.platform::text AS platform, s.depth, s.min_views AS "minViews",
  s.time_period AS "timePeriod", s.language, s.status::text AS status, s.result_count AS "resultCount", s.error, s.queries,
  s.created_at AS "createdAt", s.completed_at AS "completedAt"`);

/** The workspace's searches: newest first, ties by id. */
export const SEARCHES_ORDER: Order<RadarSearchSummary> = [
  { sql: "s.created_at", type: "timestamptz", desc: true, value: (r) => r.createdAt },
  { sql: "s.id", type: "uuid", desc: true, value: (r) => r.id },
];

/** Searches of the workspace by id, in any order; other ids are left out. */
export async function searchesByIds(workspaceId: string, searchIds: readonly string[]): Promise<RadarSearchSummary[]> {
  if (searchIds.length === 0) return [];
  return sql<RadarSearchSummary>(
    Prisma.sql`SELECT ${SEARCH_COLUMNS} FROM radar_searches s WHERE s.workspace_id = ${workspaceId}::uuid AND s.id = ANY(${searchIds as string[]}::uuid[])`,
  );
}

/** One search of the workspace (another workspace's id: NOT_FOUND), without its results. */
export async function getSearchSummary(workspaceId: string, searchId: string): Promise<RadarSearchSummary> {
  const [s] = await searchesByIds(workspaceId, [searchId]);
  if (!s) throw notFound("Radar search");
  return s;
}

/** Results in rank order (rank is unique within a search). */
export const RESULTS_ORDER: Order<RadarResultItem> = [
  { sql: "r.rank", type: "int4", value: (r) => r.rank },
  { sql: "r.id", type: "uuid", value: (r) => r.id },
];

/**
 * A page of each search's results in rank order, for several searches of the workspace in one
 * query (GraphQL lists ask for the results of many searches at once). `tracked` and a missing
 * `videoId` are resolved at read time through the global video (platform + platformVideoId,
 * unique) and the workspace's tracking row, so a result found by yt-dlp and tracked later shows
 * as tracked. Searches of another workspace yield nothing.
 */
export async function resultsOfSearches(
  workspaceId: string,
  searchIds: readonly string[],
  page: PageRequest,
): Promise<Map<string, RadarResultItem[]>> {
  const out = new Map<string, RadarResultItem[]>(searchIds.map((id) => [id, []]));
  if (searchIds.length === 0) return out;
  const p = pageSql(RESULTS_ORDER, page);
  const { from, to } = rowNumberRange(page);
  const rows = await sql<RadarResultItem & { searchId: string; n: number }>(Prisma.sql`
    SELECT x.*, coalesce(x."videoId0", v.id) AS "videoId", (tv.id IS NOT NULL) AS tracked FROM (
      SELECT r.id, r.rank, r.search_id AS "searchId", r.video_id AS "videoId0", r.url, r.platform::text AS type,
             r.platform_video_id AS "platformVideoId", r.description, r.username, r.view_count AS "viewCount",
             r.like_count AS "likeCount", r.comment_count AS "commentCount", r.share_count AS "shareCount",
             r.engagement_rate AS "engagementRate", r.posted_at AS "postedAt", r.thumbnail_url AS "thumbnailUrl",
             r.score, r.matched_query AS "matchedQuery",
             row_number() OVER (PARTITION BY r.search_id ${p.orderBy}) AS n
        FROM radar_results r
        JOIN radar_searches s ON s.id = r.search_id AND s.workspace_id = ${workspaceId}::uuid
       WHERE r.search_id = ANY(${searchIds as string[]}::uuid[]) ${p.where}
    ) x
    LEFT JOIN videos v ON v.platform = x.type::"Platform" AND v.platform_video_id = x."platformVideoId"
    LEFT JOIN tracked_videos tv ON tv.workspace_id = ${workspaceId}::uuid AND tv.video_id = coalesce(x."videoId0", v.id)
    WHERE x.n BETWEEN ${from} AND ${to}
    ORDER BY x."searchId", x.n`);
  for (const { searchId, n: _n, videoId0: _v, ...r } of rows as (RadarResultItem & { searchId: string; n: number; videoId0: unknown })[]) {
    out.get(searchId)?.push(r as RadarResultItem);
  }
  return out;
}

/** Results of the workspace's searches by id, in any order; other ids are left out. */
export async function resultsByIds(workspaceId: string, resultIds: readonly string[]): Promise<RadarResultItem[]> {
  if (resultIds.length === 0) return [];
  const found = await sql<{ searchId: string; id: string }>(Prisma.sql`
    SELECT r.search_id AS "searchId", r.id FROM radar_results r JOIN radar_searches s ON s.id = r.search_id AND s.workspace_id = ${workspaceId}::uuid
     WHERE r.id = ANY(${resultIds as string[]}::uuid[])`);
  const searches = [...new Set(found.map((r) => r.searchId))];
  const wanted = new Set(found.map((r) => r.id));
  const all = await resultsOfSearches(workspaceId, searches, { limit: MAX_RESULTS, offset: 0 });
  return [...all.values()].flat().filter((r) => wanted.has(r.id));
}

/** One search with its status, generated queries and a page of its results. */
export async function getSearch(
  workspaceId: string,
  searchId: string,
  page: PageRequest,
): Promise<RadarSearchSummary & { results: RadarResultItem[] }> {
  const summary = await getSearchSummary(workspaceId, searchId);
  // resultCount is written with the results in one transaction, so it is the results' total.
  const results = summary.resultCount > 0 ? ((await resultsOfSearches(workspaceId, [searchId], page)).get(searchId) ?? []) : [];
  return { ...summary, results };
}

/** A page of the workspace's searches (SEARCHES_ORDER), with the total. */
export async function listHistory(workspaceId: string, page: PageRequest): Promise<Page<RadarSearchSummary>> {
  const p = pageSql(SEARCHES_ORDER, page);
  const [items, [count]] = await Promise.all([
    sql<RadarSearchSummary>(
      Prisma.sql`SELECT ${SEARCH_COLUMNS} FROM radar_searches s WHERE s.workspace_id = ${workspaceId}::uuid ${p.where} ${p.orderBy} ${p.limit}`,
    ),
    sql<{ n: number }>(Prisma.sql`SELECT count(*) AS n FROM radar_searches WHERE workspace_id = ${workspaceId}::uuid`),
  ]);
  return { items, total: count!.n };
}
