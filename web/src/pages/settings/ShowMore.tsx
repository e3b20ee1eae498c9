import { formatWhole } from "../../lib/format";

/** The footer of a settings list: how many are shown, and the next cursor page when there is one. */
export function ShowMore({ hasNext, loading, onMore, shown, total, what }: { hasNext: boolean; loading: boolean; onMore: () => void; shown: number; total: number; what: string }) {
  if (!hasNext && shown === 0) return null;
  return (
    <div className="row table-footer">
      <span className="muted">
        Showing {formatWhole(shown)} of {formatWhole(total)} {what}
      </span>
      {hasNext && (
        <button type="button" onClick={onMore} disabled={loading}>
          {loading ? "Loading…" : "Show more"}
        </button>
      )}
    </div>
  );
}
