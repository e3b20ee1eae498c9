/** The workspace's radar searches, newest first ("Show more" for the next cursor page), each opening its results. */
import { graphql, useFragment } from "react-relay";
import { Link } from "react-router";
import type { RadarHistory_query$key } from "../../__generated__/RadarHistory_query.graphql";
import type { RadarHistoryPaginationQuery } from "../../__generated__/RadarHistoryPaginationQuery.graphql";
import type { RadarHistory_search$key } from "../../__generated__/RadarHistory_search.graphql";
import { paths } from "../../lib/paths";
import { StatusBadge } from "../../components/Badge";
import { EmptyState } from "../../components/EmptyState";
import { PagedList } from "../../components/PagedList";
import { Time } from "../../components/Time";
import { humanize, platformName, plural } from "../../lib/format";
import { usePagedConnection } from "../../relay/paged";
import { Panel } from "../../components/Panel";

const fragment = graphql`
  fragment RadarHistory_query on Query
  @refetchable(queryName: "RadarHistoryPaginationQuery")
  @argumentDefinitions(first: { type: "Int", defaultValue: 20 }, after: { type: "String" }) {
    radarSearches(first: $first, after: $after) @connection(key: "RadarHistory_radarSearches") {
      totalCount
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
  const { rows, paging } = usePagedConnection<
    RadarHistoryPaginationQuery,
    RadarHistory_query$key,
    { id: string } & RadarHistory_search$key
  >(fragment, query, (d) => d.radarSearches, "searches");
  return (
    <Panel title="Past searches">
      <PagedList
        label="Past searches"
        rows={rows}
        itemProps={() => ({ className: "row" })}
        item={(s) => <HistoryRow search={s} selected={selected} />}
        paging={paging}
        empty={
          <EmptyState title="No searches yet.">
            Describe what you are looking for in the form above and press Search: the ranked videos appear here.
          </EmptyState>
        }
      />
    </Panel>
  );
}

function HistoryRow({ search, selected }: { search: RadarHistory_search$key; selected?: string }) {
  const s = useFragment(searchFragment, search);
  return (
    <>
      <Link to={paths.radarSearch(s.uuid)} aria-current={selected === s.uuid ? "page" : undefined}>
        {s.query}
      </Link>
      <StatusBadge status={s.status} />
      <span className="muted">
        {platformName(s.platform)} · {humanize(s.depth)} · {s.status === "COMPLETED" ? `${plural(s.resultCount, "result")} · ` : ""}
        <Time value={s.createdAt} />
      </span>
    </>
  );
}
