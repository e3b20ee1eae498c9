/**
 * The tracked accounts (components/DataTable.tsx over a Relay connection). Sorting, the platform
 * filter and the search are the server's (`accounts(sort, order, platform, q)`), so a header click
 * changes the URL and the route loads the list again; "Show more" reads the next cursor page.
 * Live by `trackedAccountsChanged`: a scrape's numbers and state land in their row as they are stored.
 */
import { useCallback, useTransition } from "react";
import { graphql } from "react-relay";
import { Link } from "react-router";
import type { AccountsTable_query$key, AccountsTable_query$data } from "../../__generated__/AccountsTable_query.graphql";
import type { AccountsTablePaginationQuery } from "../../__generated__/AccountsTablePaginationQuery.graphql";
import type { AccountSort } from "../../__generated__/AccountsPageQuery.graphql";
import { paths } from "../../lib/paths";
import { Badge, StatusBadge } from "../../components/Badge";
import { DataTable, type Column } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { Time } from "../../components/Time";
import { Thumbnail } from "../../components/VideoCell";
import { formatCount, formatWhole, platformName } from "../../lib/format";
import { usePagedConnection } from "../../relay/paged";
import { useLiveList } from "../../relay/live-list";
import type { AccountsTableChangesSubscription } from "../../__generated__/AccountsTableChangesSubscription.graphql";
import type { ColumnChoice } from "../../lib/columns";
import { TagChips } from "../tags/TagChips";
import type { AccountListOptions } from "./list-options";

/** What a row shows: read by the page and by the live stream alike, so a change lands in the row whole. */
export const rowFragment = graphql`
  fragment AccountsTableRow_account on Account {
    id
    uuid
    type
    username
    displayName
    avatarUrl
    followerCount
    totalViews
    videoCount
    scrapeStatus
    scrapeError
    tracking {
      videoLimit
      trackedAt
      pausedAt
    }
    tags {
      id
      name
      color
    }
  }
`;

const fragment = graphql`
  fragment AccountsTable_query on Query
  @refetchable(queryName: "AccountsTablePaginationQuery")
  @argumentDefinitions(
    first: { type: "Int", defaultValue: 50 }
    after: { type: "String" }
    sort: { type: "AccountSort!" }
    order: { type: "SortOrder!" }
    platform: { type: "Platform" }
    q: { type: "String" }
    tagIds: { type: "[ID!]" }
  ) {
    accounts(first: $first, after: $after, sort: $sort, order: $order, platform: $platform, q: $q, tagIds: $tagIds) @connection(key: "AccountsTable_accounts") {
      totalCount
      edges {
        node {
          ...AccountsTableRow_account @relay(mask: false)
        }
      }
    }
  }
`;

type Row = AccountsTable_query$data["accounts"]["edges"][number]["node"];

/**
 * The columns a person may show or hide (lib/columns.ts), in the table's order; the ids are the
 * domain's (src/domain/views/inputs.ts ACCOUNT_LIST_COLUMNS). The avatar and the account are always shown.
 */
export const ACCOUNT_COLUMNS: readonly ColumnChoice[] = [
  { id: "platform", label: "Platform" },
  { id: "followers", label: "Followers" },
  { id: "views", label: "Total views" },
  { id: "videos", label: "Videos" },
  { id: "limit", label: "Video limit" },
  { id: "tracked", label: "Tracked" },
  { id: "status", label: "Status" },
];

const ALWAYS = new Set(["avatar", "account"]);

const COLUMNS: Column<Row, AccountSort>[] = [
  { id: "avatar", header: "Avatar", hidden: true, cell: (a) => <Thumbnail src={a.avatarUrl} avatar /> },
  {
    id: "account",
    header: "Account",
    sort: "USERNAME",
    cell: (a) => (
      <>
        <Link className="description" to={paths.account(a.uuid)}>
          {a.displayName || `@${a.username}`}
          {a.displayName && <span className="muted"> @{a.username}</span>}
        </Link>
        <TagChips tags={a.tags} />
      </>
    ),
  },
  { id: "platform", header: "Platform", cell: (a) => platformName(a.type) },
  {
    id: "followers",
    header: "Followers",
    sort: "FOLLOWERS",
    cell: (a) => <span title={formatWhole(a.followerCount)}>{formatCount(a.followerCount)}</span>,
  },
  {
    id: "views",
    header: "Total views",
    sort: "TOTAL_VIEWS",
    cell: (a) => <span title={formatWhole(a.totalViews)}>{formatCount(a.totalViews)}</span>,
  },
  { id: "videos", header: "Videos", sort: "VIDEO_COUNT", cell: (a) => formatCount(a.videoCount) },
  { id: "limit", header: "Video limit", cell: (a) => formatWhole(a.tracking?.videoLimit) },
  { id: "tracked", header: "Tracked", sort: "TRACKED_AT", cell: (a) => <Time value={a.tracking?.trackedAt} /> },
  {
    id: "status",
    header: "Status",
    cell: (a) => (
      <>
        <StatusBadge status={a.scrapeStatus} title={a.scrapeError ?? undefined} />
        {a.tracking?.pausedAt && (
          <>
            {" "}
            <Badge title="No scrape is scheduled and no new video is tracked until it is resumed (on its page).">Paused</Badge>
          </>
        )}
      </>
    ),
  },
];

/** The stream that keeps the rows live: the fields a row shows, merged into it by id. */
const changes = graphql`
  subscription AccountsTableChangesSubscription {
    trackedAccountsChanged {
      change
      account {
        ...AccountsTableRow_account @relay(mask: false)
      }
    }
  }
`;
const accountChangeKind = (p: AccountsTableChangesSubscription["response"]) => p.trackedAccountsChanged.change;

interface Props {
  query: AccountsTable_query$key;
  /** The column ids shown (lib/columns.ts). */
  columns: readonly string[];
  options: AccountListOptions;
  onChange: (o: Partial<AccountListOptions>) => void;
  pending: boolean;
}

export function AccountsTable({ query, columns: shown, options, onChange, pending }: Props) {
  const { rows, paging, refetch } = usePagedConnection<AccountsTablePaginationQuery, AccountsTable_query$key, Row>(
    fragment,
    query,
    (d) => d.accounts,
    "accounts",
  );
  const [, startRefetch] = useTransition();

  const reload = useCallback(() => startRefetch(() => void refetch({}, { fetchPolicy: "network-only" })), [refetch]);
  useLiveList<AccountsTableChangesSubscription>(changes, accountChangeKind, reload);

  const empty =
    options.q || options.platform || options.tagIds ? (
      <EmptyState title="No account matches these filters.">Clear the search or choose another platform or tag.</EmptyState>
    ) : (
      <EmptyState title="No accounts tracked yet.">
        Paste an account's link in the form above and press Track account: its followers, views and newest videos appear here.
      </EmptyState>
    );

  return (
    <DataTable
      label={`Tracked accounts, ${formatWhole(paging.total)} in all${options.sort !== "TRACKED_AT" ? `, sorted by ${options.sort.toLowerCase().replace("_", " ")}` : ""}`}
      columns={COLUMNS.filter((c) => ALWAYS.has(c.id) || shown.includes(c.id))}
      rows={rows}
      rowProps={(a) => ({ "data-account-id": a.uuid })}
      empty={empty}
      sorting={{ sort: options.sort, order: options.order, onSort: onChange }}
      paging={paging}
      busy={pending}
    />
  );
}
