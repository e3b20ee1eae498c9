/**
 * One tracked video: its numbers (live), the metric history chart, refresh now, and its analysis.
 * The URL's id is the video's UUID (the same as REST's) or its global id.
 */
import { Suspense } from "react";
import { graphql } from "react-relay";
import { Link } from "react-router";
import type { VideoPageQuery } from "../../__generated__/VideoPageQuery.graphql";
import type { VideoPage_history$data } from "../../__generated__/VideoPage_history.graphql";
import { paths } from "../../app/paths";
import { HistoryChart, type HistorySeries } from "../../components/HistoryChart";
import { Loading } from "../../components/Loading";
import { useLiveCredits } from "../../relay/credits";
import { useRouteQuery } from "../../relay/route-query";
import { AnalysisPanel } from "./AnalysisPanel";
import { VideoSummary } from "./VideoSummary";

const query = graphql`
  query VideoPageQuery($id: ID!) {
    video(id: $id) {
      id
      ...VideoSummary_video
      ...VideoPage_history
      ...AnalysisPanel_video
    }
    credits {
      totalRemaining
    }
  }
`;

/**
 * The views and likes over time, by day or at scrape resolution (hour); a new scrape, delivered by
 * VideoSummary's subscription as a new lastScrapedAt, reads it again.
 */
const historyFragment = graphql`
  fragment VideoPage_history on Video
  @refetchable(queryName: "VideoPageHistoryRefetchQuery")
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

type HistoryPoint = VideoPage_history$data["history"]["edges"][number]["node"];
const HISTORY_SERIES: HistorySeries<HistoryPoint>[] = [
  { label: "Views", value: (p) => p.viewCount, colorVar: "--chart-1" },
  { label: "Likes", value: (p) => p.likeCount, colorVar: "--chart-2", axis: "right" },
];

export default function VideoPage() {
  const data = useRouteQuery<VideoPageQuery>(query);
  useLiveCredits();
  return (
    <>
      <p className="breadcrumb">
        <Link to={paths.videos()}>← Videos</Link>
      </p>
      <VideoSummary video={data.video} />
      <section aria-labelledby="history-heading" className="panel">
        <h2 id="history-heading">Metric history</h2>
        <Suspense fallback={<Loading what="Loading the history" />}>
          <HistoryChart fragment={historyFragment} fragmentRef={data.video} series={HISTORY_SERIES} what="Views and likes" item="video" />
        </Suspense>
      </section>
      <AnalysisPanel video={data.video} balance={data.credits.totalRemaining} />
    </>
  );
}
