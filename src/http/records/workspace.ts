/**
 * The workspace info of the spec as every door answers it (REST GET /workspace, MCP get_workspace);
 * the credit balance's records are src/domain/credits/records.ts.
 */
import { z } from "zod";
import type { WorkspaceInfo } from "../../domain/workspace/service.ts";
import { int } from "../../domain/shared/records.ts";

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
