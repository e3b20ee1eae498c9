/** Rename the folder (a small form opened by a button), and delete it after a confirmation. */
import { useState, type FormEvent } from "react";
import { graphql } from "react-relay";
import { useNavigate } from "react-router";
import type { FolderActionsRenameMutation } from "../../__generated__/FolderActionsRenameMutation.graphql";
import type { FolderActionsDeleteMutation } from "../../__generated__/FolderActionsDeleteMutation.graphql";
import { paths } from "../../app/paths";
import { ConfirmButton } from "../../components/ConfirmButton";
import { ErrorMessage } from "../../components/ErrorMessage";
import { useMutationAsync } from "../../relay/mutations";

const renameMutation = graphql`
  mutation FolderActionsRenameMutation($id: ID!, $name: String!) {
    renameFolder(id: $id, name: $name) {
      id
      name
    }
  }
`;

const deleteMutation = graphql`
  mutation FolderActionsDeleteMutation($id: ID!) {
    deleteFolder(id: $id)
  }
`;

export function FolderActions({ folderId, name }: { folderId: string; name: string }) {
  const [renaming, setRenaming] = useState(false);
  const [draft, setDraft] = useState(name);
  const [error, setError] = useState<unknown>(null);
  const [rename, saving] = useMutationAsync<FolderActionsRenameMutation>(renameMutation);
  const [remove, deleting] = useMutationAsync<FolderActionsDeleteMutation>(deleteMutation);
  const navigate = useNavigate();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      await rename({ id: folderId, name: draft });
      setRenaming(false);
    } catch (e) {
      setError(e);
    }
  }

  async function doDelete() {
    setError(null);
    try {
      await remove({ id: folderId });
      navigate(paths.folders());
    } catch (e) {
      setError(e);
    }
  }

  return (
    <div className="row">
      {renaming ? (
        <form className="row" onSubmit={submit}>
          <label>
            New name
            <input type="text" value={draft} maxLength={255} required autoFocus onChange={(e) => setDraft(e.target.value)} />
          </label>
          <button type="submit" className="button-primary" disabled={saving}>
            Save name
          </button>
          <button type="button" onClick={() => (setRenaming(false), setDraft(name), setError(null))}>
            Cancel
          </button>
        </form>
      ) : (
        <button type="button" onClick={() => (setDraft(name), setRenaming(true))}>
          Rename
        </button>
      )}
      <ConfirmButton question={`Delete the folder “${name}”? Its videos and accounts stay tracked.`} confirmLabel="Delete" onConfirm={doDelete} disabled={deleting}>
        Delete folder
      </ConfirmButton>
      {error !== null && <ErrorMessage error={error} title="That did not work" />}
    </div>
  );
}
