/**
 * One hook for every paged list (a Relay `@connection` in a `@refetchable` fragment): its rows, and
 * the footer's state for DataTable (components/DataTable.tsx). A list's page size is stated once,
 * as the default of the fragment's `first` argument (`@argumentDefinitions(first: { type: "Int",
 * defaultValue: 20 })`): the route's query reads that many, and "Show more" reads that many more.
 * Relay hands a failed page to `loadNext`'s `onComplete` and nowhere else, so it is kept here for the
 * footer to say.
 */
import { useCallback, useEffect, useMemo, useRef, useState, useTransition } from "react";
import { usePaginationFragment } from "react-relay";
import type { KeyType, KeyTypeData } from "react-relay/relay-hooks/helpers";
import { getFragment, type GraphQLTaggedNode, type OperationType } from "relay-runtime";
import { useRouteQuery } from "./route-query";

/** What a list's footer shows and does. */
export interface Paging {
  shown: number;
  total: number;
  hasNext: boolean;
  isLoadingNext: boolean;
  /** Why the last "Show more" failed (the footer says so); null when it did not, and again when it is tried again. */
  failed: unknown;
  loadMore: () => void;
  /** The rows' plural, for "Showing 3 of 3 keys". */
  what: string;
}

interface Connection<N> {
  readonly totalCount: number;
  readonly edges: readonly { readonly node: N }[];
}

/** The fragment's page size: the default of its `first` argument. */
export function pageSizeOf(fragment: GraphQLTaggedNode): number {
  const first = getFragment(fragment).argumentDefinitions.find((a) => a.name === "first");
  const size = first && "defaultValue" in first ? first.defaultValue : null;
  if (typeof size !== "number")
    throw new Error(`${getFragment(fragment).name}: give its "first" argument a defaultValue (the list's page size).`);
  return size;
}

/**
 * `connection` picks the list out of the fragment's data; `what` names its rows. Returns the rows,
 * the footer's paging, the whole data and `refetch` (to read the list again).
 */
export function usePagedConnection<Q extends OperationType, K extends KeyType, N>(
  fragment: GraphQLTaggedNode,
  key: K,
  connection: (data: KeyTypeData<K>) => Connection<N>,
  what: string,
) {
  const { data, hasNext, isLoadingNext, loadNext, refetch } = usePaginationFragment<Q, K>(fragment, key);
  const list = connection(data as KeyTypeData<K>);
  const rows = useMemo(() => list.edges.map((e) => e.node), [list.edges]);
  const size = pageSizeOf(fragment);
  // A failure is said while the list is the one it failed to extend: a search or a refetch since makes it moot.
  const [failure, setFailure] = useState<{ error: unknown; of: Connection<N>["edges"] } | null>(null);
  const loadMore = () => {
    setFailure(null);
    loadNext(size, { onComplete: (error) => setFailure(error ? { error, of: list.edges } : null) });
  };
  const failed = failure?.of === list.edges ? failure.error : null;
  const paging: Paging = { shown: rows.length, total: list.totalCount, hasNext, isLoadingNext, failed, loadMore, what };
  return { data: data as KeyTypeData<K>, rows, paging, refetch };
}

/**
 * A paged list that is its route's whole query (a settings section, the notifications): `query` (loaded by the
 * route's loader, app/routes.tsx) spreads the refetchable `fragment` on Query and nothing else. Returns what
 * `usePagedConnection` does.
 */
export function useRouteConnection<Q extends OperationType, K extends KeyType, N>(
  query: GraphQLTaggedNode,
  fragment: GraphQLTaggedNode,
  connection: (data: KeyTypeData<K>) => Connection<N>,
  what: string,
) {
  const root = useRouteQuery<{ variables: Record<string, never>; response: K }>(query);
  return usePagedConnection<Q, K, N>(fragment, root, connection, what);
}

/** How long typing pauses before a search is sent. */
const SEARCH_PAUSE_MS = 250;

/** A list's search as one types: the words in the box, a change, and whether the list is being read again. */
export interface Search {
  text: string;
  onChange: (text: string) => void;
  busy: boolean;
}

/**
 * A paged list searched on the server as one types (every picker): the fragment also takes `q` (its
 * `@argumentDefinitions`), and each pause in typing reads the list again with the words, in a transition, so
 * the rows read before stay on screen until the new ones are in. Returns what `usePagedConnection` does and
 * the `search` for the box.
 */
export function useSearchedConnection<Q extends OperationType, K extends KeyType, N>(
  fragment: GraphQLTaggedNode,
  key: K,
  connection: (data: KeyTypeData<K>) => Connection<N>,
  what: string,
) {
  const list = usePagedConnection<Q, K, N>(fragment, key, connection, what);
  const { refetch } = list;
  const [text, setText] = useState("");
  const [busy, startTransition] = useTransition();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const onChange = useCallback(
    (next: string) => {
      setText(next);
      clearTimeout(timer.current);
      const q = next.trim() || null;
      timer.current = setTimeout(
        () => startTransition(() => void refetch({ q } as never, { fetchPolicy: "store-or-network" })),
        SEARCH_PAUSE_MS,
      );
    },
    [refetch],
  );
  const search: Search = { text, onChange, busy };
  return { ...list, search };
}
