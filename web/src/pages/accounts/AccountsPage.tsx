/**
 * Accounts: track a creator account by URL with a video limit (the tracking slots it may take are
 * said before tracking), and the tracked accounts as a table (sort, platform filter, search on the
 * server; cursor pages). The list's options live in the URL (?sort=followers&order=asc&platform=
 * PLATFORM_A&q=bakery), as on the Videos page. An account's own page (pages/account) has its
 * history chart and videos.
 */
import { graphql } from "react-relay";
import { useNavigation, useRevalidator, useSearchParams } from "react-router";
import type { AccountsPageQuery, AccountSort } from "../../__generated__/AccountsPageQuery.graphql";
import { ColumnChooser } from "../../components/ColumnChooser";
import { ListFilters } from "../../components/ListFilters";
import { PageHeader } from "../../components/PageHeader";
import { SavedViews, type SavedViewData } from "../../components/SavedViews";
import { rememberColumns, useColumns } from "../../lib/columns";
import { useListOptions } from "../../lib/list-options";
import { useRouteQuery } from "../../relay/route-query";
import { TagFilter } from "../tags/TagFilter";
import { ACCOUNT_COLUMNS, AccountsTable } from "./AccountsTable";
import { TrackAccountForm } from "./TrackAccountForm";
import { accountListOptions } from "./list-options";
import { ExportButton } from "../../components/ExportButton";

const query = graphql`
  query AccountsPageQuery($sort: AccountSort!, $order: SortOrder!, $platform: Platform, $q: String, $tagIds: [ID!]) {
    workspace {
      limits {
        ...TrackAccountForm_limits
      }
    }
    ...AccountsTable_query @arguments(sort: $sort, order: $order, platform: $platform, q: $q, tagIds: $tagIds)
    ...SavedViews_query @arguments(list: ACCOUNTS)
    ...TagFilter_query
  }
`;

export default function AccountsPage() {
  const [options, change] = useListOptions(accountListOptions);
  const [columns, setColumns] = useColumns("accounts", ACCOUNT_COLUMNS);
  const [, setParams] = useSearchParams();
  const data = useRouteQuery<AccountsPageQuery>(query);

  function apply(view: SavedViewData) {
    const params = accountListOptions.write({
      sort: view.sort.toUpperCase() as AccountSort,
      order: view.order,
      platform: view.platform ?? null,
      q: view.q ?? null,
      tagIds: view.tags.length > 0 ? [...view.tags] : null,
    });
    params.set("columns", view.columns.join(","));
    rememberColumns("accounts", view.columns);
    setParams(params, { replace: true });
  }
  // Tracking an account changes the list and the slots: the route reads them again.
  const { revalidate, state } = useRevalidator();
  const pending = useNavigation().state === "loading" || state === "loading";
  return (
    <>
      <PageHeader title="Accounts" />
      <TrackAccountForm limits={data.workspace.limits} onTracked={() => void revalidate()} />
      <section aria-labelledby="accounts-heading" className="panel">
        <h2 id="accounts-heading">Tracked accounts</h2>
        <SavedViews
          query={data}
          list="ACCOUNTS"
          current={{
            platform: options.platform,
            q: options.q,
            sort: options.sort.toLowerCase(),
            order: options.order,
            columns: [...columns],
            tags: [...(options.tagIds ?? [])],
          }}
          onApply={apply}
        />
        <div className="row list-tools">
          <ListFilters options={options} onChange={change} placeholder="Name or username">
            <TagFilter query={data} value={options.tagIds} onChange={(tagIds) => change({ tagIds })} />
          </ListFilters>
          <ColumnChooser columns={ACCOUNT_COLUMNS} shown={columns} onChange={setColumns} />
          <ExportButton
            kind="ACCOUNTS"
            what="accounts"
            filter={{ platform: options.platform, q: options.q, sort: options.sort, order: options.order, tagIds: options.tagIds }}
          />
        </div>
        <AccountsTable query={data} columns={columns} options={options} onChange={change} pending={pending} />
      </section>
    </>
  );
}
