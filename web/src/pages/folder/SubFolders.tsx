/** A folder's sub-folders (by name, with their counts) and a form that creates one inside it. */
import { useState, type FormEvent } from "react";
import { graphql, useFragment } from "react-relay";
import { Link } from "react-router";
import type { SubFolders_folder$data, SubFolders_folder$key } from "../../__generated__/SubFolders_folder.graphql";
import type { SubFoldersCreateMutation } from "../../__generated__/SubFoldersCreateMutation.graphql";
import { paths } from "../../lib/paths";
import { DataTable, type Column } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { Outcome } from "../../components/Outcome";
import { formatWhole } from "../../lib/format";
import { useAction } from "../../relay/action";
import { Submit } from "../../components/Submit";
import { Panel } from "../../components/Panel";

const fragment = graphql`
  fragment SubFolders_folder on Folder {
    id
    name
    ancestors {
      id
    }
    children(first: 100) {
      totalCount
      edges {
        node {
          id
          uuid
          name
          videoCount
          accountCount
          childCount
        }
      }
    }
  }
`;

/** Creates a folder, inside another or (no parentId) at the top level: the Folders page's form sends it too. */
export const createFolderMutation = graphql`
  mutation SubFoldersCreateMutation($name: String!, $parentId: ID) {
    createFolder(name: $name, parentId: $parentId) {
      id
      name
    }
  }
`;

type Row = SubFolders_folder$data["children"]["edges"][number]["node"];

const COLUMNS: Column<Row>[] = [
  { id: "name", header: "Name", className: "cell-wrap", cell: (f) => <Link to={paths.folder(f.uuid)}>{f.name}</Link> },
  { id: "videos", header: "Videos", cell: (f) => formatWhole(f.videoCount) },
  { id: "accounts", header: "Accounts", cell: (f) => formatWhole(f.accountCount) },
  { id: "children", header: "Sub-folders", cell: (f) => formatWhole(f.childCount) },
];

/** Folders nest at most this deep (the server's rule, src/domain/folders/tree.ts): the form hides below it. */
const MAX_DEPTH = 5;

export function SubFolders({ folder, onChanged }: { folder: SubFolders_folder$key; onChanged: () => void }) {
  const f = useFragment(fragment, folder);
  const [name, setName] = useState("");
  const create = useAction<SubFoldersCreateMutation>(createFolderMutation);
  const rows = f.children.edges.map((e) => e.node);
  const canNest = f.ancestors.length + 1 < MAX_DEPTH;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const r = await create.run(
      { name, parentId: f.id },
      { failed: "Could not create the sub-folder", done: (d) => `Created the sub-folder “${d.createFolder.name}”.` },
    );
    if (r) {
      setName("");
      onChanged();
    }
  }

  return (
    <Panel title="Sub-folders">
      <DataTable
        label={`Sub-folders of ${f.name}, ${formatWhole(f.children.totalCount)} in all, by name`}
        columns={COLUMNS}
        rows={rows}
        empty={
          <EmptyState title="No sub-folders.">
            {canNest ? "Name one below to organise this folder further." : "Folders nest at most 5 levels deep."}
          </EmptyState>
        }
      />
      {canNest && (
        <form className="row" onSubmit={submit}>
          <label>
            Sub-folder name
            <input type="text" value={name} maxLength={255} required onChange={(e) => setName(e.target.value)} />
          </label>
          <Submit action={create}>Create sub-folder</Submit>
        </form>
      )}
      <Outcome outcome={create.outcome} />
    </Panel>
  );
}
