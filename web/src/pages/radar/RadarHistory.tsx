/** The workspace's radar searches, newest first ("Show more" for the next cursor page), each opening its results. */
import { graphql, useFragment, usePaginationFragment } from "react-relay";
import { Link } from "react-router";
import type { RadarHistory_query$key } from "../../__generated__/RadarHistory_query.graphql";
import type { RadarHistory_search$key } from "../../__generated__/RadarHistory_search.graphql";
import { paths } from "../../app/paths";
import { StatusBadge } from "../../components/Badge";
import { EmptyState } from "../../components/EmptyState";
import { Time } from "../../components/Time";
import { formatWhole, humanize, platformName } from "../../lib/format";

const fragment = graphql`
  fragment RadarHistory_query on Query
  @refetchable(queryName: "RadarHistoryPaginationQuery")
  @argumentDefinitions(first: { type: "Int", defaultValue: 20 }, after: { type: "String" }) {
    radarSearches(first: $first, after: $after) @connection(key: "RadarHistory_radarSearches") {
      edges {
        node {
          id
          ...RadarHistory_search
        }
      }
    }
  }
`;

/** One search as a history row; the live subscription asks for the same fields. */
const searchFragment = graphql`
  fragment RadarHistory_search on RadarSearch {
    uuid
    query
    platform
    depth
    status
    resultCount
    createdAt
  }
`;

export function RadarHistory({ query, selected }: { query: RadarHistory_query$key; selected?: string }) {
  const { data, hasNext, loadNext, isLoadingNext } = usePaginationFragment(fragment, query);
  return (
    <section aria-labelledby="radar-history-heading" className="panel">
      <h2 id="radar-history-heading">Past searches</h2>
      {data.radarSearches.edges.length === 0 ? (
        <EmptyState title="No searches yet.">Describe what you are looking for in the form above and press Search: the ranked videos appear here.</EmptyState>
      ) : (
        <ul className="plain-list" aria-label="Past searches">
          {data.radarSearches.edges.map((e) => (
            <HistoryRow key={e.node.id} search={e.node} selected={selected} />
          ))}
        </ul>
      )}
      {hasNext && (
        <div className="row table-footer">
          <button type="button" onClick={() => loadNext(20)} disabled={isLoadingNext}>
            {isLoadingNext ? "Loading…" : "Show more"}
          </button>
        </div>
      )}
    </section>
  );
}

function HistoryRow({ search, selected }: { search: RadarHistory_search$key; selected?: string }) {
  const s = useFragment(searchFragment, search);
  return (
    <li className="row">
      <Link to={paths.radarSearch(s.uuid)} aria-current={selected === s.uuid ? "page" : undefined}>
        {s.query}
      </Link>
      <StatusBadge status={s.status} />
      <span className="muted">
        {platformName(s.platform)} · {humanize(s.depth)} · {s.status === "COMPLETED" ? `${formatWhole(s.resultCount)} results · ` : ""}
        <Time value={s.createdAt} />
      </span>
    </li>
  );
}
