/**
 * The first load, fetched as it renders instead of one step after another. Before React's first
 * render (main.tsx) the viewer query, the opened page's code and that page's query all start at
 * once, instead of the viewer query, then (once the shell rendered) the page's code, then its
 * query; React renders when they are in (or after FIRST_LOAD_WAIT_MS), so the first commit has the
 * page with its data and no fallback in between (each fallback delays the next reveal by React's
 * Suspense throttle, 300 ms). Meanwhile main.tsx shows "Loading the dashboard…".
 *
 * The components still ask for their queries (useLazyLoadQuery); `useFirstLoadFetchPolicy` tells
 * them not to fetch again what this preload has just fetched (Relay joins a request still in flight
 * by itself). Pages without an entry here load as before, on render.
 */
import { useRelayEnvironment } from "react-relay";
import { createOperationDescriptor, fetchQuery, getRequest, type ConcreteRequest, type Environment, type FetchPolicy, type GraphQLTaggedNode, type Variables } from "relay-runtime";
import OverviewPageQuery from "../__generated__/OverviewPageQuery.graphql";
import SignedInQuery from "../__generated__/SignedInQuery.graphql";
import VideosPageQuery from "../__generated__/VideosPageQuery.graphql";
import { PAGE_SIZE, readOptions } from "../pages/videos/list-options";
import { pages } from "./pages";
import type { LazyPage } from "./lazyPage";

/** The longest the first render waits for the preload; past it, the pages' own loading states show. */
const FIRST_LOAD_WAIT_MS = 3_000;
/** A preloaded answer counts as fresh this long: the first render comes well within it. */
const FRESH_MS = 10_000;

interface FirstPage {
  page: LazyPage;
  /** The page's query with the variables it will render with (read from the URL like the page does). */
  query?: [ConcreteRequest, Variables];
}

/** The signed-in pages whose first load is preloaded: the landing page and the videos list. */
function firstPageOf({ pathname, search }: Location): FirstPage | null {
  const path = pathname.replace(/\/+$/, "") || "/";
  if (path === "/") return { page: pages.OverviewPage, query: [OverviewPageQuery, {}] };
  if (path === "/videos") return { page: pages.VideosPage, query: [VideosPageQuery, { ...readOptions(new URLSearchParams(search)), first: PAGE_SIZE }] };
  return null;
}

const preloaded = new WeakMap<Environment, Set<string>>();

const identifierOf = (query: GraphQLTaggedNode, variables: Variables) => createOperationDescriptor(getRequest(query), variables).request.identifier;

function fetchAhead(environment: Environment, query: ConcreteRequest, variables: Variables): Promise<unknown> {
  const ids = preloaded.get(environment) ?? new Set<string>();
  preloaded.set(environment, ids);
  ids.add(identifierOf(query, variables));
  // An error is left to the component: its own request (not skipped, nothing is in the store) shows it.
  return fetchQuery(environment, query, variables).toPromise().catch(() => undefined);
}

/** Starts the first page's code and data; resolves when they are in, or after FIRST_LOAD_WAIT_MS. */
export function preloadFirstPage(environment: Environment, location: Location): Promise<void> {
  const first = firstPageOf(location);
  if (!first) return Promise.resolve();
  const work: Promise<unknown>[] = [first.page.preload().catch(() => undefined), fetchAhead(environment, SignedInQuery, {})];
  if (first.query) work.push(fetchAhead(environment, ...first.query));
  const wait = new Promise<void>((resolve) => setTimeout(resolve, FIRST_LOAD_WAIT_MS));
  return Promise.race([Promise.all(work).then(() => undefined), wait]);
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
