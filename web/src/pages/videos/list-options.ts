/**
 * The videos list's options (sort, order, platform, search) and how they read in the URL
 * (?sort=views&order=asc&platform=PLATFORM_A&q=cats): bookmarkable, and the back button works.
 */
import type { Platform, SortOrder, VideoSort } from "../../__generated__/VideosPageQuery.graphql";

export const PAGE_SIZE = 50;
const SORTS: VideoSort[] = ["TRACKED_AT", "POSTED_AT", "VIEWS", "ENGAGEMENT", "VIEWS_24H", "OUTLIER"];
const PLATFORMS: Platform[] = ["PLATFORM_A", "PLATFORM_B", "PLATFORM_C"];

/** The list's options, read from the URL (unknown values fall back to the defaults). */
export interface ListOptions {
  sort: VideoSort;
  order: SortOrder;
  platform: Platform | null;
  q: string | null;
}

export function readOptions(params: URLSearchParams): ListOptions {
  const sort = params.get("sort")?.toUpperCase() as VideoSort;
  const platform = params.get("platform") as Platform;
  return {
    sort: SORTS.includes(sort) ? sort : "TRACKED_AT",
    order: params.get("order") === "asc" ? "ASC" : "DESC",
    platform: PLATFORMS.includes(platform) ? platform : null,
    q: params.get("q")?.trim() || null,
  };
}

export function writeOptions(o: ListOptions): URLSearchParams {
  const p = new URLSearchParams();
  if (o.sort !== "TRACKED_AT") p.set("sort", o.sort.toLowerCase());
  if (o.order === "ASC") p.set("order", "asc");
  if (o.platform) p.set("platform", o.platform);
  if (o.q) p.set("q", o.q);
  return p;
}
