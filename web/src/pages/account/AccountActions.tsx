/**
 * Refresh the account now (REFRESH_TOO_SOON counted down), and untrack it after a confirmation
 * (its videos stay tracked), then back to the list.
 */
import { graphql } from "react-relay";
import { useNavigate } from "react-router";
import type { AccountActionsRefreshMutation } from "../../__generated__/AccountActionsRefreshMutation.graphql";
import type { AccountActionsUntrackMutation } from "../../__generated__/AccountActionsUntrackMutation.graphql";
import { paths } from "../../lib/paths";
import { ConfirmButton } from "../../components/ConfirmButton";
import { Outcome } from "../../components/Outcome";
import { RefreshNow } from "../../components/RefreshNow";
import { useAction } from "../../relay/action";

const refreshMutation = graphql`
  mutation AccountActionsRefreshMutation($id: ID!) {
    refreshAccount(id: $id) {
      account {
        ...AccountSummary_account
      }
    }
  }
`;

const untrackMutation = graphql`
  mutation AccountActionsUntrackMutation($id: ID!) {
    untrackAccount(id: $id)
  }
`;

export function AccountActions({ accountId }: { accountId: string }) {
  const refresh = useAction<AccountActionsRefreshMutation>(refreshMutation);
  const untrack = useAction<AccountActionsUntrackMutation>(untrackMutation);
  const navigate = useNavigate();

  async function doUntrack() {
    if (await untrack.run({ id: accountId }, { failed: "Could not untrack the account" })) navigate(paths.accounts());
  }

  return (
    <div className="row">
      <RefreshNow
        onRefresh={() =>
          refresh.run(
            { id: accountId },
            { done: () => "Refresh queued: the new numbers and videos appear here when the scrape lands.", failed: "Could not refresh" },
          )
        }
        busy={refresh.pending}
        outcome={refresh.outcome}
      />
      <ConfirmButton
        question="Untrack this account? Its videos stay tracked; it is no longer scraped for this workspace."
        confirmLabel="Untrack"
        onConfirm={doUntrack}
        disabled={untrack.pending}
      >
        Untrack account
      </ConfirmButton>
      <Outcome outcome={untrack.outcome} />
    </div>
  );
}
