/** Choose one of the workspace's creators, any of them, found by words of their name. A route spreads `CreatorChoice_query`. */
import { graphql } from "react-relay";
import { Link } from "react-router";
import type { CreatorChoice_query$data, CreatorChoice_query$key } from "../__generated__/CreatorChoice_query.graphql";
import { paths } from "../lib/paths";
import { SearchedPicker, type PickerProps } from "../components/Picker";

const fragment = graphql`
  fragment CreatorChoice_query on Query
  @refetchable(queryName: "CreatorChoicePaginationQuery")
  @argumentDefinitions(first: { type: "Int", defaultValue: 50 }, after: { type: "String" }, q: { type: "String" }) {
    creators(first: $first, after: $after, q: $q) @connection(key: "CreatorChoice_creators") {
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

type Creator = CreatorChoice_query$data["creators"]["edges"][number]["node"];

/** What the picker says when the workspace has none: where to make one. */
const NONE_YET = (
  <p className="muted">
    No creator yet: make one on the <Link to={paths.creators()}>Creators</Link> page, then come back.
  </p>
);

export function CreatorChoice({
  query,
  empty = NONE_YET,
  unavailable,
  ...props
}: PickerProps & { query: CreatorChoice_query$key; unavailable?: (creator: Creator) => string | undefined }) {
  const optionOf = (c: Creator) => ({ id: c.id, label: c.name, unavailable: unavailable?.(c) });
  return (
    <SearchedPicker
      fragment={fragment}
      list={query}
      connection={(d) => d.creators}
      what="creators"
      optionOf={optionOf}
      empty={empty}
      {...props}
    />
  );
}
