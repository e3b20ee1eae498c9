/**
 * What can be done with the selected rows: add them to a folder, tag or untag them
 * (pages/tags/BulkTag.tsx), or untrack them (after a
 * confirmation). Untracked rows leave the table at once (optimistically; back if the server
 * refuses). Both answer per video; failures are listed in words.
 */
import { Suspense, useState } from "react";
import { graphql } from "react-relay";
import type { BulkActionsAddMutation } from "../../__generated__/BulkActionsAddMutation.graphql";
import type { BulkActionsUntrackMutation } from "../../__generated__/BulkActionsUntrackMutation.graphql";
import { ConfirmButton } from "../../components/ConfirmButton";
import { Loading } from "../../components/Loading";
import { Outcome } from "../../components/Outcome";
import { plural } from "../../lib/format";
import { perItem, useAction } from "../../relay/action";
import { removeNodes } from "../../relay/connections";
import { FolderPicker } from "../folders/FolderPicker";
import { BulkTag } from "../tags/BulkTag";

const addMutation = graphql`
  mutation BulkActionsAddMutation($folderId: ID!, $videoIds: [ID!]!) {
    addVideosToFolder(folderId: $folderId, videoIds: $videoIds) {
      id
      success
      error
    }
  }
`;

const untrackMutation = graphql`
  mutation BulkActionsUntrackMutation($ids: [ID!]!) {
    untrackVideos(ids: $ids) {
      id
      success
      error
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
  const [picking, setPicking] = useState(false);
  const [tagging, setTagging] = useState(false);
  const untrack = useAction<BulkActionsUntrackMutation>(untrackMutation);
  const add = useAction<BulkActionsAddMutation>(addMutation);
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
        done: (r) => perItem(r.untrackVideos, (n) => `Untracked ${plural(n, "video")}.`),
        failed: "Could not untrack",
      },
    );
    if (done) onDone();
  }

  async function addTo(folder: { id: string; name: string }) {
    untrack.clear();
    const done = await add.run(
      { folderId: folder.id, videoIds: ids },
      {
        done: (r) => perItem(r.addVideosToFolder, (n) => `Added ${plural(n, "video")} to ${folder.name}.`),
        failed: "Could not add to the folder",
      },
    );
    if (done) setPicking(false);
  }

  return (
    <div className="bulk">
      {selected.length > 0 && (
        <div className="row" role="group" aria-label="Selected videos">
          <span>{selected.length} selected</span>
          <button type="button" aria-expanded={picking} onClick={() => setPicking(!picking)}>
            Add to folder
          </button>
          <button type="button" aria-expanded={tagging} onClick={() => setTagging(!tagging)}>
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
      {picking && selected.length > 0 && (
        <Suspense fallback={<Loading what="Loading the folders" />}>
          <FolderPicker onPick={(f) => void addTo(f)} busy={add.pending} />
        </Suspense>
      )}
      {tagging && selected.length > 0 && (
        <Suspense fallback={<Loading what="Loading the tags" />}>
          <BulkTag kind="video" ids={ids} />
        </Suspense>
      )}
      <Outcome outcome={untrack.outcome} />
      <Outcome outcome={add.outcome} />
    </div>
  );
}
