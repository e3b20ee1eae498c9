/**
 * The `catalog` search provider: PostgreSQL full-text search over every video the service has ever
 * scraped, for any workspace (the global `videos` table).
 *
 * Matching: `videos.search_vector` (generated, language-aware, GIN-indexed: see migration
 * 20261122010000_video_search_vector) against the query parsed by `websearch_to_tsquery` twice and
 * ORed: in the searcher's language configuration (stems: "running" finds "runs") and in 'simple'
 * (exact words, for videos in another or an unknown language). A plain query's words are
 * alternatives (`asAlternatives`: "cloud bread recipe" finds a video that says only "bread"), ranked
 * below one that has them all: natural queries must not come back empty for one missing word.
 * A query written in websearch syntax keeps it: "quoted phrases" match as phrases, -word excludes,
 * and its plain words are then all required.
 *
 * Filters (platform, minimum views, posted after) are SQL predicates and LIMIT is in SQL. Unknown
 * views or posting times never pass a bound (a comparison with NULL is not true).
 *
 * Ranking: the matches are narrowed to a pool of the POOL_SIZE most-viewed ones, which are ordered
 * by `ts_rank_cd`. A query with fewer matches than the pool (most real queries) is ranked over every
 * match; a broad one ("#fyp" is in most videos) gets "the most relevant among the most viewed",
 * which suits a search for videos that performed, and costs a bounded amount of work.
 *
 * Access path, chosen per query by chooseAccessPath from PostgreSQL's own row estimates (two
 * planning-only EXPLAINs, run at once, about a millisecond):
 * - narrow: every match, through whichever indexes the planner combines (the GIN index, and the
 *   btrees for a time or views bound), sorted by views. Reads about M rows (M = matches).
 * - broad: walk the (platform, view_count) index from the most viewed down, testing each row, until
 *   the pool is full. Reads about POOL_SIZE · W / M rows (W = rows of the platform in the views
 *   range), so it wins for broad queries.
 *   Left to itself, the planner also walks for mid-frequency words (its LIMIT costing assumes the
 *   matches are spread evenly and the pages cached) and then reads tens of thousands of rows: on a
 *   million rows that measured 150-250 ms against 20-60 ms for the narrow path (bench/radar-catalog.ts).
 *   Each row read is a random heap page, so the pool is kept small: the two paths cross near
 *   M = √(POOL_SIZE · W), where each reads that many rows.
 *
 * `textRank` is ts_rank_cd divided by the best rank of the same query: 1 for the best match, the
 * "relative to this query's best" meaning the ytdlp provider gives its result positions too.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import type { Platform } from "../shared/platform.ts";
import type pg from "pg";
import { sql } from "../../infra/db.ts";
import { ProviderError } from "../shared/provider-error.ts";
import type { SearchCandidate, SearchProvider, SearchRequest } from "./ports.ts";

/** Most-viewed matches that are ranked by text relevance (see the header). */
export const POOL_SIZE = 200;
/** Largest number of results one catalog query returns. */
const MAX_LIMIT = 500;

export type AccessPath = "narrow" | "broad";

export class CatalogSearchProvider implements SearchProvider {
  readonly name = "catalog" as const;

  /** `pool`: another database than the service's (benchmarks, tests). */
  private readonly pool?: pg.Pool;
  constructor(pool?: pg.Pool) {
    this.pool = pool;
  }

  supports(_platform: Platform): boolean {
    return true;
  }

  async search(request: SearchRequest, opts: { signal?: AbortSignal } = {}): Promise<SearchCandidate[]> {
    if (opts.signal?.aborted) throw new ProviderError(this.name, "the search was cancelled", true);
    const text = request.text.trim();
    const limit = Math.min(MAX_LIMIT, Math.max(0, Math.floor(request.limit)));
    if (text === "" || limit === 0) return [];
    try {
      const path = chooseAccessPath(await this.estimate(request, text), Math.max(POOL_SIZE, limit));
      return toCandidates(await sql(catalogQuery(request, text, limit, path), { pool: this.pool }));
    } catch (e) {
      throw new ProviderError(this.name, `catalog query failed: ${(e as Error).message}`, true, { cause: e });
    }
  }

  /**
   * PostgreSQL's estimates (planning only, two EXPLAINs at once): the rows matching everything, and
   * the rows of the views-index range the broad path walks (platform and minimum views).
   */
  async estimate(request: SearchRequest, text: string): Promise<Estimate> {
    const [matches, walked] = await Promise.all([
      this.planRows(Prisma.sql`SELECT 1 FROM videos v WHERE ${matchPredicate(request, text)} AND ${viewsPredicate(request)}`),
      this.planRows(Prisma.sql`SELECT 1 FROM videos v WHERE v.platform = ${request.platform}::"Platform" AND ${viewsPredicate(request)}`),
    ]);
    return { matches, walked };
  }

  private async planRows(query: Prisma.Sql): Promise<number> {
    const rows = await sql<{ "QUERY PLAN": unknown }>(Prisma.sql`EXPLAIN (FORMAT JSON) ${query}`, { pool: this.pool });
    const plan = rows[0]?.["QUERY PLAN"];
    const parsed = (typeof plan === "string" ? JSON.parse(plan) : plan) as { Plan?: { "Plan Rows"?: number } }[];
    return Number(parsed[0]?.Plan?.["Plan Rows"] ?? 0);
  }
}

export interface Estimate {
  /** Rows matching text, platform and every filter. */
  matches: number;
  /** Rows of the platform within the views range (the broad path's walk). */
  walked: number;
}

/**
 * Heap rows each path reads: narrow about `matches`, broad about pool · walked / matches (it tests
 * rows in views order until the pool is full). The cheaper one wins.
 */
export function chooseAccessPath(estimate: Estimate, pool: number): AccessPath {
  const narrowReads = estimate.matches;
  const broadReads = estimate.matches > 0 ? (pool * estimate.walked) / estimate.matches : Infinity;
  return broadReads < narrowReads ? "broad" : "narrow";
}

/**
 * A plain query (no quotes, no `-word`, no `or`) as websearch alternatives: its words joined by `or`, so any
 * of them matches and ts_rank_cd ranks the videos with more of them (and closer together) first. A query
 * that uses websearch syntax is taken as written.
 */
export function asAlternatives(text: string): string {
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length < 2 || /["]/.test(text) || words.some((w) => w.startsWith("-") || w.toLowerCase() === "or")) return text;
  return words.join(" or ");
}

const tsqueryOf = (request: SearchRequest, text: string) => {
  const query = asAlternatives(text);
  return Prisma.sql`(websearch_to_tsquery(video_search_config(${request.language}), ${query}) || websearch_to_tsquery('simple', ${query}))`;
};

/** Text, platform and time: what both access paths share (platform here is index-friendly). */
function matchPredicate(request: SearchRequest, text: string): Prisma.Sql {
  const postedAfter = request.postedAfter ? Prisma.sql`AND v.posted_at >= ${request.postedAfter}` : Prisma.empty;
  return Prisma.sql`v.search_vector @@ ${tsqueryOf(request, text)} AND v.platform = ${request.platform}::"Platform" ${postedAfter}`;
}

/** Known views within the minimum (unknown views are the broad path's separate tail). */
function viewsPredicate(request: SearchRequest): Prisma.Sql {
  return request.minViews > 0 ? Prisma.sql`v.view_count >= ${Math.ceil(request.minViews)}` : Prisma.sql`v.view_count IS NOT NULL`;
}

const POOL_COLUMNS = Prisma.sql`v.id, v.platform, v.platform_video_id, v.url, v.description, v.username, v.view_count,
  v.like_count, v.comment_count, v.share_count, v.bookmark_count, v.posted_at, v.thumbnail_url, v.search_vector`;

/**
 * Narrow path: every match, through whichever indexes the planner combines (GIN, and the btrees for
 * a time or views bound), the most viewed kept. "DESC NULLS LAST" is an order no index gives, so
 * the planner cannot turn this into a walk of the views index.
 */
function narrowPool(request: SearchRequest, text: string, pool: number): Prisma.Sql {
  const minViews = request.minViews > 0 ? Prisma.sql`AND v.view_count >= ${Math.ceil(request.minViews)}` : Prisma.empty;
  return Prisma.sql`SELECT ${POOL_COLUMNS} FROM videos v
    WHERE ${matchPredicate(request, text)} ${minViews}
    ORDER BY v.view_count DESC NULLS LAST LIMIT ${pool}`;
}

/**
 * Broad path: "ORDER BY view_count DESC" over known views walks the (platform, view_count) index
 * backwards. Unknown views pass only "any" and come after every known count (NULLS LAST): their
 * scan runs only when the known matches leave room in the pool (a one-time filter, tested first).
 */
function broadPool(request: SearchRequest, text: string, pool: number): Prisma.Sql {
  const matches = matchPredicate(request, text);
  const known = Prisma.sql`SELECT ${POOL_COLUMNS} FROM videos v WHERE ${matches} AND ${viewsPredicate(request)} ORDER BY v.view_count DESC LIMIT ${pool}`;
  const unknown =
    request.minViews > 0
      ? Prisma.empty
      : Prisma.sql`UNION ALL (SELECT ${POOL_COLUMNS} FROM videos v
          WHERE (SELECT count(*) FROM known) < ${pool} AND ${matches} AND v.view_count IS NULL
          LIMIT ${pool} - (SELECT count(*) FROM known))`;
  return Prisma.sql`WITH known AS MATERIALIZED (${known}) SELECT * FROM known ${unknown}`;
}

/** The catalog query for one access path: every user-supplied value is a bound parameter. */
export function catalogQuery(request: SearchRequest, text: string, limit: number, path: AccessPath): Prisma.Sql {
  const pool = Math.max(POOL_SIZE, limit);
  const candidates = path === "broad" ? broadPool(request, text, pool) : narrowPool(request, text, pool);
  return Prisma.sql`
    SELECT c.id AS "videoId", c.platform::text AS platform, c.platform_video_id AS "platformVideoId", c.url, c.description,
           c.username, c.view_count AS "viewCount", c.like_count AS "likeCount", c.comment_count AS "commentCount",
           c.share_count AS "shareCount", c.bookmark_count AS "bookmarkCount", c.posted_at AS "postedAt",
           c.thumbnail_url AS "thumbnailUrl", ts_rank_cd(c.search_vector, ${tsqueryOf(request, text)})::float8 AS rank
    FROM (${candidates}) c
    ORDER BY rank DESC, c.view_count DESC NULLS LAST, c.id
    LIMIT ${limit}`;
}

/** `textRank` is the rank relative to this query's best match (1 for the best). */
function toCandidates(rows: (Omit<SearchCandidate, "textRank"> & { rank: number })[]): SearchCandidate[] {
  const best = rows.reduce((max, r) => Math.max(max, r.rank), 0);
  return rows.map(({ rank, ...c }) => ({ ...c, textRank: best > 0 ? rank / best : null }));
}
