/**
 * "Refresh now" for the video: queues a scrape (REFRESH_TOO_SOON counted down by RefreshNow,
 * components/RefreshNow.tsx).
 */
import { graphql } from "react-relay";
import type { RefreshButtonMutation } from "../../__generated__/RefreshButtonMutation.graphql";
import { RefreshNow } from "../../components/RefreshNow";
import { useAction } from "../../relay/action";

const mutation = graphql`
  mutation RefreshButtonMutation($id: ID!) {
    refreshVideo(id: $id) {
      video {
        ...VideoSummary_video
      }
    }
  }
`;

export function RefreshButton({ videoId }: { videoId: string }) {
  const refresh = useAction<RefreshButtonMutation>(mutation);
  const run = () =>
    refresh.run(
      { id: videoId },
      { done: () => "Refresh queued: the new numbers appear here when the scrape lands.", failed: "Could not refresh" },
    );
  return <RefreshNow onRefresh={run} busy={refresh.pending} outcome={refresh.outcome} />;
}
