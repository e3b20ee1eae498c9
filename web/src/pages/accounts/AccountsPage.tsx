/**
 * Accounts: track a creator account by URL with a video limit (the tracking slots it may take are
 * said before tracking), and the tracked accounts as a table (sort, platform filter, search, cursor
 * pages). An account's own page (pages/account) has its history chart and videos.
 */
import { Suspense, useCallback, useState } from "react";
import { graphql, useLazyLoadQuery } from "react-relay";
import type { AccountsPageQuery } from "../../__generated__/AccountsPageQuery.graphql";
import { Loading } from "../../components/Loading";
import { PageHeader } from "../../components/PageHeader";
import { AccountsTable } from "./AccountsTable";
import { TrackAccountForm } from "./TrackAccountForm";

const query = graphql`
  query AccountsPageQuery($first: Int!) {
    workspace {
      id
      limits {
        videoLimit
        videoSlotsUsed
        additionsRemaining
      }
    }
    ...AccountsTable_query @arguments(first: $first)
  }
`;

export default function AccountsPage() {
  // Tracking an account changes the list and the slots: the query is read again (a new key).
  const [fetchKey, setFetchKey] = useState(0);
  const reload = useCallback(() => setFetchKey((k) => k + 1), []);
  return (
    <>
      <PageHeader title="Accounts" />
      <Suspense fallback={<Loading what="Loading the accounts" />}>
        <AccountsContent fetchKey={fetchKey} onTracked={reload} />
      </Suspense>
    </>
  );
}

function AccountsContent({ fetchKey, onTracked }: { fetchKey: number; onTracked: () => void }) {
  const data = useLazyLoadQuery<AccountsPageQuery>(query, { first: 50 }, { fetchPolicy: fetchKey ? "network-only" : "store-and-network", fetchKey });
  return (
    <>
      <TrackAccountForm limits={data.workspace.limits} onTracked={onTracked} />
      <section aria-labelledby="accounts-heading" className="panel">
        <h2 id="accounts-heading">Tracked accounts</h2>
        <AccountsTable query={data} />
      </section>
    </>
  );
}
