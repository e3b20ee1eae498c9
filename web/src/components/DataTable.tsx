/**
 * The one table of the dashboard: columns, rows, an empty state, the paged footer ("Showing 20 of
 * 45 videos", Show more) and, when the list sorts on the server, sortable headers whose sort lives
 * in the URL (lib/list-options.ts `useListOptions`). Every table uses it (a lint rule keeps `<table>`
 * here), every paged list that is not a table PagedList (./PagedList.tsx); see web/README.md "Lists".
 * Its types are its own: a page's generated types never reach in.
 *
 * Hand-written rather than a table library: the server sorts, filters and pages, so what is left
 * is rendering cells with the right semantics (caption, `th scope`, `aria-sort`, a focusable scroll
 * region), and selection is a set of row ids.
 */
import type { HTMLAttributes, ReactNode } from "react";
import type { SortOrder } from "../lib/list-options";
import type { Paging } from "../relay/paged";
import { ShowMore } from "./ShowMore";

export interface Column<T, S extends string = string> {
  /** Names the column: its cells get the class `cell-<id>`. */
  id: string;
  /** The header; a column of controls (row buttons, a checkbox) may hide its text visually: `hidden`. */
  header: ReactNode;
  hidden?: boolean;
  cell: (row: T) => ReactNode;
  /** The server's sort key for this column: its header becomes a sort button. */
  sort?: S;
  /** Extra classes of its cells (`cell-wrap` lets long text wrap). */
  className?: string;
}

export interface Sorting<S extends string> {
  sort: S;
  order: SortOrder;
  onSort: (o: { sort: S; order: SortOrder }) => void;
}

/** A row's React key: its `id` when it has one, else `rowKey` says what it is. */
export type RowKey<T> = T extends { readonly id: string } ? { rowKey?: (row: T) => string } : { rowKey: (row: T) => string };

type Props<T, S extends string> = RowKey<T> & {
  /** The caption (for screen readers) and the name of the scroll region. */
  label: string;
  columns: readonly Column<T, S>[];
  rows: readonly T[];
  /** Extra attributes of a row (a data-* id, aria-selected, aria-current). */
  rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string>;
  /** Shown instead of the table when there are no rows: an EmptyState that says what to do next (every list has one). */
  empty: ReactNode;
  sorting?: Sorting<S>;
  /** The footer of a paged list (relay/paged.ts `usePagedConnection`). */
  paging?: Paging;
  /** The rows are being read again (a new sort, a reload). */
  busy?: boolean;
  className?: string;
};

/** A list's column of row actions (buttons that name their row for a screen reader): its header is hidden. */
export const actionsColumn = <T, S extends string = string>(cell: (row: T) => ReactNode): Column<T, S> => ({
  id: "actions",
  header: "Actions",
  hidden: true,
  cell,
});

export const idOf = (row: unknown) => (row as { id: string }).id;

export function DataTable<T, S extends string = string>({
  label,
  columns,
  rows,
  rowKey,
  rowProps,
  empty,
  sorting,
  paging,
  busy,
  className,
}: Props<T, S>) {
  if (rows.length === 0 && !paging?.hasNext) return <>{empty}</>;
  return (
    <div aria-busy={busy || undefined}>
      {/* The box can take the focus (arrow keys scroll it), so a keyboard reaches columns beyond a
          narrow screen's edge even when no cell holds a button. */}
      <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
        <table className={className ? `data-table ${className}` : "data-table"}>
          <caption className="visually-hidden">{label}</caption>
          <thead>
            <tr>
              {columns.map((c) => (
                <Header key={c.id} column={c} sorting={sorting} />
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={(rowKey ?? idOf)(row)} {...rowProps?.(row)}>
                {columns.map((c) => (
                  <td key={c.id} className={c.className ? `cell-${c.id} ${c.className}` : `cell-${c.id}`}>
                    {c.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {paging && <ShowMore paging={paging} />}
    </div>
  );
}

function Header<T, S extends string>({ column, sorting }: { column: Column<T, S>; sorting?: Sorting<S> }) {
  const content = column.hidden ? <span className="visually-hidden">{column.header}</span> : column.header;
  const key = column.sort;
  if (!key || !sorting) return <th scope="col">{content}</th>;
  const active = key === sorting.sort;
  return (
    <th scope="col" aria-sort={active ? (sorting.order === "ASC" ? "ascending" : "descending") : undefined}>
      <button
        type="button"
        className="sort-button"
        onClick={() => sorting.onSort({ sort: key, order: active && sorting.order === "DESC" ? "ASC" : "DESC" })}
      >
        {content}
        <span aria-hidden="true">{active ? (sorting.order === "ASC" ? " ▲" : " ▼") : ""}</span>
      </button>
    </th>
  );
}
