/**
 * The first load, fetched as it renders instead of one step after another. Before React's first
 * render (main.tsx) the viewer query, the opened page's code and that page's query all start at
 * once, instead of the viewer query, then (once the shell rendered) the page's code, then its
 * query; React renders when they are in (or after FIRST_LOAD_WAIT_MS), so the first commit has the
 * page with its data and no fallback in between (each fallback delays the next reveal by React's
 * Suspense throttle, 300 ms). Meanwhile main.tsx shows "Loading the dashboard…".
 *
 * The components still ask for their queries (useLazyLoadQuery); `useFirstLoadFetchPolicy`
 * (relay/preloaded.ts) tells them not to fetch again what this preload has just fetched (Relay joins
 * a request still in flight by itself). Pages without an entry here load as before, on render.
 */
import type { ConcreteRequest, Environment, Variables } from "relay-runtime";
import OverviewPageQuery from "../__generated__/OverviewPageQuery.graphql";
import SignedInQuery from "../__generated__/SignedInQuery.graphql";
import VideosPageQuery from "../__generated__/VideosPageQuery.graphql";
import { PAGE_SIZE, readOptions } from "../pages/videos/list-options";
import { fetchAhead } from "../relay/preloaded";
import { pages } from "./pages";
import type { LazyPage } from "./lazyPage";

/** The longest the first render waits for the preload; past it, the pages' own loading states show. */
const FIRST_LOAD_WAIT_MS = 3_000;

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

/** Starts the first page's code and data; resolves when they are in, or after FIRST_LOAD_WAIT_MS. */
export function preloadFirstPage(environment: Environment, location: Location): Promise<void> {
  const first = firstPageOf(location);
  if (!first) return Promise.resolve();
  const work: Promise<unknown>[] = [first.page.preload().catch(() => undefined), fetchAhead(environment, SignedInQuery, {})];
  if (first.query) work.push(fetchAhead(environment, ...first.query));
  const wait = new Promise<void>((resolve) => setTimeout(resolve, FIRST_LOAD_WAIT_MS));
  return Promise.race([Promise.all(work).then(() => undefined), wait]);
}
