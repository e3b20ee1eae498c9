/**
 * Campaigns and creators as every door answers them (REST /campaigns and /creators, MCP's campaign
 * tools; the payout rows also as the `campaign_payouts` export writes them): the zod schemas of the
 * OpenAPI document and the mappers from the domain's records (in the domain, which writes the export:
 * src/domain/exports/). Money is integer minor units of `currency` (docs/campaigns.md); names are the
 * domain's, camelCase.
 */
import { z } from "zod";
import type { CreatorRecord } from "./creators.ts";
import type { CampaignMember, CampaignRecord, CreatorRule, VideoByHand } from "./service.ts";
import type { CampaignTotals, PayeeRow, PayeeSpendPoint, PayoutRow, SpendPoint } from "./earnings.ts";
import { int, iso, isoOrNull, timestamp } from "../shared/records.ts";

const money = (description: string) => int().meta({ description: `${description} Integer minor units of the campaign's currency.` });
const moneyOrNull = (description: string) =>
  int()
    .nullable()
    .meta({ description: `${description} Integer minor units; null: none.` });

export const creatorSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    contact: z.string(),
    notes: z.string(),
    accountIds: z
      .array(z.string())
      .meta({ description: "The canonical ids of the creator's accounts (an account has at most one creator)." }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: "Creator" });

export const creatorItem = (c: CreatorRecord, accountIds: string[]) => ({
  id: c.id,
  name: c.name,
  contact: c.contact,
  notes: c.notes,
  accountIds,
  createdAt: iso(c.createdAt),
  updatedAt: iso(c.updatedAt),
});

export const payoutRuleSchema = z
  .object({
    cpmMinor: moneyOrNull("Pay per 1,000 views earned."),
    capPerVideoMinor: moneyOrNull("The most the CPM part of one video pays."),
    capPerCreatorMinor: moneyOrNull("The most one payee is paid in total, fees included."),
    feePerVideoMinor: moneyOrNull("The fixed fee per qualifying video."),
  })
  .meta({ id: "PayoutRule" });

export const campaignSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    startsAt: z.string().meta({ description: "Local date-time of the campaign's zone, YYYY-MM-DDTHH:MM:SS." }),
    endsAt: z.string().meta({ description: "Local date-time of the campaign's zone, YYYY-MM-DDTHH:MM:SS." }),
    timeZone: z.string().meta({ description: "IANA time zone of startsAt and endsAt." }),
    startsAtUtc: timestamp,
    endsAtUtc: timestamp,
    currency: z.string().meta({ description: "ISO 4217." }),
    budgetMinor: moneyOrNull("The budget."),
    hashtag: z.string().nullable(),
    tagId: z.string().nullable(),
    rule: payoutRuleSchema,
    status: z.enum(["active", "closed"]),
    closedAt: timestamp.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: "Campaign" });

export const ruleItem = (r: {
  cpmMinor: number | null;
  capPerVideoMinor: number | null;
  capPerCreatorMinor: number | null;
  feePerVideoMinor: number | null;
}) => ({
  cpmMinor: r.cpmMinor,
  capPerVideoMinor: r.capPerVideoMinor,
  capPerCreatorMinor: r.capPerCreatorMinor,
  feePerVideoMinor: r.feePerVideoMinor,
});

export const campaignItem = (c: CampaignRecord) => ({
  id: c.id,
  name: c.name,
  startsAt: c.startsAt,
  endsAt: c.endsAt,
  timeZone: c.timeZone,
  startsAtUtc: iso(c.startsAtUtc),
  endsAtUtc: iso(c.endsAtUtc),
  currency: c.currency,
  budgetMinor: c.budgetMinor,
  hashtag: c.hashtag,
  tagId: c.tagId,
  rule: ruleItem(c.rule),
  status: c.status,
  closedAt: isoOrNull(c.closedAt),
  createdAt: iso(c.createdAt),
  updatedAt: iso(c.updatedAt),
});

export const campaignDetailSchema = campaignSchema
  .extend({
    members: z.array(z.object({ kind: z.enum(["creator", "account"]), id: z.string(), addedAt: timestamp })),
    creatorRules: z
      .array(payoutRuleSchema.extend({ creatorId: z.string() }))
      .meta({ description: "Per-creator overrides (each replaces the campaign's rule for that creator, whole)." }),
    videosByHand: z.array(z.object({ videoId: z.string(), mode: z.enum(["added", "excluded"]), at: timestamp })),
  })
  .meta({ id: "CampaignDetail" });

export const campaignDetailItem = (c: CampaignRecord, members: CampaignMember[], rules: CreatorRule[], byHand: VideoByHand[]) => ({
  ...campaignItem(c),
  members: members.map((m) => ({ kind: m.kind, id: m.id, addedAt: iso(m.addedAt) })),
  creatorRules: rules.map((r) => ({ creatorId: r.creatorId, ...ruleItem(r) })),
  videosByHand: byHand.map((v) => ({ videoId: v.videoId, mode: v.mode, at: iso(v.at) })),
});

const point = (what: string) =>
  z
    .object({
      at: timestamp.nullable(),
      views: int().nullable(),
      source: z
        .string()
        .nullable()
        .meta({ description: "`posting` (0 views at posting), or the provider that measured it: `ytdlp` (scraped) or `simulated`." }),
      simulated: z.boolean().meta({ description: "True when the point was measured by the simulated provider." }),
    })
    .meta({ description: what });

export const payoutRowSchema = z
  .object({
    videoId: z.string(),
    accountId: z.string().nullable(),
    creatorId: z.string().nullable(),
    payeeName: z.string().meta({ description: "The creator's name, else @username of the account." }),
    platform: z.string().nullable(),
    url: z.string(),
    username: z.string(),
    postedAt: timestamp.nullable(),
    start: point(
      "The start evidence: the last history point at or before the window's start, or 0 views at posting when posted inside it.",
    ),
    end: point("The end evidence: the last history point at or before the window's end."),
    viewsEarned: int(),
    cpmAmount: money("The CPM part (round half-up of views × CPM / 1000), after the per-video cap."),
    perVideoCapCut: money("What the per-video cap took off the CPM part."),
    feeAmount: money("The fixed fee."),
    amountBeforeCreatorCap: money("CPM part + fee."),
    creatorCapCut: money("What the per-creator cap took off this row."),
    payout: money("What this video is paid."),
    lastScrapedAt: timestamp.nullable(),
  })
  .meta({ id: "CampaignPayoutRow" });

const evidence = (at: Date | null, views: number | null, source: string | null) => ({
  at: isoOrNull(at),
  views,
  source,
  simulated: source === "simulated",
});

export const payoutRowItem = (r: PayoutRow) => ({
  videoId: r.videoId,
  accountId: r.accountId,
  creatorId: r.creatorId,
  payeeName: r.payeeName,
  platform: r.platform,
  url: r.url,
  username: r.username,
  postedAt: isoOrNull(r.postedAt),
  start: evidence(r.startAt, r.startViews, r.startSource),
  end: evidence(r.endAt, r.endViews, r.endSource),
  viewsEarned: r.viewsEarned,
  cpmAmount: r.cpmAmount,
  perVideoCapCut: r.perVideoCapCut,
  feeAmount: r.feeAmount,
  amountBeforeCreatorCap: r.amountBeforeCreatorCap,
  creatorCapCut: r.creatorCapCut,
  payout: r.payout,
  lastScrapedAt: isoOrNull(r.lastScrapedAt),
});

export const payeeRowSchema = z
  .object({
    creatorId: z.string().nullable(),
    accountId: z.string().nullable().meta({ description: "Set when the payee is an account in the campaign without a creator." }),
    payeeName: z.string(),
    videos: int(),
    viewsEarned: int(),
    amountBeforeCreatorCap: money("Sum of the rows before the per-creator cap."),
    creatorCapCut: money("What the per-creator cap took off."),
    payout: money("What the workspace owes this payee: the sum of its rows."),
  })
  .meta({ id: "CampaignPayeeRow" });

export const payeeRowItem = (r: PayeeRow) => ({ ...r });

export const campaignTotalsSchema = z
  .object({
    videos: int(),
    viewsEarned: int(),
    payout: money("The sum of the rows' payouts."),
    budgetMinor: moneyOrNull("The budget."),
    budgetUsedPercent: z.number().nullable(),
    remainingMinor: int().nullable(),
    currency: z.string(),
    frozen: z.boolean().meta({ description: "True when these are the frozen figures of a closed campaign." }),
  })
  .meta({ id: "CampaignTotals" });

export const totalsItem = (t: CampaignTotals) => ({ ...t });

export const spendPointSchema = z.object({ at: timestamp, viewsEarned: int(), payout: int() }).meta({ id: "CampaignSpendPoint" });
export const spendPointItem = (p: SpendPoint) => ({ at: iso(p.at), viewsEarned: p.viewsEarned, payout: p.payout });
export const payeeSpendPointSchema = spendPointSchema
  .extend({ creatorId: z.string().nullable(), accountId: z.string().nullable() })
  .meta({ id: "CampaignPayeeSpendPoint" });
export const payeeSpendPointItem = (p: PayeeSpendPoint) => ({ ...spendPointItem(p), creatorId: p.creatorId, accountId: p.accountId });
