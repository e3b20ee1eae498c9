/**
 * Keeping a connection's `totalCount` true when a mutation adds or removes one of its edges in the
 * store (`@prependNode`, `@appendNode`, `@deleteEdge`, `ConnectionHandler.deleteNode`): Relay moves
 * the edges but leaves the count, so a list read "Showing 2 of 1 keys". Pass `countChange(...)` as
 * the mutation's `updater` (and `optimisticUpdater`) next to the directive.
 */
import { ConnectionHandler, ROOT_ID, type RecordSourceSelectorProxy } from "relay-runtime";

/** Adds `delta` to the `totalCount` of each connection (by its `__id`). */
export function countChange(connections: readonly string[], delta: number) {
  return (store: RecordSourceSelectorProxy) => {
    for (const id of connections) {
      const connection = store.get(id);
      const total = connection?.getValue("totalCount");
      if (connection && typeof total === "number") connection.setValue(Math.max(0, total + delta), "totalCount");
    }
  };
}

/** The `__id` of a connection on the root (Query), by its `@connection` key and filters. */
export const rootConnection = (key: string, filters?: Record<string, unknown>) => ConnectionHandler.getConnectionID(ROOT_ID, key, filters);

/** Takes the nodes out of each connection, and out of its count (an untrack, a removal). */
export function removeNodes(connections: readonly string[], ids: readonly string[]) {
  return (store: RecordSourceSelectorProxy) => {
    for (const id of connections) {
      const connection = store.get(id);
      if (!connection) continue;
      const before = connection.getLinkedRecords("edges")?.length ?? 0;
      for (const node of ids) ConnectionHandler.deleteNode(connection, node);
      countChange([id], (connection.getLinkedRecords("edges")?.length ?? 0) - before)(store);
    }
  };
}
