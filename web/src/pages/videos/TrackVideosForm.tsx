/**
 * Track one or many videos: one URL a line, each tracked by its own `trackVideo` and answered on
 * its own line (tracking, already tracked, or the error in words). Each new row joins the table as
 * its answer comes (and the table's live subscription reads the list again after).
 */
import { useState, type FormEvent } from "react";
import { graphql } from "react-relay";
import type { TrackVideosFormMutation } from "../../__generated__/TrackVideosFormMutation.graphql";
import { apiErrorOf, describeError } from "../../lib/errors";
import { useMutationAsync } from "../../relay/mutations";
import { Panel } from "../../components/Panel";

const mutation = graphql`
  mutation TrackVideosFormMutation($url: String!, $connections: [ID!]!) {
    trackVideo(url: $url) {
      isNew
      video @prependNode(connections: $connections, edgeTypeName: "VideoEdge") {
        id
        ...VideosTableRow_video
      }
    }
  }
`;

interface LineResult {
  url: string;
  ok: boolean;
  text: string;
}

/** Lines of the box, trimmed, without blanks and repeats, at most 50 at a time. */
const MAX_LINES = 50;
const linesOf = (text: string) => [
  ...new Set(
    text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean),
  ),
];

/** `connectionId`: the table's list as the URL's options read it; each video tracked joins it at once. */
export function TrackVideosForm({ connectionId }: { connectionId: string }) {
  const [text, setText] = useState("");
  const [results, setResults] = useState<LineResult[]>([]);
  const [busy, setBusy] = useState(false);
  const [track] = useMutationAsync<TrackVideosFormMutation>(mutation);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const urls = linesOf(text);
    if (urls.length === 0) return setResults([{ url: "", ok: false, text: "Paste at least one video link." }]);
    if (urls.length > MAX_LINES)
      return setResults([{ url: "", ok: false, text: `At most ${MAX_LINES} links at a time (you pasted ${urls.length}).` }]);
    setBusy(true);
    const out: LineResult[] = [];
    for (const url of urls) {
      try {
        const connections = [connectionId];
        const r = await track({ url, connections });
        out.push({
          url,
          ok: true,
          text: r.trackVideo.isNew
            ? "Tracking: its first metrics arrive in a few seconds."
            : "Tracking (the service already knew this video).",
        });
      } catch (error) {
        const code = apiErrorOf(error)?.code;
        out.push({
          url,
          ok: code === "ALREADY_TRACKED",
          text: code === "ALREADY_TRACKED" ? "Already tracked." : describeError(error).message,
        });
      }
      setResults([...out]);
    }
    setBusy(false);
    // Keep only the lines that failed, so they can be fixed and sent again.
    setText(
      out
        .filter((r) => !r.ok)
        .map((r) => r.url)
        .join("\n"),
    );
  }

  return (
    <Panel title="Track videos">
      <form onSubmit={submit} className="track-form">
        <label htmlFor="track-urls">Video URL</label>
        <p id="track-help" className="muted">
          One link a line, for example https://www.tiktok.com/@creator/video/7301234567890123456, https://www.youtube.com/shorts/… or
          https://www.instagram.com/reel/….
        </p>
        <textarea
          id="track-urls"
          aria-describedby="track-help"
          rows={3}
          value={text}
          onChange={(e) => setText(e.target.value)}
          spellCheck={false}
        />
        <div className="row">
          <button type="submit" className="button-primary" disabled={busy}>
            Track
          </button>
          {busy && (
            <span role="status" className="muted">
              Tracking…
            </span>
          )}
        </div>
      </form>
      {results.length > 0 && (
        <ul className="line-results" aria-label="Results" aria-live="polite">
          {results.map((r, i) => (
            <li key={i} className={r.ok ? "ok" : "failed"}>
              {r.url && <code>{r.url}</code>} <span>{r.text}</span>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
