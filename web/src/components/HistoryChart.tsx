/**
 * A metric history chart with its Hour/Day switch, shared by the video and account pages. The page
 * declares its own refetchable fragment (lastScrapedAt and history(interval, last: 100) with the
 * points it reads) and says which series to draw from a point. A new scrape (lastScrapedAt changes,
 * e.g. by VideoSummary's subscription or the account page's polling) reads the history again;
 * switching the interval refetches only it.
 */
import { useEffect, useMemo, useRef, useState, useTransition } from "react";
import { useRefetchableFragment, type GraphQLTaggedNode } from "react-relay";
import type { KeyType } from "react-relay/relay-hooks/helpers";
import type { OperationType } from "relay-runtime";
import { EmptyState } from "./EmptyState";
import { TimeSeriesChart, type ChartSeries } from "./TimeSeriesChart";

export type Interval = "HOUR" | "DAY";

const INTERVALS: { value: Interval; label: string }[] = [
  { value: "HOUR", label: "Hour" },
  { value: "DAY", label: "Day" },
];

/** What the page's fragment reads (an account's history is null when the workspace does not track it). */
interface HistoryData<P> {
  lastScrapedAt: string | null | undefined;
  history: { pageInfo: { hasPreviousPage: boolean }; edges: readonly { node: P }[] } | null | undefined;
}

/** A line of the chart: a ChartSeries whose values are read from each point. */
export interface HistorySeries<P> extends Omit<ChartSeries, "values"> {
  value: (point: P) => number | null | undefined;
}

interface Props<P, TKey extends KeyType<HistoryData<P>>> {
  /** The page's refetchable fragment, taking `interval`. */
  fragment: GraphQLTaggedNode;
  fragmentRef: TKey;
  /** Keep it constant (a module-level array): the points are mapped again when it changes. */
  series: HistorySeries<P>[];
  /** What the chart shows, e.g. "Views and likes" (its title adds "by day" or "at every scrape"). */
  what: string;
  /** The item, for the empty state: "video" or "account". */
  item: string;
}

export function HistoryChart<P extends { capturedAt: string }, TKey extends KeyType<HistoryData<P>>>({ fragment, fragmentRef, series, what, item }: Props<P, TKey>) {
  const [raw, refetch] = useRefetchableFragment<OperationType, TKey>(fragment, fragmentRef);
  const data = raw as HistoryData<P>;
  const [interval, setInterval] = useState<Interval>("DAY");
  const [pending, startTransition] = useTransition();

  const edges = data.history?.edges;
  const chart = useMemo(() => {
    const points = (edges ?? []).map((e) => e.node);
    return {
      times: points.map((p) => Date.parse(p.capturedAt) / 1000),
      series: series.map(({ value, ...line }): ChartSeries => ({ ...line, values: points.map(value) })),
    };
  }, [edges, series]);

  const seen = useRef(data.lastScrapedAt);
  useEffect(() => {
    if (data.lastScrapedAt === seen.current) return;
    seen.current = data.lastScrapedAt;
    startTransition(() => void refetch({ interval }, { fetchPolicy: "network-only" }));
  }, [data.lastScrapedAt, interval, refetch]);

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
      {chart.times.length === 0 ? (
        <EmptyState title="No history yet.">The first point is stored when the {item} is first scraped, usually within a few seconds of tracking it.</EmptyState>
      ) : (
        <TimeSeriesChart title={`${what}, ${interval === "DAY" ? "by day" : "at every scrape"}`} times={chart.times} series={chart.series} xUnit={interval === "DAY" ? "day" : "time"} />
      )}
      {data.history?.pageInfo.hasPreviousPage && <p className="muted">Showing the latest 100 points of the last 30 days.</p>}
    </div>
  );
}
