/**
 * The video's views and likes over time, by day or at scrape resolution (hour). A refetchable
 * fragment: switching the interval refetches only the history; a new scrape (lastScrapedAt changes,
 * delivered by VideoSummary's subscription) reads it again.
 */
import { useEffect, useMemo, useRef, useState, useTransition } from "react";
import { graphql, useRefetchableFragment } from "react-relay";
import type { HistoryChart_video$key } from "../../__generated__/HistoryChart_video.graphql";
import type { HistoryInterval } from "../../__generated__/HistoryChartRefetchQuery.graphql";
import { EmptyState } from "../../components/EmptyState";
import { TimeSeriesChart, type ChartSeries } from "../../components/TimeSeriesChart";

const fragment = graphql`
  fragment HistoryChart_video on Video
  @refetchable(queryName: "HistoryChartRefetchQuery")
  @argumentDefinitions(interval: { type: "HistoryInterval", defaultValue: DAY }) {
    lastScrapedAt
    history(interval: $interval, last: 100) {
      pageInfo {
        hasPreviousPage
      }
      edges {
        node {
          capturedAt
          viewCount
          likeCount
        }
      }
    }
  }
`;

const INTERVALS: { value: HistoryInterval; label: string }[] = [
  { value: "HOUR", label: "Hour" },
  { value: "DAY", label: "Day" },
];

export function HistoryChart({ video }: { video: HistoryChart_video$key }) {
  const [data, refetch] = useRefetchableFragment(fragment, video);
  const [interval, setInterval] = useState<HistoryInterval>("DAY");
  const [pending, startTransition] = useTransition();

  // A scrape landed: read the history again (the subscription updated lastScrapedAt, not the points).
  const seen = useRef(data.lastScrapedAt);
  useEffect(() => {
    if (data.lastScrapedAt === seen.current) return;
    seen.current = data.lastScrapedAt;
    startTransition(() => {
      refetch({ interval }, { fetchPolicy: "network-only" });
    });
  }, [data.lastScrapedAt, interval, refetch]);

  const { times, series } = useMemo(() => {
    const points = data.history.edges.map((e) => e.node);
    const series: ChartSeries[] = [
      { label: "Views", values: points.map((p) => p.viewCount), colorVar: "--chart-1" },
      { label: "Likes", values: points.map((p) => p.likeCount), colorVar: "--chart-2", axis: "right" },
    ];
    return { times: points.map((p) => Date.parse(p.capturedAt) / 1000), series };
  }, [data.history.edges]);

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
              startTransition(() => {
                refetch({ interval: i.value }, { fetchPolicy: "store-or-network" });
              });
            }}
          >
            {i.label}
          </button>
        ))}
      </div>
      {times.length === 0 ? (
        <EmptyState title="No history yet.">The first point is stored when the video is first scraped, usually within a few seconds of tracking it.</EmptyState>
      ) : (
        <TimeSeriesChart title={interval === "DAY" ? "Views and likes, by day" : "Views and likes, at every scrape"} times={times} series={series} xUnit={interval === "DAY" ? "day" : "time"} />
      )}
      {data.history.pageInfo.hasPreviousPage && <p className="muted">Showing the latest 100 points of the last 30 days.</p>}
    </div>
  );
}
