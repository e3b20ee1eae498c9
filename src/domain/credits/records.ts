/**
 * The credit balance of docs/contract/decisions.md (Credits) and its ledger entries, as every door
 * answers them (REST GET /credits and /credits/ledger, MCP get_credits) and the `credit_ledger` export
 * writes them (in the domain, which writes the export: src/domain/exports/).
 */
import { z } from "zod";
import { int, iso, timestamp } from "../shared/records.ts";
import { LATEST_LEDGER_ENTRIES, type CreditsSummary, type LedgerEntry } from "./service.ts";

export const ledgerEntry = z.object({
  id: z.string(),
  kind: z.enum(["grant", "renewal", "charge", "refund"]),
  amount: int().meta({ description: "Signed change of total_remaining." }),
  balanceAfter: int(),
  reason: z.string(),
  createdAt: timestamp,
});

/** A ledger entry as answered (GET /credits' `ledger`, GET /credits/ledger). */
export const ledgerEntryItem = (e: LedgerEntry) => ({ ...e, createdAt: iso(e.createdAt) });

export const creditsInfo = z
  .object({
    total_remaining: int(),
    monthly_total: int(),
    monthly_used: int(),
    monthly_remaining: int(),
    reserved: int().meta({ description: "Credits held by running analyses (not yet charged)." }),
    cycle_resets_at: timestamp,
    ledger: z.array(ledgerEntry).meta({ description: `The ${LATEST_LEDGER_ENTRIES} latest ledger entries, newest first.` }),
  })
  .meta({ id: "Credits" });

/** The balance with its latest ledger entries (domain/credits `readCredits`), as GET /credits answers it (also the MCP door's). */
export function creditsItem(c: CreditsSummary) {
  return {
    total_remaining: c.totalRemaining,
    monthly_total: c.monthlyTotal,
    monthly_used: c.monthlyUsed,
    monthly_remaining: c.monthlyRemaining,
    reserved: c.reserved,
    cycle_resets_at: iso(c.cycleResetsAt),
    ledger: c.ledger.map(ledgerEntryItem),
  };
}
