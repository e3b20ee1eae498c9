/** The folder's accounts, most recently added first, each removable (it stays tracked). */
import { useState } from "react";
import { graphql, usePaginationFragment } from "react-relay";
import { Link } from "react-router";
import type { FolderAccounts_folder$key } from "../../__generated__/FolderAccounts_folder.graphql";
import type { FolderAccountsRemoveMutation } from "../../__generated__/FolderAccountsRemoveMutation.graphql";
import { paths } from "../../app/paths";
import { EmptyState } from "../../components/EmptyState";
import { ShowMore } from "../../components/ShowMore";
import { ErrorMessage } from "../../components/ErrorMessage";
import { Time } from "../../components/Time";
import { formatCount, formatWhole, platformName } from "../../lib/format";
import { useMutationAsync } from "../../relay/mutations";

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
      id
      success
      error
    }
  }
`;

export function FolderAccounts({ folder, onChanged }: { folder: FolderAccounts_folder$key; onChanged: () => void }) {
  const { data, hasNext, loadNext, isLoadingNext } = usePaginationFragment(fragment, folder);
  const [error, setError] = useState<unknown>(null);
  const [remove, removing] = useMutationAsync<FolderAccountsRemoveMutation>(removeMutation);

  async function doRemove(accountId: string) {
    setError(null);
    try {
      const [r] = (await remove({ folderId: data.id, accountIds: [accountId] })).removeAccountsFromFolder;
      if (r && !r.success) setError(new Error(r.error ?? "failed"));
      onChanged();
    } catch (e) {
      setError(e);
    }
  }

  if (data.accounts.totalCount === 0) {
    return <EmptyState title="No accounts in this folder.">Add a tracked account with the form above: its tracked videos then count in the folder too.</EmptyState>;
  }
  return (
    <>
      {error !== null && <ErrorMessage error={error} title="Could not remove the account" />}
      <ul className="plain-list">
        {data.accounts.edges.map(({ node: a, addedAt }) => (
          <li key={a.id} className="row">
            <Link to={paths.account(a.uuid)}>{a.displayName || `@${a.username}`}</Link>
            <span className="muted">
              @{a.username} · {platformName(a.type)} · {formatCount(a.followerCount)} followers · added <Time value={addedAt} />
            </span>
            <button type="button" className="button-link" aria-label={`Remove @${a.username} from the folder`} disabled={removing} onClick={() => void doRemove(a.id)}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <ShowMore shown={data.accounts.edges.length} total={data.accounts.totalCount} hasNext={hasNext} isLoadingNext={isLoadingNext} onMore={() => loadNext(20)} />
    </>
  );
}
