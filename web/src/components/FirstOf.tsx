import { formatWhole } from "../lib/format";

/** Under a picker that lists only the first of many: says so, and where to find the rest. */
export function FirstOf({ shown, total, what, rest }: { shown: number; total: number; what: string; rest: string }) {
  if (total <= shown) return null;
  return (
    <p className="muted" role="note">
      Listing the first {formatWhole(shown)} of {formatWhole(total)} {what}. {rest}
    </p>
  );
}
