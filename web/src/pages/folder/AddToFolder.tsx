/**
 * Add any of the workspace's tracked videos or accounts to the folder, one at a time (pickers/: found by words,
 * page by page; many videos at once: select them on the Videos page and press Add to folder). Its query
 * starts with the folder's, from the route (app/routes.tsx). The folder's count moves at once; the page reads
 * the folder again after the answer.
 */
import { graphql } from "react-relay";
import type { RecordSourceSelectorProxy } from "relay-runtime";
import type { AddToFolderQuery } from "../../__generated__/AddToFolderQuery.graphql";
import type { AddToFolderVideosMutation } from "../../__generated__/AddToFolderVideosMutation.graphql";
import type { AddToFolderAccountsMutation } from "../../__generated__/AddToFolderAccountsMutation.graphql";
import { Outcome } from "../../components/Outcome";
import type { PickerOption } from "../../components/Picker";
import { AccountChoice } from "../../pickers/AccountChoice";
import { VideoChoice } from "../../pickers/VideoChoice";
import { perItem, useAction } from "../../relay/action";
import { useRouteQuery } from "../../relay/route-query";

const query = graphql`
  query AddToFolderQuery {
    ...VideoChoice_query
    ...AccountChoice_query
  }
`;

/** Adds videos to a folder, each answered apart: the Videos page's bulk action sends it too. */
export const addVideosMutation = graphql`
  mutation AddToFolderVideosMutation($folderId: ID!, $videoIds: [ID!]!) {
    addVideosToFolder(folderId: $folderId, videoIds: $videoIds) {
      ...action_bulkItem @relay(mask: false)
    }
  }
`;

const addAccounts = graphql`
  mutation AddToFolderAccountsMutation($folderId: ID!, $accountIds: [ID!]!) {
    addAccountsToFolder(folderId: $folderId, accountIds: $accountIds) {
      ...action_bulkItem @relay(mask: false)
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

export function AddToFolder({ folderId, onAdded }: { folderId: string; onAdded: () => void }) {
  const data = useRouteQuery<AddToFolderQuery>(query);
  const video = useAction<AddToFolderVideosMutation>(addVideosMutation);
  const account = useAction<AddToFolderAccountsMutation>(addAccounts);

  async function add(kind: "video" | "account", id: string) {
    (kind === "video" ? account : video).clear();
    const r =
      kind === "video"
        ? await video.run(
            { folderId, videoIds: [id] },
            {
              optimisticUpdater: bump(folderId, "videoCount"),
              done: (d) => perItem(d.addVideosToFolder, () => "Added the video to the folder.", TITLE),
              failed: TITLE,
            },
          )
        : await account.run(
            { folderId, accountIds: [id] },
            {
              optimisticUpdater: bump(folderId, "accountCount"),
              done: (d) => perItem(d.addAccountsToFolder, () => "Added the account (and its tracked videos) to the folder.", TITLE),
              failed: TITLE,
            },
          );
    if (r) onAdded();
  }

  /** The button that adds the picker's choice. */
  const adds = (kind: "video" | "account", pending: boolean) => (chosen: PickerOption | null) => (
    <button type="button" disabled={!chosen || pending} onClick={() => chosen && void add(kind, chosen.id)}>
      Add {kind}
    </button>
  );

  return (
    <>
      <VideoChoice query={data} label="Tracked video">
        {adds("video", video.pending)}
      </VideoChoice>
      <AccountChoice query={data} label="Tracked account">
        {adds("account", account.pending)}
      </AccountChoice>
      <Outcome outcome={video.outcome ?? account.outcome} />
    </>
  );
}
