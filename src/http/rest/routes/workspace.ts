/** GET /workspace and GET /credits: the workspace info of the spec and the credit balance of docs/contract/decisions.md (Credits). */
import { z } from "zod";
import { getWorkspaceInfo } from "../../../domain/workspace/service.ts";
import { defineRoute } from "../route.ts";
import { ledgerPage, readCredits } from "../../../domain/credits/service.ts";
import { creditsInfo, creditsItem, ledgerEntry, ledgerEntryItem } from "../../../domain/credits/records.ts";
import { workspaceInfo, workspaceInfoItem } from "../../records/workspace.ts";
import { ledgerQuery } from "../../../domain/credits/inputs.ts";
import { queryParams } from "../schemas.ts";
import { pagination, paginationSchema } from "../../records/common.ts";

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
  // The whole ledger, paged, and as a file (exports).
  defineRoute({
    method: "get",
    path: "/credits/ledger",
    operationId: "listCreditLedger",
    summary: "The credit ledger",
    description:
      "Every grant, renewal, charge and refund of the workspace's credits, newest first (ties by id). GET /credits shows the latest 20.",
    tags: ["Workspace"],
    exportAs: { kind: "credit_ledger" },
    query: queryParams(ledgerQuery),
    responses: {
      200: { description: "A page of ledger entries.", schema: z.object({ data: z.array(ledgerEntry), pagination: paginationSchema }) },
    },
    async handler({ auth, query }) {
      const { items, total } = await ledgerPage(auth.workspaceId, query);
      return { body: { data: items.map(ledgerEntryItem), pagination: pagination(total, query.limit, query.offset) } };
    },
  }),
];
