/**
 * Choose one of the workspace's folders (the newest 100, with a notice when there are more), for
 * adding the selected videos to it. Read when opened.
 */
import { useState } from "react";
import { graphql, useLazyLoadQuery } from "react-relay";
import { Link } from "react-router";
import type { FolderPickerQuery } from "../../__generated__/FolderPickerQuery.graphql";
import { paths } from "../../lib/paths";
import { FirstOf } from "../../components/FirstOf";

const query = graphql`
  query FolderPickerQuery {
    folders(first: 100) {
      totalCount
      edges {
        node {
          id
          name
        }
      }
    }
  }
`;

export function FolderPicker({ onPick, busy }: { onPick: (folder: { id: string; name: string }) => void; busy: boolean }) {
  const data = useLazyLoadQuery<FolderPickerQuery>(query, {}, { fetchPolicy: "store-and-network" });
  const folders = data.folders.edges.map((e) => e.node);
  const [folderId, setFolderId] = useState(folders[0]?.id ?? "");

  if (folders.length === 0) {
    return (
      <p className="notice">
        No folders yet. Create one on the <Link to={paths.folders()}>Folders</Link> page, then come back.
      </p>
    );
  }
  const chosen = folders.find((f) => f.id === folderId) ?? folders[0]!;
  return (
    <form className="row" onSubmit={(e) => (e.preventDefault(), onPick(chosen))}>
      <label>
        Folder
        <select value={chosen.id} onChange={(e) => setFolderId(e.target.value)}>
          {folders.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="button-primary" disabled={busy}>
        Add
      </button>
      <FirstOf
        shown={folders.length}
        total={data.folders.totalCount}
        what="folders, newest first"
        rest="To add to an older one, open it from the Folders page."
      />
    </form>
  );
}
