/**
 * Small pieces the campaigns pages share: the period in words (its own time zone), the status badge,
 * and the owner-only notice for members (spend against budget: ./SpendBar.tsx).
 */
import { Badge } from "../../components/Badge";

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

/** What a member sees in place of an owner's form. */
export function OwnersOnlyNote({ what }: { what: string }) {
  return (
    <p className="muted" role="note">
      Only owners of this workspace {what}; you see this campaign read-only.
    </p>
  );
}
