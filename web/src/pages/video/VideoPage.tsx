/**
 * One tracked video: its numbers (live), the metric history chart, refresh now, and its analysis.
 * The URL's id is the video's UUID (the same as REST's) or its global id.
 */
import { Suspense } from "react";
import { graphql } from "react-relay";
import { Link } from "react-router";
import type { VideoPageQuery } from "../../__generated__/VideoPageQuery.graphql";
import { paths } from "../../lib/paths";
import { HistoryChart } from "../../components/HistoryChart";
import { Loading } from "../../components/Loading";
import { useLiveCredits } from "../../relay/credits";
import { useRouteQuery } from "../../relay/route-query";
import { AnalysisPanel } from "./AnalysisPanel";
import { VideoSummary } from "./VideoSummary";
import { ExportButton } from "../../components/ExportButton";
import { Panel } from "../../components/Panel";

const query = graphql`
  query VideoPageQuery($id: ID!) {
    video(id: $id) {
      id
      ...VideoSummary_video
      ...HistoryChart_subject
      ...AnalysisPanel_video
    }
    credits {
      totalRemaining
    }
  }
`;

export default function VideoPage() {
  const data = useRouteQuery<VideoPageQuery>(query);
  useLiveCredits();
  return (
    <>
      <p className="breadcrumb">
        <Link to={paths.videos()}>← Videos</Link>
      </p>
      <VideoSummary video={data.video} />
      <Panel title="Metric history">
        <ExportButton kind="VIDEO_HISTORY" what="the daily history (30 days)" filter={{ videoId: data.video.id }} />
        <Suspense fallback={<Loading what="Loading the history" />}>
          <HistoryChart subject={data.video} />
        </Suspense>
      </Panel>
      <AnalysisPanel video={data.video} balance={data.credits.totalRemaining} />
    </>
  );
}
