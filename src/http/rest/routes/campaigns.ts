/**
 * /campaigns and /creators: creators and their accounts, campaigns, their members, videos
 * by hand, per-creator rules, closing, and the earnings (payouts per payee, video rows with their
 * evidence, spend over time, stale videos). Money is integer minor units of the campaign's currency
 * (docs/campaigns.md). Every campaign change is owner-only (403 FORBIDDEN for members); a closed
 * campaign changes no more (409 CAMPAIGN_CLOSED) and answers its frozen figures.
 */
import { z } from "zod";
import {
  accountIdsOfCreators,
  assignAccounts,
  createCreator,
  deleteCreator,
  listCreators,
  requireCreator,
  unassignAccounts,
  updateCreator,
} from "../../../domain/campaigns/creators.ts";
import {
  addMembers,
  clearVideosByHand,
  createCampaign,
  creatorRulesOf,
  deleteCampaign,
  listCampaigns,
  membersOfCampaigns,
  removeMembers,
  requireCampaign,
  setCreatorRule,
  setVideosByHand,
  updateCampaign,
  videosByHand,
} from "../../../domain/campaigns/service.ts";
import { closeCampaign } from "../../../domain/campaigns/close.ts";
import {
  campaignPayeeRows,
  campaignSpendOverTime,
  campaignStaleVideos,
  campaignTotals,
  campaignVideoRows,
} from "../../../domain/campaigns/earnings.ts";
import {
  campaignMembersInput,
  campaignRowsQuery,
  campaignVideosInput,
  createCampaignInput,
  createCreatorInput,
  creatorAccountsInput,
  creatorRuleInput,
  listCampaignsQuery,
  listCreatorsQuery,
  updateCampaignInput,
  updateCreatorInput,
} from "../../../domain/campaigns/inputs.ts";
import { uuid } from "../../../domain/shared/inputs.ts";
import { defineRoute } from "../route.ts";
import { idParams, queryParams } from "../schemas.ts";
import { int } from "../../../domain/shared/records.ts";
import { bulkItemResult, pagination, paginationSchema } from "../../records/common.ts";
import {
  campaignDetailItem,
  campaignDetailSchema,
  campaignItem,
  campaignSchema,
  campaignTotalsSchema,
  creatorItem,
  creatorSchema,
  payeeRowItem,
  payeeRowSchema,
  payeeSpendPointItem,
  payeeSpendPointSchema,
  payoutRowItem,
  payoutRowSchema,
  payoutRuleSchema,
  ruleItem,
  spendPointItem,
  spendPointSchema,
  totalsItem,
} from "../../../domain/campaigns/records.ts";

const CREATORS = ["Creators"];
const CAMPAIGNS = ["Campaigns"];
const bulkAnswer = { 200: { description: "One result per id, in request order.", schema: z.object({ data: z.array(bulkItemResult) }) } };
const removedAnswer = (what: string) => ({ 200: { description: what, schema: z.object({ data: z.object({ removed: int() }) }) } });
const campaignCreatorParams = z.object({ id: uuid, creatorId: uuid });
const OWNER = "Owner-only (403 FORBIDDEN for members).";

async function detail(workspaceId: string, id: string) {
  const c = await requireCampaign(workspaceId, id);
  const [members, rules, byHand, totals] = await Promise.all([
    membersOfCampaigns(workspaceId, [id]),
    creatorRulesOf(workspaceId, id),
    videosByHand(workspaceId, id),
    campaignTotals(workspaceId, c),
  ]);
  return { ...campaignDetailItem(c, members.get(id) ?? [], rules, byHand), totals: totalsItem(totals) };
}

export const campaignRoutes = [
  // --- Creators
  defineRoute({
    method: "post",
    path: "/creators",
    operationId: "createCreator",
    summary: "Create a creator",
    description: "A person or team behind tracked accounts: a name (1 to 100 characters), contact and notes.",
    tags: CREATORS,
    body: createCreatorInput,
    responses: { 201: { description: "The new creator.", schema: z.object({ data: creatorSchema, message: z.string() }) } },
    async handler({ auth, body }) {
      return { status: 201, body: { data: creatorItem(await createCreator(auth.workspaceId, body), []), message: "Creator created." } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/creators",
    operationId: "listCreators",
    summary: "List creators",
    description: "The workspace's creators by name (ties by id), each with its accounts; with q, only those whose name holds its words.",
    tags: CREATORS,
    query: queryParams(listCreatorsQuery),
    responses: {
      200: { description: "A page of creators.", schema: z.object({ data: z.array(creatorSchema), pagination: paginationSchema }) },
    },
    async handler({ auth, query }) {
      const { items, total } = await listCreators(auth.workspaceId, query, { q: query.q });
      const accounts = await accountIdsOfCreators(
        auth.workspaceId,
        items.map((c) => c.id),
      );
      return {
        body: {
          data: items.map((c) => creatorItem(c, accounts.get(c.id) ?? [])),
          pagination: pagination(total, query.limit, query.offset),
        },
      };
    },
  }),
  defineRoute({
    method: "get",
    path: "/creators/{id}",
    operationId: "getCreator",
    summary: "Get a creator",
    tags: CREATORS,
    params: idParams,
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "The creator.", schema: z.object({ data: creatorSchema }) } },
    async handler({ auth, params }) {
      const c = await requireCreator(auth.workspaceId, params.id);
      return { body: { data: creatorItem(c, (await accountIdsOfCreators(auth.workspaceId, [c.id])).get(c.id) ?? []) } };
    },
  }),
  defineRoute({
    method: "patch",
    path: "/creators/{id}",
    operationId: "updateCreator",
    summary: "Change a creator's name, contact or notes",
    description:
      "Its name and contact are in every payout row and export of the campaigns that pay it. While an active campaign pays this creator (a member, a creator with a rule of its own, or the creator of an account it pays for) this changes what it pays: owners only (403 FORBIDDEN otherwise; docs/campaigns.md).",
    tags: CREATORS,
    params: idParams,
    body: updateCreatorInput,
    errors: ["NOT_FOUND", "FORBIDDEN"],
    responses: {
      200: { description: "The creator as this request wrote it.", schema: z.object({ data: creatorSchema, message: z.string() }) },
    },
    async handler({ auth, params, body }) {
      const c = await updateCreator(auth, params.id, body);
      return {
        body: { data: creatorItem(c, (await accountIdsOfCreators(auth.workspaceId, [c.id])).get(c.id) ?? []), message: "Creator updated." },
      };
    },
  }),
  defineRoute({
    method: "delete",
    path: "/creators/{id}",
    operationId: "deleteCreator",
    summary: "Delete a creator",
    description:
      "Its accounts become unassigned; its campaign memberships and rules go with it. Closed campaigns keep their frozen rows. While an active campaign pays this creator (a member, a creator with a rule of its own, or the creator of an account it pays for) this changes what it pays: owners only (403 FORBIDDEN otherwise; docs/campaigns.md).",
    tags: CREATORS,
    params: idParams,
    errors: ["NOT_FOUND", "FORBIDDEN"],
    responses: {
      200: { description: "The creator is deleted.", schema: z.object({ data: z.object({ id: z.string() }), message: z.string() }) },
    },
    async handler({ auth, params }) {
      return { body: { data: await deleteCreator(auth, params.id), message: "Creator deleted." } };
    },
  }),
  defineRoute({
    method: "post",
    path: "/creators/{id}/accounts",
    operationId: "assignCreatorAccounts",
    summary: "Give tracked accounts to a creator (bulk)",
    description:
      "1 to 50 canonical account ids, each on its own: `Account not found` when the workspace does not track it, `Account belongs to another " +
      "creator` when another creator has it (an account has at most one creator). The HTTP status stays 200. While an active campaign pays " +
      "the creator or any of the accounts (a member account, an account of a member creator, or one with a video added by hand), this " +
      "changes who is paid: owners only (403 FORBIDDEN otherwise; docs/campaigns.md).",
    tags: CREATORS,
    params: idParams,
    body: creatorAccountsInput,
    errors: ["NOT_FOUND", "FORBIDDEN"],
    responses: bulkAnswer,
    async handler({ auth, params, body }) {
      return { body: { data: await assignAccounts(auth, params.id, body.account_ids) } };
    },
  }),
  defineRoute({
    method: "delete",
    path: "/creators/{id}/accounts",
    operationId: "unassignCreatorAccounts",
    summary: "Take accounts from a creator (bulk)",
    description:
      "Accounts the creator does not have are left alone (counted out of `removed`). While an active campaign pays the creator or any of " +
      "the accounts, this changes who is paid: owners only (403 FORBIDDEN otherwise; docs/campaigns.md).",
    tags: CREATORS,
    params: idParams,
    body: creatorAccountsInput,
    errors: ["NOT_FOUND", "FORBIDDEN"],
    responses: removedAnswer("How many accounts were the creator's and no longer are."),
    async handler({ auth, params, body }) {
      return { body: { data: await unassignAccounts(auth, params.id, body.account_ids) } };
    },
  }),

  // --- Campaigns
  defineRoute({
    method: "post",
    path: "/campaigns",
    operationId: "createCampaign",
    summary: "Create a campaign",
    description:
      `A period (starts_at, ends_at: local date-times of time_zone, at most 366 days), a currency, a budget, which videos count (hashtag, tag_id) ` +
      `and the payout rule for all (CPM with caps per video and per creator, a fixed fee per video, or both; amounts in minor units). ${OWNER}`,
    tags: CAMPAIGNS,
    permission: "campaigns.manage",
    body: createCampaignInput,
    errors: ["NOT_FOUND"],
    responses: { 201: { description: "The new campaign.", schema: z.object({ data: campaignSchema, message: z.string() }) } },
    async handler({ auth, body }) {
      return { status: 201, body: { data: campaignItem(await createCampaign(auth, body)), message: "Campaign created." } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/campaigns",
    operationId: "listCampaigns",
    summary: "List campaigns",
    description: "Newest first; `status` filters active or closed ones.",
    tags: CAMPAIGNS,
    query: queryParams(listCampaignsQuery),
    responses: {
      200: { description: "A page of campaigns.", schema: z.object({ data: z.array(campaignSchema), pagination: paginationSchema }) },
    },
    async handler({ auth, query }) {
      const { items, total } = await listCampaigns(auth.workspaceId, query, { status: query.status });
      return { body: { data: items.map(campaignItem), pagination: pagination(total, query.limit, query.offset) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/campaigns/{id}",
    operationId: "getCampaign",
    summary: "Get a campaign with its members, rules, videos by hand and totals",
    tags: CAMPAIGNS,
    params: idParams,
    errors: ["NOT_FOUND"],
    responses: {
      200: { description: "The campaign.", schema: z.object({ data: campaignDetailSchema.extend({ totals: campaignTotalsSchema }) }) },
    },
    async handler({ auth, params }) {
      return { body: { data: await detail(auth.workspaceId, params.id) } };
    },
  }),
  defineRoute({
    method: "patch",
    path: "/campaigns/{id}",
    operationId: "updateCampaign",
    summary: "Change a campaign",
    description: `An absent field is kept; a null one cleared. ${OWNER} 409 CAMPAIGN_CLOSED once closed.`,
    tags: CAMPAIGNS,
    permission: "campaigns.manage",
    params: idParams,
    body: updateCampaignInput,
    errors: ["NOT_FOUND", "CAMPAIGN_CLOSED"],
    responses: {
      200: { description: "The campaign as this request wrote it.", schema: z.object({ data: campaignSchema, message: z.string() }) },
    },
    async handler({ auth, params, body }) {
      return { body: { data: campaignItem(await updateCampaign(auth, params.id, body)), message: "Campaign updated." } };
    },
  }),
  defineRoute({
    method: "delete",
    path: "/campaigns/{id}",
    operationId: "deleteCampaign",
    summary: "Delete a campaign",
    description: `With its members, rules and, when closed, its frozen rows. ${OWNER}`,
    tags: CAMPAIGNS,
    permission: "campaigns.manage",
    params: idParams,
    errors: ["NOT_FOUND"],
    responses: {
      200: { description: "The campaign is deleted.", schema: z.object({ data: z.object({ id: z.string() }), message: z.string() }) },
    },
    async handler({ auth, params }) {
      return { body: { data: await deleteCampaign(auth, params.id), message: "Campaign deleted." } };
    },
  }),
  defineRoute({
    method: "post",
    path: "/campaigns/{id}/close",
    operationId: "closeCampaign",
    summary: "Close a campaign: freeze its payouts",
    description: `The rows and the spend over time are frozen (later scrapes change nothing); \`campaign.closed\` is sent. ${OWNER} 409 CAMPAIGN_CLOSED when it already is.`,
    tags: CAMPAIGNS,
    permission: "campaigns.manage",
    params: idParams,
    errors: ["NOT_FOUND", "CAMPAIGN_CLOSED"],
    responses: { 200: { description: "The closed campaign.", schema: z.object({ data: campaignSchema, message: z.string() }) } },
    async handler({ auth, params }) {
      return { body: { data: campaignItem(await closeCampaign(auth, params.id)), message: "Campaign closed: its payouts are frozen." } };
    },
  }),
  defineRoute({
    method: "post",
    path: "/campaigns/{id}/members",
    operationId: "addCampaignMembers",
    summary: "Add creators or accounts to a campaign (bulk)",
    description: `creator_ids and/or account_ids (up to 50 each), each on its own (\`Creator not found\`, \`Account not found\`); creators first. ${OWNER}`,
    tags: CAMPAIGNS,
    permission: "campaigns.manage",
    params: idParams,
    body: campaignMembersInput,
    errors: ["NOT_FOUND", "CAMPAIGN_CLOSED"],
    responses: bulkAnswer,
    async handler({ auth, params, body }) {
      return { body: { data: await addMembers(auth, params.id, body) } };
    },
  }),
  defineRoute({
    method: "delete",
    path: "/campaigns/{id}/members",
    operationId: "removeCampaignMembers",
    summary: "Remove creators or accounts from a campaign (bulk)",
    description: OWNER,
    tags: CAMPAIGNS,
    permission: "campaigns.manage",
    params: idParams,
    body: campaignMembersInput,
    errors: ["NOT_FOUND", "CAMPAIGN_CLOSED"],
    responses: removedAnswer("How many were members."),
    async handler({ auth, params, body }) {
      return { body: { data: await removeMembers(auth, params.id, body) } };
    },
  }),
  defineRoute({
    method: "post",
    path: "/campaigns/{id}/videos",
    operationId: "addCampaignVideos",
    summary: "Add videos to a campaign by hand (bulk)",
    description: `Tracked videos that count whatever their account or posting time (\`Video not found\` otherwise). ${OWNER}`,
    tags: CAMPAIGNS,
    permission: "campaigns.manage",
    params: idParams,
    body: campaignVideosInput,
    errors: ["NOT_FOUND", "CAMPAIGN_CLOSED"],
    responses: bulkAnswer,
    async handler({ auth, params, body }) {
      return { body: { data: await setVideosByHand(auth, params.id, body.video_ids, "added") } };
    },
  }),
  defineRoute({
    method: "post",
    path: "/campaigns/{id}/excluded-videos",
    operationId: "excludeCampaignVideos",
    summary: "Exclude videos from a campaign by hand (bulk)",
    description: `They never count. ${OWNER}`,
    tags: CAMPAIGNS,
    permission: "campaigns.manage",
    params: idParams,
    body: campaignVideosInput,
    errors: ["NOT_FOUND", "CAMPAIGN_CLOSED"],
    responses: bulkAnswer,
    async handler({ auth, params, body }) {
      return { body: { data: await setVideosByHand(auth, params.id, body.video_ids, "excluded") } };
    },
  }),
  defineRoute({
    method: "delete",
    path: "/campaigns/{id}/videos",
    operationId: "resetCampaignVideos",
    summary: "Forget what was said by hand of videos (bulk)",
    description: `They count again by the campaign's rules alone. ${OWNER}`,
    tags: CAMPAIGNS,
    permission: "campaigns.manage",
    params: idParams,
    body: campaignVideosInput,
    errors: ["NOT_FOUND", "CAMPAIGN_CLOSED"],
    responses: removedAnswer("How many videos had been added or excluded by hand."),
    async handler({ auth, params, body }) {
      return { body: { data: await clearVideosByHand(auth, params.id, body.video_ids) } };
    },
  }),
  defineRoute({
    method: "put",
    path: "/campaigns/{id}/creators/{creatorId}/rule",
    operationId: "setCampaignCreatorRule",
    summary: "Set a creator's own payout rule in a campaign",
    description: `It replaces the campaign's rule for that creator, whole (an absent field is none). ${OWNER}`,
    tags: CAMPAIGNS,
    permission: "campaigns.manage",
    params: campaignCreatorParams,
    body: creatorRuleInput,
    errors: ["NOT_FOUND", "CAMPAIGN_CLOSED"],
    responses: {
      200: { description: "The creator's rule.", schema: z.object({ data: payoutRuleSchema.extend({ creatorId: z.string() }) }) },
    },
    async handler({ auth, params, body }) {
      const r = (await setCreatorRule(auth, params.id, params.creatorId, body))!;
      return { body: { data: { creatorId: r.creatorId, ...ruleItem(r) } } };
    },
  }),
  defineRoute({
    method: "delete",
    path: "/campaigns/{id}/creators/{creatorId}/rule",
    operationId: "removeCampaignCreatorRule",
    summary: "Remove a creator's own payout rule (the campaign's applies again)",
    description: OWNER,
    tags: CAMPAIGNS,
    permission: "campaigns.manage",
    params: campaignCreatorParams,
    errors: ["NOT_FOUND", "CAMPAIGN_CLOSED"],
    responses: { 200: { description: "Removed (or there was none).", schema: z.object({ data: z.object({ creatorId: z.string() }) }) } },
    async handler({ auth, params }) {
      await setCreatorRule(auth, params.id, params.creatorId, null);
      return { body: { data: { creatorId: params.creatorId } } };
    },
  }),

  // --- Earnings
  defineRoute({
    method: "get",
    path: "/campaigns/{id}/payouts",
    operationId: "getCampaignPayouts",
    summary: "What the campaign owes: per creator, and the totals",
    description:
      "One row per payee (a creator, or an account in the campaign without a creator), highest payout first, and the totals (sums of the " +
      "rows; rounding half-up per video row). A closed campaign answers its frozen figures (`totals.frozen`).",
    tags: CAMPAIGNS,
    params: idParams,
    errors: ["NOT_FOUND"],
    responses: {
      200: {
        description: "The payouts.",
        schema: z.object({ data: z.object({ campaign: campaignSchema, totals: campaignTotalsSchema, creators: z.array(payeeRowSchema) }) }),
      },
    },
    async handler({ auth, params }) {
      const c = await requireCampaign(auth.workspaceId, params.id);
      const [totals, creators] = await Promise.all([campaignTotals(auth.workspaceId, c), campaignPayeeRows(auth.workspaceId, c)]);
      return { body: { data: { campaign: campaignItem(c), totals: totalsItem(totals), creators: creators.map(payeeRowItem) } } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/campaigns/{id}/payouts/videos",
    operationId: "listCampaignPayoutRows",
    summary: "The video rows with their evidence",
    description:
      "Each qualifying video: the two history points used (time, views, source: `posting`, `ytdlp` or `simulated`), views earned, the CPM " +
      "part (round half-up), what the caps took off, the fee and the payout. Highest payout first. As a file for finance (`format=csv` or " +
      "`xlsx`): every row, by payee, the evidence flattened, with the currency (export kind `campaign_payouts`, docs/campaigns.md).",
    tags: CAMPAIGNS,
    params: idParams,
    query: queryParams(campaignRowsQuery.extend({ creator_id: uuid.optional().meta({ description: "Only this creator's videos." }) })),
    exportAs: { kind: "campaign_payouts", params: (p) => ({ campaignId: p.id }) },
    errors: ["NOT_FOUND"],
    responses: {
      200: { description: "A page of rows.", schema: z.object({ data: z.array(payoutRowSchema), pagination: paginationSchema }) },
    },
    async handler({ auth, params, query }) {
      const c = await requireCampaign(auth.workspaceId, params.id);
      const { items, total } = await campaignVideoRows(auth.workspaceId, c, query, { creatorId: query.creator_id });
      return { body: { data: items.map(payoutRowItem), pagination: pagination(total, query.limit, query.offset) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/campaigns/{id}/spend",
    operationId: "getCampaignSpend",
    summary: "Spend over time: the whole campaign and per payee",
    description: "At the end of each local day of the campaign's zone (up to today while it runs); frozen at closing.",
    tags: CAMPAIGNS,
    params: idParams,
    errors: ["NOT_FOUND"],
    responses: {
      200: {
        description: "The series.",
        schema: z.object({ data: z.object({ total: z.array(spendPointSchema), byCreator: z.array(payeeSpendPointSchema) }) }),
      },
    },
    async handler({ auth, params }) {
      const c = await requireCampaign(auth.workspaceId, params.id);
      const s = await campaignSpendOverTime(auth.workspaceId, c);
      return { body: { data: { total: s.total.map(spendPointItem), byCreator: s.byPayee.map(payeeSpendPointItem) } } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/campaigns/{id}/stale-videos",
    operationId: "listCampaignStaleVideos",
    summary: "Qualifying videos without a scrape in the last 24 hours",
    description: "Oldest scrape first (never scraped first of all); none once closed. At most 500.",
    tags: CAMPAIGNS,
    params: idParams,
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "The rows.", schema: z.object({ data: z.array(payoutRowSchema) }) } },
    async handler({ auth, params }) {
      const c = await requireCampaign(auth.workspaceId, params.id);
      return { body: { data: (await campaignStaleVideos(auth.workspaceId, c)).map(payoutRowItem) } };
    },
  }),
];
