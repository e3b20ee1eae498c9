/**
 * Accounts: track a creator account by URL with a video limit (the tracking slots it may take are
 * said before tracking), and the tracked accounts as a table (sort, platform filter, search on the
 * server; cursor pages). The list's options live in the URL (?sort=followers&order=asc&platform=
 * PLATFORM_A&q=bakery), as on the Videos page. An account's own page (pages/account) has its
 * history chart and videos.
 */
import { Suspense, useCallback, useState, useTransition } from "react";
import { graphql, useLazyLoadQuery } from "react-relay";
import { useSearchParams } from "react-router";
import type { AccountsPageQuery } from "../../__generated__/AccountsPageQuery.graphql";
import { ListFilters } from "../../components/ListFilters";
import { Loading } from "../../components/Loading";
import { PageHeader } from "../../components/PageHeader";
import { AccountsTable } from "./AccountsTable";
import { TrackAccountForm } from "./TrackAccountForm";
import { accountListOptions, PAGE_SIZE, type AccountListOptions } from "./list-options";

const query = graphql`
  query AccountsPageQuery($first: Int!, $sort: AccountSort!, $order: SortOrder!, $platform: Platform, $q: String) {
    workspace {
      id
      limits {
        videoLimit
        videoSlotsUsed
        additionsRemaining
      }
    }
    ...AccountsTable_query @arguments(first: $first, sort: $sort, order: $order, platform: $platform, q: $q)
  }
`;

const codec = accountListOptions;

export default function AccountsPage() {
  const [params, setParams] = useSearchParams();
  const [pending, startTransition] = useTransition();
  const options = codec.read(params);
  const change = (next: Partial<AccountListOptions>) => startTransition(() => setParams(codec.write({ ...options, ...next }), { replace: true }));
  // Tracking an account changes the list and the slots: the query is read again (a new key).
  const [fetchKey, setFetchKey] = useState(0);
  const reload = useCallback(() => startTransition(() => setFetchKey((k) => k + 1)), []);
  return (
    <>
      <PageHeader title="Accounts" />
      <Suspense fallback={<Loading what="Loading the accounts" />}>
        <AccountsContent options={options} onChange={change} pending={pending} fetchKey={fetchKey} onTracked={reload} />
      </Suspense>
    </>
  );
}

interface Props {
  options: AccountListOptions;
  onChange: (o: Partial<AccountListOptions>) => void;
  pending: boolean;
  fetchKey: number;
  onTracked: () => void;
}

function AccountsContent({ options, onChange, pending, fetchKey, onTracked }: Props) {
  const data = useLazyLoadQuery<AccountsPageQuery>(query, { ...options, first: PAGE_SIZE }, { fetchPolicy: fetchKey ? "network-only" : "store-and-network", fetchKey });
  return (
    <>
      <TrackAccountForm limits={data.workspace.limits} onTracked={onTracked} />
      <section aria-labelledby="accounts-heading" className="panel">
        <h2 id="accounts-heading">Tracked accounts</h2>
        <ListFilters options={options} onChange={onChange} placeholder="Name or username" />
        <AccountsTable query={data} options={options} onChange={onChange} pending={pending} />
      </section>
    </>
  );
}
