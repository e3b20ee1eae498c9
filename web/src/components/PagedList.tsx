/**
 * The list kit's other half, for a paged list whose items are not table rows (a creator with its accounts and
 * forms, a past search): its items in a labelled list, its empty state, and the same footer as DataTable
 * ("Showing 20 of 45 creators", Show more) from `usePagedConnection`. Every list is a DataTable or a
 * PagedList; see web/README.md "Lists".
 */
import type { HTMLAttributes, ReactNode } from "react";
import type { Paging } from "../relay/paged";
import { idOf, type RowKey } from "./DataTable";
import { ShowMore } from "./ShowMore";

type Props<T> = RowKey<T> & {
  /** The list's accessible name. */
  label: string;
  rows: readonly T[];
  /** One item's content. */
  item: (row: T) => ReactNode;
  /** Extra attributes of an item (a data-* name, a class). */
  itemProps?: (row: T) => HTMLAttributes<HTMLLIElement> & Record<`data-${string}`, string>;
  /** Shown instead of the list when it is empty (an EmptyState). */
  empty: ReactNode;
  paging: Paging;
  className?: string;
};

export function PagedList<T>({ label, rows, rowKey, item, itemProps, empty, paging, className = "plain-list" }: Props<T>) {
  if (rows.length === 0 && !paging.hasNext) return <>{empty}</>;
  return (
    <div>
      <ul className={className} aria-label={label}>
        {rows.map((row) => (
          <li key={(rowKey ?? idOf)(row)} {...itemProps?.(row)}>
            {item(row)}
          </li>
        ))}
      </ul>
      <ShowMore paging={paging} />
    </div>
  );
}
