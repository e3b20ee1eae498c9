/**
 * The campaigns' MCP tools: what the workspace owes its creators (as REST /campaigns and /creators).
 */
import { z } from "zod";
import { uuid } from "../../../domain/shared/inputs.ts";
import { pagination } from "../../records/common.ts";
import { listCampaignsQuery, listCreatorsQuery } from "../../../domain/campaigns/inputs.ts";
import { accountIdsOfCreators, listCreators } from "../../../domain/campaigns/creators.ts";
import { listCampaigns, requireCampaign } from "../../../domain/campaigns/service.ts";
import { campaignPayeeRows, campaignTotals, campaignVideoRows } from "../../../domain/campaigns/earnings.ts";
import { campaignItem, creatorItem, payeeRowItem, payoutRowItem, totalsItem } from "../../../domain/campaigns/records.ts";
import { READ, defineTool, type AnyTool } from "../tool.ts";

export const campaignTools: AnyTool[] = [
  defineTool({
    name: "list_campaigns",
    title: "List campaigns",
    description:
      "The workspace's campaigns, newest first (REST GET /campaigns); `status`: active or closed. Money in integer minor units of `currency`. Free.",
    input: listCampaignsQuery,
    annotations: READ,
    run: async ({ auth }, input) => {
      const { items, total } = await listCampaigns(auth.workspaceId, input, { status: input.status });
      return { data: items.map(campaignItem), pagination: pagination(total, input.limit, input.offset) };
    },
  }),
  defineTool({
    name: "list_creators",
    title: "List creators",
    description:
      "The workspace's creators by name, each with its account ids (REST GET /creators; `q`: only those whose name holds its words). Free.",
    input: listCreatorsQuery,
    annotations: READ,
    run: async ({ auth }, input) => {
      const { items, total } = await listCreators(auth.workspaceId, input, { q: input.q });
      const accounts = await accountIdsOfCreators(
        auth.workspaceId,
        items.map((c) => c.id),
      );
      return { data: items.map((c) => creatorItem(c, accounts.get(c.id) ?? [])), pagination: pagination(total, input.limit, input.offset) };
    },
  }),
  defineTool({
    name: "get_campaign_payouts",
    title: "What do we owe for a campaign",
    description:
      "What the workspace owes for a campaign (REST GET /campaigns/{id}/payouts): the totals and one row per creator (payout, views earned, " +
      "what the per-creator cap took off); with `creator_id`, only that creator's row and its video rows with their evidence (the two history " +
      "points used: time, views, source). Money in integer minor units of `currency`, rounded half-up per video; totals are sums of rows. " +
      "A closed campaign answers its frozen figures. Find ids with list_campaigns and list_creators. Free.",
    input: z.object({
      campaign_id: uuid.meta({ description: "The campaign's id (from list_campaigns)." }),
      creator_id: uuid.optional().meta({ description: "Only this creator (from list_creators)." }),
    }),
    annotations: READ,
    run: async ({ auth }, input) => {
      const c = await requireCampaign(auth.workspaceId, input.campaign_id);
      const [totals, payees] = await Promise.all([campaignTotals(auth.workspaceId, c), campaignPayeeRows(auth.workspaceId, c)]);
      if (!input.creator_id) return { data: { campaign: campaignItem(c), totals: totalsItem(totals), creators: payees.map(payeeRowItem) } };
      const id = input.creator_id.toLowerCase();
      const rows = await campaignVideoRows(auth.workspaceId, c, { limit: 100, offset: 0 }, { creatorId: id });
      const mine = payees.filter((p) => p.creatorId === id).map(payeeRowItem);
      return {
        data: {
          campaign: campaignItem(c),
          totals: totalsItem(totals),
          creators: mine,
          videos: rows.items.map(payoutRowItem),
          videoCount: rows.total,
        },
        message: mine.length
          ? `${mine[0]!.payeeName} is owed ${mine[0]!.payout} (minor units of ${c.currency}) for ${c.name}${c.status === "closed" ? " (frozen at closing)" : " so far"}.`
          : "This creator has no qualifying video in the campaign: nothing is owed.",
      };
    },
  }),
];
