/**
 * The tools above a list of videos or of accounts, the same on both pages: its platform filter and search
 * (and `children`: the tag filter), the column chooser and the export of the list as it is filtered. (Its
 * saved views, ./SavedViews.tsx, stand above them in its TrackedListPanel.)
 */
import type { ReactNode } from "react";
import type { ColumnChoice } from "../lib/columns";
import type { ListOptionsOf } from "../lib/list-options";
import { ColumnChooser } from "./ColumnChooser";
import { ExportButton } from "./ExportButton";
import { ListFilters } from "./ListFilters";

interface Props<S extends string> {
  /** The list, as exports name it. */
  list: "VIDEOS" | "ACCOUNTS";
  options: ListOptionsOf<S>;
  onChange: (next: Partial<ListOptionsOf<S>>) => void;
  columns: readonly ColumnChoice[];
  shown: readonly string[];
  onColumns: (ids: string[]) => void;
  /** What the search box searches, as its placeholder. */
  placeholder: string;
  children?: ReactNode;
}

export function ListTools<S extends string>({ list, options, onChange, columns, shown, onColumns, placeholder, children }: Props<S>) {
  const { platform, q, sort, order, tagIds } = options;
  return (
    <div className="row list-tools">
      <ListFilters options={options} onChange={onChange} placeholder={placeholder}>
        {children}
      </ListFilters>
      <ColumnChooser columns={columns} shown={shown} onChange={onColumns} />
      <ExportButton kind={list} what={list.toLowerCase()} filter={{ platform, q, sort, order, tagIds }} />
    </div>
  );
}
