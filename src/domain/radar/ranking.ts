/**
 * Scoring and merging of radar results: pure functions, no I/O.
 *
 * One 0-1 score per candidate, a weighted sum of four 0-1 signals:
 *
 * | signal     | weight | 0 → 1                                                                          |
 * |------------|--------|--------------------------------------------------------------------------------|
 * | relevance  | 0.40   | the source's own relevance (`textRank`), else the share of the query's words   |
 * |            |        | found in the description                                                       |
 * | views      | 0.30   | log10(1 + views) / 8: 10 views ≈ 0.13, 10k ≈ 0.5, 1M ≈ 0.75, 100M+ = 1         |
 * | engagement | 0.15   | the service's engagement rate (likes+comments+shares+saves)/views, 10 % or more = 1 |
 * | recency    | 0.15   | halves every 30 days since posting: today = 1, a month ≈ 0.5, a year ≈ 0       |
 *
 * Relevance leads because a radar search is a topic search first; views and engagement then say
 * which on-topic videos performed. Unknown metrics (null) contribute 0: never a guessed value.
 */
import type { Platform } from "../shared/platform.ts";
import { passesFilters, type CandidateFilters } from "./ports.ts";
import type { SearchCandidate } from "./ports.ts";
import { engagementRate } from "../tracking/engagement.ts";

export const SCORE_WEIGHTS = { relevance: 0.4, views: 0.3, engagement: 0.15, recency: 0.15 } as const;

/** How many results a radar search keeps after merging. */
export const MAX_RESULTS = 50;

/** log10 of the view count that scores 1 (100 million). */
const VIEWS_LOG_CEILING = 8;
/** Engagement rate (fraction) that scores 1. */
const ENGAGEMENT_CEILING = 0.1;
const RECENCY_HALF_LIFE_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface QueryResults {
  /** The expanded query that found these candidates. */
  query: string;
  candidates: SearchCandidate[];
}

export interface RankedResult extends SearchCandidate {
  score: number;
  /** The query whose match gave the best score. */
  matchedQuery: string;
  /** The service's engagement rate (src/domain/tracking/engagement.ts) in percent units; 0 when views are unknown. */
  engagementRate: number;
}

const clamp01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

/** Lower-cased words of at least two letters or digits, hashtags included without "#". */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [];
}

/** Share of the query's words that start a word of the text ("shoe" finds "shoes"). */
export function termOverlap(query: string, text: string): number {
  const wanted = [...new Set(words(query))];
  if (wanted.length === 0) return 0;
  const have = words(text);
  const found = wanted.filter((w) => have.some((h) => h.startsWith(w))).length;
  return found / wanted.length;
}

/** The service's one engagement rate (src/domain/tracking/engagement.ts), in percent units. */
export function candidateEngagementRate(
  c: Pick<SearchCandidate, "viewCount" | "likeCount" | "commentCount" | "shareCount" | "bookmarkCount">,
): number {
  return engagementRate({ ...c, bookmarkCount: c.bookmarkCount ?? null });
}

function relevanceSignal(candidate: SearchCandidate, query: string): number {
  return clamp01(candidate.textRank ?? termOverlap(query, candidate.description));
}

export function viewsSignal(viewCount: number | null): number {
  return viewCount === null ? 0 : clamp01(Math.log10(1 + Math.max(0, viewCount)) / VIEWS_LOG_CEILING);
}

function engagementSignal(candidate: SearchCandidate): number {
  return clamp01(candidateEngagementRate(candidate) / 100 / ENGAGEMENT_CEILING);
}

export function recencySignal(postedAt: Date | null, now: Date): number {
  if (postedAt === null) return 0;
  const ageDays = Math.max(0, now.getTime() - postedAt.getTime()) / DAY_MS;
  return clamp01(0.5 ** (ageDays / RECENCY_HALF_LIFE_DAYS));
}

/** The candidate's 0-1 score for `query` (see the table at the top of this file). */
export function scoreCandidate(candidate: SearchCandidate, query: string, now: Date = new Date()): number {
  const w = SCORE_WEIGHTS;
  return clamp01(
    w.relevance * relevanceSignal(candidate, query) +
      w.views * viewsSignal(candidate.viewCount) +
      w.engagement * engagementSignal(candidate) +
      w.recency * recencySignal(candidate.postedAt, now),
  );
}

const keyOf = (c: { platform: Platform; platformVideoId: string }) => `${c.platform}\u0000${c.platformVideoId}`;

/** Sort order: score desc, then views desc (unknown last), then platform and id: total and stable. */
export function compareRanked(a: RankedResult, b: RankedResult): number {
  if (a.score !== b.score) return b.score - a.score;
  const av = a.viewCount ?? -1;
  const bv = b.viewCount ?? -1;
  if (av !== bv) return bv - av;
  if (a.platform !== b.platform) return a.platform < b.platform ? -1 : 1;
  return a.platformVideoId < b.platformVideoId ? -1 : a.platformVideoId > b.platformVideoId ? 1 : 0;
}

/**
 * Merges the candidates of every query: drops those failing the filters (again: a provider's
 * filtering is not trusted), scores each for the query that found it, keeps one entry per
 * platform + platformVideoId (the best score and its query; on a tie, the earlier query), sorts and
 * keeps the best `keep`. A duplicate found by another source can lend the kept entry its `videoId`.
 */
export function mergeAndRank(
  resultsPerQuery: readonly QueryResults[],
  keep: number = MAX_RESULTS,
  options: { filters: CandidateFilters; now?: Date },
): RankedResult[] {
  const now = options.now ?? new Date();
  const best = new Map<string, RankedResult>();
  for (const { query, candidates } of resultsPerQuery) {
    for (const candidate of candidates) {
      if (!passesFilters(candidate, options.filters)) continue;
      const ranked = toRanked(candidate, query, now);
      const key = keyOf(candidate);
      const previous = best.get(key);
      if (!previous) best.set(key, ranked);
      else best.set(key, betterOf(previous, ranked));
    }
  }
  return [...best.values()].sort(compareRanked).slice(0, Math.max(0, keep));
}

function toRanked(candidate: SearchCandidate, query: string, now: Date): RankedResult {
  return {
    ...candidate,
    score: scoreCandidate(candidate, query, now),
    matchedQuery: query,
    engagementRate: candidateEngagementRate(candidate),
  };
}

function betterOf(previous: RankedResult, next: RankedResult): RankedResult {
  const winner = next.score > previous.score ? next : previous;
  const other = winner === next ? previous : next;
  return winner.videoId === null && other.videoId !== null ? { ...winner, videoId: other.videoId } : winner;
}
