/**
 * Trusted documents (persisted operations), an option a deployment switches on:
 * - GRAPHQL_PERSISTED_OPERATIONS: a JSON file mapping operation ids to documents, as the clients'
 *   build produces it (graphql-codegen's or Relay's persisted-documents manifest: `{ "<id>": "query …" }`);
 * - GRAPHQL_PERSISTED_ONLY=true: accept only those operations; any other document is refused
 *   (PERSISTED_QUERY_ONLY), so a deployment serves exactly the operations its frontends were built with.
 *
 * A client names an operation by `documentId` (the GraphQL over HTTP persisted-documents
 * convention) or by Apollo's `extensions.persistedQuery.sha256Hash`. Yoga's plugin does the rest.
 *
 * One rule for every door: Yoga runs the plugin's `onParams` hook for HTTP and SSE; graphql-ws has no
 * such phase (its `onSubscribe` receives the operation as sent), so ./websocket.ts runs the same hook
 * through `trustedParams` before the document is parsed. Without it, GRAPHQL_PERSISTED_ONLY held on
 * HTTP while any query, mutation or introspection ran over WebSocket.
 */
import { readFileSync } from "node:fs";
import { parse } from "graphql";
import type { GraphQLParams, Plugin } from "graphql-yoga";
import { defaultExtractPersistedOperationId, usePersistedOperations } from "@graphql-yoga/plugin-persisted-operations";
import { config } from "../../config.ts";

/** Reads and checks the manifest at start: every entry must be a document that parses. */
function loadManifest(path: string): Map<string, string> {
  let entries: [string, unknown][];
  try {
    entries = Object.entries(JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>);
  } catch (e) {
    throw new Error(`GRAPHQL_PERSISTED_OPERATIONS: cannot read ${path} as a JSON object of id → document: ${(e as Error).message}`);
  }
  for (const [id, doc] of entries) {
    if (typeof doc !== "string") throw new Error(`GRAPHQL_PERSISTED_OPERATIONS: the entry ${id} is not a document string`);
    parse(doc); // a broken manifest stops the process at start, not a client later
  }
  return new Map(entries as [string, string][]);
}

let plugin: Plugin | null | undefined;

/** The trusted-documents plugin (null when GRAPHQL_PERSISTED_OPERATIONS is unset); one per process, shared by every door. */
export function persistedOperationsPlugin(): Plugin | null {
  return (plugin ??= createPlugin());
}

/**
 * The operation's parameters after the trusted-documents rule, for a door Yoga does not run it on
 * (graphql-ws): the manifest's document for a `documentId` or APQ hash; the refusal Yoga answers on
 * HTTP (thrown) for an arbitrary document under GRAPHQL_PERSISTED_ONLY or an unknown id.
 */
export async function trustedParams(params: GraphQLParams & { query: string }): Promise<GraphQLParams & { query: string }> {
  const p = persistedOperationsPlugin();
  if (!p?.onParams) return params;
  let current: GraphQLParams = params;
  // The plugin's hook reads only the parameters and sets new ones (the request is not used: see extractPersistedOperationId below).
  await p.onParams({ params, setParams: (next: GraphQLParams) => (current = next), request: undefined, context: {} } as never);
  return { ...current, query: current.query ?? "" };
}

function createPlugin(): Plugin | null {
  const { persistedOperationsFile, persistedOnly } = config.graphql;
  if (!persistedOperationsFile) return null;
  const manifest = loadManifest(persistedOperationsFile);
  return usePersistedOperations({
    getPersistedOperation: (id) => manifest.get(id) ?? null,
    allowArbitraryOperations: !persistedOnly,
    extractPersistedOperationId: (params, request, context) => {
      const documentId = (params as { documentId?: unknown }).documentId;
      return typeof documentId === "string" ? documentId : defaultExtractPersistedOperationId(params, request, context);
    },
  });
}
