/**
 * The tracked accounts (TanStack Table over a Relay connection, "Show more" for the next cursor
 * page). The `accounts` field has no sort or filter arguments, so sorting, the platform filter and
 * the search apply to the accounts loaded (TanStack's row models); the footer says when more pages
 * exist. Accounts being scraped are read again every few seconds until their numbers land.
 */
import { useEffect, useMemo, useState, useTransition } from "react";
import { graphql, usePaginationFragment } from "react-relay";
import { Link } from "react-router";
import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnFiltersState,
  type SortingState,
} from "@tanstack/react-table";
import type { AccountsTable_query$key, AccountsTable_query$data } from "../../__generated__/AccountsTable_query.graphql";
import { paths } from "../../app/paths";
import { StatusBadge } from "../../components/Badge";
import { EmptyState } from "../../components/EmptyState";
import { Time } from "../../components/Time";
import { formatCount, formatWhole, platformName } from "../../lib/format";

const fragment = graphql`
  fragment AccountsTable_query on Query
  @refetchable(queryName: "AccountsTablePaginationQuery")
  @argumentDefinitions(first: { type: "Int!" }, after: { type: "String" }) {
    accounts(first: $first, after: $after) @connection(key: "AccountsTable_accounts") {
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
/** Missing numbers (not scraped yet) sort last either way. */
const numeric = { sortUndefined: "last" as const, sortDescFirst: true };

const columns = [
  column.accessor("avatarUrl", {
    id: "avatar",
    enableSorting: false,
    header: () => <span className="visually-hidden">Avatar</span>,
    cell: (c) => (c.getValue() ? <img className="thumb avatar" src={c.getValue()} alt="" loading="lazy" referrerPolicy="no-referrer" /> : <span className="thumb thumb-empty avatar" />),
  }),
  column.accessor((a) => `${a.displayName} ${a.username}`, {
    id: "account",
    header: "Account",
    sortingFn: (a, b) => a.original.username.localeCompare(b.original.username),
    filterFn: (row, _id, words: string) => words.toLowerCase().split(/\s+/).every((w) => `${row.original.displayName} ${row.original.username}`.toLowerCase().includes(w)),
    cell: (c) => (
      <Link className="description" to={paths.account(c.row.original.uuid)}>
        {c.row.original.displayName || `@${c.row.original.username}`}
        {c.row.original.displayName && <span className="muted"> @{c.row.original.username}</span>}
      </Link>
    ),
  }),
  column.accessor("type", { id: "platform", header: "Platform", filterFn: "equals", cell: (c) => platformName(c.getValue()) }),
  column.accessor((a) => a.followerCount ?? undefined, { id: "followers", header: "Followers", ...numeric, cell: (c) => <span title={formatWhole(c.getValue())}>{formatCount(c.getValue())}</span> }),
  column.accessor((a) => a.totalViews ?? undefined, { id: "views", header: "Total views", ...numeric, cell: (c) => <span title={formatWhole(c.getValue())}>{formatCount(c.getValue())}</span> }),
  column.accessor((a) => a.videoCount ?? undefined, { id: "videos", header: "Videos", ...numeric, cell: (c) => formatCount(c.getValue()) }),
  column.accessor((a) => a.tracking?.videoLimit, { id: "limit", header: "Video limit", ...numeric, cell: (c) => formatWhole(c.getValue()) }),
  column.accessor((a) => a.tracking?.trackedAt ?? "", { id: "tracked", header: "Tracked", sortDescFirst: true, cell: (c) => <Time value={c.getValue()} /> }),
  column.accessor("scrapeStatus", { id: "status", header: "Status", enableSorting: false, cell: (c) => <StatusBadge status={c.getValue()} title={c.row.original.scrapeError ?? undefined} /> }),
];

export function AccountsTable({ query }: { query: AccountsTable_query$key }) {
  const { data, hasNext, loadNext, isLoadingNext, refetch } = usePaginationFragment(fragment, query);
  const rows = useMemo(() => data.accounts.edges.map((e) => e.node), [data.accounts.edges]);
  const [sorting, setSorting] = useState<SortingState>([{ id: "tracked", desc: true }]);
  const [platform, setPlatform] = useState("");
  const [q, setQ] = useState("");
  const columnFilters = useMemo<ColumnFiltersState>(
    () => [...(platform ? [{ id: "platform", value: platform }] : []), ...(q.trim() ? [{ id: "account", value: q.trim() }] : [])],
    [platform, q],
  );
  const [, startRefetch] = useTransition();

  // Until every account shown has been scraped once, read the list again every 3 s (no account subscription exists).
  const scraping = rows.some((r) => r.scrapeStatus === "QUEUED" || r.scrapeStatus === "SCRAPING");
  useEffect(() => {
    if (!scraping) return;
    const timer = setInterval(() => startRefetch(() => void refetch({}, { fetchPolicy: "network-only" })), 3000);
    return () => clearInterval(timer);
  }, [scraping, refetch]);

  const table = useReactTable({
    data: rows,
    columns,
    getRowId: (row) => row.id,
    state: { sorting, columnFilters },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
  });

  if (data.accounts.totalCount === 0) {
    return <EmptyState title="No accounts tracked yet.">Paste an account's link in the form above and press Track account: its followers, views and newest videos appear here.</EmptyState>;
  }
  const shown = table.getRowModel().rows;

  return (
    <div>
      <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <label>
          Platform
          <select value={platform} onChange={(e) => setPlatform(e.target.value)}>
            <option value="">All platforms</option>
            {(["PLATFORM_A", "PLATFORM_B", "PLATFORM_C"] as const).map((p) => (
              <option key={p} value={p}>
                {platformName(p)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Search
          <input type="search" value={q} placeholder="Name or username" onChange={(e) => setQ(e.target.value)} />
        </label>
      </form>
      {shown.length === 0 ? (
        <EmptyState title="No account matches these filters.">Clear the search or choose another platform.</EmptyState>
      ) : (
        <div className="table-scroll">
          <table className="data-table">
            <caption className="visually-hidden">Tracked accounts, {formatWhole(data.accounts.totalCount)} in all</caption>
            <thead>
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {group.headers.map((header) => {
                    const sorted = header.column.getIsSorted();
                    const content = flexRender(header.column.columnDef.header, header.getContext());
                    return (
                      <th key={header.id} scope="col" aria-sort={sorted ? (sorted === "asc" ? "ascending" : "descending") : undefined}>
                        {header.column.getCanSort() ? (
                          <button type="button" className="sort-button" onClick={header.column.getToggleSortingHandler()}>
                            {content}
                            <span aria-hidden="true">{sorted ? (sorted === "asc" ? " ▲" : " ▼") : ""}</span>
                          </button>
                        ) : (
                          content
                        )}
                      </th>
                    );
                  })}
                </tr>
              ))}
            </thead>
            <tbody>
              {shown.map((row) => (
                <tr key={row.id} data-account-id={row.original.uuid}>
                  {row.getVisibleCells().map((cell) => (
                    <td key={cell.id} className={`cell-${cell.column.id}`}>
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="row table-footer">
        <span className="muted">
          Showing {formatWhole(shown.length)} of {formatWhole(data.accounts.totalCount)}
          {hasNext && " (sorting and filters apply to the accounts loaded: show more to include the rest)"}
        </span>
        {hasNext && (
          <button type="button" onClick={() => loadNext(50)} disabled={isLoadingNext}>
            {isLoadingNext ? "Loading…" : "Show more"}
          </button>
        )}
      </div>
    </div>
  );
}
