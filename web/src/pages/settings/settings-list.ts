/**
 * How a settings list is read: `query` (loaded by the section's route) spreads the refetchable
 * pagination `fragment` on Query, and nothing else; the rows and the footer's paging come from the
 * one paged-list hook (relay/paged.ts), for a DataTable (components/DataTable.tsx).
 */
import type { GraphQLTaggedNode } from "react-relay";
import type { KeyType, KeyTypeData } from "react-relay/relay-hooks/helpers";
import type { OperationType } from "relay-runtime";
import { usePagedConnection } from "../../relay/paged";
import { useRouteQuery } from "../../relay/route-query";

export function useSettingsList<Q extends OperationType, K extends KeyType, N>(
  query: GraphQLTaggedNode,
  fragment: GraphQLTaggedNode,
  connection: (data: KeyTypeData<K>) => { readonly totalCount: number; readonly edges: readonly { readonly node: N }[] },
  what: string,
) {
  const root = useRouteQuery<{ variables: Record<string, never>; response: K }>(query);
  return usePagedConnection<Q, K, N>(fragment, root, connection, what);
}
