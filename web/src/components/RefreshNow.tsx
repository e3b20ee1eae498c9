/**
 * "Refresh now" for a video or an account: runs the page's refresh mutation. Within the service's
 * minimum interval the answer is REFRESH_TOO_SOON with the seconds to wait, shown as "Try again in
 * N s" and counted down; any other error is shown in words.
 */
import { useEffect, useState } from "react";
import { apiErrorOf, describeError } from "../lib/errors";

interface Props {
  /** The mutation, e.g. `() => refresh({ id })`; rejects with an ApiError. */
  onRefresh: () => Promise<unknown>;
  busy: boolean;
  /** What is said once queued. */
  queued: string;
}

export function RefreshNow({ onRefresh, busy, queued }: Props) {
  const [message, setMessage] = useState<string | null>(null);
  const [waitUntil, setWaitUntil] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());

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
      await onRefresh();
      setMessage(queued);
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
      <button type="button" onClick={click} disabled={busy || waiting}>
        Refresh now
      </button>
      <span role="status" className="muted">
        {waiting ? `Scraped recently: try again in ${secondsLeft} s.` : message}
      </span>
    </div>
  );
}
