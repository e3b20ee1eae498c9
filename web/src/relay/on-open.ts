/**
 * A part with a query of its own that shows only when opened (a picker behind a button): its query starts
 * with the click that opens it (`useQueryLoader` + `loadQuery`), never when the part renders, so nothing
 * waits for a render to begin reading. The part reads it with `<Opened>` (components/Opened.tsx). A part
 * that is always on screen reads its data through the route's loader instead (app/routes.tsx).
 */
import { useQueryLoader, type PreloadedQuery } from "react-relay";
import type { GraphQLTaggedNode, OperationType } from "relay-runtime";

/** An openable part: its query, the loaded query while open, and open, close or toggle. */
export interface OnOpen<Q extends OperationType> {
  query: GraphQLTaggedNode;
  ref: PreloadedQuery<Q> | null;
  open: () => void;
  close: () => void;
  toggle: () => void;
}

export function useQueryOnOpen<Q extends OperationType>(query: GraphQLTaggedNode, variables: Q["variables"] = {}): OnOpen<Q> {
  const [ref, load, dispose] = useQueryLoader<Q>(query);
  const open = () => load(variables, { fetchPolicy: "store-and-network" });
  return { query, ref: ref ?? null, open, close: dispose, toggle: () => (ref ? dispose() : open()) };
}
