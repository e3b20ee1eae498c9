/**
 * Small pieces the campaigns pages share: the period in words (its own time zone), the status badge,
 * spend against budget (a meter and the same in words), and the owner-only notice for members.
 */
import { Badge } from "../../components/Badge";
import { formatPercent } from "../../lib/format";
import { formatMoney } from "./money";

/** "2026-11-01T00:00:00" → "2026-11-01 00:00". */
export const localTime = (s: string) => s.replace("T", " ").slice(0, 16);

/** The period as its campaign states it: local start and end, then the zone. */
export function Period({ startsAt, endsAt, timeZone }: { startsAt: string; endsAt: string; timeZone: string }) {
  return (
    <span>
      {localTime(startsAt)} to {localTime(endsAt)} <span className="muted">({timeZone})</span>
    </span>
  );
}

export function CampaignStatusBadge({ status }: { status: string }) {
  return status === "CLOSED" ? (
    <Badge tone="neutral" title="Closed: its figures are frozen">
      Closed
    </Badge>
  ) : (
    <Badge tone="success" title="Active: its figures follow the scrapes">
      Active
    </Badge>
  );
}

interface Spend {
  payout: number;
  budgetMinor?: number | null;
  budgetUsedPercent?: number | null;
  remainingMinor?: number | null;
  currency: string;
}

/** The spend in words: "€120.00 of €500.00 (24 %), €380.00 left" (or "over budget by …"). */
export function spendInWords({ payout, budgetMinor, budgetUsedPercent, remainingMinor, currency }: Spend): string {
  if (budgetMinor == null) return `${formatMoney(payout, currency)} spent, no budget set`;
  const left = remainingMinor ?? budgetMinor - payout;
  const pct = budgetUsedPercent != null ? ` (${formatPercent(budgetUsedPercent)})` : "";
  return `${formatMoney(payout, currency)} of ${formatMoney(budgetMinor, currency)}${pct}, ${left >= 0 ? `${formatMoney(left, currency)} left` : `over budget by ${formatMoney(-left, currency)}`}`;
}

/** A bar (a meter: 80 % is high, past the budget is full) and the spend in words beside it. */
export function SpendBar(spend: Spend) {
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

/** What a member sees in place of an owner's form. */
export function OwnersOnlyNote({ what }: { what: string }) {
  return (
    <p className="muted" role="note">
      Only owners of this workspace {what}; you see this campaign read-only.
    </p>
  );
}
