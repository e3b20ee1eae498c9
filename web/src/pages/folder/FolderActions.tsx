/** Rename the folder (a small form opened by a button), and delete it after a confirmation. */
import { useState, type FormEvent } from "react";
import { graphql } from "react-relay";
import { useNavigate } from "react-router";
import type { FolderActionsRenameMutation } from "../../__generated__/FolderActionsRenameMutation.graphql";
import type { FolderActionsDeleteMutation } from "../../__generated__/FolderActionsDeleteMutation.graphql";
import { paths } from "../../app/paths";
import { ConfirmButton } from "../../components/ConfirmButton";
import { Outcome } from "../../components/Outcome";
import { useAction } from "../../relay/action";
import { removeNodes, rootConnection } from "../../relay/connections";

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
  const rename = useAction<FolderActionsRenameMutation>(renameMutation);
  const remove = useAction<FolderActionsDeleteMutation>(deleteMutation);
  const navigate = useNavigate();

  async function submit(event: FormEvent) {
    event.preventDefault();
    remove.clear();
    if (await rename.run({ id: folderId, name: draft }, { failed: "Could not rename the folder" })) setRenaming(false);
  }

  async function doDelete() {
    rename.clear();
    // It leaves the folders list at once, so the list does not show it while it is read again.
    const gone = removeNodes([rootConnection("FoldersPage_folders")], [folderId]);
    if (await remove.run({ id: folderId }, { updater: gone, failed: "Could not delete the folder" })) navigate(paths.folders());
  }

  return (
    <div className="row">
      {renaming ? (
        <form className="row" onSubmit={submit}>
          <label>
            New name
            <input type="text" value={draft} maxLength={255} required autoFocus onChange={(e) => setDraft(e.target.value)} />
          </label>
          <button type="submit" className="button-primary" disabled={rename.pending}>
            Save name
          </button>
          <button type="button" onClick={() => (setRenaming(false), setDraft(name), rename.clear())}>
            Cancel
          </button>
        </form>
      ) : (
        <button type="button" onClick={() => (setDraft(name), setRenaming(true))}>
          Rename
        </button>
      )}
      <ConfirmButton question={`Delete the folder “${name}”? Its videos and accounts stay tracked.`} confirmLabel="Delete" onConfirm={doDelete} disabled={remove.pending}>
        Delete folder
      </ConfirmButton>
      <Outcome outcome={rename.outcome ?? remove.outcome} />
    </div>
  );
}
