/** The account's tags, and adding or removing any of the workspace's tags (pages/tags/BulkTag.tsx for this one account). */
import { graphql, useFragment } from "react-relay";
import type { AccountTags_account$key } from "../../__generated__/AccountTags_account.graphql";
import type { AccountTags_tags$key } from "../../__generated__/AccountTags_tags.graphql";
import { BulkTag } from "../tags/BulkTag";
import { TagChips } from "../tags/TagChips";

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

/** The workspace's tags to choose from, read with the page (the route's query spreads it). */
const tagsFragment = graphql`
  fragment AccountTags_tags on Query {
    ...BulkTag_tags
  }
`;

export function AccountTags({ account, tags }: { account: AccountTags_account$key; tags: AccountTags_tags$key }) {
  const a = useFragment(fragment, account);
  const choices = useFragment(tagsFragment, tags);
  return (
    <section aria-labelledby="account-tags-heading" className="panel">
      <h2 id="account-tags-heading">Tags</h2>
      {a.tags.length === 0 ? <p className="muted">No tags on this account.</p> : <TagChips tags={a.tags} />}
      <BulkTag tags={choices} kind="account" ids={[a.id]} />
    </section>
  );
}
