/**
 * The workspace info of the spec and the credit balance of docs/contract/decisions.md (Credits), as
 * every door answers them (REST GET /workspace and GET /credits, MCP get_workspace and get_credits).
 */
import { z } from "zod";
import type { WorkspaceInfo } from "../../domain/workspace/service.ts";
import { LATEST_LEDGER_ENTRIES, type CreditsSummary, type LedgerEntry } from "../../domain/credits/service.ts";
import { int, iso, timestamp } from "./common.ts";

export const workspaceInfo = z
  .object({
    plan: z.string().meta({ description: "Plan name: free, starter, pro or enterprise (plans are configurable)." }),
    credits: z.object({
      total_remaining: int().meta({ description: "monthly_remaining plus granted credits not yet spent." }),
      monthly_total: int().meta({ description: "Monthly allowance of the current cycle." }),
      monthly_used: int(),
      monthly_remaining: int(),
    }),
    limits: z.object({
      video_limit: int().meta({ description: "Video tracking limit of the plan." }),
      video_slots_used: int().meta({ description: "Distinct videos tracked, added directly or through a tracked account." }),
      additions_remaining: int().meta({ description: "video_limit minus video_slots_used, never below 0." }),
    }),
  })
  .meta({ id: "WorkspaceInfo" });

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

/** The workspace info as GET /workspace answers it (also the MCP door's shape). */
export function workspaceInfoItem(info: WorkspaceInfo) {
  return {
    plan: info.plan,
    credits: {
      total_remaining: info.credits.totalRemaining,
      monthly_total: info.credits.monthlyTotal,
      monthly_used: info.credits.monthlyUsed,
      monthly_remaining: info.credits.monthlyRemaining,
    },
    limits: {
      video_limit: info.limits.videoLimit,
      video_slots_used: info.limits.videoSlotsUsed,
      additions_remaining: info.limits.additionsRemaining,
    },
  };
}

/** The balance with its latest ledger entries (domain/credits `readCredits`), as GET /credits answers it (also the MCP door's). */
export function creditsItem(c: CreditsSummary) {
  return {
    total_remaining: c.totalRemaining,
    monthly_total: c.monthlyTotal,
    monthly_used: c.monthlyUsed,
    monthly_remaining: c.monthlyRemaining,
    reserved: c.reserved,
    cycle_resets_at: iso(c.cycleResetsAt),
    ledger: c.ledger.map((e) => ({ ...e, createdAt: iso(e.createdAt) })),
  };
}
