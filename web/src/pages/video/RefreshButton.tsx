/**
 * "Refresh now" for the video: queues a scrape (REFRESH_TOO_SOON counted down by RefreshNow,
 * components/RefreshNow.tsx).
 */
import { graphql } from "react-relay";
import type { RefreshButtonMutation } from "../../__generated__/RefreshButtonMutation.graphql";
import { RefreshNow } from "../../components/RefreshNow";
import { useMutationAsync } from "../../relay/mutations";

const mutation = graphql`
  mutation RefreshButtonMutation($id: ID!) {
    refreshVideo(id: $id) {
      nextRefreshAt
      video {
        id
        nextRefreshAt
        scrapeStatus
      }
    }
  }
`;

export function RefreshButton({ videoId }: { videoId: string }) {
  const [refresh, refreshing] = useMutationAsync<RefreshButtonMutation>(mutation);
  return <RefreshNow onRefresh={() => refresh({ id: videoId })} busy={refreshing} queued="Refresh queued: the new numbers appear here when the scrape lands." />;
}
