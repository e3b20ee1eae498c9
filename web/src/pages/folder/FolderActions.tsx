/**
 * Rename the folder (a small form opened by a button), move it into another folder or to the top level
 * ("Move to": the keyboard's way to do what dragging does on the Folders page), and delete it after a
 * confirmation that, when it has sub-folders, asks what happens to them (moved up, the default, or
 * deleted with it).
 */
import { Suspense, useRef, useState, type FormEvent } from "react";
import { graphql, useLazyLoadQuery } from "react-relay";
import { useNavigate } from "react-router";
import type { FolderActionsRenameMutation } from "../../__generated__/FolderActionsRenameMutation.graphql";
import type { FolderActionsDeleteMutation, FolderChildren } from "../../__generated__/FolderActionsDeleteMutation.graphql";
import type { FolderActionsMoveMutation } from "../../__generated__/FolderActionsMoveMutation.graphql";
import type { FolderActionsFoldersQuery } from "../../__generated__/FolderActionsFoldersQuery.graphql";
import { paths } from "../../lib/paths";
import { ConfirmButton } from "../../components/ConfirmButton";
import { Loading } from "../../components/Loading";
import { Outcome } from "../../components/Outcome";
import { plural } from "../../lib/format";
import { useAction } from "../../relay/action";
import { removeNodes, rootConnection } from "../../relay/connections";
import { folderTree } from "../folders/tree";

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

const moveMutation = graphql`
  mutation FolderActionsMoveMutation($id: ID!, $parentId: ID) {
    moveFolder(id: $id, parentId: $parentId) {
      id
      parentUuid
    }
  }
`;

const foldersQuery = graphql`
  query FolderActionsFoldersQuery {
    folders(first: 100, order: OLDEST_FIRST) {
      edges {
        node {
          id
          uuid
          name
          parentUuid
        }
      }
    }
  }
`;

interface Props {
  folderId: string;
  folderUuid: string;
  parentUuid: string | null;
  name: string;
  childCount: number;
  onMoved: () => void;
}

export function FolderActions({ folderId, folderUuid, parentUuid, name, childCount, onMoved }: Props) {
  const [open, setOpen] = useState<"rename" | "move" | null>(null);
  const [draft, setDraft] = useState(name);
  const rename = useAction<FolderActionsRenameMutation>(renameMutation);
  const remove = useAction<FolderActionsDeleteMutation>(deleteMutation);
  const move = useAction<FolderActionsMoveMutation>(moveMutation);
  const navigate = useNavigate();
  const clear = () => [rename, remove, move].forEach((a) => a.clear());

  async function submitRename(event: FormEvent) {
    event.preventDefault();
    clear();
    if (await rename.run({ id: folderId, name: draft }, { failed: "Could not rename the folder" })) setOpen(null);
  }

  async function doMove(parent: { id: string; name: string } | null) {
    clear();
    const done = () => (parent ? `Moved into “${parent.name}”.` : "Moved to the top level.");
    if (await move.run({ id: folderId, parentId: parent?.id ?? null }, { failed: "Could not move the folder", done })) {
      setOpen(null);
      onMoved();
    }
  }

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
          <button type="submit" className="button-primary" disabled={rename.pending}>
            Save name
          </button>
          <button type="button" onClick={() => (setOpen(null), setDraft(name), rename.clear())}>
            Cancel
          </button>
        </form>
      ) : open === "move" ? (
        <Suspense fallback={<Loading what="Reading the folders" />}>
          <MoveTo
            folderUuid={folderUuid}
            parentUuid={parentUuid}
            busy={move.pending}
            onPick={(p) => void doMove(p)}
            onCancel={() => setOpen(null)}
          />
        </Suspense>
      ) : (
        <>
          <button type="button" onClick={() => (setDraft(name), setOpen("rename"))}>
            Rename
          </button>
          <button type="button" onClick={() => setOpen("move")}>
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

/** Choose the new parent: any folder but this one and its own sub-folders, or the top level. */
function MoveTo({
  folderUuid,
  parentUuid,
  busy,
  onPick,
  onCancel,
}: {
  folderUuid: string;
  parentUuid: string | null;
  busy: boolean;
  onPick: (p: { id: string; name: string } | null) => void;
  onCancel: () => void;
}) {
  const data = useLazyLoadQuery<FolderActionsFoldersQuery>(foldersQuery, {}, { fetchPolicy: "store-and-network" });
  const rows = folderTree(data.folders.edges.map((e) => e.node));
  // This folder's sub-tree: the rows after it that are deeper than it.
  const at = rows.findIndex((r) => r.node.uuid === folderUuid);
  const end = at < 0 ? at : rows.findIndex((r, i) => i > at && r.depth <= rows[at]!.depth);
  const inside = new Set(at < 0 ? [] : rows.slice(at, end < 0 ? undefined : end).map((r) => r.node.uuid));
  const targets = rows.filter((r) => !inside.has(r.node.uuid));
  const [choice, setChoice] = useState(targets.find((r) => r.node.uuid === parentUuid)?.node.id ?? "");
  const chosen = targets.find((r) => r.node.id === choice)?.node ?? null;
  return (
    <form className="row" onSubmit={(e) => (e.preventDefault(), onPick(chosen && { id: chosen.id, name: chosen.name }))}>
      <label>
        Move into
        <select value={choice} autoFocus onChange={(e) => setChoice(e.target.value)}>
          <option value="">Top level</option>
          {targets.map((r) => (
            <option key={r.node.id} value={r.node.id}>
              {r.path}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="button-primary" disabled={busy}>
        Move
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}

/** The delete confirmation of a folder with sub-folders: a modal dialog that asks what happens to them. */
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
  const dialog = useRef<HTMLDialogElement>(null);
  const [children, setChildren] = useState<FolderChildren>("MOVE_UP");
  const question = `Delete the folder “${name}”? It holds ${plural(childCount, "sub-folder")}.`;
  return (
    <>
      <button type="button" disabled={disabled} onClick={() => dialog.current?.showModal()}>
        Delete folder
      </button>
      <dialog ref={dialog} className="dialog" aria-label={question}>
        <p>{question} Its videos and accounts stay tracked.</p>
        <fieldset>
          <legend>Its sub-folders</legend>
          <label>
            <input type="radio" name="children" checked={children === "MOVE_UP"} onChange={() => setChildren("MOVE_UP")} /> Keep them: move
            them up one level
          </label>
          <label>
            <input type="radio" name="children" checked={children === "DELETE"} onChange={() => setChildren("DELETE")} /> Delete them too,
            at every level
          </label>
        </fieldset>
        <div className="row">
          <button type="button" className="button-primary" onClick={() => (dialog.current?.close(), onConfirm(children))}>
            Delete
          </button>
          <button type="button" autoFocus onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </dialog>
    </>
  );
}
