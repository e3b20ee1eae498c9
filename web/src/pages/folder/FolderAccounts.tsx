/** The folder's accounts, most recently added first, each removable (it stays tracked). */
import { graphql } from "react-relay";
import { Link } from "react-router";
import type { FolderAccounts_folder$data, FolderAccounts_folder$key } from "../../__generated__/FolderAccounts_folder.graphql";
import type { FolderAccountsPaginationQuery } from "../../__generated__/FolderAccountsPaginationQuery.graphql";
import type { FolderAccountsRemoveMutation } from "../../__generated__/FolderAccountsRemoveMutation.graphql";
import { paths } from "../../lib/paths";
import { EmptyState } from "../../components/EmptyState";
import { Outcome } from "../../components/Outcome";
import { PagedList } from "../../components/PagedList";
import { Time } from "../../components/Time";
import { formatCount, platformName } from "../../lib/format";
import { perItem, useAction } from "../../relay/action";
import { usePagedConnection } from "../../relay/paged";

const fragment = graphql`
  fragment FolderAccounts_folder on Folder
  @refetchable(queryName: "FolderAccountsPaginationQuery")
  @argumentDefinitions(first: { type: "Int", defaultValue: 20 }, after: { type: "String" }) {
    id
    accounts(first: $first, after: $after) @connection(key: "FolderAccounts_accounts") {
      totalCount
      edges {
        addedAt
        node {
          id
          uuid
          type
          username
          displayName
          followerCount
        }
      }
    }
  }
`;

const removeMutation = graphql`
  mutation FolderAccountsRemoveMutation($folderId: ID!, $accountIds: [ID!]!) {
    removeAccountsFromFolder(folderId: $folderId, accountIds: $accountIds) {
      ...action_bulkItem @relay(mask: false)
    }
  }
`;

type Edge = FolderAccounts_folder$data["accounts"]["edges"][number];

export function FolderAccounts({ folder, onChanged }: { folder: FolderAccounts_folder$key; onChanged: () => void }) {
  const { data, paging } = usePagedConnection<FolderAccountsPaginationQuery, FolderAccounts_folder$key, Edge["node"]>(
    fragment,
    folder,
    (d) => d.accounts,
    "accounts",
  );
  const remove = useAction<FolderAccountsRemoveMutation>(removeMutation);

  async function doRemove(a: Edge["node"]) {
    const title = "Could not remove the account";
    const done = await remove.run(
      { folderId: data.id, accountIds: [a.id] },
      { done: (d) => perItem(d.removeAccountsFromFolder, () => `Removed @${a.username} from the folder.`, title), failed: title },
    );
    if (done) onChanged();
  }

  return (
    <>
      <Outcome outcome={remove.outcome} />
      <PagedList
        label="The folder's accounts, most recently added first"
        rows={data.accounts.edges}
        rowKey={(e) => e.node.id}
        itemProps={() => ({ className: "row" })}
        item={({ node: a, addedAt }: Edge) => (
          <>
            <Link to={paths.account(a.uuid)}>{a.displayName || `@${a.username}`}</Link>
            <span className="muted">
              @{a.username} · {platformName(a.type)} · {formatCount(a.followerCount)} followers · added <Time value={addedAt} />
            </span>
            <button
              type="button"
              className="button-link"
              aria-label={`Remove @${a.username} from the folder`}
              disabled={remove.pending}
              onClick={() => void doRemove(a)}
            >
              Remove
            </button>
          </>
        )}
        paging={paging}
        empty={
          <EmptyState title="No accounts in this folder.">
            Add a tracked account with the form above: its tracked videos then count in the folder too.
          </EmptyState>
        }
      />
    </>
  );
}
