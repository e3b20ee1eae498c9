/** Close a campaign (owners), after a confirmation in words: closing freezes its figures for good. */
import { graphql, useFragment } from "react-relay";
import type { CloseCampaign_campaign$key } from "../../__generated__/CloseCampaign_campaign.graphql";
import type { CloseCampaignMutation } from "../../__generated__/CloseCampaignMutation.graphql";
import { ConfirmButton } from "../../components/ConfirmButton";
import { Outcome } from "../../components/Outcome";
import { useAction } from "../../relay/action";
import { formatMoney } from "./money";
import { Panel } from "../../components/Panel";

const fragment = graphql`
  fragment CloseCampaign_campaign on Campaign {
    id
    name
    status
    currency
    totals {
      payout
    }
  }
`;

const close = graphql`
  mutation CloseCampaignMutation($id: ID!) {
    closeCampaign(id: $id) {
      id
      status
      closedAt
      totals {
        payout
        frozen
      }
    }
  }
`;

export function CloseCampaign({ campaign, onChanged }: { campaign: CloseCampaign_campaign$key; onChanged: () => void }) {
  const c = useFragment(fragment, campaign);
  const run = useAction<CloseCampaignMutation>(close);
  const owed = formatMoney(c.totals.payout, c.currency);
  async function confirm() {
    const r = await run.run(
      { id: c.id },
      {
        failed: "Could not close the campaign",
        done: (d) => `Closed “${c.name}”: its figures are frozen at ${formatMoney(d.closeCampaign.totals.payout, c.currency)} owed.`,
      },
    );
    if (r) onChanged();
  }
  return (
    <Panel title="Close the campaign">
      {c.status === "CLOSED" ? (
        <p>This campaign is closed: its figures are frozen.</p>
      ) : (
        <>
          <p>
            Closing freezes today's figures ({owed} owed so far): later scrapes no longer change them, and the campaign can no longer be
            edited.
          </p>
          <ConfirmButton
            question={`Close “${c.name}”? Its payouts are frozen as they are now (${owed} owed): later scrapes will not change them, and it cannot be reopened or edited.`}
            confirmLabel="Close and freeze the figures"
            onConfirm={() => void confirm()}
            disabled={run.pending}
          >
            Close campaign
          </ConfirmButton>
        </>
      )}
      <Outcome outcome={run.outcome} />
    </Panel>
  );
}
