/**
 * One tracked account: its numbers, refresh now, untrack (after a confirmation), its tracking
 * (pause, resume, retry a failed sync, its rules and what they skipped), its follower and view
 * history chart, and its tracked videos. The URL's id is the account's UUID or its global id.
 */
import { Suspense, useEffect, useMemo, useRef, useTransition } from "react";
import { graphql, useRefetchableFragment, useSubscription } from "react-relay";
import type { GraphQLSubscriptionConfig } from "relay-runtime";
import { Link } from "react-router";
import type { AccountPageQuery } from "../../__generated__/AccountPageQuery.graphql";
import type { AccountPage_account$key } from "../../__generated__/AccountPage_account.graphql";
import type { AccountPageRefetchQuery } from "../../__generated__/AccountPageRefetchQuery.graphql";
import type { AccountPageUpdatesSubscription } from "../../__generated__/AccountPageUpdatesSubscription.graphql";
import { paths } from "../../lib/paths";
import { HistoryChart } from "../../components/HistoryChart";
import { Loading } from "../../components/Loading";
import { useRouteQuery } from "../../relay/route-query";
import { AccountActions } from "./AccountActions";
import { AccountSummary } from "./AccountSummary";
import { AccountTracking } from "./AccountTracking";
import { AccountTags } from "./AccountTags";
import { AccountVideos } from "./AccountVideos";
import { ExportButton } from "../../components/ExportButton";
import { Panel } from "../../components/Panel";

const query = graphql`
  query AccountPageQuery($id: ID!) {
    account(id: $id) {
      ...AccountPage_account
    }
  }
`;

/** The whole account, refetchable: read again when a scrape has landed (its videos may have changed). */
const fragment = graphql`
  fragment AccountPage_account on Account @refetchable(queryName: "AccountPageRefetchQuery") {
    id
    lastScrapedAt
    ...AccountSummary_account
    ...HistoryChart_subject
    ...AccountTracking_account
    ...AccountTags_account
    ...AccountVideos_account
  }
`;

/**
 * The account live: `accountUpdated` sends it now and after each change a scrape makes (Relay merges
 * it by id: the summary and its badges change in place; a new lastScrapedAt reads the chart again).
 */
const updates = graphql`
  subscription AccountPageUpdatesSubscription($accountId: ID!) {
    accountUpdated(accountId: $accountId) {
      id
      scrapeStatus
      lastScrapedAt
      ...AccountSummary_account
    }
  }
`;

export default function AccountPage() {
  const data = useRouteQuery<AccountPageQuery>(query);
  return <Account account={data.account} />;
}

function Account({ account }: { account: AccountPage_account$key }) {
  const [a, refetch] = useRefetchableFragment<AccountPageRefetchQuery, AccountPage_account$key>(fragment, account);
  const [, startTransition] = useTransition();
  useLiveAccount(a.id);
  // A scrape that lands (a new lastScrapedAt, merged from the subscription) may have tracked new
  // videos: the account is read again, the page staying on screen meanwhile.
  const seen = useRef(a.lastScrapedAt);
  useEffect(() => {
    if (a.lastScrapedAt === seen.current) return;
    seen.current = a.lastScrapedAt;
    startTransition(() => void refetch({}, { fetchPolicy: "network-only" }));
  }, [a.lastScrapedAt, refetch]);

  return (
    <>
      <p className="breadcrumb">
        <Link to={paths.accounts()}>← Accounts</Link>
      </p>
      <AccountSummary account={a}>
        <AccountActions accountId={a.id} />
      </AccountSummary>
      <AccountTags account={a} />
      <AccountTracking account={a} />
      <Panel title="Follower and view history">
        <ExportButton kind="ACCOUNT_HISTORY" what="the daily history (30 days)" filter={{ accountId: a.id }} />
        <Suspense fallback={<Loading what="Loading the history" />}>
          <HistoryChart subject={a} />
        </Suspense>
      </Panel>
      <Panel title="Videos">
        <Suspense fallback={<Loading what="Loading the videos" />}>
          <AccountVideos account={a} />
        </Suspense>
      </Panel>
    </>
  );
}

/** Follows the account while its page is open. */
function useLiveAccount(accountId: string) {
  const config = useMemo<GraphQLSubscriptionConfig<AccountPageUpdatesSubscription>>(
    () => ({ subscription: updates, variables: { accountId } }),
    [accountId],
  );
  useSubscription(config);
}
