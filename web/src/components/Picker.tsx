/**
 * The one picker of the dashboard: choose one item of a list however long it is (a workspace's folders, tags,
 * accounts, creators, videos) by typing words of its name, searched on the server as one types
 * (relay/paged.ts `useSearchedConnection`), and reading further pages with "Show more". Every picker is this
 * component over its own list (pickers/): nothing is cut silently, the footer says how many of how many are
 * listed.
 *
 * The choice stays when a search no longer lists it. Without a choice, the first item that can be chosen is
 * the one an action takes (`none` names an option for no item at all: "All tags", "Top level"). An item that
 * is listed but cannot be chosen here says why ("already in the campaign"). The actions on the choice are
 * the children: `(chosen) => <button …>`.
 */
import { useId, useState, type ReactNode } from "react";
import type { KeyType, KeyTypeData } from "react-relay/relay-hooks/helpers";
import type { GraphQLTaggedNode, OperationType } from "relay-runtime";
import { useSearchedConnection, type Paging, type Search } from "../relay/paged";
import { ShowMore } from "./ShowMore";

export interface PickerOption {
  id: string;
  label: string;
  /** Why it cannot be chosen here (listed, greyed out). */
  unavailable?: string;
}

/** What a picker's user decides: its label, the choice (when controlled), "none", what to do with the choice. */
export interface PickerProps {
  /** The choice's label ("Folder"): the select's name. */
  label: string;
  /** A controlled choice (a filter in the URL); without it the picker keeps its own, first `initial`. */
  value?: PickerOption | null;
  initial?: PickerOption | null;
  onChange?: (option: PickerOption | null) => void;
  /** The label of an option for no item ("All tags"); without it, an item is always chosen. */
  none?: string;
  /** Shown instead when the list holds nothing at all (not a search that found nothing); null: nothing. */
  empty?: ReactNode;
  autoFocus?: boolean;
  /** The actions on the choice. */
  children?: (chosen: PickerOption | null) => ReactNode;
}

interface Props extends PickerProps {
  options: readonly PickerOption[];
  paging: Paging;
  search: Search;
}

export function Picker({ label, options, paging, search, value, initial = null, onChange, none, empty, autoFocus, children }: Props) {
  const id = useId();
  const [own, setOwn] = useState<PickerOption | null>(initial);
  const picked = value === undefined ? own : value;
  if (paging.total === 0 && !search.text && empty !== undefined && !picked) return <>{empty}</>;
  // The choice stays listed when a search leaves it out.
  const listed = picked && !options.some((o) => o.id === picked.id) ? [picked, ...options] : options;
  const chosen = picked ?? (none === undefined ? (listed.find((o) => !o.unavailable) ?? null) : null);
  const choose = (optionId: string) => {
    const option = listed.find((o) => o.id === optionId) ?? null;
    setOwn(option);
    onChange?.(option);
  };
  return (
    <div className="picker row">
      <label>
        Find {paging.what}
        <input
          type="search"
          value={search.text}
          autoFocus={autoFocus}
          aria-controls={id}
          onChange={(e) => search.onChange(e.target.value)}
        />
      </label>
      <label>
        {label}
        <select id={id} value={chosen?.id ?? ""} aria-busy={search.busy || undefined} onChange={(e) => choose(e.target.value)}>
          {none !== undefined && <option value="">{none}</option>}
          {listed.map((o) => (
            <option key={o.id} value={o.id} disabled={Boolean(o.unavailable)}>
              {o.unavailable ? `${o.label} (${o.unavailable})` : o.label}
            </option>
          ))}
        </select>
      </label>
      {search.text && options.length === 0 && !search.busy && (
        <span className="muted" role="status">
          No {paging.what} match “{search.text.trim()}”.
        </span>
      )}
      {children?.(chosen)}
      <ShowMore paging={paging} />
    </div>
  );
}

/**
 * A picker over a searchable list of its own (pickers/*.tsx): a `@refetchable` fragment taking `first`,
 * `after` and `q`, the connection in its data, the rows' plural and how a row reads as an option.
 */
export function SearchedPicker<K extends KeyType, N>({
  fragment,
  list,
  connection,
  what,
  optionOf,
  ...props
}: PickerProps & {
  fragment: GraphQLTaggedNode;
  list: K;
  connection: (data: KeyTypeData<K>) => { readonly totalCount: number; readonly edges: readonly { readonly node: N }[] };
  what: string;
  optionOf: (node: N) => PickerOption;
}) {
  const { rows, paging, search } = useSearchedConnection<OperationType, K, N>(fragment, list, connection, what);
  return <Picker {...props} options={rows.map(optionOf)} paging={paging} search={search} />;
}
