/**
 * Rename the folder (a small form opened by a button), move it into any other folder or to the top level
 * ("Move to": the keyboard's way to do what dragging does on the Folders page; the folders are read when it
 * opens, searched by name, each named by its path, and the folder itself and its sub-folders are listed but
 * cannot be chosen), and delete it after a confirmation that, when it has sub-folders, asks what happens to
 * them (moved up, the default, or deleted with it).
 */
import { useState, type FormEvent } from "react";
import { graphql } from "react-relay";
import { useNavigate } from "react-router";
import type { FolderActionsRenameMutation } from "../../__generated__/FolderActionsRenameMutation.graphql";
import type { FolderActionsDeleteMutation, FolderChildren } from "../../__generated__/FolderActionsDeleteMutation.graphql";
import type { FolderActionsMoveMutation } from "../../__generated__/FolderActionsMoveMutation.graphql";
import type { FolderChoiceQuery } from "../../__generated__/FolderChoiceQuery.graphql";
import { paths } from "../../lib/paths";
import { ConfirmButton } from "../../components/ConfirmButton";
import { Opened } from "../../components/Opened";
import { Outcome } from "../../components/Outcome";
import type { PickerOption } from "../../components/Picker";
import { plural } from "../../lib/format";
import { FolderChoice, folderChoiceQuery, type Folder } from "../../pickers/FolderChoice";
import { useAction } from "../../relay/action";
import { removeNodes, rootConnection } from "../../relay/connections";
import { useQueryOnOpen } from "../../relay/on-open";
import { Submit } from "../../components/Submit";

const renameMutation = graphql`
  mutation FolderActionsRenameMutation($id: ID!, $name: String!) {
    renameFolder(id: $id, name: $name) {
      id
      name
    }
  }
`;

const deleteMutation = graphql`
  mutation FolderActionsDeleteMutation($id: ID!, $children: FolderChildren) {
    deleteFolder(id: $id, children: $children)
  }
`;

/** Moves a folder into another or (no parentId) to the top level: the Folders page's dragging sends it too. */
export const moveFolderMutation = graphql`
  mutation FolderActionsMoveMutation($id: ID!, $parentId: ID) {
    moveFolder(id: $id, parentId: $parentId) {
      id
      parentUuid
    }
  }
`;

interface Props {
  folderId: string;
  folderUuid: string;
  /** Its parent, named by its path (null: top level). */
  parent: PickerOption | null;
  name: string;
  childCount: number;
  onMoved: () => void;
}

export function FolderActions({ folderId, folderUuid, parent, name, childCount, onMoved }: Props) {
  const [open, setOpen] = useState<"rename" | null>(null);
  const folders = useQueryOnOpen<FolderChoiceQuery>(folderChoiceQuery);
  const [draft, setDraft] = useState(name);
  const rename = useAction<FolderActionsRenameMutation>(renameMutation);
  const remove = useAction<FolderActionsDeleteMutation>(deleteMutation);
  const move = useAction<FolderActionsMoveMutation>(moveFolderMutation);
  const navigate = useNavigate();
  const clear = () => [rename, remove, move].forEach((a) => a.clear());

  async function submitRename(event: FormEvent) {
    event.preventDefault();
    clear();
    if (await rename.run({ id: folderId, name: draft }, { failed: "Could not rename the folder" })) setOpen(null);
  }

  async function doMove(into: PickerOption | null) {
    clear();
    const done = () => (into ? `Moved into “${into.label}”.` : "Moved to the top level.");
    if (await move.run({ id: folderId, parentId: into?.id ?? null }, { failed: "Could not move the folder", done })) {
      folders.close();
      onMoved();
    }
  }

  // The folder itself and every folder under it cannot take it.
  const inside = (f: Folder) =>
    f.uuid === folderUuid ? "this folder" : f.ancestors.some((a) => a.uuid === folderUuid) ? "inside this folder" : undefined;

  async function doDelete(children: FolderChildren) {
    clear();
    // It leaves the folders list at once, so the list does not show it while it is read again.
    const gone = removeNodes([rootConnection("FoldersPage_folders", { order: "OLDEST_FIRST" })], [folderId]);
    if (await remove.run({ id: folderId, children }, { updater: gone, failed: "Could not delete the folder" })) navigate(paths.folders());
  }

  return (
    <div className="row">
      {open === "rename" ? (
        <form className="row" onSubmit={submitRename}>
          <label>
            New name
            <input type="text" value={draft} maxLength={255} required autoFocus onChange={(e) => setDraft(e.target.value)} />
          </label>
          <Submit action={rename}>Save name</Submit>
          <button type="button" onClick={() => (setOpen(null), setDraft(name), rename.clear())}>
            Cancel
          </button>
        </form>
      ) : folders.ref ? (
        <Opened part={folders} what="the folders">
          {(data) => (
            <FolderChoice query={data} label="Move into" none="Top level" initial={parent} unavailable={inside} autoFocus>
              {(into) => (
                <>
                  <button type="button" className="button-primary" disabled={move.pending} onClick={() => void doMove(into)}>
                    Move
                  </button>
                  <button type="button" onClick={folders.close}>
                    Cancel
                  </button>
                </>
              )}
            </FolderChoice>
          )}
        </Opened>
      ) : (
        <>
          <button type="button" onClick={() => (setDraft(name), setOpen("rename"))}>
            Rename
          </button>
          <button type="button" onClick={folders.open}>
            Move to…
          </button>
        </>
      )}
      {childCount > 0 ? (
        <DeleteWithChildren name={name} childCount={childCount} disabled={remove.pending} onConfirm={(c) => void doDelete(c)} />
      ) : (
        <ConfirmButton
          question={`Delete the folder “${name}”? Its videos and accounts stay tracked.`}
          confirmLabel="Delete"
          onConfirm={() => void doDelete("MOVE_UP")}
          disabled={remove.pending}
        >
          Delete folder
        </ConfirmButton>
      )}
      <Outcome outcome={rename.outcome ?? move.outcome ?? remove.outcome} />
    </div>
  );
}

/** The delete confirmation of a folder with sub-folders: the confirmation asks what happens to them. */
function DeleteWithChildren({
  name,
  childCount,
  disabled,
  onConfirm,
}: {
  name: string;
  childCount: number;
  disabled: boolean;
  onConfirm: (c: FolderChildren) => void;
}) {
  const [children, setChildren] = useState<FolderChildren>("MOVE_UP");
  const question = `Delete the folder “${name}”? It holds ${plural(childCount, "sub-folder")}.`;
  return (
    <ConfirmButton
      question={question}
      confirmLabel="Delete"
      onConfirm={() => onConfirm(children)}
      disabled={disabled}
      body={
        <>
          <p>{question} Its videos and accounts stay tracked.</p>
          <fieldset>
            <legend>Its sub-folders</legend>
            <label>
              <input type="radio" name="children" checked={children === "MOVE_UP"} onChange={() => setChildren("MOVE_UP")} /> Keep them:
              move them up one level
            </label>
            <label>
              <input type="radio" name="children" checked={children === "DELETE"} onChange={() => setChildren("DELETE")} /> Delete them too,
              at every level
            </label>
          </fieldset>
        </>
      }
    >
      Delete folder
    </ConfirmButton>
  );
}
