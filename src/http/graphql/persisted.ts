/**
 * Trusted documents (persisted operations), an option a deployment switches on:
 * - GRAPHQL_PERSISTED_OPERATIONS: a JSON file mapping operation ids to documents, as the clients'
 *   build produces it (graphql-codegen's or Relay's persisted-documents manifest: `{ "<id>": "query …" }`);
 * - GRAPHQL_PERSISTED_ONLY=true: accept only those operations; any other document is refused
 *   (PERSISTED_QUERY_ONLY), so a deployment serves exactly the operations its frontends were built with.
 *
 * A client names an operation by `documentId` (the GraphQL over HTTP persisted-documents
 * convention) or by Apollo's `extensions.persistedQuery.sha256Hash`. Yoga's plugin does the rest.
 */
import { readFileSync } from "node:fs";
import { parse } from "graphql";
import type { Plugin } from "graphql-yoga";
import { defaultExtractPersistedOperationId, usePersistedOperations } from "@graphql-yoga/plugin-persisted-operations";
import { config } from "../../config.js";

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

export function persistedOperationsPlugin(): Plugin | null {
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
