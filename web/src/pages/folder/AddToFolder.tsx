/**
 * Add one of the workspace's tracked videos or accounts to the folder (the first 100 of each, newest
 * tracked first; many videos at once: select them on the Videos page and press Add to folder).
 */
import { useState, type FormEvent } from "react";
import { graphql, useLazyLoadQuery } from "react-relay";
import { Link } from "react-router";
import type { AddToFolderQuery } from "../../__generated__/AddToFolderQuery.graphql";
import type { AddToFolderVideosMutation } from "../../__generated__/AddToFolderVideosMutation.graphql";
import type { AddToFolderAccountsMutation } from "../../__generated__/AddToFolderAccountsMutation.graphql";
import { paths } from "../../app/paths";
import { ErrorMessage } from "../../components/ErrorMessage";
import { useMutationAsync } from "../../relay/mutations";

const query = graphql`
  query AddToFolderQuery {
    videos(first: 100) {
      edges {
        node {
          id
          description
          username
        }
      }
    }
    accounts(first: 100) {
      edges {
        node {
          id
          username
          displayName
        }
      }
    }
  }
`;

const addVideos = graphql`
  mutation AddToFolderVideosMutation($folderId: ID!, $videoIds: [ID!]!) {
    addVideosToFolder(folderId: $folderId, videoIds: $videoIds) {
      id
      success
      error
    }
  }
`;

const addAccounts = graphql`
  mutation AddToFolderAccountsMutation($folderId: ID!, $accountIds: [ID!]!) {
    addAccountsToFolder(folderId: $folderId, accountIds: $accountIds) {
      id
      success
      error
    }
  }
`;

export function AddToFolder({ folderId, onAdded }: { folderId: string; onAdded: () => void }) {
  const data = useLazyLoadQuery<AddToFolderQuery>(query, {}, { fetchPolicy: "store-and-network" });
  const videos = data.videos.edges.map((e) => e.node);
  const accounts = data.accounts.edges.map((e) => e.node);
  const [videoId, setVideoId] = useState("");
  const [accountId, setAccountId] = useState("");
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [runVideos, addingVideo] = useMutationAsync<AddToFolderVideosMutation>(addVideos);
  const [runAccounts, addingAccount] = useMutationAsync<AddToFolderAccountsMutation>(addAccounts);

  async function add(kind: "video" | "account", event: FormEvent) {
    event.preventDefault();
    setError(null);
    setOutcome(null);
    const id = kind === "video" ? videoId || videos[0]?.id : accountId || accounts[0]?.id;
    if (!id) return;
    try {
      const results = kind === "video" ? (await runVideos({ folderId, videoIds: [id] })).addVideosToFolder : (await runAccounts({ folderId, accountIds: [id] })).addAccountsToFolder;
      const failed = results.find((r) => !r.success);
      setOutcome(failed ? { ok: false, text: `Not added: ${failed.error ?? "failed"}.` } : { ok: true, text: kind === "video" ? "Added the video to the folder." : "Added the account (and its tracked videos) to the folder." });
      onAdded();
    } catch (e) {
      setError(e);
    }
  }

  if (videos.length === 0 && accounts.length === 0) {
    return (
      <p className="muted">
        Nothing is tracked yet: track videos on the <Link to={paths.videos()}>Videos</Link> page or accounts on the <Link to={paths.accounts()}>Accounts</Link> page, then add them
        here.
      </p>
    );
  }
  return (
    <>
      {videos.length > 0 && (
        <form className="row" onSubmit={(e) => void add("video", e)}>
          <label>
            Tracked video
            <select value={videoId || videos[0]!.id} onChange={(e) => setVideoId(e.target.value)}>
              {videos.map((v) => (
                <option key={v.id} value={v.id}>
                  {(v.description || "Untitled video").slice(0, 80)} (@{v.username})
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={addingVideo}>
            Add video
          </button>
        </form>
      )}
      {accounts.length > 0 && (
        <form className="row" onSubmit={(e) => void add("account", e)}>
          <label>
            Tracked account
            <select value={accountId || accounts[0]!.id} onChange={(e) => setAccountId(e.target.value)}>
              {accounts.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.displayName ? `${a.displayName} (@${a.username})` : `@${a.username}`}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={addingAccount}>
            Add account
          </button>
        </form>
      )}
      {outcome && (
        <p role="status" className={outcome.ok ? "notice" : "notice notice-error"}>
          {outcome.text}
        </p>
      )}
      {error !== null && <ErrorMessage error={error} title="Could not add to the folder" />}
    </>
  );
}
