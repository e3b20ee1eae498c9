/**
 * Saved views of a list (src/domain/views/): choose one to apply its filters, sort and columns (written
 * to the URL through the list's codec, the columns remembered for the list), save the list as it is now
 * under a name, private or shared with the workspace, and delete one's own. The person's views and the
 * workspace's shared ones come with the page's query (`...SavedViews_query @arguments(list: …)`).
 *
 * TrackedListPanel, the panel of a tracked list (videos, accounts), stands here because the saved views are
 * what it reads: the page spreads their fragment itself, as one more level of fragment would cost the page's
 * query half as much again under the server's cost rule (the videos page's would pass the limit).
 */
import { useState, useTransition, type FormEvent, type ReactNode } from "react";
import { graphql, useRefetchableFragment } from "react-relay";
import { useSearchParams } from "react-router";
import type { SavedViews_query$data, SavedViews_query$key } from "../__generated__/SavedViews_query.graphql";
import type { SavedViewsRefetchQuery } from "../__generated__/SavedViewsRefetchQuery.graphql";
import type { SavedViewsCreateMutation } from "../__generated__/SavedViewsCreateMutation.graphql";
import type { SavedViewsDeleteMutation } from "../__generated__/SavedViewsDeleteMutation.graphql";
import { rememberColumns, useColumns, type ColumnChoice } from "../lib/columns";
import { PLATFORMS } from "../lib/format";
import type { ListOptionsCodec, ListOptionsOf } from "../lib/list-options";
import { useAction } from "../relay/action";
import { ListTools } from "./ListTools";
import { Outcome } from "./Outcome";
import { Panel } from "./Panel";

const fragment = graphql`
  fragment SavedViews_query on Query @refetchable(queryName: "SavedViewsRefetchQuery") @argumentDefinitions(list: { type: "SavedViewList!" }) {
    savedViews(list: $list, first: 100) {
      edges {
        node {
          id
          uuid
          name
          shared
          mine
          ownerName
          platform
          q
          tags
          sort
          order
          columns
        }
      }
    }
  }
`;

const createMutation = graphql`
  mutation SavedViewsCreateMutation($list: SavedViewList!, $name: String!, $shared: Boolean, $content: SavedViewContentInput!) {
    createSavedView(list: $list, name: $name, shared: $shared, content: $content) {
      id
      uuid
      name
    }
  }
`;

const deleteMutation = graphql`
  mutation SavedViewsDeleteMutation($id: ID!) {
    deleteSavedView(id: $id)
  }
`;

type SavedViewData = SavedViews_query$data["savedViews"]["edges"][number]["node"];

interface Props<S extends string> {
  query: SavedViews_query$key;
  /** The list, as saved views name it; its columns are remembered under its name in lower case. */
  list: "VIDEOS" | "ACCOUNTS";
  /** The list's options in the URL, and the columns it shows: what "Save view" keeps, and where a view applies. */
  codec: ListOptionsCodec<S>;
  options: ListOptionsOf<S>;
  columns: readonly string[];
}

const labelOf = (v: SavedViewData) => (v.shared ? `${v.name} (shared${v.mine ? "" : ` by ${v.ownerName}`})` : v.name);

export function SavedViews<S extends string>({ query, list, codec, options, columns }: Props<S>) {
  const [, setParams] = useSearchParams();
  const { platform, q, sort, order, tagIds } = options;
  const current = { platform, q, sort: sort.toLowerCase(), order, columns: [...columns], tags: [...(tagIds ?? [])] };

  /** A view's options and columns written to the URL (the route reads the list again). */
  function apply(view: SavedViewData) {
    const params = codec.write({
      sort: view.sort.toUpperCase() as S,
      order: view.order === "ASC" ? "ASC" : "DESC",
      platform: PLATFORMS.find((p) => p.value === view.platform)?.value ?? null,
      q: view.q ?? null,
      tagIds: view.tags.length > 0 ? [...view.tags] : null,
    });
    params.set("columns", view.columns.join(","));
    rememberColumns(list.toLowerCase(), view.columns);
    setParams(params, { replace: true });
  }

  const [data, refetch] = useRefetchableFragment<SavedViewsRefetchQuery, SavedViews_query$key>(fragment, query);
  const [, startTransition] = useTransition();
  const views = data.savedViews.edges.map((e) => e.node);
  const [selected, setSelected] = useState("");
  const [name, setName] = useState("");
  const [share, setShare] = useState(false);
  const create = useAction<SavedViewsCreateMutation>(createMutation);
  const remove = useAction<SavedViewsDeleteMutation>(deleteMutation);
  const chosen = views.find((v) => v.uuid === selected);
  const reload = () => startTransition(() => void refetch({}, { fetchPolicy: "network-only" }));

  async function save(e: FormEvent) {
    e.preventDefault();
    const saved = await create.run(
      { list, name, shared: share, content: current },
      { done: (r) => `Saved the view “${r.createSavedView.name}”.`, failed: "Could not save the view" },
    );
    if (!saved) return;
    setName("");
    setSelected(saved.createSavedView.uuid);
    reload();
  }

  async function deleteChosen() {
    if (!chosen) return;
    if (await remove.run({ id: chosen.uuid }, { done: () => `Deleted the view “${chosen.name}”.`, failed: "Could not delete the view" })) {
      setSelected("");
      reload();
    }
  }

  return (
    <div className="saved-views">
      <div className="row">
        <label>
          Saved view{" "}
          <select
            value={selected}
            onChange={(e) => {
              setSelected(e.target.value);
              const view = views.find((v) => v.uuid === e.target.value);
              if (view) apply(view);
            }}
          >
            <option value="">{views.length ? "Choose a view…" : "No saved views yet"}</option>
            {views.map((v) => (
              <option key={v.uuid} value={v.uuid}>
                {labelOf(v)}
              </option>
            ))}
          </select>
        </label>
        {chosen?.mine && (
          <button type="button" onClick={() => void deleteChosen()} disabled={remove.pending}>
            Delete view
          </button>
        )}
      </div>
      <form className="row" onSubmit={(e) => void save(e)}>
        <label>
          View name{" "}
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} placeholder="e.g. Client A, most viewed" />
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={share} onChange={(e) => setShare(e.target.checked)} /> Share with the workspace
        </label>
        <button type="submit" disabled={create.pending}>
          Save view
        </button>
      </form>
      <Outcome outcome={create.outcome ?? remove.outcome} />
    </div>
  );
}

/**
 * The panel of a tracked list, the same on the videos and the accounts pages: its saved views, its tools
 * (platform filter, search, `filter` such as the tag filter, the column chooser, the export) and the table
 * itself, which `children` draws with the columns the person chose (lib/columns.ts, remembered under the
 * list's name in lower case, as a saved view applies them).
 */
interface PanelProps<S extends string> {
  title: string;
  /** The page's query, which spreads `...SavedViews_query @arguments(list: …)` with the same list. */
  query: SavedViews_query$key;
  list: "VIDEOS" | "ACCOUNTS";
  /** The list's options in the URL (lib/list-options.ts `useListOptions`) and their change. */
  codec: ListOptionsCodec<S>;
  options: ListOptionsOf<S>;
  onChange: (next: Partial<ListOptionsOf<S>>) => void;
  /** Every column the table can show, in its order. */
  columns: readonly ColumnChoice[];
  /** What the search box searches, as its placeholder. */
  placeholder: string;
  /** A filter beside the platform filter and search (the tag filter). */
  filter?: ReactNode;
  /** The table, given the ids of the columns shown. */
  children: (shown: readonly string[]) => ReactNode;
}

export function TrackedListPanel<S extends string>({
  title,
  query,
  list,
  codec,
  options,
  onChange,
  columns,
  placeholder,
  filter,
  children,
}: PanelProps<S>) {
  const [shown, setShown] = useColumns(list.toLowerCase(), columns);
  return (
    <Panel title={title}>
      <SavedViews query={query} list={list} codec={codec} options={options} columns={shown} />
      <ListTools
        list={list}
        options={options}
        onChange={onChange}
        columns={columns}
        shown={shown}
        onColumns={setShown}
        placeholder={placeholder}
      >
        {filter}
      </ListTools>
      {children(shown)}
    </Panel>
  );
}
