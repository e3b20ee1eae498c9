/**
 * Add one of the workspace's tracked videos or accounts to the folder (the newest 100 of each, with
 * a notice when there are more; many videos at once: select them on the Videos page and press Add
 * to folder). Its query starts with the folder's, from the route (app/routes.tsx). The folder's
 * count moves at once; the page reads the folder again after the answer.
 */
import { useState, type FormEvent } from "react";
import { graphql } from "react-relay";
import { Link } from "react-router";
import type { RecordSourceSelectorProxy } from "relay-runtime";
import type { AddToFolderQuery } from "../../__generated__/AddToFolderQuery.graphql";
import type { AddToFolderVideosMutation } from "../../__generated__/AddToFolderVideosMutation.graphql";
import type { AddToFolderAccountsMutation } from "../../__generated__/AddToFolderAccountsMutation.graphql";
import { paths } from "../../lib/paths";
import { FirstOf } from "../../components/FirstOf";
import { Outcome } from "../../components/Outcome";
import { videoTitle } from "../../lib/format";
import { refused, useAction, type ActionOutcome } from "../../relay/action";
import { useRouteQuery } from "../../relay/route-query";

const query = graphql`
  query AddToFolderQuery {
    videos(first: 100) {
      totalCount
      edges {
        node {
          id
          description
          username
        }
      }
    }
    accounts(first: 100) {
      totalCount
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

/** The folder's count goes up at once (rolled back if the server refuses). */
const bump = (folderId: string, field: "videoCount" | "accountCount") => (store: RecordSourceSelectorProxy) => {
  const folder = store.get(folderId);
  const count = folder?.getValue(field);
  if (folder && typeof count === "number") folder.setValue(count + 1, field);
};

const TITLE = "Could not add to the folder";
const said = (results: readonly { success: boolean; error?: string | null }[], added: string): ActionOutcome => {
  const failed = results.find((r) => !r.success);
  return failed ? refused(TITLE, `Not added: ${failed.error ?? "failed"}.`) : { ok: true, message: added };
};

export function AddToFolder({ folderId, onAdded }: { folderId: string; onAdded: () => void }) {
  const data = useRouteQuery<AddToFolderQuery>(query);
  const videos = data.videos.edges.map((e) => e.node);
  const accounts = data.accounts.edges.map((e) => e.node);
  const [videoId, setVideoId] = useState("");
  const [accountId, setAccountId] = useState("");
  const video = useAction<AddToFolderVideosMutation>(addVideos);
  const account = useAction<AddToFolderAccountsMutation>(addAccounts);

  async function addVideo(event: FormEvent) {
    event.preventDefault();
    account.clear();
    const id = videoId || videos[0]?.id;
    if (!id) return;
    const r = await video.run(
      { folderId, videoIds: [id] },
      {
        optimisticUpdater: bump(folderId, "videoCount"),
        done: (d) => said(d.addVideosToFolder, "Added the video to the folder."),
        failed: TITLE,
      },
    );
    if (r) onAdded();
  }

  async function addAccount(event: FormEvent) {
    event.preventDefault();
    video.clear();
    const id = accountId || accounts[0]?.id;
    if (!id) return;
    const r = await account.run(
      { folderId, accountIds: [id] },
      {
        optimisticUpdater: bump(folderId, "accountCount"),
        done: (d) => said(d.addAccountsToFolder, "Added the account (and its tracked videos) to the folder."),
        failed: TITLE,
      },
    );
    if (r) onAdded();
  }

  if (videos.length === 0 && accounts.length === 0) {
    return (
      <p className="muted">
        Nothing is tracked yet: track videos on the <Link to={paths.videos()}>Videos</Link> page or accounts on the{" "}
        <Link to={paths.accounts()}>Accounts</Link> page, then add them here.
      </p>
    );
  }
  return (
    <>
      {videos.length > 0 && (
        <form className="row" onSubmit={(e) => void addVideo(e)}>
          <label>
            Tracked video
            <select value={videoId || videos[0]!.id} onChange={(e) => setVideoId(e.target.value)}>
              {videos.map((v) => (
                <option key={v.id} value={v.id}>
                  {videoTitle(v).slice(0, 80)} (@{v.username})
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={video.pending}>
            Add video
          </button>
          <FirstOf
            shown={videos.length}
            total={data.videos.totalCount}
            what="tracked videos, newest first"
            rest="To add older ones, select them on the Videos page and press Add to folder."
          />
        </form>
      )}
      {accounts.length > 0 && (
        <form className="row" onSubmit={(e) => void addAccount(e)}>
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
          <button type="submit" disabled={account.pending}>
            Add account
          </button>
          <FirstOf
            shown={accounts.length}
            total={data.accounts.totalCount}
            what="tracked accounts, newest first"
            rest="Older ones cannot be picked here yet."
          />
        </form>
      )}
      <Outcome outcome={video.outcome} />
      <Outcome outcome={account.outcome} />
    </>
  );
}
