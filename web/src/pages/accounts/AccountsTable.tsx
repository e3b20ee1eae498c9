/**
 * The tracked accounts (TanStack Table over a Relay connection). Sorting, the platform filter and
 * the search are the server's (`accounts(sort, order, platform, q)`), so a header click changes the
 * URL and the query; "Show more" reads the next cursor page. Accounts being scraped are read again
 * every few seconds until their numbers land (no account subscription exists).
 */
import { useEffect, useMemo, useTransition, type HTMLAttributes } from "react";
import { graphql, usePaginationFragment } from "react-relay";
import { Link } from "react-router";
import { createColumnHelper, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import type { AccountsTable_query$key, AccountsTable_query$data } from "../../__generated__/AccountsTable_query.graphql";
import type { AccountSort } from "../../__generated__/AccountsPageQuery.graphql";
import { paths } from "../../app/paths";
import { StatusBadge } from "../../components/Badge";
import { EmptyState } from "../../components/EmptyState";
import { ShowMore } from "../../components/ShowMore";
import { SortedTable } from "../../components/SortedTable";
import { Time } from "../../components/Time";
import { formatCount, formatWhole, platformName } from "../../lib/format";
import type { AccountListOptions } from "./list-options";

const fragment = graphql`
  fragment AccountsTable_query on Query
  @refetchable(queryName: "AccountsTablePaginationQuery")
  @argumentDefinitions(
    first: { type: "Int!" }
    after: { type: "String" }
    sort: { type: "AccountSort!" }
    order: { type: "SortOrder!" }
    platform: { type: "Platform" }
    q: { type: "String" }
  ) {
    accounts(first: $first, after: $after, sort: $sort, order: $order, platform: $platform, q: $q) @connection(key: "AccountsTable_accounts") {
      totalCount
      edges {
        node {
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
          }
        }
      }
    }
  }
`;

type Row = AccountsTable_query$data["accounts"]["edges"][number]["node"];
const column = createColumnHelper<Row>();
/** Which columns sort on the server, and by which key. */
const SORT_OF: Record<string, AccountSort> = { account: "USERNAME", followers: "FOLLOWERS", views: "TOTAL_VIEWS", videos: "VIDEO_COUNT", tracked: "TRACKED_AT" };

const columns = [
  column.accessor("avatarUrl", {
    id: "avatar",
    header: () => <span className="visually-hidden">Avatar</span>,
    cell: (c) => (c.getValue() ? <img className="thumb avatar" src={c.getValue()} alt="" loading="lazy" referrerPolicy="no-referrer" /> : <span className="thumb thumb-empty avatar" />),
  }),
  column.accessor((a) => `${a.displayName} ${a.username}`, {
    id: "account",
    header: "Account",
    cell: (c) => (
      <Link className="description" to={paths.account(c.row.original.uuid)}>
        {c.row.original.displayName || `@${c.row.original.username}`}
        {c.row.original.displayName && <span className="muted"> @{c.row.original.username}</span>}
      </Link>
    ),
  }),
  column.accessor("type", { id: "platform", header: "Platform", cell: (c) => platformName(c.getValue()) }),
  column.accessor((a) => a.followerCount ?? undefined, { id: "followers", header: "Followers", cell: (c) => <span title={formatWhole(c.getValue())}>{formatCount(c.getValue())}</span> }),
  column.accessor((a) => a.totalViews ?? undefined, { id: "views", header: "Total views", cell: (c) => <span title={formatWhole(c.getValue())}>{formatCount(c.getValue())}</span> }),
  column.accessor((a) => a.videoCount ?? undefined, { id: "videos", header: "Videos", cell: (c) => formatCount(c.getValue()) }),
  column.accessor((a) => a.tracking?.videoLimit, { id: "limit", header: "Video limit", cell: (c) => formatWhole(c.getValue()) }),
  column.accessor((a) => a.tracking?.trackedAt ?? "", { id: "tracked", header: "Tracked", cell: (c) => <Time value={c.getValue()} /> }),
  column.accessor("scrapeStatus", { id: "status", header: "Status", cell: (c) => <StatusBadge status={c.getValue()} title={c.row.original.scrapeError ?? undefined} /> }),
];

interface Props {
  query: AccountsTable_query$key;
  options: AccountListOptions;
  onChange: (o: Partial<AccountListOptions>) => void;
  pending: boolean;
}

export function AccountsTable({ query, options, onChange, pending }: Props) {
  const { data, hasNext, loadNext, isLoadingNext, refetch } = usePaginationFragment(fragment, query);
  const rows = useMemo(() => data.accounts.edges.map((e) => e.node), [data.accounts.edges]);
  const [, startRefetch] = useTransition();

  const scraping = rows.some((r) => r.scrapeStatus === "QUEUED" || r.scrapeStatus === "SCRAPING");
  useEffect(() => {
    if (!scraping) return;
    const timer = setInterval(() => startRefetch(() => void refetch({}, { fetchPolicy: "network-only" })), 3000);
    return () => clearInterval(timer);
  }, [scraping, refetch]);

  const table = useReactTable({ data: rows, columns, getRowId: (row) => row.id, getCoreRowModel: getCoreRowModel() });

  if (data.accounts.totalCount === 0 && rows.length === 0) {
    return options.q || options.platform ? (
      <EmptyState title="No account matches these filters.">Clear the search or choose another platform.</EmptyState>
    ) : (
      <EmptyState title="No accounts tracked yet.">Paste an account's link in the form above and press Track account: its followers, views and newest videos appear here.</EmptyState>
    );
  }

  return (
    <div aria-busy={pending}>
      <SortedTable
        table={table}
        caption={`Tracked accounts, ${formatWhole(data.accounts.totalCount)} in all${options.sort !== "TRACKED_AT" ? `, sorted by ${options.sort.toLowerCase().replace("_", " ")}` : ""}`}
        sortOf={SORT_OF}
        sort={options.sort}
        order={options.order}
        onSort={onChange}
        rowProps={(row) => ({ "data-account-id": row.original.uuid }) as HTMLAttributes<HTMLTableRowElement>}
      />
      <ShowMore shown={rows.length} total={data.accounts.totalCount} hasNext={hasNext} isLoadingNext={isLoadingNext} onMore={() => loadNext(50)} />
    </div>
  );
}
