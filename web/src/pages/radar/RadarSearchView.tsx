/**
 * One radar search: its options, its status live (`radarSearchUpdated` sends the state now and at
 * each change; Relay merges it by id, so the history row changes too), then its ranked results with
 * score and link. A search that found nothing says so and what to try.
 */
import { useEffect, useMemo, useRef, useState, useTransition } from "react";
import { graphql, useSubscription } from "react-relay";
import type { GraphQLSubscriptionConfig } from "relay-runtime";
import type { RadarSearchViewQuery } from "../../__generated__/RadarSearchViewQuery.graphql";
import type { RadarSearchViewUpdatesSubscription } from "../../__generated__/RadarSearchViewUpdatesSubscription.graphql";
import type { RadarSearchView_results$data, RadarSearchView_results$key } from "../../__generated__/RadarSearchView_results.graphql";
import type { RadarSearchViewResultsQuery } from "../../__generated__/RadarSearchViewResultsQuery.graphql";
import { Badge, StatusBadge } from "../../components/Badge";
import { DataTable, type Column } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { Time } from "../../components/Time";
import { VideoCell, videoMetricColumns } from "../../components/VideoCell";
import { humanize, plural, platformName } from "../../lib/format";
import { usePagedConnection } from "../../relay/paged";
import { useRouteQuery } from "../../relay/route-query";

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
      createdAt
      ...RadarSearchView_live @relay(mask: false)
      ...RadarSearchView_results
    }
  }
`;

// What changes while a search runs: the page's query and the live subscription both ask for it (Relay merges by id).
// eslint-disable-next-line @typescript-eslint/no-unused-expressions -- relay-compiler only needs the tag (spread with @relay(mask: false))
graphql`
  fragment RadarSearchView_live on RadarSearch {
    id
    status
    error
    queries
    resultCount
    completedAt
  }
`;

const updates = graphql`
  subscription RadarSearchViewUpdatesSubscription($id: ID!) {
    radarSearchUpdated(id: $id) {
      ...RadarSearchView_live @relay(mask: false)
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

const MIN_VIEWS_LABEL: Record<string, string> = {
  ANY: "any views",
  MIN_10K: "10K+ views",
  MIN_25K: "25K+ views",
  MIN_50K: "50K+ views",
  MIN_100K: "100K+ views",
};
const PERIOD_LABEL: Record<string, string> = {
  ANY: "any time",
  TODAY: "today",
  WEEK: "last 7 days",
  LAST_MONTH: "last month",
  YEAR: "last year",
};
const FINISHED = new Set(["COMPLETED", "FAILED"]);

export function RadarSearchView() {
  const s = useRouteQuery<RadarSearchViewQuery>(query).radarSearch;
  const config = useMemo<GraphQLSubscriptionConfig<RadarSearchViewUpdatesSubscription>>(
    () => ({ subscription: updates, variables: { id: s.id } }),
    [s.id],
  );
  useSubscription(config);

  // Every status seen while the page is open, in order (pending → searching → completed or failed).
  const [seen, setSeen] = useState<string[]>([s.status]);
  const [lastSeen, setLastSeen] = useState(s.status);
  if (lastSeen !== s.status) {
    // Adjusted while rendering (not in an effect): the log never shows a status behind the badge.
    setLastSeen(s.status);
    setSeen((list) => (list[list.length - 1] === s.status ? list : [...list, s.status]));
  }

  return (
    <section aria-labelledby="radar-search-heading" className="panel" data-search-id={s.uuid}>
      <h2 id="radar-search-heading">“{s.query}”</h2>
      <div className="row meta">
        <StatusBadge status={s.status} />
        <span>
          {platformName(s.platform)} · {humanize(s.depth)} · {MIN_VIEWS_LABEL[s.minViews]} · posted {PERIOD_LABEL[s.timePeriod]} ·{" "}
          {s.language}
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
        {s.status === "COMPLETED" && `Done: ${plural(s.resultCount, "result")}.`}
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

type Result = RadarSearchView_results$data["results"]["edges"][number]["node"];

const metrics = videoMetricColumns<Result>();
const COLUMNS: Column<Result>[] = [
  { id: "rank", header: "Rank", cell: (r) => r.rank },
  {
    id: "description",
    header: "Video",
    cell: (r) => (
      <VideoCell video={r} creator>
        {r.tracked && <Badge tone="success">Tracked</Badge>}
      </VideoCell>
    ),
  },
  metrics.views,
  metrics.engagement,
  metrics.posted,
  {
    id: "score",
    header: "Score",
    cell: (r) => <span title="0 to 1: relevance 40 %, views 30 %, engagement 15 %, recency 15 %">{r.score.toFixed(2)}</span>,
  },
];

function RadarResults({ search, status, resultCount }: { search: RadarSearchView_results$key; status: string; resultCount: number }) {
  const { rows, paging, refetch } = usePagedConnection<RadarSearchViewResultsQuery, RadarSearchView_results$key, Result>(
    resultsFragment,
    search,
    (d) => d.results,
    "results",
  );
  const [pending, startTransition] = useTransition();
  // The results were read before the search finished (or by another count): read them again.
  const loadedFor = useRef(`${status}:${paging.total}`);
  useEffect(() => {
    const key = `${status}:${resultCount}`;
    if (paging.total === resultCount || loadedFor.current === key) return;
    loadedFor.current = key;
    startTransition(() => void refetch({}, { fetchPolicy: "network-only" }));
  }, [status, resultCount, paging.total, refetch]);

  if (rows.length === 0 && (pending || status === "FAILED")) return null;
  return (
    <DataTable
      label="Results, best first"
      columns={COLUMNS}
      rows={rows}
      empty={
        <EmptyState title="This search found nothing.">
          No video matched. Try other or fewer words, another platform, a longer posting time or a lower minimum of views, then search
          again.
        </EmptyState>
      }
      paging={paging}
      busy={pending}
    />
  );
}
