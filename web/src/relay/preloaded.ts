/**
 * Queries fetched ahead of their component (app/preload.ts, the first load) and the fetch policy
 * that keeps the component from fetching them again. Apart from app/ so that the pages can use it
 * without importing the route table.
 */
import { useRelayEnvironment } from "react-relay";
import { createOperationDescriptor, fetchQuery, getRequest, type ConcreteRequest, type Environment, type FetchPolicy, type GraphQLTaggedNode, type Variables } from "relay-runtime";

/** A preloaded answer counts as fresh this long: the first render comes well within it. */
const FRESH_MS = 10_000;

const preloaded = new WeakMap<Environment, Set<string>>();

const identifierOf = (query: GraphQLTaggedNode, variables: Variables) => createOperationDescriptor(getRequest(query), variables).request.identifier;

export function fetchAhead(environment: Environment, query: ConcreteRequest, variables: Variables): Promise<unknown> {
  const ids = preloaded.get(environment) ?? new Set<string>();
  preloaded.set(environment, ids);
  ids.add(identifierOf(query, variables));
  // An error is left to the component: its own request (not skipped, nothing is in the store) shows it.
  return fetchQuery(environment, query, variables).toPromise().catch(() => undefined);
}

/**
 * The fetch policy of a page's query: "store-or-network" for the answer the first-load preload has
 * just put in the store (fetching it again would double the first load's requests), the page's
 * usual "store-and-network" otherwise.
 */
export function useFirstLoadFetchPolicy(query: GraphQLTaggedNode, variables: Variables): FetchPolicy {
  const environment = useRelayEnvironment();
  const ids = preloaded.get(environment);
  if (!ids?.has(identifierOf(query, variables))) return "store-and-network";
  const status = environment.check(createOperationDescriptor(getRequest(query), variables));
  const fresh = status.status === "available" && status.fetchTime != null && Date.now() - status.fetchTime < FRESH_MS;
  return fresh ? "store-or-network" : "store-and-network";
}
