/** The account's tags, and adding or removing one (pages/tags/BulkTag.tsx for this one account). */
import { Suspense } from "react";
import { graphql, useFragment } from "react-relay";
import type { AccountTags_account$key } from "../../__generated__/AccountTags_account.graphql";
import { Loading } from "../../components/Loading";
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

export function AccountTags({ account }: { account: AccountTags_account$key }) {
  const a = useFragment(fragment, account);
  return (
    <section aria-labelledby="account-tags-heading" className="panel">
      <h2 id="account-tags-heading">Tags</h2>
      {a.tags.length === 0 ? <p className="muted">No tags on this account.</p> : <TagChips tags={a.tags} />}
      <Suspense fallback={<Loading what="Loading the tags" />}>
        <BulkTag kind="account" ids={[a.id]} />
      </Suspense>
    </section>
  );
}
