/**
 * What can be done with the selected rows: add them to a folder, or untrack them (after a
 * confirmation). Both answer per video; failures are listed in words.
 */
import { Suspense, useState } from "react";
import { graphql, useLazyLoadQuery } from "react-relay";
import { Link } from "react-router";
import type { BulkActionsFoldersQuery } from "../../__generated__/BulkActionsFoldersQuery.graphql";
import type { BulkActionsAddMutation } from "../../__generated__/BulkActionsAddMutation.graphql";
import type { BulkActionsUntrackMutation } from "../../__generated__/BulkActionsUntrackMutation.graphql";
import { paths } from "../../app/paths";
import { ConfirmButton } from "../../components/ConfirmButton";
import { ErrorMessage } from "../../components/ErrorMessage";
import { Loading } from "../../components/Loading";
import { useMutationAsync } from "../../relay/mutations";

const foldersQuery = graphql`
  query BulkActionsFoldersQuery {
    folders(first: 100) {
      edges {
        node {
          id
          name
        }
      }
    }
  }
`;

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
  description: string;
}

interface Outcome {
  done: string;
  failures: string[];
}

export function BulkActions({ selected, onDone }: { selected: readonly Selected[]; onDone: () => void }) {
  const [picking, setPicking] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [untrack, untracking] = useMutationAsync<BulkActionsUntrackMutation>(untrackMutation);
  const ids = selected.map((s) => s.id);

  async function doUntrack() {
    setError(null);
    try {
      const r = await untrack({ ids });
      const failures = r.untrackVideos.filter((x) => !x.success).map((x) => x.error ?? "failed");
      setOutcome({ done: `Untracked ${r.untrackVideos.length - failures.length} video(s).`, failures });
      onDone();
    } catch (e) {
      setError(e);
    }
  }

  return (
    <div className="bulk">
      {selected.length > 0 && (
        <div className="row" role="group" aria-label="Selected videos">
          <span>{selected.length} selected</span>
          <button type="button" aria-expanded={picking} onClick={() => setPicking(!picking)}>
            Add to folder
          </button>
          <ConfirmButton
            question={`Untrack ${selected.length} video(s)? Their history stays, but they stop being scraped for this workspace.`}
            confirmLabel="Untrack"
            onConfirm={doUntrack}
            disabled={untracking}
          >
            Untrack
          </ConfirmButton>
        </div>
      )}
      {picking && selected.length > 0 && (
        <Suspense fallback={<Loading what="Loading the folders" />}>
          <FolderPicker
            videoIds={ids}
            onAdded={(o) => {
              setPicking(false);
              setOutcome(o);
            }}
          />
        </Suspense>
      )}
      {error !== null && <ErrorMessage error={error} title="Could not untrack" />}
      {outcome && (
        <div role="status" className="notice">
          {outcome.done}
          {outcome.failures.length > 0 && <> Not done: {outcome.failures.join("; ")}.</>}
        </div>
      )}
    </div>
  );
}

function FolderPicker({ videoIds, onAdded }: { videoIds: string[]; onAdded: (o: Outcome) => void }) {
  const data = useLazyLoadQuery<BulkActionsFoldersQuery>(foldersQuery, {}, { fetchPolicy: "store-and-network" });
  const folders = data.folders.edges.map((e) => e.node);
  const [folderId, setFolderId] = useState(folders[0]?.id ?? "");
  const [error, setError] = useState<unknown>(null);
  const [add, adding] = useMutationAsync<BulkActionsAddMutation>(addMutation);

  if (folders.length === 0) {
    return (
      <p className="notice">
        No folders yet. Create one on the <Link to={paths.folders()}>Folders</Link> page, then come back.
      </p>
    );
  }
  async function submit() {
    setError(null);
    try {
      const r = await add({ folderId, videoIds });
      const failures = r.addVideosToFolder.filter((x) => !x.success).map((x) => x.error ?? "failed");
      const name = folders.find((f) => f.id === folderId)?.name ?? "the folder";
      onAdded({ done: `Added ${r.addVideosToFolder.length - failures.length} video(s) to ${name}.`, failures });
    } catch (e) {
      setError(e);
    }
  }
  return (
    <form className="row" onSubmit={(e) => (e.preventDefault(), void submit())}>
      <label>
        Folder
        <select value={folderId} onChange={(e) => setFolderId(e.target.value)}>
          {folders.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="button-primary" disabled={adding}>
        Add
      </button>
      {error !== null && <ErrorMessage error={error} title="Could not add to the folder" />}
    </form>
  );
}
