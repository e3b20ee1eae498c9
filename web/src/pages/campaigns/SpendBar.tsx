/**
 * A campaign's spend against its budget: a bar (a meter: 80 % is high, past the budget is full) and the same in
 * words beside it. It selects what it shows (`SpendBar_totals`), so the campaigns list and a campaign's page read
 * the totals the same way.
 */
import { graphql, useFragment } from "react-relay";
import type { SpendBar_totals$data, SpendBar_totals$key } from "../../__generated__/SpendBar_totals.graphql";
import { formatPercent } from "../../lib/format";
import { formatMoney } from "./money";

const fragment = graphql`
  fragment SpendBar_totals on CampaignTotals {
    payout
    budgetMinor
    budgetUsedPercent
    remainingMinor
    currency
  }
`;

/** The spend in words: "€120.00 of €500.00 (24 %), €380.00 left" (or "over budget by …"). */
function spendInWords({ payout, budgetMinor, budgetUsedPercent, remainingMinor, currency }: SpendBar_totals$data): string {
  if (budgetMinor == null) return `${formatMoney(payout, currency)} spent, no budget set`;
  const left = remainingMinor ?? budgetMinor - payout;
  const pct = budgetUsedPercent != null ? ` (${formatPercent(budgetUsedPercent)})` : "";
  return `${formatMoney(payout, currency)} of ${formatMoney(budgetMinor, currency)}${pct}, ${left >= 0 ? `${formatMoney(left, currency)} left` : `over budget by ${formatMoney(-left, currency)}`}`;
}

export function SpendBar({ totals }: { totals: SpendBar_totals$key }) {
  const spend = useFragment(fragment, totals);
  const words = spendInWords(spend);
  return (
    <span className="spend">
      {spend.budgetMinor != null && spend.budgetMinor > 0 && (
        <meter
          min={0}
          max={spend.budgetMinor}
          high={spend.budgetMinor * 0.8}
          optimum={0}
          value={Math.min(spend.payout, spend.budgetMinor)}
          aria-label={`Spend against budget: ${words}`}
        />
      )}{" "}
      <span>{words}</span>
    </span>
  );
}
