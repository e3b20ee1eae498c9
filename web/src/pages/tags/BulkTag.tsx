/**
 * Tag or untag the selected videos or accounts with any of the workspace's tags (pickers/TagChoice.tsx; bulk,
 * 50 at most a request, as the API allows). The tags come from the route's query or from a query started
 * when the control opens (`tagChoiceQuery`); after a change the items' tags are read again (one `nodes`
 * query), so their chips update in place.
 */
import { fetchQuery, graphql, useFragment, useRelayEnvironment } from "react-relay";
import type { BulkTag_tags$key } from "../../__generated__/BulkTag_tags.graphql";
import type { BulkTagVideosMutation } from "../../__generated__/BulkTagVideosMutation.graphql";
import type { BulkTagUntagVideosMutation } from "../../__generated__/BulkTagUntagVideosMutation.graphql";
import type { BulkTagAccountsMutation } from "../../__generated__/BulkTagAccountsMutation.graphql";
import type { BulkTagUntagAccountsMutation } from "../../__generated__/BulkTagUntagAccountsMutation.graphql";
import { Outcome } from "../../components/Outcome";
import type { PickerOption } from "../../components/Picker";
import { plural } from "../../lib/format";
import { perItem, useAction } from "../../relay/action";
import { TagChoice } from "../../pickers/TagChoice";

/** The tags to choose from: spread by the route's query, or read when the control opens (`bulkTagQuery`). */
const tagsFragment = graphql`
  fragment BulkTag_tags on Query {
    ...TagChoice_query
  }
`;

export const bulkTagQuery = graphql`
  query BulkTagQuery {
    ...BulkTag_tags
  }
`;

const refresh = graphql`
  query BulkTagRefreshQuery($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on Video {
        id
        tags {
          id
          name
          color
        }
      }
      ... on Account {
        id
        tags {
          id
          name
          color
        }
      }
    }
  }
`;

const tagVideos = graphql`
  mutation BulkTagVideosMutation($tagId: ID!, $ids: [ID!]!) {
    tagVideos(tagId: $tagId, videoIds: $ids) {
      ...action_bulkItem @relay(mask: false)
    }
  }
`;
const untagVideos = graphql`
  mutation BulkTagUntagVideosMutation($tagId: ID!, $ids: [ID!]!) {
    untagVideos(tagId: $tagId, videoIds: $ids)
  }
`;
const tagAccounts = graphql`
  mutation BulkTagAccountsMutation($tagId: ID!, $ids: [ID!]!) {
    tagAccounts(tagId: $tagId, accountIds: $ids) {
      ...action_bulkItem @relay(mask: false)
    }
  }
`;
const untagAccounts = graphql`
  mutation BulkTagUntagAccountsMutation($tagId: ID!, $ids: [ID!]!) {
    untagAccounts(tagId: $tagId, accountIds: $ids)
  }
`;

export function BulkTag({ tags, kind, ids }: { tags: BulkTag_tags$key; kind: "video" | "account"; ids: readonly string[] }) {
  const choices = useFragment(tagsFragment, tags);
  const environment = useRelayEnvironment();
  const tagV = useAction<BulkTagVideosMutation>(tagVideos);
  const untagV = useAction<BulkTagUntagVideosMutation>(untagVideos);
  const tagA = useAction<BulkTagAccountsMutation>(tagAccounts);
  const untagA = useAction<BulkTagUntagAccountsMutation>(untagAccounts);
  const actions = [tagV, untagV, tagA, untagA];
  const pending = actions.some((a) => a.pending);
  const outcome = actions.find((a) => a.outcome)?.outcome ?? null;
  const what = (n: number) => plural(n, kind);
  const reread = () => fetchQuery(environment, refresh, { ids: [...ids] }).toPromise();

  async function apply(tag: PickerOption, add: boolean) {
    for (const a of actions) a.clear();
    const variables = { tagId: tag.id, ids: [...ids] };
    const failed = add ? "Could not tag" : "Could not remove the tag";
    const tagged = (n: number) => `Tagged ${what(n)} “${tag.label}”.`;
    const r =
      kind === "video"
        ? add
          ? await tagV.run(variables, { failed, done: (d) => perItem(d.tagVideos, tagged, failed) })
          : await untagV.run(variables, { failed, done: (d) => `Removed “${tag.label}” from ${what(d.untagVideos)}.` })
        : add
          ? await tagA.run(variables, { failed, done: (d) => perItem(d.tagAccounts, tagged, failed) })
          : await untagA.run(variables, { failed, done: (d) => `Removed “${tag.label}” from ${what(d.untagAccounts)}.` });
    if (r) await reread();
  }

  return (
    <div className="row">
      <TagChoice query={choices} label="Tag">
        {(tag) => (
          <>
            <button
              type="button"
              className="button-primary"
              disabled={!tag || pending || ids.length === 0}
              onClick={() => tag && void apply(tag, true)}
            >
              Add tag
            </button>
            <button type="button" disabled={!tag || pending || ids.length === 0} onClick={() => tag && void apply(tag, false)}>
              Remove tag
            </button>
          </>
        )}
      </TagChoice>
      <Outcome outcome={outcome} />
    </div>
  );
}
