/** Choose one of the workspace's tags, any of them, found by words of its name. A query or a fragment spreads `TagChoice_query`. */
import { graphql } from "react-relay";
import { Link } from "react-router";
import type { TagChoice_query$data, TagChoice_query$key } from "../__generated__/TagChoice_query.graphql";
import { paths } from "../lib/paths";
import { SearchedPicker, type PickerProps } from "../components/Picker";

const fragment = graphql`
  fragment TagChoice_query on Query
  @refetchable(queryName: "TagChoicePaginationQuery")
  @argumentDefinitions(first: { type: "Int", defaultValue: 50 }, after: { type: "String" }, q: { type: "String" }) {
    tags(first: $first, after: $after, q: $q) @connection(key: "TagChoice_tags") {
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

type Tag = TagChoice_query$data["tags"]["edges"][number]["node"];

/** What the picker says when the workspace has none: where to make one. */
const NONE_YET = (
  <p className="muted">
    No tags yet. Create one on the <Link to={paths.folders()}>Folders</Link> page, then come back.
  </p>
);

export function TagChoice({ query, empty = NONE_YET, ...props }: PickerProps & { query: TagChoice_query$key }) {
  const optionOf = (t: Tag) => ({ id: t.id, label: t.name });
  return (
    <SearchedPicker fragment={fragment} list={query} connection={(d) => d.tags} what="tags" optionOf={optionOf} empty={empty} {...props} />
  );
}
