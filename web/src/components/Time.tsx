import { formatExact, formatRelative } from "../lib/format";

/** A moment as "3 h ago", with the exact time on hover (title) and for machines (dateTime). */
export function Time({ value, fallback = "—" }: { value: string | null | undefined; fallback?: string }) {
  if (!value) return <>{fallback}</>;
  return (
    <time dateTime={value} title={formatExact(value)}>
      {formatRelative(value)}
    </time>
  );
}
