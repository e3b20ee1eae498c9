/**
 * One tracked account: its numbers, refresh now, untrack (after a confirmation), its follower and
 * view history chart, and its tracked videos. The URL's id is the account's UUID or its global id.
 */
import { Suspense, useEffect, useTransition } from "react";
import { graphql, useRefetchableFragment } from "react-relay";
import { Link } from "react-router";
import type { AccountPageQuery } from "../../__generated__/AccountPageQuery.graphql";
import type { AccountPage_account$key } from "../../__generated__/AccountPage_account.graphql";
import type { AccountPageRefetchQuery } from "../../__generated__/AccountPageRefetchQuery.graphql";
import type { AccountPage_history$data } from "../../__generated__/AccountPage_history.graphql";
import { paths } from "../../app/paths";
import { HistoryChart, type HistorySeries } from "../../components/HistoryChart";
import { Loading } from "../../components/Loading";
import { useRouteQuery } from "../../relay/route-query";
import { AccountActions } from "./AccountActions";
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
    ...AccountPage_history
    ...AccountVideos_account
  }
`;

/** The followers and total views over time, by day or at scrape resolution (hour). */
const historyFragment = graphql`
  fragment AccountPage_history on Account
  @refetchable(queryName: "AccountPageHistoryRefetchQuery")
  @argumentDefinitions(interval: { type: "HistoryInterval", defaultValue: DAY }) {
    lastScrapedAt
    history(interval: $interval, last: 100) {
      pageInfo {
        hasPreviousPage
      }
      edges {
        node {
          capturedAt
          followerCount
          totalViews
        }
      }
    }
  }
`;

type HistoryPoint = NonNullable<AccountPage_history$data["history"]>["edges"][number]["node"];
const HISTORY_SERIES: HistorySeries<HistoryPoint>[] = [
  { label: "Followers", value: (p) => p.followerCount, colorVar: "--chart-1" },
  { label: "Total views", value: (p) => p.totalViews, colorVar: "--chart-2", axis: "right" },
];

export default function AccountPage() {
  const data = useRouteQuery<AccountPageQuery>(query);
  return <Account account={data.account} />;
}

function Account({ account }: { account: AccountPage_account$key }) {
  const [a, refetch] = useRefetchableFragment<AccountPageRefetchQuery, AccountPage_account$key>(fragment, account);
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
          <HistoryChart fragment={historyFragment} fragmentRef={a} series={HISTORY_SERIES} what="Followers and total views" item="account" />
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
