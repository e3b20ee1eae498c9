/**
 * Each page's data loads from its route: the route's loader (app/routes.tsx) starts the page's
 * queries with `loadQuery`, in parallel with the page's code and with its parent routes' queries,
 * and the page reads them with `useRouteQuery` (Relay's `usePreloadedQuery`). A query is named by
 * its operation (`FolderPageQuery`), so a page and its loader never repeat variables.
 *
 * A loader waits for a query whose answer is not in the store yet (at most FIRST_DATA_WAIT_MS), so
 * the navigation shows the next page with its data at once, without a loading state in between
 * (the current page stays, `aria-busy`, meanwhile). An answer already in the store shows at once and
 * is read again behind it (store-and-network).
 */
import { loadQuery, usePreloadedQuery, type GraphQLTaggedNode, type LoadQueryOptions, type PreloadedQuery } from "react-relay";
import { useLoaderData } from "react-router";
import {
  createOperationDescriptor,
  getRequest,
  type ConcreteRequest,
  type Environment,
  type OperationType,
  type Variables,
} from "relay-runtime";

/** Past this, the navigation completes and the page shows its own loading state until the data is in. */
const FIRST_DATA_WAIT_MS = 3_000;

/** One query of a route: its compiled request (the `__generated__` artifact), variables and options. */
export type RouteQuery = [request: ConcreteRequest, variables: Variables, options?: LoadQueryOptions];

export type RouteQueries = Record<string, PreloadedQuery<OperationType>>;

const nameOf = (query: GraphQLTaggedNode) => getRequest(query).params.name;

/** Starts the queries (each retained until the router drops it: app/router.tsx) and waits for the first answers. */
export async function loadRouteQueries(environment: Environment, queries: RouteQuery[]): Promise<RouteQueries> {
  const refs: RouteQueries = {};
  const waits: Promise<unknown>[] = [];
  for (const [request, variables, options] of queries) {
    const missing = environment.check(createOperationDescriptor(request, variables)).status !== "available";
    const ref = loadQuery(environment, request, variables, { fetchPolicy: "store-and-network", ...options });
    refs[request.params.name] = ref;
    // An error is the page's to show: usePreloadedQuery throws it to the route's error boundary.
    if (missing && ref.source) waits.push(ref.source.toPromise().catch(() => undefined));
  }
  if (waits.length) await Promise.race([Promise.all(waits), new Promise((resolve) => setTimeout(resolve, FIRST_DATA_WAIT_MS))]);
  return refs;
}

/** The route's query of this name, as a page or a component inside the route reads it. */
export function useRouteQuery<Q extends OperationType>(query: GraphQLTaggedNode): Q["response"] {
  const refs = useLoaderData() as RouteQueries;
  const ref = refs[nameOf(query)];
  if (!ref) throw new Error(`The route does not load ${nameOf(query)}: add it to its loader in app/routes.tsx.`);
  return usePreloadedQuery<Q>(query, ref as PreloadedQuery<Q>);
}

/** Every query a router state holds, to dispose those it no longer does. */
export function queriesIn(loaderData: Record<string, unknown>): Set<PreloadedQuery<OperationType>> {
  const all = new Set<PreloadedQuery<OperationType>>();
  for (const data of Object.values(loaderData)) {
    if (!data || typeof data !== "object") continue;
    for (const value of Object.values(data)) if (isPreloaded(value)) all.add(value);
  }
  return all;
}

const isPreloaded = (value: unknown): value is PreloadedQuery<OperationType> =>
  (value as { kind?: unknown } | null)?.kind === "PreloadedQuery";
