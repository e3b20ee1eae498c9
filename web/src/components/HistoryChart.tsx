/**
 * A tracked video's or account's metric history chart with its Hour/Day switch, and the one
 * fragment that reads it (`...HistoryChart_item` on the video or the account: a refetchable
 * fragment on Node, so switching the interval refetches only it). What is drawn depends on the type:
 * a video's views and likes, an account's followers and total views. A new scrape (lastScrapedAt
 * changes, delivered by the page's subscription) reads the history again.
 */
import { useEffect, useMemo, useRef, useState, useTransition } from "react";
import { graphql, useRefetchableFragment } from "react-relay";
import type { HistoryChart_item$data, HistoryChart_item$key } from "../__generated__/HistoryChart_item.graphql";
import type { HistoryChartRefetchQuery } from "../__generated__/HistoryChartRefetchQuery.graphql";
import { EmptyState } from "./EmptyState";
import { TimeSeriesChart, type ChartSeries } from "./TimeSeriesChart";

export type Interval = "HOUR" | "DAY";

const INTERVALS: { value: Interval; label: string }[] = [
  { value: "HOUR", label: "Hour" },
  { value: "DAY", label: "Day" },
];

/* The two types' selections differ only in the numbers their points carry. */
const fragment = graphql`
  fragment HistoryChart_item on Node
  @refetchable(queryName: "HistoryChartRefetchQuery")
  @argumentDefinitions(interval: { type: "HistoryInterval", defaultValue: DAY }) {
    __typename
    ... on Video {
      lastScrapedAt
      videoHistory: history(interval: $interval, last: 100) {
        pageInfo { hasPreviousPage }
        edges { node { capturedAt viewCount likeCount } }
      }
    }
    ... on Account {
      lastScrapedAt
      accountHistory: history(interval: $interval, last: 100) {
        pageInfo { hasPreviousPage }
        edges { node { capturedAt followerCount totalViews } }
      }
    }
  }
`;

interface Point {
  capturedAt: string;
  [metric: string]: unknown;
}

/** A line of the chart, its values read from each point by name. */
type Series = Omit<ChartSeries, "values"> & { metric: string };

const KINDS: Record<string, { item: string; what: string; series: Series[] }> = {
  Video: {
    item: "video",
    what: "Views and likes",
    series: [
      { label: "Views", metric: "viewCount", colorVar: "--chart-1" },
      { label: "Likes", metric: "likeCount", colorVar: "--chart-2", axis: "right" },
    ],
  },
  Account: {
    item: "account",
    what: "Followers and total views",
    series: [
      { label: "Followers", metric: "followerCount", colorVar: "--chart-1" },
      { label: "Total views", metric: "totalViews", colorVar: "--chart-2", axis: "right" },
    ],
  },
};

/** The history the fragment read, whichever the type. */
function historyOf(d: HistoryChart_item$data) {
  const history = d.__typename === "Video" ? d.videoHistory : d.__typename === "Account" ? d.accountHistory : null;
  const lastScrapedAt = d.__typename === "Video" || d.__typename === "Account" ? d.lastScrapedAt : null;
  return { lastScrapedAt, hasPreviousPage: history?.pageInfo.hasPreviousPage ?? false, points: (history?.edges.map((e) => e.node) ?? []) as readonly Point[] };
}

export function HistoryChart({ item: key }: { item: HistoryChart_item$key }) {
  const [raw, refetch] = useRefetchableFragment<HistoryChartRefetchQuery, HistoryChart_item$key>(fragment, key);
  const data = useMemo(() => historyOf(raw), [raw]);
  const { item, what, series } = KINDS[raw.__typename] ?? KINDS.Video!;
  const [interval, setInterval] = useState<Interval>("DAY");
  const [pending, startTransition] = useTransition();

  const points = data.points;
  const chart = useMemo(
    () => ({
      times: points.map((p) => Date.parse(p.capturedAt) / 1000),
      series: series.map(({ metric, ...line }): ChartSeries => ({ ...line, values: points.map((p) => p[metric] as number | null | undefined) })),
    }),
    [points, series],
  );

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
      {data.hasPreviousPage && <p className="muted">Showing the latest 100 points of the last 30 days.</p>}
    </div>
  );
}
