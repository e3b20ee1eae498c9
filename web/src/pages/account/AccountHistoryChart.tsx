/**
 * The account's followers and total views over time, by day or at scrape resolution (hour): its
 * points as a refetchable fragment, shown by components/HistoryView.tsx.
 */
import { useMemo } from "react";
import { graphql, useRefetchableFragment } from "react-relay";
import type { AccountHistoryChart_account$key } from "../../__generated__/AccountHistoryChart_account.graphql";
import { HistoryView } from "../../components/HistoryView";
import type { ChartSeries } from "../../components/TimeSeriesChart";

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

export function AccountHistoryChart({ account }: { account: AccountHistoryChart_account$key }) {
  const [data, refetch] = useRefetchableFragment(fragment, account);
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
    <HistoryView
      lastScrapedAt={data.lastScrapedAt}
      refetch={refetch}
      times={times}
      series={series}
      what="Followers and total views"
      item="account"
      hasPreviousPage={data.history?.pageInfo.hasPreviousPage ?? false}
    />
  );
}
