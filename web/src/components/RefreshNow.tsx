/**
 * "Refresh now" for a video or an account: runs the page's refresh action (relay/action.ts). Within
 * the service's minimum interval the answer is REFRESH_TOO_SOON with the seconds to wait, shown as
 * "Try again in N s" and counted down; any other failure is shown in words.
 */
import { useEffect, useState } from "react";
import { apiErrorOf } from "../lib/errors";
import type { ActionOutcome } from "../relay/action";
import { Outcome } from "./Outcome";

interface Props {
  /** Runs the refresh, e.g. `() => refresh.run({ id }, { done: () => "Refresh queued…", failed: "Could not refresh" })`. */
  onRefresh: () => Promise<unknown>;
  busy: boolean;
  outcome: ActionOutcome | null;
}

export function RefreshNow({ onRefresh, busy, outcome }: Props) {
  const tooSoon = outcome && !outcome.ok ? apiErrorOf(outcome.error) : null;
  const retryAfter = tooSoon?.code === "REFRESH_TOO_SOON" ? tooSoon.retryAfter : null;
  const [clickedAt, setClickedAt] = useState<number | null>(null);
  const [now, setNow] = useState(0);
  const waitUntil = retryAfter && clickedAt ? clickedAt + retryAfter * 1000 : null;

  async function click() {
    setClickedAt(Date.now());
    await onRefresh();
    setNow(Date.now());
  }

  useEffect(() => {
    if (!waitUntil) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [waitUntil]);

  const secondsLeft = waitUntil ? Math.ceil((waitUntil - now) / 1000) : 0;
  const waiting = secondsLeft > 0;

  return (
    <div className="refresh">
      <button type="button" onClick={() => void click()} disabled={busy || waiting}>
        Refresh now
      </button>
      {retryAfter ? (
        <span role="status" className="muted">
          {waiting ? `Scraped recently: try again in ${secondsLeft} s.` : ""}
        </span>
      ) : (
        <Outcome outcome={outcome} />
      )}
    </div>
  );
}
