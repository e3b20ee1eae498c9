/**
 * What can be done with the selected rows: add them to any folder (pickers/FolderChoice.tsx), tag or untag
 * them (pages/tags/BulkTag.tsx), or untrack them (after a confirmation). The folders and the tags are read when
 * their control opens (relay/on-open.ts). Untracked rows leave the table at once (optimistically; back if the
 * server refuses). Each answers per video (relay/action.ts `perItem`).
 */
import { graphql } from "react-relay";
import type { AddToFolderVideosMutation } from "../../__generated__/AddToFolderVideosMutation.graphql";
import type { BulkActionsUntrackMutation } from "../../__generated__/BulkActionsUntrackMutation.graphql";
import type { FolderChoiceQuery } from "../../__generated__/FolderChoiceQuery.graphql";
import type { BulkTagQuery } from "../../__generated__/BulkTagQuery.graphql";
import { ConfirmButton } from "../../components/ConfirmButton";
import { Opened } from "../../components/Opened";
import { Outcome } from "../../components/Outcome";
import type { PickerOption } from "../../components/Picker";
import { plural } from "../../lib/format";
import { FolderChoice, folderChoiceQuery } from "../../pickers/FolderChoice";
import { perItem, useAction } from "../../relay/action";
import { removeNodes } from "../../relay/connections";
import { useQueryOnOpen } from "../../relay/on-open";
import { BulkTag, bulkTagQuery } from "../tags/BulkTag";
import { addVideosMutation } from "../folder/AddToFolder";

const untrackMutation = graphql`
  mutation BulkActionsUntrackMutation($ids: [ID!]!) {
    untrackVideos(ids: $ids) {
      ...action_bulkItem @relay(mask: false)
    }
  }
`;

interface Selected {
  id: string;
}

export function BulkActions({
  selected,
  connectionId,
  onDone,
}: {
  selected: readonly Selected[];
  connectionId: string;
  onDone: () => void;
}) {
  const folders = useQueryOnOpen<FolderChoiceQuery>(folderChoiceQuery);
  const tags = useQueryOnOpen<BulkTagQuery>(bulkTagQuery);
  const untrack = useAction<BulkActionsUntrackMutation>(untrackMutation);
  const add = useAction<AddToFolderVideosMutation>(addVideosMutation);
  const ids = selected.map((s) => s.id);

  async function doUntrack() {
    add.clear();
    const connections = [connectionId];
    const done = await untrack.run(
      { ids },
      {
        // The rows leave at once; the server's answer (or a refusal, which brings them back) follows.
        optimisticUpdater: removeNodes(connections, ids),
        updater: (store, data) => removeNodes(connections, data?.untrackVideos.filter((r) => r.success).map((r) => r.id) ?? [])(store),
        done: (r) => perItem(r.untrackVideos, (n) => `Untracked ${plural(n, "video")}.`, "Could not untrack"),
        failed: "Could not untrack",
      },
    );
    if (done) onDone();
  }

  async function addTo(folder: PickerOption) {
    untrack.clear();
    const failed = "Could not add to the folder";
    const done = await add.run(
      { folderId: folder.id, videoIds: ids },
      { done: (r) => perItem(r.addVideosToFolder, (n) => `Added ${plural(n, "video")} to ${folder.label}.`, failed), failed },
    );
    if (done) folders.close();
  }

  return (
    <div className="bulk">
      {selected.length > 0 && (
        <div className="row" role="group" aria-label="Selected videos">
          <span>{selected.length} selected</span>
          <button type="button" aria-expanded={Boolean(folders.ref)} onClick={folders.toggle}>
            Add to folder
          </button>
          <button type="button" aria-expanded={Boolean(tags.ref)} onClick={tags.toggle}>
            Tag
          </button>
          <ConfirmButton
            question={`Untrack ${plural(selected.length, "video")}? Their history stays, but they stop being scraped for this workspace.`}
            confirmLabel="Untrack"
            onConfirm={doUntrack}
            disabled={untrack.pending}
          >
            Untrack
          </ConfirmButton>
        </div>
      )}
      {selected.length > 0 && (
        <>
          <Opened part={folders} what="the folders">
            {(data) => (
              <FolderChoice query={data} label="Folder" autoFocus>
                {(folder) => (
                  <button
                    type="button"
                    className="button-primary"
                    disabled={!folder || add.pending}
                    onClick={() => folder && void addTo(folder)}
                  >
                    Add
                  </button>
                )}
              </FolderChoice>
            )}
          </Opened>
          <Opened part={tags} what="the tags">
            {(data) => <BulkTag tags={data} kind="video" ids={ids} />}
          </Opened>
        </>
      )}
      <Outcome outcome={untrack.outcome} />
      <Outcome outcome={add.outcome} />
    </div>
  );
}
