/**
 * GraphQL: creators and campaigns, through the same domain functions as REST and MCP.
 * `Creator` and `Campaign` are nodes (DataLoaders over the workspace-scoped ...ByIds reads); their
 * lists are Relay connections. A campaign's earnings (`creators`, `videos`, `totals`,
 * `spendOverTime`, `staleVideos`) are each one statement of the earnings function
 * (src/domain/campaigns/earnings.ts), aggregated in the database; a closed campaign answers its
 * frozen rows. Money is integer minor units of the campaign's `currency` (`Count` scalar).
 * Every campaign change is owner-only (the role rule: FORBIDDEN for members).
 */
import { createContextCache } from "@pothos/core";
import DataLoader from "dataloader";
import { builder, type GraphQLContext } from "../builder.ts";
import { entityId, nodeUuid, pagedConnection } from "../connections.ts";
import { AccountRef, BulkItemResultRef, VideoRef } from "./tracking.ts";
import { TagRef } from "./tags.ts";
import { parseInput } from "../../../domain/shared/inputs.ts";
import {
  accountIdsOfCreators,
  assignAccounts,
  createCreator,
  CREATORS_ORDER,
  creatorsByIds,
  deleteCreator,
  listCreators,
  requireCreator,
  unassignAccounts,
  updateCreator,
  type CreatorRecord,
} from "../../../domain/campaigns/creators.ts";
import {
  addMembers,
  CAMPAIGNS_ORDER,
  campaignsByIds,
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
  type CampaignMember,
  type CampaignRecord,
  type CreatorRule,
  type PayoutRule,
  type VideoByHand,
} from "../../../domain/campaigns/service.ts";
import { closeCampaign } from "../../../domain/campaigns/close.ts";
import {
  campaignPayeeRows,
  campaignSpendOverTime,
  campaignStaleVideos,
  campaignTotals,
  campaignVideoRows,
  PAYOUT_ROWS_ORDER,
  type CampaignTotals,
  type PayeeRow,
  type PayeeSpendPoint,
  type PayoutRow,
  type SpendPoint,
} from "../../../domain/campaigns/earnings.ts";
import {
  campaignMembersInput,
  campaignVideosInput,
  createCampaignInput,
  createCreatorInput,
  creatorAccountsInput,
  creatorRuleInput,
  listCreatorsQuery,
  updateCampaignInput,
  updateCreatorInput,
} from "../../../domain/campaigns/inputs.ts";

const MONEY = "Integer minor units of the campaign's currency.";

const creatorAccountsLoader = createContextCache(
  (ctx: GraphQLContext) =>
    new DataLoader<string, string[]>(async (ids) => {
      const byId = await accountIdsOfCreators(ctx.auth.workspaceId, ids);
      return ids.map((id) => byId.get(id) ?? []);
    }),
);
const membersLoader = createContextCache(
  (ctx: GraphQLContext) =>
    new DataLoader<string, CampaignMember[]>(async (ids) => {
      const byId = await membersOfCampaigns(ctx.auth.workspaceId, ids);
      return ids.map((id) => byId.get(id) ?? []);
    }),
);

export const CreatorRef = builder.loadableNodeRef("Creator", {
  id: { resolve: (c: CreatorRecord) => c.id, parse: nodeUuid },
  load: (ids: string[], ctx) => creatorsByIds(ctx.auth.workspaceId, ids),
  sort: (c) => c.id,
  cacheResolved: (c) => c.id,
});

export const CampaignRef = builder.loadableNodeRef("Campaign", {
  id: { resolve: (c: CampaignRecord) => c.id, parse: nodeUuid },
  load: (ids: string[], ctx) => campaignsByIds(ctx.auth.workspaceId, ids),
  sort: (c) => c.id,
  cacheResolved: (c) => c.id,
});

CreatorRef.implement({
  description:
    "A person or team behind one or more tracked accounts (across platforms). An account belongs to at most one creator in a workspace.",
  fields: (t) => ({
    uuid: t.exposeID("id", { description: "The creator's UUID, as REST writes it." }),
    name: t.exposeString("name"),
    contact: t.exposeString("contact"),
    notes: t.exposeString("notes"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    accountIds: t.idList({
      description: "The canonical ids of the creator's accounts.",
      resolve: (c, _a, ctx) => creatorAccountsLoader(ctx).load(c.id),
    }),
    accounts: t.field({
      type: [AccountRef],
      nullable: { list: false, items: true },
      description: "The creator's accounts (null for one the workspace no longer tracks).",
      resolve: (c, _a, ctx) => creatorAccountsLoader(ctx).load(c.id),
    }),
  }),
});

const CampaignStatusEnum = builder.enumType("CampaignStatus", {
  values: { ACTIVE: { value: "active" as const }, CLOSED: { value: "closed" as const } },
});

const PayoutRuleRef = builder.objectRef<PayoutRule>("PayoutRule").implement({
  description:
    "A payout rule: CPM (per 1,000 views earned, round half-up per row) with optional caps per video and per creator, a fixed fee per qualifying video, or both.",
  fields: (t) => ({
    cpmMinor: t.field({ type: "Count", nullable: true, description: `Pay per 1,000 views earned. ${MONEY}`, resolve: (r) => r.cpmMinor }),
    capPerVideoMinor: t.field({
      type: "Count",
      nullable: true,
      description: `The most the CPM part of one video pays. ${MONEY}`,
      resolve: (r) => r.capPerVideoMinor,
    }),
    capPerCreatorMinor: t.field({
      type: "Count",
      nullable: true,
      description: `The most one payee is paid in total, fees included, spread over its rows in posting order. ${MONEY}`,
      resolve: (r) => r.capPerCreatorMinor,
    }),
    feePerVideoMinor: t.field({
      type: "Count",
      nullable: true,
      description: `A fixed fee per qualifying video. ${MONEY}`,
      resolve: (r) => r.feePerVideoMinor,
    }),
  }),
});

const CreatorRuleRef = builder.objectRef<CreatorRule>("CampaignCreatorRule").implement({
  description: "A creator's own rule in a campaign: it replaces the campaign's rule for that creator, whole.",
  fields: (t) => ({
    creator: t.field({ type: CreatorRef, nullable: true, resolve: (r) => r.creatorId }),
    rule: t.field({ type: PayoutRuleRef, resolve: (r) => r }),
  }),
});

const CampaignMemberKindEnum = builder.enumType("CampaignMemberKind", {
  values: { CREATOR: { value: "creator" as const }, ACCOUNT: { value: "account" as const } },
});

const CampaignMemberRef = builder.objectRef<CampaignMember>("CampaignMember").implement({
  description: "A creator (all their accounts) or a single account in the campaign.",
  fields: (t) => ({
    kind: t.field({ type: CampaignMemberKindEnum, resolve: (m) => m.kind }),
    creator: t.field({ type: CreatorRef, nullable: true, resolve: (m) => (m.kind === "creator" ? m.id : null) }),
    account: t.field({ type: AccountRef, nullable: true, resolve: (m) => (m.kind === "account" ? m.id : null) }),
    addedAt: t.expose("addedAt", { type: "DateTime" }),
  }),
});

const VideoByHandModeEnum = builder.enumType("CampaignVideoMode", {
  values: { ADDED: { value: "added" as const }, EXCLUDED: { value: "excluded" as const } },
});
const VideoByHandRef = builder.objectRef<VideoByHand>("CampaignVideoByHand").implement({
  description:
    "A video added to the campaign by hand (it counts whatever its account or posting time) or excluded by hand (it never counts).",
  fields: (t) => ({
    videoId: t.exposeID("videoId"),
    video: t.field({ type: VideoRef, nullable: true, resolve: (v) => v.videoId }),
    mode: t.field({ type: VideoByHandModeEnum, resolve: (v) => v.mode }),
    at: t.expose("at", { type: "DateTime" }),
  }),
});

interface Evidence {
  at: Date | null;
  views: number | null;
  source: string | null;
}
const EvidenceRef = builder.objectRef<Evidence>("PayoutEvidence").implement({
  description: "A history point used for views earned.",
  fields: (t) => ({
    at: t.field({ type: "DateTime", nullable: true, resolve: (e) => e.at }),
    views: t.field({ type: "Count", nullable: true, resolve: (e) => e.views }),
    source: t.string({
      nullable: true,
      description: "`posting` (0 views at posting), or the provider that measured it: `ytdlp` (scraped) or `simulated`.",
      resolve: (e) => e.source,
    }),
    simulated: t.boolean({ description: "True when measured by the simulated provider.", resolve: (e) => e.source === "simulated" }),
  }),
});

const money = (t: any, field: keyof PayoutRow | keyof PayeeRow, description: string) =>
  t.field({ type: "Count", description: `${description} ${MONEY}`, resolve: (r: Record<string, number>) => r[field as string] });

const PayoutRowRef = builder.objectRef<PayoutRow>("CampaignVideoRow").implement({
  description: "One qualifying video's earnings: the evidence (the two history points used) and the payout by the rule.",
  fields: (t) => ({
    videoId: t.exposeID("videoId", { description: "The video's UUID." }),
    video: t.field({
      type: VideoRef,
      nullable: true,
      description: "The video (null once the workspace no longer tracks it).",
      resolve: (r) => r.videoId,
    }),
    account: t.field({ type: AccountRef, nullable: true, resolve: (r) => r.accountId }),
    creator: t.field({ type: CreatorRef, nullable: true, resolve: (r) => r.creatorId }),
    payeeName: t.exposeString("payeeName", { description: "The creator's name, else @username of the account." }),
    url: t.exposeString("url"),
    username: t.exposeString("username"),
    postedAt: t.field({ type: "DateTime", nullable: true, resolve: (r) => r.postedAt }),
    start: t.field({
      type: EvidenceRef,
      nullable: true,
      description: "The last point at or before the window's start, or 0 views at posting when posted inside it (null: no point).",
      resolve: (r) => (r.startSource === null ? null : { at: r.startAt, views: r.startViews, source: r.startSource }),
    }),
    end: t.field({
      type: EvidenceRef,
      nullable: true,
      description: "The last point at or before the window's end (null: none yet).",
      resolve: (r) => (r.endSource === null ? null : { at: r.endAt, views: r.endViews, source: r.endSource }),
    }),
    viewsEarned: t.field({ type: "Count", resolve: (r) => r.viewsEarned }),
    cpmAmount: money(t, "cpmAmount", "The CPM part (round half-up of views × CPM / 1000) after the per-video cap."),
    perVideoCapCut: money(t, "perVideoCapCut", "What the per-video cap took off."),
    feeAmount: money(t, "feeAmount", "The fixed fee."),
    amountBeforeCreatorCap: money(t, "amountBeforeCreatorCap", "CPM part + fee."),
    creatorCapCut: money(t, "creatorCapCut", "What the per-creator cap took off this row."),
    payout: money(t, "payout", "What this video is paid."),
    lastScrapedAt: t.field({ type: "DateTime", nullable: true, resolve: (r) => r.lastScrapedAt }),
  }),
});

const PayeeRowRef = builder.objectRef<PayeeRow>("CampaignCreatorRow").implement({
  description: "A payee's earnings: a creator, or an account in the campaign without a creator. Sums of its video rows.",
  fields: (t) => ({
    creator: t.field({ type: CreatorRef, nullable: true, resolve: (r) => r.creatorId }),
    account: t.field({
      type: AccountRef,
      nullable: true,
      description: "Set when the payee is an account without a creator.",
      resolve: (r) => r.accountId,
    }),
    payeeName: t.exposeString("payeeName"),
    videos: t.field({ type: "Count", resolve: (r) => r.videos }),
    viewsEarned: t.field({ type: "Count", resolve: (r) => r.viewsEarned }),
    amountBeforeCreatorCap: money(t, "amountBeforeCreatorCap", "Sum of the rows before the per-creator cap."),
    creatorCapCut: money(t, "creatorCapCut", "What the per-creator cap took off."),
    payout: money(t, "payout", "What the workspace owes this payee: the sum of its rows."),
  }),
});

const TotalsRef = builder.objectRef<CampaignTotals>("CampaignTotals").implement({
  description: "The campaign's totals: sums of the rows (money rounded per row, half-up), and spend against budget.",
  fields: (t) => ({
    videos: t.field({ type: "Count", resolve: (r) => r.videos }),
    viewsEarned: t.field({ type: "Count", resolve: (r) => r.viewsEarned }),
    payout: t.field({ type: "Count", description: `The spend: the sum of the rows' payouts. ${MONEY}`, resolve: (r) => r.payout }),
    budgetMinor: t.field({ type: "Count", nullable: true, resolve: (r) => r.budgetMinor }),
    budgetUsedPercent: t.float({
      nullable: true,
      description: "payout / budget × 100, two decimals.",
      resolve: (r) => r.budgetUsedPercent,
    }),
    remainingMinor: t.field({
      type: "Count",
      nullable: true,
      description: "budget − payout (negative when over budget).",
      resolve: (r) => r.remainingMinor,
    }),
    currency: t.exposeString("currency"),
    frozen: t.exposeBoolean("frozen", { description: "True when these are the frozen figures of a closed campaign." }),
  }),
});

const SpendPointRef = builder.objectRef<SpendPoint>("CampaignSpendPoint").implement({
  description: "The spend up to an instant (each local day's end of the campaign's zone; the last is the window's end).",
  fields: (t) => ({
    at: t.expose("at", { type: "DateTime" }),
    viewsEarned: t.field({ type: "Count", resolve: (p) => p.viewsEarned }),
    payout: t.field({ type: "Count", description: MONEY, resolve: (p) => p.payout }),
  }),
});
const PayeeSpendPointRef = builder.objectRef<PayeeSpendPoint>("CampaignCreatorSpendPoint").implement({
  description: "A payee's views earned and payout up to an instant.",
  fields: (t) => ({
    at: t.expose("at", { type: "DateTime" }),
    creator: t.field({ type: CreatorRef, nullable: true, resolve: (p) => p.creatorId }),
    account: t.field({ type: AccountRef, nullable: true, resolve: (p) => p.accountId }),
    creatorId: t.id({ nullable: true, resolve: (p) => p.creatorId }),
    accountId: t.id({ nullable: true, resolve: (p) => p.accountId }),
    viewsEarned: t.field({ type: "Count", resolve: (p) => p.viewsEarned }),
    payout: t.field({ type: "Count", description: MONEY, resolve: (p) => p.payout }),
  }),
});

/** One spend-over-time read per campaign and request (both series come from it). */
const spendLoader = createContextCache(
  (ctx: GraphQLContext) =>
    new DataLoader<CampaignRecord, Awaited<ReturnType<typeof campaignSpendOverTime>>, string>(
      (cs) => Promise.all(cs.map((c) => campaignSpendOverTime(ctx.auth.workspaceId, c))),
      { cacheKeyFn: (c) => c.id, batch: false },
    ),
);

CampaignRef.implement({
  description:
    "A campaign: a period (local date-times and an IANA time zone), members (creators or single accounts), which videos count, a payout " +
    "rule (with per-creator overrides), a budget. Its earnings are computed from the metric history while it is active and frozen when it is closed.",
  fields: (t) => ({
    uuid: t.exposeID("id", { description: "The campaign's UUID, as REST writes it." }),
    name: t.exposeString("name"),
    startsAt: t.exposeString("startsAt", { description: "Local date-time of the campaign's zone, YYYY-MM-DDTHH:MM:SS." }),
    endsAt: t.exposeString("endsAt", {
      description: "Local date-time of the campaign's zone, YYYY-MM-DDTHH:MM:SS (postings before it count).",
    }),
    timeZone: t.exposeString("timeZone", { description: "IANA time zone of startsAt and endsAt." }),
    startsAtUtc: t.expose("startsAtUtc", { type: "DateTime" }),
    endsAtUtc: t.expose("endsAtUtc", { type: "DateTime" }),
    currency: t.exposeString("currency", { description: "ISO 4217." }),
    budgetMinor: t.field({ type: "Count", nullable: true, description: MONEY, resolve: (c) => c.budgetMinor }),
    hashtag: t.exposeString("hashtag", {
      nullable: true,
      description: "Only videos with this hashtag count (besides those added by hand).",
    }),
    tag: t.field({
      type: TagRef,
      nullable: true,
      description: "Only videos carrying this tag count (besides those added by hand).",
      resolve: (c) => c.tagId,
    }),
    rule: t.field({ type: PayoutRuleRef, resolve: (c) => c.rule }),
    status: t.field({ type: CampaignStatusEnum, resolve: (c) => c.status }),
    closedAt: t.field({ type: "DateTime", nullable: true, resolve: (c) => c.closedAt }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    members: t.field({ type: [CampaignMemberRef], resolve: (c, _a, ctx) => membersLoader(ctx).load(c.id) }),
    creatorRules: t.field({ type: [CreatorRuleRef], resolve: (c, _a, ctx) => creatorRulesOf(ctx.auth.workspaceId, c.id) }),
    videosByHand: t.field({ type: [VideoByHandRef], resolve: (c, _a, ctx) => videosByHand(ctx.auth.workspaceId, c.id) }),
    creators: t.field({
      type: [PayeeRowRef],
      description: "The payees' earnings rows (creators, and accounts in the campaign without a creator), highest payout first.",
      resolve: (c, _a, ctx) => campaignPayeeRows(ctx.auth.workspaceId, c),
    }),
    videos: t.connection(
      {
        type: PayoutRowRef,
        description: "The qualifying videos' rows with their evidence, highest payout first (the top videos).",
        resolve: (c, args, ctx) => pagedConnection(args, PAYOUT_ROWS_ORDER, (window) => campaignVideoRows(ctx.auth.workspaceId, c, window)),
      },
      { name: "CampaignVideoRowConnection" },
      { name: "CampaignVideoRowEdge" },
    ),
    totals: t.field({ type: TotalsRef, resolve: (c, _a, ctx) => campaignTotals(ctx.auth.workspaceId, c) }),
    spendOverTime: t.field({
      type: [SpendPointRef],
      description: "The spend at the end of each local day of the period (up to today while it runs); frozen at closing.",
      resolve: async (c, _a, ctx) => (await spendLoader(ctx).load(c)).total,
    }),
    spendByCreator: t.field({
      type: [PayeeSpendPointRef],
      description: "Each payee's views earned and payout at the end of each local day (the per-creator chart).",
      resolve: async (c, _a, ctx) => (await spendLoader(ctx).load(c)).byPayee,
    }),
    staleVideos: t.field({
      type: [PayoutRowRef],
      description:
        "Qualifying videos without a scrape in the last 24 hours (never scraped included), oldest first; none once closed. At most 500.",
      resolve: (c, _a, ctx) => campaignStaleVideos(ctx.auth.workspaceId, c),
    }),
  }),
});

builder.queryFields((t) => ({
  creators: t.connection(
    {
      type: CreatorRef,
      description: "The workspace's creators by name; with q, those whose name holds its words (totalCount counts them).",
      args: { q: t.arg.string({ description: listCreatorsQuery.shape.q.description }) },
      resolve: (_r, args, ctx) => {
        const { q } = parseInput(listCreatorsQuery.pick({ q: true }), { q: args.q ?? undefined });
        return pagedConnection(args, CREATORS_ORDER, (window) => listCreators(ctx.auth.workspaceId, window, { q }));
      },
    },
    { name: "CreatorConnection" },
    { name: "CreatorEdge" },
  ),
  creator: t.field({
    type: CreatorRef,
    description: "One creator of the workspace, by its global ID or UUID (NOT_FOUND otherwise).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => requireCreator(ctx.auth.workspaceId, entityId(args.id, "Creator", "id")),
  }),
  campaigns: t.connection(
    {
      type: CampaignRef,
      description: "The workspace's campaigns, newest first.",
      args: { status: t.arg({ type: CampaignStatusEnum }) },
      resolve: (_r, args, ctx) =>
        pagedConnection(args, CAMPAIGNS_ORDER, (window) =>
          listCampaigns(ctx.auth.workspaceId, window, { status: args.status ?? undefined }),
        ),
    },
    { name: "CampaignConnection" },
    { name: "CampaignEdge" },
  ),
  campaign: t.field({
    type: CampaignRef,
    description: "One campaign of the workspace, by its global ID or UUID (NOT_FOUND otherwise).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => requireCampaign(ctx.auth.workspaceId, entityId(args.id, "Campaign", "id")),
  }),
}));

const PayoutRuleInput = builder.inputType("PayoutRuleInput", {
  description: "A payout rule; an absent or null field means none. Amounts in minor units.",
  fields: (t) => ({
    cpmMinor: t.field({ type: "Count" }),
    capPerVideoMinor: t.field({ type: "Count" }),
    capPerCreatorMinor: t.field({ type: "Count" }),
    feePerVideoMinor: t.field({ type: "Count" }),
  }),
});

const CampaignInput = builder.inputType("CampaignInput", {
  description:
    "A campaign's fields (REST's, camelCased). On create: name, startsAt, endsAt and currency are required, timeZone defaults to UTC. On update: " +
    "an absent field is kept, a null one cleared.",
  fields: (t) => ({
    name: t.string(),
    startsAt: t.string({ description: "Local date-time YYYY-MM-DDTHH:MM[:SS] (or a day) of timeZone." }),
    endsAt: t.string({ description: "Local date-time YYYY-MM-DDTHH:MM[:SS] (or a day) of timeZone; at most 366 days after startsAt." }),
    timeZone: t.string({ description: "IANA time zone, e.g. Europe/Paris." }),
    currency: t.string({ description: "ISO 4217 code." }),
    budgetMinor: t.field({ type: "Count" }),
    hashtag: t.string(),
    tagId: t.id(),
    cpmMinor: t.field({ type: "Count" }),
    capPerVideoMinor: t.field({ type: "Count" }),
    capPerCreatorMinor: t.field({ type: "Count" }),
    feePerVideoMinor: t.field({ type: "Count" }),
  }),
});

type CampaignInputShape = typeof CampaignInput.$inferInput;
/** GraphQL's camelCase onto the domain's input: absent stays absent, null stays null (cleared). */
function campaignFields(i: CampaignInputShape): Record<string, unknown> {
  const map: [keyof CampaignInputShape, string][] = [
    ["name", "name"],
    ["startsAt", "starts_at"],
    ["endsAt", "ends_at"],
    ["timeZone", "time_zone"],
    ["currency", "currency"],
    ["budgetMinor", "budget_minor"],
    ["hashtag", "hashtag"],
    ["tagId", "tag_id"],
    ["cpmMinor", "cpm_minor"],
    ["capPerVideoMinor", "cap_per_video_minor"],
    ["capPerCreatorMinor", "cap_per_creator_minor"],
    ["feePerVideoMinor", "fee_per_video_minor"],
  ];
  const out: Record<string, unknown> = {};
  for (const [from, to] of map) {
    const v = i[from];
    if (v === undefined) continue;
    out[to] = from === "tagId" && v !== null ? entityId(v as string, "Tag", "input.tagId") : v;
  }
  return out;
}

const creatorIdOf = (id: string | number, arg = "creatorId") => entityId(id, "Creator", arg);
const campaignIdOf = (id: string | number, arg = "campaignId") => entityId(id, "Campaign", arg);
const ids = (list: readonly (string | number)[] | null | undefined, type: string, arg: string) =>
  list == null ? undefined : list.map((id, i) => entityId(id, type, `${arg}.${i}`));

builder.mutationFields((t) => ({
  createCreator: t.field({
    type: CreatorRef,
    description: "Creates a creator (name 1 to 100 characters; contact and notes optional).",
    args: { name: t.arg.string({ required: true }), contact: t.arg.string(), notes: t.arg.string() },
    resolve: (_r, a, ctx) =>
      createCreator(
        ctx.auth.workspaceId,
        parseInput(createCreatorInput, { name: a.name, contact: a.contact ?? undefined, notes: a.notes ?? undefined }),
      ),
  }),
  updateCreator: t.field({
    type: CreatorRef,
    description:
      "Changes a creator's name, contact or notes. While an active campaign pays the creator (its name and contact are in every payout row), owners only (FORBIDDEN for a member).",
    args: { id: t.arg.id({ required: true }), name: t.arg.string(), contact: t.arg.string(), notes: t.arg.string() },
    resolve: (_r, a, ctx) =>
      updateCreator(
        ctx.auth,
        creatorIdOf(a.id, "id"),
        parseInput(updateCreatorInput, { name: a.name ?? undefined, contact: a.contact ?? undefined, notes: a.notes ?? undefined }),
      ),
  }),
  deleteCreator: t.id({
    description:
      "Deletes a creator and answers its UUID: its accounts become unassigned, its campaign memberships and rules go (closed campaigns keep their frozen rows). While an active campaign pays the creator, owners only (FORBIDDEN for a member).",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, a, ctx) => (await deleteCreator(ctx.auth, creatorIdOf(a.id, "id"))).id,
  }),
  assignCreatorAccounts: t.field({
    type: [BulkItemResultRef],
    description:
      "Gives tracked accounts to a creator (1 to 50); per-id results: `Account not found`, `Account belongs to another creator`. While an active campaign pays the creator or any of the accounts, owners only (FORBIDDEN for a member: it changes who is paid).",
    args: { creatorId: t.arg.id({ required: true }), accountIds: t.arg.idList({ required: true }) },
    resolve: (_r, a, ctx) =>
      assignAccounts(
        ctx.auth,
        creatorIdOf(a.creatorId),
        parseInput(creatorAccountsInput, { account_ids: ids(a.accountIds, "Account", "accountIds") }).account_ids,
      ),
  }),
  unassignCreatorAccounts: t.int({
    description:
      "Takes accounts from a creator (1 to 50); answers how many were the creator's. While an active campaign pays the creator or any of the accounts, owners only (FORBIDDEN for a member: it changes who is paid).",
    args: { creatorId: t.arg.id({ required: true }), accountIds: t.arg.idList({ required: true }) },
    resolve: async (_r, a, ctx) =>
      (
        await unassignAccounts(
          ctx.auth,
          creatorIdOf(a.creatorId),
          parseInput(creatorAccountsInput, { account_ids: ids(a.accountIds, "Account", "accountIds") }).account_ids,
        )
      ).removed,
  }),
  createCampaign: t.field({
    type: CampaignRef,
    description: "Creates a campaign (owner-only).",
    args: { input: t.arg({ type: CampaignInput, required: true }) },
    resolve: (_r, a, ctx) => createCampaign(ctx.auth, parseInput(createCampaignInput, campaignFields(a.input), "input")),
  }),
  updateCampaign: t.field({
    type: CampaignRef,
    description: "Changes an active campaign (owner-only; CAMPAIGN_CLOSED once closed): an absent field is kept, a null one cleared.",
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: CampaignInput, required: true }) },
    resolve: (_r, a, ctx) =>
      updateCampaign(ctx.auth, campaignIdOf(a.id, "id"), parseInput(updateCampaignInput, campaignFields(a.input), "input")),
  }),
  closeCampaign: t.field({
    type: CampaignRef,
    description:
      "Closes a campaign (owner-only): its rows and spend over time are frozen (later scrapes change nothing), `campaign.closed` is sent. " +
      "CAMPAIGN_CLOSED when it already is.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => closeCampaign(ctx.auth, campaignIdOf(a.id, "id")),
  }),
  deleteCampaign: t.id({
    description: "Deletes a campaign, with its frozen rows when closed (owner-only); answers its UUID.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, a, ctx) => (await deleteCampaign(ctx.auth, campaignIdOf(a.id, "id"))).id,
  }),
  addCampaignMembers: t.field({
    type: [BulkItemResultRef],
    description: "Adds creators and/or single tracked accounts to a campaign (owner-only); per-id results, creators first.",
    args: { campaignId: t.arg.id({ required: true }), creatorIds: t.arg.idList(), accountIds: t.arg.idList() },
    resolve: (_r, a, ctx) =>
      addMembers(
        ctx.auth,
        campaignIdOf(a.campaignId),
        parseInput(campaignMembersInput, {
          creator_ids: ids(a.creatorIds, "Creator", "creatorIds"),
          account_ids: ids(a.accountIds, "Account", "accountIds"),
        }),
      ),
  }),
  removeCampaignMembers: t.int({
    description: "Removes creators and/or accounts from a campaign (owner-only); answers how many were members.",
    args: { campaignId: t.arg.id({ required: true }), creatorIds: t.arg.idList(), accountIds: t.arg.idList() },
    resolve: async (_r, a, ctx) =>
      (
        await removeMembers(
          ctx.auth,
          campaignIdOf(a.campaignId),
          parseInput(campaignMembersInput, {
            creator_ids: ids(a.creatorIds, "Creator", "creatorIds"),
            account_ids: ids(a.accountIds, "Account", "accountIds"),
          }),
        )
      ).removed,
  }),
  addCampaignVideos: t.field({
    type: [BulkItemResultRef],
    description: "Adds tracked videos to a campaign by hand (owner-only): they count whatever their account or posting time.",
    args: { campaignId: t.arg.id({ required: true }), videoIds: t.arg.idList({ required: true }) },
    resolve: (_r, a, ctx) =>
      setVideosByHand(
        ctx.auth,
        campaignIdOf(a.campaignId),
        parseInput(campaignVideosInput, { video_ids: ids(a.videoIds, "Video", "videoIds") }).video_ids,
        "added",
      ),
  }),
  excludeCampaignVideos: t.field({
    type: [BulkItemResultRef],
    description: "Excludes videos from a campaign by hand (owner-only): they never count.",
    args: { campaignId: t.arg.id({ required: true }), videoIds: t.arg.idList({ required: true }) },
    resolve: (_r, a, ctx) =>
      setVideosByHand(
        ctx.auth,
        campaignIdOf(a.campaignId),
        parseInput(campaignVideosInput, { video_ids: ids(a.videoIds, "Video", "videoIds") }).video_ids,
        "excluded",
      ),
  }),
  resetCampaignVideos: t.int({
    description: "Forgets what was said by hand of these videos (owner-only); answers how many.",
    args: { campaignId: t.arg.id({ required: true }), videoIds: t.arg.idList({ required: true }) },
    resolve: async (_r, a, ctx) =>
      (
        await clearVideosByHand(
          ctx.auth,
          campaignIdOf(a.campaignId),
          parseInput(campaignVideosInput, { video_ids: ids(a.videoIds, "Video", "videoIds") }).video_ids,
        )
      ).removed,
  }),
  setCampaignCreatorRule: t.field({
    type: CreatorRuleRef,
    nullable: true,
    description:
      "Sets a creator's own rule in a campaign (owner-only; it replaces the campaign's rule for that creator, whole); `rule: null` removes it (answers null).",
    args: { campaignId: t.arg.id({ required: true }), creatorId: t.arg.id({ required: true }), rule: t.arg({ type: PayoutRuleInput }) },
    resolve: (_r, a, ctx) =>
      setCreatorRule(
        ctx.auth,
        campaignIdOf(a.campaignId),
        creatorIdOf(a.creatorId),
        a.rule == null
          ? null
          : parseInput(
              creatorRuleInput,
              {
                cpm_minor: a.rule.cpmMinor ?? null,
                cap_per_video_minor: a.rule.capPerVideoMinor ?? null,
                cap_per_creator_minor: a.rule.capPerCreatorMinor ?? null,
                fee_per_video_minor: a.rule.feePerVideoMinor ?? null,
              },
              "rule",
            ),
      ),
  }),
}));
