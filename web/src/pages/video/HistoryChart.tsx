/**
 * The video's views and likes over time, by day or at scrape resolution (hour): its points as a
 * refetchable fragment, shown by components/HistoryView.tsx (a new scrape, delivered by
 * VideoSummary's subscription as a new lastScrapedAt, reads the history again).
 */
import { useMemo } from "react";
import { graphql, useRefetchableFragment } from "react-relay";
import type { HistoryChart_video$key } from "../../__generated__/HistoryChart_video.graphql";
import { HistoryView } from "../../components/HistoryView";
import type { ChartSeries } from "../../components/TimeSeriesChart";

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

export function HistoryChart({ video }: { video: HistoryChart_video$key }) {
  const [data, refetch] = useRefetchableFragment(fragment, video);
  const { times, series } = useMemo(() => {
    const points = data.history.edges.map((e) => e.node);
    const series: ChartSeries[] = [
      { label: "Views", values: points.map((p) => p.viewCount), colorVar: "--chart-1" },
      { label: "Likes", values: points.map((p) => p.likeCount), colorVar: "--chart-2", axis: "right" },
    ];
    return { times: points.map((p) => Date.parse(p.capturedAt) / 1000), series };
  }, [data.history.edges]);
  return (
    <HistoryView
      lastScrapedAt={data.lastScrapedAt}
      refetch={refetch}
      times={times}
      series={series}
      what="Views and likes"
      item="video"
      hasPreviousPage={data.history.pageInfo.hasPreviousPage}
    />
  );
}
