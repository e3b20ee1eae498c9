/**
 * "Refresh now": queues a scrape. Within the service's minimum interval the answer is
 * REFRESH_TOO_SOON with the seconds to wait, shown as "Try again in N s" and counted down.
 */
import { useEffect, useState } from "react";
import { graphql } from "react-relay";
import type { RefreshButtonMutation } from "../../__generated__/RefreshButtonMutation.graphql";
import { apiErrorOf, describeError } from "../../lib/errors";
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
  const [message, setMessage] = useState<string | null>(null);
  const [waitUntil, setWaitUntil] = useState<number | null>(null);
  const [now, setNow] = useState(Date.now());

  useEffect(() => {
    if (!waitUntil) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [waitUntil]);

  const secondsLeft = waitUntil ? Math.ceil((waitUntil - now) / 1000) : 0;
  const waiting = secondsLeft > 0;

  async function click() {
    setMessage(null);
    try {
      await refresh({ id: videoId });
      setMessage("Refresh queued: the new numbers appear here when the scrape lands.");
    } catch (error) {
      const api = apiErrorOf(error);
      if (api?.code === "REFRESH_TOO_SOON" && api.retryAfter) {
        setNow(Date.now());
        setWaitUntil(Date.now() + api.retryAfter * 1000);
      } else setMessage(describeError(error).message);
    }
  }

  return (
    <div className="refresh">
      <button type="button" onClick={click} disabled={refreshing || waiting}>
        Refresh now
      </button>
      <span role="status" className="muted">
        {waiting ? `Scraped recently: try again in ${secondsLeft} s.` : message}
      </span>
    </div>
  );
}
