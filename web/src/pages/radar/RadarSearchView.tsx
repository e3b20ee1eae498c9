/**
 * One radar search: its options, its status live (`radarSearchUpdated` sends the state now and at
 * each change; Relay merges it by id, so the history row changes too), then its ranked results with
 * score and link. A search that found nothing says so and what to try.
 */
import { useEffect, useMemo, useRef, useState, useTransition } from "react";
import { graphql, useLazyLoadQuery, usePaginationFragment, useSubscription } from "react-relay";
import type { GraphQLSubscriptionConfig } from "relay-runtime";
import type { RadarSearchViewQuery } from "../../__generated__/RadarSearchViewQuery.graphql";
import type { RadarSearchViewUpdatesSubscription } from "../../__generated__/RadarSearchViewUpdatesSubscription.graphql";
import type { RadarSearchView_results$key } from "../../__generated__/RadarSearchView_results.graphql";
import { Badge, StatusBadge } from "../../components/Badge";
import { EmptyState } from "../../components/EmptyState";
import { ShowMore } from "../../components/ShowMore";
import { Time } from "../../components/Time";
import { formatCount, formatPercent, formatWhole, humanize, platformName } from "../../lib/format";

const query = graphql`
  query RadarSearchViewQuery($id: ID!) {
    radarSearch(id: $id) {
      id
      uuid
      query
      platform
      depth
      minViews
      timePeriod
      language
      status
      error
      queries
      resultCount
      createdAt
      completedAt
      ...RadarSearchView_results
    }
  }
`;

const updates = graphql`
  subscription RadarSearchViewUpdatesSubscription($id: ID!) {
    radarSearchUpdated(id: $id) {
      id
      status
      error
      queries
      resultCount
      completedAt
      ...RadarHistory_search
    }
  }
`;

const resultsFragment = graphql`
  fragment RadarSearchView_results on RadarSearch
  @refetchable(queryName: "RadarSearchViewResultsQuery")
  @argumentDefinitions(first: { type: "Int", defaultValue: 50 }, after: { type: "String" }) {
    results(first: $first, after: $after) @connection(key: "RadarSearchView_results") {
      totalCount
      edges {
        node {
          id
          rank
          score
          url
          type
          thumbnailUrl
          description
          username
          viewCount
          engagementRate
          postedAt
          tracked
        }
      }
    }
  }
`;

const MIN_VIEWS_LABEL: Record<string, string> = { ANY: "any views", MIN_10K: "10K+ views", MIN_25K: "25K+ views", MIN_50K: "50K+ views", MIN_100K: "100K+ views" };
const PERIOD_LABEL: Record<string, string> = { ANY: "any time", TODAY: "today", WEEK: "last 7 days", LAST_MONTH: "last month", YEAR: "last year" };
const FINISHED = new Set(["COMPLETED", "FAILED"]);

export function RadarSearchView({ id }: { id: string }) {
  const data = useLazyLoadQuery<RadarSearchViewQuery>(query, { id }, { fetchPolicy: "store-and-network" });
  const s = data.radarSearch;
  const config = useMemo<GraphQLSubscriptionConfig<RadarSearchViewUpdatesSubscription>>(() => ({ subscription: updates, variables: { id: s.id } }), [s.id]);
  useSubscription(config);

  // Every status seen while the page is open, in order (pending → searching → completed or failed).
  const [seen, setSeen] = useState<string[]>([s.status]);
  useEffect(() => setSeen((list) => (list[list.length - 1] === s.status ? list : [...list, s.status])), [s.status]);

  return (
    <section aria-labelledby="radar-search-heading" className="panel" data-search-id={s.uuid}>
      <h2 id="radar-search-heading">“{s.query}”</h2>
      <div className="row meta">
        <StatusBadge status={s.status} />
        <span>
          {platformName(s.platform)} · {humanize(s.depth)} · {MIN_VIEWS_LABEL[s.minViews]} · posted {PERIOD_LABEL[s.timePeriod]} · {s.language}
        </span>
        <span>
          Started <Time value={s.createdAt} />
        </span>
        {s.completedAt && (
          <span>
            Finished <Time value={s.completedAt} />
          </span>
        )}
      </div>
      <ol className="status-log" aria-label="Search status">
        {seen.map((status, i) => (
          <li key={i} data-status={status}>
            {humanize(status)}
          </li>
        ))}
      </ol>
      <p role="status" className="muted">
        {s.status === "PENDING" && "Queued: the search starts in a moment."}
        {s.status === "SEARCHING" && `Searching${s.queries.length ? ` with ${s.queries.length} queries` : ""}…`}
        {s.status === "COMPLETED" && `Done: ${formatWhole(s.resultCount)} result${s.resultCount === 1 ? "" : "s"}.`}
        {s.status === "FAILED" && "The search failed."}
      </p>
      {s.error && (
        <p className={s.status === "FAILED" ? "notice notice-error" : "notice"} role={s.status === "FAILED" ? "alert" : undefined}>
          {s.status === "FAILED" ? "Why: " : "Partial results: "}
          {s.error}
        </p>
      )}
      {s.queries.length > 0 && (
        <details>
          <summary>Queries searched ({s.queries.length})</summary>
          <ul>
            {s.queries.map((q) => (
              <li key={q}>{q}</li>
            ))}
          </ul>
        </details>
      )}
      {FINISHED.has(s.status) && <RadarResults search={s} status={s.status} resultCount={s.resultCount} />}
    </section>
  );
}

function RadarResults({ search, status, resultCount }: { search: RadarSearchView_results$key; status: string; resultCount: number }) {
  const { data, hasNext, loadNext, isLoadingNext, refetch } = usePaginationFragment(resultsFragment, search);
  const [pending, startTransition] = useTransition();
  // The results were read before the search finished (or by another count): read them again.
  const loadedFor = useRef(`${status}:${data.results.totalCount}`);
  useEffect(() => {
    const key = `${status}:${resultCount}`;
    if (data.results.totalCount === resultCount || loadedFor.current === key) return;
    loadedFor.current = key;
    startTransition(() => void refetch({}, { fetchPolicy: "network-only" }));
  }, [status, resultCount, data.results.totalCount, refetch]);

  const results = data.results.edges.map((e) => e.node);
  if (results.length === 0 && !pending) {
    if (status === "FAILED") return null;
    return (
      <EmptyState title="This search found nothing.">
        No video matched. Try other or fewer words, another platform, a longer posting time or a lower minimum of views, then search again.
      </EmptyState>
    );
  }
  return (
    <div aria-busy={pending}>
      <div className="table-scroll">
        <table className="data-table">
          <caption className="visually-hidden">Results, best first</caption>
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">
                <span className="visually-hidden">Thumbnail</span>
              </th>
              <th scope="col">Video</th>
              <th scope="col">Views</th>
              <th scope="col">Engagement</th>
              <th scope="col">Posted</th>
              <th scope="col">Score</th>
            </tr>
          </thead>
          <tbody>
            {results.map((r) => (
              <tr key={r.id}>
                <td>{r.rank}</td>
                <td>{r.thumbnailUrl ? <img className="thumb" src={r.thumbnailUrl} alt="" loading="lazy" referrerPolicy="no-referrer" /> : <span className="thumb thumb-empty" />}</td>
                <td className="cell-description">
                  <a className="description" href={r.url} target="_blank" rel="noreferrer noopener">
                    {r.description || `Video by @${r.username}`}
                  </a>{" "}
                  <span className="muted">
                    @{r.username} · {platformName(r.type)}
                  </span>{" "}
                  {r.tracked && <Badge tone="success">Tracked</Badge>}
                </td>
                <td title={formatWhole(r.viewCount)}>{formatCount(r.viewCount)}</td>
                <td>{formatPercent(r.engagementRate)}</td>
                <td>
                  <Time value={r.postedAt} />
                </td>
                <td className="cell-score" title="0 to 1: relevance 40 %, views 30 %, engagement 15 %, recency 15 %">
                  {r.score.toFixed(2)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ShowMore shown={results.length} total={data.results.totalCount} hasNext={hasNext} isLoadingNext={isLoadingNext} onMore={() => loadNext(50)} />
    </div>
  );
}
