/**
 * Track an account by URL with a video limit. The limit is the most of its newest videos tracked,
 * and each takes one of the workspace's tracking slots: the form says so, with the slots free,
 * before anything is tracked. The answer names the account in one of three outcomes.
 */
import { useState, type FormEvent } from "react";
import { graphql } from "react-relay";
import type { TrackAccountFormMutation } from "../../__generated__/TrackAccountFormMutation.graphql";
import { ErrorMessage } from "../../components/ErrorMessage";
import { formatWhole } from "../../lib/format";
import { useMutationAsync } from "../../relay/mutations";

const mutation = graphql`
  mutation TrackAccountFormMutation($url: String!, $videoLimit: Int!) {
    trackAccount(url: $url, videoLimit: $videoLimit) {
      added
      alreadyTracked
      failed
    }
  }
`;

interface Limits {
  readonly videoLimit: number;
  readonly videoSlotsUsed: number;
  readonly additionsRemaining: number;
}

const MAX_VIDEO_LIMIT = 500;

export function TrackAccountForm({ limits, onTracked }: { limits: Limits; onTracked: () => void }) {
  const [url, setUrl] = useState("");
  const [videoLimit, setVideoLimit] = useState("50");
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [track, tracking] = useMutationAsync<TrackAccountFormMutation>(mutation);
  const limit = Number(videoLimit);
  const validLimit = Number.isInteger(limit) && limit >= 1 && limit <= MAX_VIDEO_LIMIT;
  const reserved = validLimit ? Math.min(limit, limits.additionsRemaining) : 0;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setOutcome(null);
    if (!url.trim()) return setOutcome({ ok: false, text: "Paste the link of an account first." });
    if (!validLimit) return setOutcome({ ok: false, text: `The video limit is a whole number from 1 to ${MAX_VIDEO_LIMIT}.` });
    try {
      const r = (await track({ url: url.trim(), videoLimit: limit })).trackAccount;
      if (r.added.length) {
        setOutcome({ ok: true, text: `Tracking @${r.added[0]}: its newest videos (up to ${formatWhole(limit)}) appear when it is first scraped, in a few seconds.` });
        setUrl("");
      } else if (r.alreadyTracked.length) {
        setOutcome({ ok: true, text: `@${r.alreadyTracked[0]} is already tracked (its video limit stays as it was).` });
      } else {
        setOutcome({ ok: false, text: `@${r.failed[0] ?? "the account"} was not tracked: no tracking slots are left. Untrack videos or accounts, or move to a larger plan.` });
      }
      onTracked();
    } catch (e) {
      setError(e);
    }
  }

  return (
    <section aria-labelledby="track-account-heading" className="panel">
      <h2 id="track-account-heading">Track an account</h2>
      <form onSubmit={submit} className="track-form">
        <label htmlFor="account-url">Account URL</label>
        <p id="account-url-help" className="muted">
          For example https://www.tiktok.com/@creator, https://www.youtube.com/@handle or https://www.instagram.com/creator/.
        </p>
        <input id="account-url" type="url" aria-describedby="account-url-help" value={url} onChange={(e) => setUrl(e.target.value)} spellCheck={false} />
        <label htmlFor="account-video-limit">Video limit</label>
        <input
          id="account-video-limit"
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_VIDEO_LIMIT}
          aria-describedby="account-slots"
          value={videoLimit}
          onChange={(e) => setVideoLimit(e.target.value)}
        />
        <p id="account-slots" className="muted">
          Tracks the account's newest videos, up to this many (1 to {MAX_VIDEO_LIMIT}); each takes one tracking slot.{" "}
          {validLimit && (
            <>
              This account may take up to <strong>{formatWhole(reserved)}</strong> slot{reserved === 1 ? "" : "s"}:{" "}
            </>
          )}
          {formatWhole(limits.additionsRemaining)} of {formatWhole(limits.videoLimit)} slots are free.
        </p>
        <div className="row">
          <button type="submit" className="button-primary" disabled={tracking}>
            Track account
          </button>
          {tracking && (
            <span role="status" className="muted">
              Tracking…
            </span>
          )}
        </div>
      </form>
      {outcome && (
        <p role="status" className={outcome.ok ? "notice" : "notice notice-error"}>
          {outcome.text}
        </p>
      )}
      {error !== null && <ErrorMessage error={error} title="Could not track the account" />}
    </section>
  );
}
