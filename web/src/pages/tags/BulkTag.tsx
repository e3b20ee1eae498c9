/**
 * Tag or untag the selected videos or accounts with one of the workspace's tags (bulk, 50 at most a
 * request, as the API allows). The tags are read when the control opens; after a change the items'
 * tags are read again (one `nodes` query), so their chips update in place.
 */
import { useState } from "react";
import { fetchQuery, graphql, useLazyLoadQuery, useRelayEnvironment } from "react-relay";
import { Link } from "react-router";
import type { BulkTagQuery } from "../../__generated__/BulkTagQuery.graphql";
import type { BulkTagVideosMutation } from "../../__generated__/BulkTagVideosMutation.graphql";
import type { BulkTagUntagVideosMutation } from "../../__generated__/BulkTagUntagVideosMutation.graphql";
import type { BulkTagAccountsMutation } from "../../__generated__/BulkTagAccountsMutation.graphql";
import type { BulkTagUntagAccountsMutation } from "../../__generated__/BulkTagUntagAccountsMutation.graphql";
import { paths } from "../../lib/paths";
import { Outcome } from "../../components/Outcome";
import { plural } from "../../lib/format";
import { perItem, useAction } from "../../relay/action";

const query = graphql`
  query BulkTagQuery {
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
      id
      success
      error
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
      id
      success
      error
    }
  }
`;
const untagAccounts = graphql`
  mutation BulkTagUntagAccountsMutation($tagId: ID!, $ids: [ID!]!) {
    untagAccounts(tagId: $tagId, accountIds: $ids)
  }
`;

export function BulkTag({ kind, ids }: { kind: "video" | "account"; ids: readonly string[] }) {
  const data = useLazyLoadQuery<BulkTagQuery>(query, {}, { fetchPolicy: "store-and-network" });
  const tags = data.tags.edges.map((e) => e.node);
  const [tagId, setTagId] = useState(tags[0]?.id ?? "");
  const environment = useRelayEnvironment();
  const tagV = useAction<BulkTagVideosMutation>(tagVideos);
  const untagV = useAction<BulkTagUntagVideosMutation>(untagVideos);
  const tagA = useAction<BulkTagAccountsMutation>(tagAccounts);
  const untagA = useAction<BulkTagUntagAccountsMutation>(untagAccounts);
  const actions = [tagV, untagV, tagA, untagA];
  const pending = actions.some((a) => a.pending);
  const outcome = actions.find((a) => a.outcome)?.outcome ?? null;

  if (tags.length === 0) {
    return (
      <p className="notice">
        No tags yet. Create one on the <Link to={paths.folders()}>Folders</Link> page, then come back.
      </p>
    );
  }
  const chosen = tags.find((t) => t.id === tagId) ?? tags[0]!;
  const what = (n: number) => plural(n, kind);
  const reread = () => fetchQuery(environment, refresh, { ids: [...ids] }).toPromise();

  async function apply(add: boolean) {
    for (const a of actions) a.clear();
    const variables = { tagId: chosen.id, ids: [...ids] };
    const failed = add ? "Could not tag" : "Could not remove the tag";
    const r =
      kind === "video"
        ? add
          ? await tagV.run(variables, { failed, done: (d) => perItem(d.tagVideos, (n) => `Tagged ${what(n)} “${chosen.name}”.`) })
          : await untagV.run(variables, { failed, done: (d) => `Removed “${chosen.name}” from ${what(d.untagVideos)}.` })
        : add
          ? await tagA.run(variables, { failed, done: (d) => perItem(d.tagAccounts, (n) => `Tagged ${what(n)} “${chosen.name}”.`) })
          : await untagA.run(variables, { failed, done: (d) => `Removed “${chosen.name}” from ${what(d.untagAccounts)}.` });
    if (r) await reread();
  }

  return (
    <div className="row">
      <label>
        Tag
        <select value={chosen.id} onChange={(e) => setTagId(e.target.value)}>
          {tags.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="button-primary" disabled={pending || ids.length === 0} onClick={() => void apply(true)}>
        Add tag
      </button>
      <button type="button" disabled={pending || ids.length === 0} onClick={() => void apply(false)}>
        Remove tag
      </button>
      <Outcome outcome={outcome} />
    </div>
  );
}
