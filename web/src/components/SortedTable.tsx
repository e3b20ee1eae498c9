/**
 * A TanStack table whose sorting is the server's: a sortable column's header is a button that asks
 * for its key (descending first, then the other way), `aria-sort` marks the active one, and each cell
 * gets the class `cell-<column id>`. The Videos and Accounts lists use it.
 */
import type { HTMLAttributes, ReactNode } from "react";
import { flexRender, type Row, type Table } from "@tanstack/react-table";
import type { SortOrder } from "../__generated__/VideosPageQuery.graphql";

interface Props<T, S extends string> {
  table: Table<T>;
  caption: ReactNode;
  /** Which columns sort on the server, and by which key. */
  sortOf: Record<string, S>;
  sort: S;
  order: SortOrder;
  onSort: (o: { sort: S; order: SortOrder }) => void;
  /** Extra attributes of a row (a data-* id, aria-selected). */
  rowProps?: (row: Row<T>) => HTMLAttributes<HTMLTableRowElement>;
}

export function SortedTable<T, S extends string>({ table, caption, sortOf, sort: current, order, onSort, rowProps }: Props<T, S>) {
  return (
    <div className="table-scroll">
      <table className="data-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const sort = sortOf[header.column.id];
                const active = sort === current;
                const content = flexRender(header.column.columnDef.header, header.getContext());
                return (
                  <th key={header.id} scope="col" aria-sort={active ? (order === "ASC" ? "ascending" : "descending") : undefined}>
                    {sort ? (
                      <button type="button" className="sort-button" onClick={() => onSort({ sort, order: active && order === "DESC" ? "ASC" : "DESC" })}>
                        {content}
                        <span aria-hidden="true">{active ? (order === "ASC" ? " ▲" : " ▼") : ""}</span>
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
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id} {...rowProps?.(row)}>
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
  );
}
