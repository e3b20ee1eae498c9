/**
 * A list's options (sort, order, platform, search, tags) as they read in the URL (?sort=views&order=asc&
 * platform=PLATFORM_A&q=cats&tag=<tag id>): bookmarkable, and the back button works. Unknown values fall back to
 * the defaults. Used by the videos, accounts and folder videos lists.
 */
import { useLocation, useNavigation, useSearchParams } from "react-router";
import { PLATFORMS, type PlatformValue } from "./format";

/** The direction of every sorted list (GraphQL `SortOrder`). */
export type SortOrder = "ASC" | "DESC";

export interface ListOptionsOf<S extends string> {
  sort: S;
  order: SortOrder;
  platform: PlatformValue | null;
  q: string | null;
  /** Tags (Relay ids, the GraphQL `tagIds` argument): items carrying any of them. Lists without a tag filter ignore it. */
  tagIds: string[] | null;
}

/** How one list's options read from and write to the URL; `sorts[0]` is the default sort. */
export function listOptionsCodec<S extends string>(sorts: readonly S[]) {
  const defaultSort = sorts[0]!;
  return {
    read(params: URLSearchParams): ListOptionsOf<S> {
      const sort = params.get("sort")?.toUpperCase() as S;
      const platform = params.get("platform") as PlatformValue;
      return {
        sort: sorts.includes(sort) ? sort : defaultSort,
        order: params.get("order") === "asc" ? "ASC" : "DESC",
        platform: PLATFORMS.some((p) => p.value === platform) ? platform : null,
        q: params.get("q")?.trim() || null,
        tagIds: params.getAll("tag").length > 0 ? params.getAll("tag") : null,
      };
    },
    write(o: ListOptionsOf<S>): URLSearchParams {
      const p = new URLSearchParams();
      if (o.sort !== defaultSort) p.set("sort", o.sort.toLowerCase());
      if (o.order === "ASC") p.set("order", "asc");
      if (o.platform) p.set("platform", o.platform);
      if (o.q) p.set("q", o.q);
      for (const tag of o.tagIds ?? []) p.append("tag", tag);
      return p;
    },
  };
}

export type ListOptionsCodec<S extends string> = ReturnType<typeof listOptionsCodec<S>>;

/**
 * A list's options as the URL holds them, and a change that writes them back (replacing the entry:
 * a sort is not a page of its own in the history). The route's loader reads the new URL and loads
 * the list again; the list stays on screen, marked busy, meanwhile. A change made while the one before
 * still loads builds on the URL being loaded, not the one shown: built on the shown one, it dropped the
 * change before it (a platform chosen, then a sort clicked before the list came back).
 */
export function useListOptions<S extends string>(codec: ListOptionsCodec<S>) {
  const [params, setParams] = useSearchParams();
  const { pathname } = useLocation();
  const pending = useNavigation().location;
  const options = codec.read(params);
  const base = pending && pending.pathname === pathname ? codec.read(new URLSearchParams(pending.search)) : options;
  const change = (next: Partial<ListOptionsOf<S>>) => setParams(codec.write({ ...base, ...next }), { replace: true });
  return [options, change] as const;
}
