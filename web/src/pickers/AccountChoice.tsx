/**
 * Choose one of the workspace's tracked accounts, any of them, found by words of its username or display name.
 * A route spreads `AccountChoice_query`.
 */
import { graphql } from "react-relay";
import { Link } from "react-router";
import type { AccountChoice_query$data, AccountChoice_query$key } from "../__generated__/AccountChoice_query.graphql";
import { paths } from "../lib/paths";
import { SearchedPicker, type PickerProps } from "../components/Picker";
import { accountName } from "../lib/format";

const fragment = graphql`
  fragment AccountChoice_query on Query
  @refetchable(queryName: "AccountChoicePaginationQuery")
  @argumentDefinitions(first: { type: "Int", defaultValue: 50 }, after: { type: "String" }, q: { type: "String" }) {
    accounts(first: $first, after: $after, q: $q) @connection(key: "AccountChoice_accounts") {
      totalCount
      edges {
        node {
          id
          username
          displayName
        }
      }
    }
  }
`;

type Account = AccountChoice_query$data["accounts"]["edges"][number]["node"];

/** What the picker says when the workspace has none: where to make one. */
const NONE_YET = (
  <p className="muted">
    No account is tracked yet: track one on the <Link to={paths.accounts()}>Accounts</Link> page, then come back.
  </p>
);

export function AccountChoice({
  query,
  empty = NONE_YET,
  unavailable,
  ...props
}: PickerProps & { query: AccountChoice_query$key; unavailable?: (account: Account) => string | undefined }) {
  const optionOf = (a: Account) => ({ id: a.id, label: accountName(a), unavailable: unavailable?.(a) });
  return (
    <SearchedPicker
      fragment={fragment}
      list={query}
      connection={(d) => d.accounts}
      what="accounts"
      optionOf={optionOf}
      empty={empty}
      {...props}
    />
  );
}
