/**
 * The workspace's MCP tools: its plan, credits and limits (as REST /workspace and /credits).
 */
import { z } from "zod";
import { ANALYSIS_COST } from "../../../domain/analysis/service.ts";
import { RADAR_SEARCH_COST } from "../../../domain/radar/service.ts";
import { getWorkspaceInfo } from "../../../domain/workspace/service.ts";
import { LATEST_LEDGER_ENTRIES, readCredits } from "../../../domain/credits/service.ts";
import { creditsItem } from "../../../domain/credits/records.ts";
import { workspaceInfoItem } from "../../records/workspace.ts";
import { READ, defineTool, type AnyTool } from "../tool.ts";

const noInput = z.object({});

export const workspaceTools: AnyTool[] = [
  defineTool({
    name: "get_workspace",
    title: "Workspace: plan, credits, limits",
    description:
      "The workspace's plan, its credit balance and its video tracking limit (`limits.additions_remaining` is how many more videos " +
      "can be tracked). Free.",
    input: noInput,
    annotations: READ,
    run: async ({ auth }) => ({ data: workspaceInfoItem(await getWorkspaceInfo(auth.workspaceId)) }),
  }),
  defineTool({
    name: "get_credits",
    title: "Credit balance",
    description:
      "The credit balance (`total_remaining`; `reserved` is held by running analyses), when the monthly allowance renews " +
      `(\`cycle_resets_at\`) and the ${LATEST_LEDGER_ENTRIES} latest ledger entries. A video analysis costs ${ANALYSIS_COST} credits, a radar search ${RADAR_SEARCH_COST}. Free.`,
    input: noInput,
    annotations: READ,
    run: async ({ auth }) => ({ data: creditsItem(await readCredits(auth.workspaceId)) }),
  }),
];
