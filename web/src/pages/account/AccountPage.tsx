/**
 * One tracked account: its numbers, refresh now, untrack (after a confirmation), its follower and
 * view history chart, and its tracked videos. The URL's id is the account's UUID or its global id.
 */
import { Suspense, useEffect, useTransition } from "react";
import { graphql, useLazyLoadQuery, useRefetchableFragment } from "react-relay";
import { Link, useParams } from "react-router";
import type { AccountPageQuery } from "../../__generated__/AccountPageQuery.graphql";
import type { AccountPage_account$key } from "../../__generated__/AccountPage_account.graphql";
import { paths } from "../../app/paths";
import { Loading } from "../../components/Loading";
import { AccountActions } from "./AccountActions";
import { AccountHistoryChart } from "./AccountHistoryChart";
import { AccountSummary } from "./AccountSummary";
import { AccountVideos } from "./AccountVideos";

const query = graphql`
  query AccountPageQuery($id: ID!) {
    account(id: $id) {
      ...AccountPage_account
    }
  }
`;

/** The whole account, refetchable: read again every few seconds while its scrape runs (no account subscription exists). */
const fragment = graphql`
  fragment AccountPage_account on Account @refetchable(queryName: "AccountPageRefetchQuery") {
    id
    uuid
    scrapeStatus
    ...AccountSummary_account
    ...AccountHistoryChart_account
    ...AccountVideos_account
  }
`;

export default function AccountPage() {
  const { id = "" } = useParams();
  const data = useLazyLoadQuery<AccountPageQuery>(query, { id }, { fetchPolicy: "store-and-network" });
  return <Account account={data.account} />;
}

function Account({ account }: { account: AccountPage_account$key }) {
  const [a, refetch] = useRefetchableFragment(fragment, account);
  const [, startTransition] = useTransition();
  const busy = a.scrapeStatus === "QUEUED" || a.scrapeStatus === "SCRAPING";
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(() => startTransition(() => void refetch({}, { fetchPolicy: "network-only" })), 2000);
    return () => clearInterval(timer);
  }, [busy, refetch]);

  return (
    <>
      <p className="breadcrumb">
        <Link to={paths.accounts()}>← Accounts</Link>
      </p>
      <AccountSummary account={a}>
        <AccountActions accountId={a.id} onRefreshed={() => startTransition(() => void refetch({}, { fetchPolicy: "network-only" }))} />
      </AccountSummary>
      <section aria-labelledby="account-history-heading" className="panel">
        <h2 id="account-history-heading">Follower and view history</h2>
        <Suspense fallback={<Loading what="Loading the history" />}>
          <AccountHistoryChart account={a} />
        </Suspense>
      </section>
      <section aria-labelledby="account-videos-heading" className="panel">
        <h2 id="account-videos-heading">Videos</h2>
        <Suspense fallback={<Loading what="Loading the videos" />}>
          <AccountVideos account={a} />
        </Suspense>
      </section>
    </>
  );
}
