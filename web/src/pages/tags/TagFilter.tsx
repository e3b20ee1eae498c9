/**
 * A list's tag filter: any one of the workspace's tags (pickers/TagChoice.tsx), or all, written to the URL as
 * `tag` (lib/list-options.ts) and sent as the list's `tagIds`. Its query is the route's too (loaded beside the
 * list's, with the URL's tags as `chosen`: app/routes.tsx), so the filter is ready with the list; the chosen tag comes with it by id,
 * so it is named even when it is not among the tags listed.
 */
import { graphql } from "react-relay";
import type { TagFilterQuery } from "../../__generated__/TagFilterQuery.graphql";
import { TagChoice } from "../../pickers/TagChoice";
import { useRouteQuery } from "../../relay/route-query";

const query = graphql`
  query TagFilterQuery($chosen: [ID!]!) {
    chosen: nodes(ids: $chosen) {
      ... on Tag {
        id
        name
      }
    }
    ...TagChoice_query
  }
`;

export function TagFilter({ value, onChange }: { value: readonly string[] | null; onChange: (tagIds: string[] | null) => void }) {
  const data = useRouteQuery<TagFilterQuery>(query);
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
