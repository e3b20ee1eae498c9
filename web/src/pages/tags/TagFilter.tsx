/**
 * A list's tag filter: any one of the workspace's tags (pickers/TagChoice.tsx), or all, written to the URL as
 * `tag` (lib/list-options.ts) and sent as the list's `tagIds`. The tags come with the page's query (this
 * fragment), so the filter is ready with the list; the chosen tag comes with it by id (`chosen`, the route's
 * `chosenTags`), so it is named even when it is not among the tags listed.
 */
import { graphql, useFragment } from "react-relay";
import type { TagFilter_query$key } from "../../__generated__/TagFilter_query.graphql";
import { TagChoice } from "../../pickers/TagChoice";

const fragment = graphql`
  fragment TagFilter_query on Query @argumentDefinitions(chosen: { type: "[ID!]!" }) {
    chosen: nodes(ids: $chosen) {
      ... on Tag {
        id
        name
      }
    }
    ...TagChoice_query
  }
`;

export function TagFilter({
  query,
  value,
  onChange,
}: {
  query: TagFilter_query$key;
  value: readonly string[] | null;
  onChange: (tagIds: string[] | null) => void;
}) {
  const data = useFragment(fragment, query);
  const tag = data.chosen.find((t) => t?.id && t.id === value?.[0]);
  return (
    <TagChoice
      query={data}
      label="Tag"
      none="All tags"
      empty={null}
      value={tag?.id ? { id: tag.id, label: tag.name ?? "" } : null}
      onChange={(t) => onChange(t ? [t.id] : null)}
    />
  );
}
