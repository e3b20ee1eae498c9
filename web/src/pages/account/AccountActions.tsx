/**
 * Refresh the account now (REFRESH_TOO_SOON counted down), and untrack it after a confirmation
 * (its videos stay tracked), then back to the list.
 */
import { useState } from "react";
import { graphql } from "react-relay";
import { useNavigate } from "react-router";
import type { AccountActionsRefreshMutation } from "../../__generated__/AccountActionsRefreshMutation.graphql";
import type { AccountActionsUntrackMutation } from "../../__generated__/AccountActionsUntrackMutation.graphql";
import { paths } from "../../app/paths";
import { ConfirmButton } from "../../components/ConfirmButton";
import { ErrorMessage } from "../../components/ErrorMessage";
import { RefreshNow } from "../../components/RefreshNow";
import { useMutationAsync } from "../../relay/mutations";

const refreshMutation = graphql`
  mutation AccountActionsRefreshMutation($id: ID!) {
    refreshAccount(id: $id) {
      nextRefreshAt
      account {
        id
        nextRefreshAt
        scrapeStatus
      }
    }
  }
`;

const untrackMutation = graphql`
  mutation AccountActionsUntrackMutation($id: ID!) {
    untrackAccount(id: $id)
  }
`;

export function AccountActions({ accountId, onRefreshed }: { accountId: string; onRefreshed: () => void }) {
  const [refresh, refreshing] = useMutationAsync<AccountActionsRefreshMutation>(refreshMutation);
  const [untrack, untracking] = useMutationAsync<AccountActionsUntrackMutation>(untrackMutation);
  const [error, setError] = useState<unknown>(null);
  const navigate = useNavigate();

  async function doUntrack() {
    setError(null);
    try {
      await untrack({ id: accountId });
      navigate(paths.accounts());
    } catch (e) {
      setError(e);
    }
  }

  return (
    <div className="row">
      <RefreshNow
        onRefresh={async () => {
          await refresh({ id: accountId });
          onRefreshed();
        }}
        busy={refreshing}
        queued="Refresh queued: the new numbers and videos appear here when the scrape lands."
      />
      <ConfirmButton question="Untrack this account? Its videos stay tracked; it is no longer scraped for this workspace." confirmLabel="Untrack" onConfirm={doUntrack} disabled={untracking}>
        Untrack account
      </ConfirmButton>
      {error !== null && <ErrorMessage error={error} title="Could not untrack the account" />}
    </div>
  );
}
