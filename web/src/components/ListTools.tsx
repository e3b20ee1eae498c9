/**
 * The tools above a list of videos or of accounts, the same on both pages: its saved views (applying one
 * writes its options and columns to the URL), its platform filter and search (and `children`: the tag
 * filter), the column chooser and the export of the list as it is filtered.
 */
import type { ReactNode } from "react";
import { graphql, useFragment } from "react-relay";
import { useSearchParams } from "react-router";
import type { ListTools_query$key } from "../__generated__/ListTools_query.graphql";
import { rememberColumns, type ColumnChoice } from "../lib/columns";
import { PLATFORMS } from "../lib/format";
import type { ListOptionsCodec, ListOptionsOf } from "../lib/list-options";
import { ColumnChooser } from "./ColumnChooser";
import { ExportButton } from "./ExportButton";
import { ListFilters } from "./ListFilters";
import { SavedViews, type SavedViewData } from "./SavedViews";

const fragment = graphql`
  fragment ListTools_query on Query @argumentDefinitions(list: { type: "SavedViewList!" }) {
    ...SavedViews_query @arguments(list: $list)
  }
`;

interface Props<S extends string> {
  /** The list, as saved views and exports name it. */
  list: "VIDEOS" | "ACCOUNTS";
  /** The page's query (it spreads `ListTools_query @arguments(list: …)`). */
  query: ListTools_query$key;
  codec: ListOptionsCodec<S>;
  options: ListOptionsOf<S>;
  onChange: (next: Partial<ListOptionsOf<S>>) => void;
  columns: readonly ColumnChoice[];
  shown: readonly string[];
  onColumns: (ids: string[]) => void;
  /** What the search box searches, as its placeholder. */
  placeholder: string;
  children?: ReactNode;
}

export function ListTools<S extends string>({
  list,
  query,
  codec,
  options,
  onChange,
  columns,
  shown,
  onColumns,
  placeholder,
  children,
}: Props<S>) {
  const data = useFragment(fragment, query);
  const [, setParams] = useSearchParams();
  const key = list.toLowerCase();

  function apply(view: SavedViewData) {
    const params = codec.write({
      sort: view.sort.toUpperCase() as S,
      order: view.order === "ASC" ? "ASC" : "DESC",
      platform: PLATFORMS.find((p) => p.value === view.platform)?.value ?? null,
      q: view.q ?? null,
      tagIds: view.tags.length > 0 ? [...view.tags] : null,
    });
    params.set("columns", view.columns.join(","));
    rememberColumns(key, view.columns);
    setParams(params, { replace: true });
  }

  const { platform, q, sort, order, tagIds } = options;
  return (
    <>
      <SavedViews
        query={data}
        list={list}
        current={{ platform, q, sort: sort.toLowerCase(), order, columns: [...shown], tags: [...(tagIds ?? [])] }}
        onApply={apply}
      />
      <div className="row list-tools">
        <ListFilters options={options} onChange={onChange} placeholder={placeholder}>
          {children}
        </ListFilters>
        <ColumnChooser columns={columns} shown={shown} onChange={onColumns} />
        <ExportButton kind={list} what={key} filter={{ platform, q, sort, order, tagIds }} />
      </div>
    </>
  );
}
