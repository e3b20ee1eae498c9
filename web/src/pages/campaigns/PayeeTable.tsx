/**
 * What each creator of a campaign earned: views earned, payout, whether the per-creator cap cut it, and under
 * which rule; the payouts' export (one row per video with its evidence), and the total.
 */
import { graphql, useFragment } from "react-relay";
import { Link } from "react-router";
import type { PayeeTable_campaign$data, PayeeTable_campaign$key } from "../../__generated__/PayeeTable_campaign.graphql";
import { DataTable, type Column } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { ExportButton } from "../../components/ExportButton";
import { formatWhole } from "../../lib/format";
import { paths } from "../../lib/paths";
import { formatMoney } from "./money";
import { campaignRules, ruleInWords } from "./RuleFields";
import { Panel } from "../../components/Panel";

const fragment = graphql`
  fragment PayeeTable_campaign on Campaign {
    id
    currency
    ...RuleFields_campaign
    totals {
      payout
      viewsEarned
    }
    creators {
      creator {
        id
        name
      }
      account {
        id
        uuid
        username
      }
      payeeName
      videos
      viewsEarned
      amountBeforeCreatorCap
      creatorCapCut
      payout
    }
  }
`;

type PayeeRow = PayeeTable_campaign$data["creators"][number];

export function PayeeTable({ campaign }: { campaign: PayeeTable_campaign$key }) {
  const c = useFragment(fragment, campaign);
  const { ownRule } = campaignRules(c);
  const columns: Column<PayeeRow>[] = [
    {
      id: "payee",
      header: "Creator",
      className: "cell-wrap",
      cell: (r) =>
        r.creator ? r.creator.name : r.account ? <Link to={paths.account(r.account.uuid)}>@{r.account.username}</Link> : r.payeeName,
    },
    { id: "videos", header: "Videos", cell: (r) => formatWhole(r.videos) },
    { id: "views", header: "Views earned", cell: (r) => formatWhole(r.viewsEarned) },
    { id: "payout", header: "Payout", cell: (r) => formatMoney(r.payout, c.currency) },
    {
      id: "cap",
      header: "Cap reached",
      cell: (r) =>
        r.creatorCapCut > 0 ? (
          <span>
            Yes: {formatMoney(r.creatorCapCut, c.currency)} over the cap (would be {formatMoney(r.amountBeforeCreatorCap, c.currency)})
          </span>
        ) : (
          "No"
        ),
    },
    {
      id: "rule",
      header: "Rule",
      className: "cell-wrap",
      cell: (r) => {
        const own = ownRule(r.creator?.id);
        return own ? `Own rule: ${ruleInWords(own, c.currency)}` : `Campaign's rule`;
      },
    },
  ];
  return (
    <Panel title="What each creator earned">
      <ExportButton kind="CAMPAIGN_PAYOUTS" what="the payouts, one row per video with its evidence" filter={{ campaignId: c.id }} />
      <DataTable
        label={`Creators' earnings, ${formatWhole(c.creators.length)} in all, highest payout first`}
        columns={columns}
        rows={c.creators}
        rowKey={(r) => r.creator?.id ?? r.account?.id ?? r.payeeName}
        rowProps={(r) => ({ "data-payee": r.payeeName })}
        empty={
          <EmptyState title="No creator has earned anything yet.">
            Add creators or accounts below; their videos posted in the period count once they are scraped.
          </EmptyState>
        }
      />
      {c.creators.length > 0 && (
        <p data-testid="payees-total">
          Total: {formatWhole(c.totals.viewsEarned)} views earned, {formatMoney(c.totals.payout, c.currency)} owed (the sum of the rows).
        </p>
      )}
    </Panel>
  );
}
