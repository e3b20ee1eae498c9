/** GET /workspace and GET /credits: the workspace info of the spec and the credit balance of docs/contract/decisions.md (Credits). */
import { z } from "zod";
import { getWorkspaceInfo } from "../../../domain/workspace/service.ts";
import { defineRoute } from "../route.ts";
import { readCredits } from "../../../domain/credits/service.ts";
import { creditsInfo, creditsItem, workspaceInfo, workspaceInfoItem } from "../../records/workspace.ts";

export const workspaceRoutes = [
  defineRoute({
    method: "get",
    path: "/workspace",
    operationId: "getWorkspace",
    summary: "Workspace info: plan, credits and tracking limits",
    tags: ["Workspace"],
    responses: { 200: { description: "The workspace of the API key.", schema: z.object({ data: workspaceInfo }) } },
    async handler({ auth }) {
      return { body: { data: workspaceInfoItem(await getWorkspaceInfo(auth.workspaceId)) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/credits",
    operationId: "getCredits",
    summary: "Credit balance, reservations, cycle and latest ledger entries",
    description:
      "Charges draw the monthly allowance first, then granted credits. The allowance renews on the workspace's cycle day; " +
      "unused monthly credits do not roll over; granted credits do not expire. `reserved` credits are held by admitted analyses " +
      "and are charged only when the analysis completes.",
    tags: ["Workspace"],
    responses: { 200: { description: "Credit balance.", schema: z.object({ data: creditsInfo }) } },
    async handler({ auth }) {
      return { body: { data: creditsItem(await readCredits(auth.workspaceId)) } };
    },
  }),
];
