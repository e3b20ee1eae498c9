/**
 * Running one radar search (the body of the `radar` job): expand the description into queries, run
 * every query against every configured provider that supports the platform (bounded concurrency),
 * filter, de-duplicate and rank, then complete the search; or fail it with the refund.
 *
 * Provider failures (decided here, documented in the OpenAPI description of GET /radar/search/{id}):
 * - every call of every provider failed → the search fails with the providers' errors in `error`
 *   and the 100 credits are refunded; when some error is retryable (timeout, 5xx) and attempts
 *   remain, the job throws instead so BullMQ retries it with backoff, and only the last attempt fails it;
 * - some calls failed and others answered → the search completes with the real results it has,
 *   and `error` names the provider(s) and queries that failed (never replaced by invented results).
 */
import pLimit from "p-limit";
import type { Platform } from "../shared/platform.ts";
import { filtersFor, QUERIES_PER_DEPTH, type Depth, type MinViewsOption, type TimePeriod } from "./filters.ts";
import { mergeAndRank, MAX_RESULTS, type QueryResults } from "./ranking.ts";
import type { QueryExpander, SearchProvider } from "./ports.ts";
import { ProviderError } from "../shared/provider-error.ts";
import { isLastAttempt, SINGLE_RUN, type JobRun } from "../shared/jobs.ts";
import { prisma } from "../../infra/db.ts";
import { logger } from "../../infra/logger.ts";
import { completeSearch, failSearch, saveQueries, startSearch } from "./lifecycle.ts";
import { RADAR_SEARCH_COST } from "./service.ts";

/** Candidates asked of a provider per query: twice what a search keeps, so merging has a choice. */
const CANDIDATES_PER_QUERY = 2 * MAX_RESULTS;
/** Provider calls of one search running at once (each provider also bounds itself, e.g. yt-dlp). */
const SEARCH_CALL_CONCURRENCY = 4;

export interface RadarDeps {
  providers: SearchProvider[];
  expander: QueryExpander;
  now?: () => Date;
}

export interface RunOutcome {
  status: "completed" | "failed" | "skipped";
  resultCount?: number;
  error?: string | null;
}

/** Thrown to make BullMQ retry the job (every provider failed, at least one of them retryably). */
export class RetryableSearchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RetryableSearchError";
  }
}

interface CallFailure {
  provider: string;
  query: string;
  message: string;
  retryable: boolean;
}

const describeFailures = (failures: CallFailure[]) => {
  const byProvider = new Map<string, CallFailure[]>();
  for (const f of failures) byProvider.set(f.provider, [...(byProvider.get(f.provider) ?? []), f]);
  return [...byProvider.entries()]
    .map(([provider, fs]) => `provider ${provider} failed on ${fs.length} ${fs.length === 1 ? "query" : "queries"}: ${fs[0]!.message}`)
    .join("; ");
};

/**
 * Runs the search `searchId`. On the job's last attempt a retryable failure fails the search now
 * (and refunds); before it, it is thrown for BullMQ to retry. Safe to run again at any point.
 */
export async function runSearch(searchId: string, deps: RadarDeps, run: JobRun = SINGLE_RUN): Promise<RunOutcome> {
  const opts = { lastAttempt: isLastAttempt(run) };
  if (!(await startSearch(searchId))) return { status: "skipped" };
  const search = await prisma.radarSearch.findUnique({ where: { id: searchId } });
  if (!search) return { status: "skipped" };
  const log = logger.child({ searchId });

  const providers = deps.providers.filter((p) => p.supports(search.platform));
  if (providers.length === 0) {
    const names = deps.providers.map((p) => p.name).join(", ") || "none";
    await failSearch(searchId, `No configured search provider supports ${search.platform} (configured: ${names}).`);
    return { status: "failed" };
  }

  let queries = search.queries;
  if (queries.length === 0) {
    const count = QUERIES_PER_DEPTH[search.depth as Depth];
    try {
      queries = await deps.expander.expand(search.query, count, search.language);
    } catch (e) {
      return failOrRetry(
        searchId,
        [
          {
            provider: `query expansion (${deps.expander.name})`,
            query: search.query,
            message: (e as Error).message,
            retryable: isRetryable(e),
          },
        ],
        opts,
      );
    }
    queries = [...new Set(queries.map((q) => q.trim()).filter(Boolean))].slice(0, count);
    if (queries.length === 0) queries = [search.query];
    await saveQueries(searchId, queries);
  }

  const filters = filtersFor(
    { minViews: search.minViews as MinViewsOption, timePeriod: search.timePeriod as TimePeriod },
    deps.now?.() ?? new Date(),
  );
  const limit = pLimit(SEARCH_CALL_CONCURRENCY);
  const failures: CallFailure[] = [];
  const found: QueryResults[] = [];
  await Promise.all(
    queries.flatMap((query) =>
      providers.map((provider) =>
        limit(async () => {
          try {
            const candidates = await provider.search({
              text: query,
              platform: search.platform as Platform,
              minViews: filters.minViews,
              postedAfter: filters.postedAfter,
              language: search.language,
              limit: CANDIDATES_PER_QUERY,
            });
            found.push({ query, candidates });
          } catch (e) {
            failures.push({ provider: provider.name, query, message: (e as Error).message, retryable: isRetryable(e) });
          }
        }),
      ),
    ),
  );

  if (found.length === 0) return failOrRetry(searchId, failures, opts);

  // Query order decides ties in mergeAndRank: keep the expander's order, not completion order.
  found.sort((a, b) => queries.indexOf(a.query) - queries.indexOf(b.query));
  const ranked = mergeAndRank(found, MAX_RESULTS, { filters, now: deps.now?.() });
  const partial = failures.length > 0 ? `Partial results: ${describeFailures(failures)}.` : null;
  const note = ranked.length === 0 ? [partial, nothingFound(queries, providers)].filter(Boolean).join(" ") : partial;
  if (note) log.warn({ failures: failures.length }, "radar search completed with provider failures");
  const done = await completeSearch(searchId, ranked, note);
  return done ? { status: "completed", resultCount: ranked.length, error: note } : { status: "skipped" };
}

function isRetryable(e: unknown): boolean {
  return e instanceof ProviderError ? e.retryable : true;
}

async function failOrRetry(searchId: string, failures: CallFailure[], opts: { lastAttempt: boolean }): Promise<RunOutcome> {
  const message = failures.length > 0 ? describeFailures(failures) : "no search provider answered";
  if (!opts.lastAttempt && failures.some((f) => f.retryable)) throw new RetryableSearchError(message);
  const error = `Search failed: ${message}. The ${RADAR_SEARCH_COST} credits were refunded.`;
  await failSearch(searchId, error);
  return { status: "failed", error };
}

/**
 * The note of a search that completed with no result (in its `error`, as a partial search's note): what was
 * searched, what the providers cover, and that the search was charged: a completed search is charged whatever
 * it found (CONTRACT, Credits: the 100 credits are refunded only when the search fails; README "Plans and credits").
 */
export function nothingFound(queries: readonly string[], providers: readonly SearchProvider[]): string {
  const searched =
    queries.length === 1
      ? `the query "${queries[0]}"`
      : `any of its ${queries.length} queries (${queries.map((q) => `"${q}"`).join(", ")})`;
  const catalogOnly = providers.every((p) => p.name === "catalog");
  const covers = catalogOnly
    ? " The catalog searches only videos this service has already scraped (tracked by any workspace); track videos or accounts first, " +
      "or add `ytdlp` to RADAR_PROVIDERS to search the platforms themselves."
    : "";
  return `No results: no video matched ${searched} within the filters.${covers} A completed search is charged (${RADAR_SEARCH_COST} credits) even when it finds nothing.`;
}
