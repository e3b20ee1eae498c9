/**
 * Track an account by URL with a video limit. The limit is the most of its newest videos tracked,
 * and each takes one of the workspace's tracking slots: the form says so, with the slots free,
 * before anything is tracked. The answer names the account in one of three outcomes.
 */
import { useState, type FormEvent } from "react";
import { graphql, useFragment } from "react-relay";
import type { TrackAccountFormMutation } from "../../__generated__/TrackAccountFormMutation.graphql";
import type { TrackAccountForm_limits$key } from "../../__generated__/TrackAccountForm_limits.graphql";
import { Outcome } from "../../components/Outcome";
import { formatWhole, plural } from "../../lib/format";
import { refused, useAction, type ActionOutcome } from "../../relay/action";
import { Submit } from "../../components/Submit";
import { Panel } from "../../components/Panel";

const limitsFragment = graphql`
  fragment TrackAccountForm_limits on TrackingLimits {
    videoLimit
    additionsRemaining
  }
`;

const mutation = graphql`
  mutation TrackAccountFormMutation($url: String!, $videoLimit: Int!) {
    trackAccount(url: $url, videoLimit: $videoLimit) {
      added
      alreadyTracked
      failed
    }
  }
`;

const MAX_VIDEO_LIMIT = 500;

/** The answer names the account in one of three outcomes. */
function said(r: TrackAccountFormMutation["response"]["trackAccount"], limit: number): ActionOutcome {
  if (r.added.length)
    return {
      ok: true,
      message: `Tracking @${r.added[0]}: its newest videos (up to ${formatWhole(limit)}) appear when it is first scraped, in a few seconds.`,
    };
  if (r.alreadyTracked.length)
    return { ok: true, message: `@${r.alreadyTracked[0]} is already tracked (its video limit stays as it was).` };
  return refused(
    "Not tracked",
    `@${r.failed[0] ?? "the account"} was not tracked: no tracking slots are left. Untrack videos or accounts, or move to a larger plan.`,
  );
}

export function TrackAccountForm({ limits: key, onTracked }: { limits: TrackAccountForm_limits$key; onTracked: () => void }) {
  const limits = useFragment(limitsFragment, key);
  const [url, setUrl] = useState("");
  const [videoLimit, setVideoLimit] = useState("50");
  const [problem, setProblem] = useState<ActionOutcome | null>(null);
  const track = useAction<TrackAccountFormMutation>(mutation);
  const limit = Number(videoLimit);
  const validLimit = Number.isInteger(limit) && limit >= 1 && limit <= MAX_VIDEO_LIMIT;
  const reserved = validLimit ? Math.min(limit, limits.additionsRemaining) : 0;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    track.clear();
    if (!url.trim()) return setProblem(refused("Not tracked", "Paste the link of an account first."));
    if (!validLimit) return setProblem(refused("Not tracked", `The video limit is a whole number from 1 to ${MAX_VIDEO_LIMIT}.`));
    const r = await track.run(
      { url: url.trim(), videoLimit: limit },
      { done: (d) => said(d.trackAccount, limit), failed: "Could not track the account" },
    );
    if (!r) return;
    if (r.trackAccount.added.length) setUrl("");
    onTracked();
  }

  return (
    <Panel title="Track an account">
      <form onSubmit={submit} className="track-form">
        <label htmlFor="account-url">Account URL</label>
        <p id="account-url-help" className="muted">
          For example https://www.tiktok.com/@creator, https://www.youtube.com/@handle or https://www.instagram.com/creator/.
        </p>
        <input
          id="account-url"
          type="url"
          aria-describedby="account-url-help"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          spellCheck={false}
        />
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
              This account may take up to <strong>{plural(reserved, "slot")}</strong>:{" "}
            </>
          )}
          {formatWhole(limits.additionsRemaining)} of {formatWhole(limits.videoLimit)} slots are free.
        </p>
        <div className="row">
          <Submit action={track}>Track account</Submit>
          {track.pending && (
            <span role="status" className="muted">
              Tracking…
            </span>
          )}
        </div>
      </form>
      <Outcome outcome={problem ?? track.outcome} />
    </Panel>
  );
}
