/**
 * The account's tags, and adding or removing any of the workspace's tags (pages/tags/BulkTag.tsx for this one
 * account; its tags to choose from are a query of the account's route, app/routes.tsx).
 */
import { graphql, useFragment } from "react-relay";
import type { AccountTags_account$key } from "../../__generated__/AccountTags_account.graphql";
import type { BulkTagQuery } from "../../__generated__/BulkTagQuery.graphql";
import { useRouteQuery } from "../../relay/route-query";
import { BulkTag, bulkTagQuery } from "../tags/BulkTag";
import { TagChips } from "../tags/TagChips";
import { Panel } from "../../components/Panel";

const fragment = graphql`
  fragment AccountTags_account on Account {
    id
    tags {
      id
      name
      color
    }
  }
`;

export function AccountTags({ account }: { account: AccountTags_account$key }) {
  const a = useFragment(fragment, account);
  const choices = useRouteQuery<BulkTagQuery>(bulkTagQuery);
  return (
    <Panel title="Tags">
      {a.tags.length === 0 ? <p className="muted">No tags on this account.</p> : <TagChips tags={a.tags} />}
      <BulkTag tags={choices} kind="account" ids={[a.id]} />
    </Panel>
  );
}
