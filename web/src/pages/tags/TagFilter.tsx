/**
 * A list's tag filter: one of the workspace's tags (or all), written to the URL as `tag` (lib/
 * list-options.ts) and sent as the list's `tagIds`. The tags come with the page's query (this
 * fragment), so the filter is ready with the list.
 */
import { graphql, useFragment } from "react-relay";
import type { TagFilter_query$key } from "../../__generated__/TagFilter_query.graphql";

const fragment = graphql`
  fragment TagFilter_query on Query {
    tags(first: 100) {
      edges {
        node {
          id
          name
        }
      }
    }
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
  const tags = useFragment(fragment, query).tags.edges.map((e) => e.node);
  if (tags.length === 0) return null;
  return (
    <label>
      Tag
      <select value={value?.[0] ?? ""} onChange={(e) => onChange(e.target.value ? [e.target.value] : null)}>
        <option value="">All tags</option>
        {tags.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </select>
    </label>
  );
}
