import { formatWhole } from "../lib/format";
import type { Paging } from "../relay/paged";
import { ErrorMessage } from "./ErrorMessage";

/**
 * A paged list's footer: how many of how many are shown ("Showing 20 of 45 videos") and "Show more"
 * while a next cursor page exists, and why the last "Show more" failed (the button stays: pressing it
 * again tries again). An empty list without a next page needs no count under its empty state.
 */
export function ShowMore({ paging }: { paging: Paging }) {
  const { shown, total, hasNext, isLoadingNext, failed, loadMore, what } = paging;
  if (shown === 0 && !hasNext) return null;
  return (
    <>
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
      {failed != null && <ErrorMessage error={failed} title={`Could not show more ${what}`} />}
    </>
  );
}
