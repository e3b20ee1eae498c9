/**
 * A metric history chart with its Hour/Day switch, shared by the video and account pages: the page
 * declares its own refetchable fragment (which points it reads) and hands over the refetch. A new
 * scrape (lastScrapedAt changes) reads the history again; switching the interval refetches only it.
 */
import { useEffect, useRef, useState, useTransition } from "react";
import { EmptyState } from "./EmptyState";
import { TimeSeriesChart, type ChartSeries } from "./TimeSeriesChart";

export type Interval = "HOUR" | "DAY";
type Refetch = (vars: { interval: Interval }, options: { fetchPolicy: "network-only" | "store-or-network" }) => unknown;

const INTERVALS: { value: Interval; label: string }[] = [
  { value: "HOUR", label: "Hour" },
  { value: "DAY", label: "Day" },
];

interface Props {
  lastScrapedAt: string | null | undefined;
  refetch: Refetch;
  times: number[];
  series: ChartSeries[];
  /** What the chart shows, e.g. "Views and likes" (its title adds "by day" or "at every scrape"). */
  what: string;
  /** The item, for the empty state: "video" or "account". */
  item: string;
  hasPreviousPage: boolean;
}

export function HistoryView({ lastScrapedAt, refetch, times, series, what, item, hasPreviousPage }: Props) {
  const [interval, setInterval] = useState<Interval>("DAY");
  const [pending, startTransition] = useTransition();

  const seen = useRef(lastScrapedAt);
  useEffect(() => {
    if (lastScrapedAt === seen.current) return;
    seen.current = lastScrapedAt;
    startTransition(() => void refetch({ interval }, { fetchPolicy: "network-only" }));
  }, [lastScrapedAt, interval, refetch]);

  return (
    <div aria-busy={pending}>
      <div className="segmented" role="group" aria-label="Interval">
        {INTERVALS.map((i) => (
          <button
            key={i.value}
            type="button"
            aria-pressed={interval === i.value}
            onClick={() => {
              setInterval(i.value);
              startTransition(() => void refetch({ interval: i.value }, { fetchPolicy: "store-or-network" }));
            }}
          >
            {i.label}
          </button>
        ))}
      </div>
      {times.length === 0 ? (
        <EmptyState title="No history yet.">The first point is stored when the {item} is first scraped, usually within a few seconds of tracking it.</EmptyState>
      ) : (
        <TimeSeriesChart title={`${what}, ${interval === "DAY" ? "by day" : "at every scrape"}`} times={times} series={series} xUnit={interval === "DAY" ? "day" : "time"} />
      )}
      {hasPreviousPage && <p className="muted">Showing the latest 100 points of the last 30 days.</p>}
    </div>
  );
}
