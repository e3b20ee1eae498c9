/**
 * The table every settings list uses (API keys, webhooks and their deliveries, members, invitations,
 * sessions, the audit log), and the hook that reads a paged list of them.
 */
import type { ReactElement, ReactNode } from "react";
import { useLazyLoadQuery, usePaginationFragment, type GraphQLTaggedNode } from "react-relay";
import type { KeyType } from "react-relay/relay-hooks/helpers";
import type { OperationType } from "relay-runtime";
import { ShowMore } from "../../components/ShowMore";

/** A paged list's state (from usePaginationFragment) and how its footer names it. */
interface Paging {
  hasNext: boolean;
  isLoadingNext: boolean;
  loadNext: (count: number) => unknown;
  /** How many rows "Show more" asks for. */
  pageSize: number;
  /** The connection's totalCount. */
  total: number;
  /** The rows' plural, for "Showing 3 of 3 keys". */
  what: string;
}

interface Props<T> {
  /** The caption (for screen readers) and the name of the scroll region. */
  label: string;
  /** The column headers, left to right. */
  columns: string[];
  /** A last column of row buttons, its header "Actions" for screen readers only. */
  actions?: boolean;
  rows: readonly T[];
  /** One row: a `<tr key=…>`. */
  row: (item: T) => ReactElement;
  /** Shown instead of the table when there are no rows (an EmptyState); without it the table shows empty. */
  empty?: ReactNode;
  paging?: Paging;
  className?: string;
}

export function SettingsTable<T>({ label, columns, actions = false, rows, row, empty, paging, className }: Props<T>) {
  return (
    <>
      {rows.length === 0 && empty ? (
        empty
      ) : (
        // The box can take the focus (arrow keys scroll it), so a keyboard reaches columns beyond a
        // narrow screen's edge even when no cell holds a button.
        <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
          <table className={className ? `data-table ${className}` : "data-table"}>
            <caption className="visually-hidden">{label}</caption>
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
                {actions && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>{rows.map(row)}</tbody>
          </table>
        </div>
      )}
      {/* An empty list that has no next page needs no count under its empty state. */}
      {paging && (paging.hasNext || rows.length > 0) && (
        <ShowMore
          shown={rows.length}
          total={paging.total}
          hasNext={paging.hasNext}
          isLoadingNext={paging.isLoadingNext}
          onMore={() => paging.loadNext(paging.pageSize)}
          what={paging.what}
        />
      )}
    </>
  );
}

/**
 * Reads a settings list: `query` spreads the refetchable pagination `fragment` on Query, and TKey is
 * that fragment's key (the query's response is nothing else). Rows already in the store show at
 * once while the server is asked again (store-and-network).
 */
export function useSettingsList<TPaginationQuery extends OperationType, TKey extends KeyType>(query: GraphQLTaggedNode, fragment: GraphQLTaggedNode) {
  const root = useLazyLoadQuery<{ variables: Record<string, never>; response: TKey }>(query, {}, { fetchPolicy: "store-and-network" });
  return usePaginationFragment<TPaginationQuery, TKey>(fragment, root);
}
