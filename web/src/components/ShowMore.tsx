import { formatWhole } from "../lib/format";

interface Props {
  shown: number;
  total: number;
  hasNext: boolean;
  isLoadingNext: boolean;
  /** Reads the next cursor page (`loadNext(n)` of a Relay pagination fragment). */
  onMore: () => void;
  /** What the list holds, after the count ("Showing 3 of 3 keys"); without it the count stands alone. */
  what?: string;
}

/** A list's footer: how many of how many are shown, and "Show more" while a next cursor page exists. */
export function ShowMore({ shown, total, hasNext, isLoadingNext, onMore, what }: Props) {
  return (
    <div className="row table-footer">
      <span className="muted">
        Showing {formatWhole(shown)} of {formatWhole(total)}
        {what && ` ${what}`}
      </span>
      {hasNext && (
        <button type="button" onClick={onMore} disabled={isLoadingNext}>
          {isLoadingNext ? "Loading…" : "Show more"}
        </button>
      )}
    </div>
  );
}
