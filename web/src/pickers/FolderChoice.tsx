/**
 * Choose one of the workspace's folders, any of them: found by words of its name, listed in creation order (a
 * folder's parent before it, as in a tree) and each named by its whole path ("Clients / Acme / Spring"), so a
 * folder reads the same wherever it sits and whichever page it came on.
 * `FolderChoiceQuery` reads it when a picker opens (relay/on-open.ts); a route spreads `FolderChoice_query`.
 */
import { graphql } from "react-relay";
import { Link } from "react-router";
import type { FolderChoice_query$data, FolderChoice_query$key } from "../__generated__/FolderChoice_query.graphql";
import { paths } from "../lib/paths";
import { SearchedPicker, type PickerOption, type PickerProps } from "../components/Picker";

export const folderChoiceQuery = graphql`
  query FolderChoiceQuery {
    ...FolderChoice_query
  }
`;

const fragment = graphql`
  fragment FolderChoice_query on Query
  @refetchable(queryName: "FolderChoicePaginationQuery")
  @argumentDefinitions(first: { type: "Int", defaultValue: 50 }, after: { type: "String" }, q: { type: "String" }) {
    folders(first: $first, after: $after, q: $q, order: OLDEST_FIRST) @connection(key: "FolderChoice_folders") {
      totalCount
      edges {
        node {
          id
          uuid
          name
          ancestors {
            uuid
            name
          }
        }
      }
    }
  }
`;

export type Folder = FolderChoice_query$data["folders"]["edges"][number]["node"];

/** "Clients / Acme / Spring": the folder under the folders above it. */
export const folderPath = (f: { name: string; ancestors: readonly { name: string }[] }) =>
  [...f.ancestors.map((a) => a.name), f.name].join(" / ");

/** What the picker says when the workspace has none: where to make one. */
const NONE_YET = (
  <p className="muted">
    No folders yet. Create one on the <Link to={paths.folders()}>Folders</Link> page, then come back.
  </p>
);

export function FolderChoice({
  query,
  empty = NONE_YET,
  unavailable,
  ...props
}: PickerProps & { query: FolderChoice_query$key; unavailable?: (folder: Folder) => string | undefined }) {
  const optionOf = (f: Folder): PickerOption => ({ id: f.id, label: folderPath(f), unavailable: unavailable?.(f) });
  return (
    <SearchedPicker
      fragment={fragment}
      list={query}
      connection={(d) => d.folders}
      what="folders"
      optionOf={optionOf}
      empty={empty}
      {...props}
    />
  );
}
