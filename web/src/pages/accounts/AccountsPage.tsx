/**
 * Accounts: track a creator account by URL with a video limit (the tracking slots it may take are
 * said before tracking), and the tracked accounts as a table (sort, platform filter, search on the
 * server; cursor pages). The list's options live in the URL (?sort=followers&order=asc&platform=
 * PLATFORM_A&q=bakery), as on the Videos page. An account's own page (pages/account) has its
 * history chart and videos.
 */
import { graphql } from "react-relay";
import { useNavigation, useRevalidator } from "react-router";
import type { AccountsPageQuery } from "../../__generated__/AccountsPageQuery.graphql";
import { PageHeader } from "../../components/PageHeader";
import { TrackedListPanel } from "../../components/SavedViews";
import { useListOptions } from "../../lib/list-options";
import { useRouteQuery } from "../../relay/route-query";
import { TagFilter } from "../tags/TagFilter";
import { ACCOUNT_COLUMNS, AccountsTable } from "./AccountsTable";
import { TrackAccountForm } from "./TrackAccountForm";
import { accountListOptions } from "./list-options";

const query = graphql`
  query AccountsPageQuery($sort: AccountSort!, $order: SortOrder!, $platform: Platform, $q: String, $tagIds: [ID!]) {
    workspace {
      limits {
        ...TrackAccountForm_limits
      }
    }
    ...AccountsTable_query @arguments(sort: $sort, order: $order, platform: $platform, q: $q, tagIds: $tagIds)
    ...SavedViews_query @arguments(list: ACCOUNTS)
  }
`;

export default function AccountsPage() {
  const [options, change] = useListOptions(accountListOptions);
  const data = useRouteQuery<AccountsPageQuery>(query);

  // Tracking an account changes the list and the slots: the route reads them again.
  const { revalidate, state } = useRevalidator();
  const pending = useNavigation().state === "loading" || state === "loading";
  return (
    <>
      <PageHeader title="Accounts" />
      <TrackAccountForm limits={data.workspace.limits} onTracked={() => void revalidate()} />
      <TrackedListPanel
        title="Tracked accounts"
        query={data}
        list="ACCOUNTS"
        codec={accountListOptions}
        options={options}
        onChange={change}
        columns={ACCOUNT_COLUMNS}
        placeholder="Name or username"
        filter={<TagFilter value={options.tagIds} onChange={(tagIds) => change({ tagIds })} />}
      >
        {(shown) => <AccountsTable query={data} columns={shown} options={options} onChange={change} pending={pending} />}
      </TrackedListPanel>
    </>
  );
}
