import { formatWhole } from "../lib/format";
import type { Paging } from "../relay/paged";

/**
 * A paged list's footer: how many of how many are shown ("Showing 20 of 45 videos") and "Show more"
 * while a next cursor page exists. An empty list without a next page needs no count under its
 * empty state.
 */
export function ShowMore({ paging }: { paging: Paging }) {
  const { shown, total, hasNext, isLoadingNext, loadMore, what } = paging;
  if (shown === 0 && !hasNext) return null;
  return (
    <div className="row table-footer">
      <span className="muted">
        Showing {formatWhole(shown)} of {formatWhole(total)} {what}
      </span>
      {hasNext && (
        <button type="button" onClick={loadMore} disabled={isLoadingNext}>
          {isLoadingNext ? "Loading…" : "Show more"}
        </button>
      )}
    </div>
  );
}
