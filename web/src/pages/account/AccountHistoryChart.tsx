/**
 * The account's followers and total views over time (components/TimeSeriesChart.tsx), by day or at
 * scrape resolution (hour). A refetchable fragment: switching the interval, or a new scrape
 * (lastScrapedAt changes), reads only the history again.
 */
import { useEffect, useMemo, useRef, useState, useTransition } from "react";
import { graphql, useRefetchableFragment } from "react-relay";
import type { AccountHistoryChart_account$key } from "../../__generated__/AccountHistoryChart_account.graphql";
import type { HistoryInterval } from "../../__generated__/AccountHistoryChartRefetchQuery.graphql";
import { EmptyState } from "../../components/EmptyState";
import { TimeSeriesChart, type ChartSeries } from "../../components/TimeSeriesChart";

const fragment = graphql`
  fragment AccountHistoryChart_account on Account
  @refetchable(queryName: "AccountHistoryChartRefetchQuery")
  @argumentDefinitions(interval: { type: "HistoryInterval", defaultValue: DAY }) {
    lastScrapedAt
    history(interval: $interval, last: 100) {
      pageInfo {
        hasPreviousPage
      }
      edges {
        node {
          capturedAt
          followerCount
          totalViews
        }
      }
    }
  }
`;

const INTERVALS: { value: HistoryInterval; label: string }[] = [
  { value: "HOUR", label: "Hour" },
  { value: "DAY", label: "Day" },
];

export function AccountHistoryChart({ account }: { account: AccountHistoryChart_account$key }) {
  const [data, refetch] = useRefetchableFragment(fragment, account);
  const [interval, setInterval] = useState<HistoryInterval>("DAY");
  const [pending, startTransition] = useTransition();

  const seen = useRef(data.lastScrapedAt);
  useEffect(() => {
    if (data.lastScrapedAt === seen.current) return;
    seen.current = data.lastScrapedAt;
    startTransition(() => void refetch({ interval }, { fetchPolicy: "network-only" }));
  }, [data.lastScrapedAt, interval, refetch]);

  const edges = data.history?.edges;
  const { times, series } = useMemo(() => {
    const points = (edges ?? []).map((e) => e.node);
    const series: ChartSeries[] = [
      { label: "Followers", values: points.map((p) => p.followerCount), colorVar: "--chart-1" },
      { label: "Total views", values: points.map((p) => p.totalViews), colorVar: "--chart-2", axis: "right" },
    ];
    return { times: points.map((p) => Date.parse(p.capturedAt) / 1000), series };
  }, [edges]);

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
        <EmptyState title="No history yet.">The first point is stored when the account is first scraped, usually within a few seconds of tracking it.</EmptyState>
      ) : (
        <TimeSeriesChart title={interval === "DAY" ? "Followers and total views, by day" : "Followers and total views, at every scrape"} times={times} series={series} xUnit={interval === "DAY" ? "day" : "time"} />
      )}
      {data.history?.pageInfo.hasPreviousPage && <p className="muted">Showing the latest 100 points of the last 30 days.</p>}
    </div>
  );
}
