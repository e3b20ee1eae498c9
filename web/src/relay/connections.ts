/**
 * A connection's `totalCount` stays true when a mutation adds or removes its edges in the store. Relay's
 * edge directives (`@prependNode`, `@appendNode`, `@prependEdge`, `@appendEdge`, `@deleteEdge`) move the
 * edges but leave the count, so a list would read "Showing 2 of 1 keys". The environment's handler provider
 * (`countingHandlers`, relay/environment.ts) runs each directive's own handler and then moves the count of
 * every connection it named by the edges it really added or removed (none for a node already there), so a
 * mutation states the directive and nothing else. `removeNodes` does the same for a removal without a
 * directive (a bulk untrack answered per item).
 */
import {
  ConnectionHandler,
  DefaultHandlerProvider,
  ROOT_ID,
  type RecordProxy,
  type RecordSourceProxy,
  type RecordSourceSelectorProxy,
} from "relay-runtime";

/** The handles of Relay's edge directives: each names the connections it changes (`connections:`). */
const EDGE_HANDLES = new Set(["prependNode", "appendNode", "prependEdge", "appendEdge", "deleteEdge"]);

const edgeCount = (connection: RecordProxy | null | undefined) => connection?.getLinkedRecords("edges")?.length ?? 0;

/** Adds `delta` to the connection's `totalCount` (by its `__id`), never below 0. */
function moveCount(store: RecordSourceProxy, id: string, delta: number) {
  const connection = store.get(id);
  const total = connection?.getValue("totalCount");
  if (delta !== 0 && connection && typeof total === "number") connection.setValue(Math.max(0, total + delta), "totalCount");
}

/** Runs `change` and moves each connection's count by the edges it gained or lost. */
function counted(store: RecordSourceProxy, connections: readonly string[], change: () => void) {
  const before = connections.map((id) => edgeCount(store.get(id)));
  change();
  connections.forEach((id, i) => moveCount(store, id, edgeCount(store.get(id)) - before[i]!));
}

type Handler = ReturnType<typeof DefaultHandlerProvider>;

/** The environment's handler provider: Relay's own handlers, the edge directives' with their counts kept. */
export function countingHandlers(handle: string): Handler {
  const relays = DefaultHandlerProvider(handle);
  if (!EDGE_HANDLES.has(handle)) return relays;
  return {
    update: (store, payload) => {
      // The directive's arguments (`connections:`) ride on the payload; @types/relay-runtime leaves them out.
      const { connections } = (payload as typeof payload & { handleArgs: { connections?: readonly string[] } }).handleArgs;
      counted(store, connections ?? [], () => relays.update(store, payload));
    },
  };
}

/** The `__id` of a connection on the root (Query), by its `@connection` key and filters. */
export const rootConnection = (key: string, filters?: Record<string, unknown>) => ConnectionHandler.getConnectionID(ROOT_ID, key, filters);

/** Takes the nodes out of each connection, and out of its count (an untrack, a removal). */
export function removeNodes(connections: readonly string[], ids: readonly string[]) {
  return (store: RecordSourceSelectorProxy) =>
    counted(store, connections, () => {
      for (const id of connections) {
        const connection = store.get(id);
        if (connection) for (const node of ids) ConnectionHandler.deleteNode(connection, node);
      }
    });
}
