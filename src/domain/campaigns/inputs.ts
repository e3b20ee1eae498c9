/**
 * Inputs of the campaigns area (creators, campaigns, members, videos by hand, payout rules), one zod
 * schema each, shared by every door: REST bodies and queries, GraphQL arguments mapped onto them, MCP
 * tool arguments. Money is integer minor units of the campaign's ISO 4217 currency (docs/campaigns.md).
 */
import { z } from "zod";
import { idList, page, uuid } from "../shared/inputs.ts";
import { searchText } from "../shared/search.ts";
import { timeZone } from "../notifications/inputs.ts";

const text = (field: string, max: number) =>
  z
    .string({ message: `${field} must be a string` })
    .trim()
    .max(max, `${field} must be at most ${max} characters`);

const name = (field: string) => text(field, 100).min(1, `${field} must not be empty`);

// --- Creators

export const createCreatorInput = z.strictObject({
  name: name("name").meta({ description: "The creator's name (1 to 100 characters)." }),
  contact: text("contact", 200).optional().meta({ description: "How to reach them (email, handle …), up to 200 characters." }),
  notes: text("notes", 2000).optional().meta({ description: "Free notes, up to 2,000 characters." }),
});
export const updateCreatorInput = z
  .strictObject({ name: name("name").optional(), contact: text("contact", 200).optional(), notes: text("notes", 2000).optional() })
  .refine((b) => b.name !== undefined || b.contact !== undefined || b.notes !== undefined, {
    message: "give name, contact or notes",
    path: ["name"],
  });
export const listCreatorsQuery = page(50).extend({ q: searchText("the creator's name") });

/** Accounts given to (or taken from) a creator: canonical account ids the workspace tracks. */
export const creatorAccountsInput = z.strictObject({
  account_ids: idList("account_ids").meta({
    description: "1 to 50 canonical account ids the workspace tracks. An account belongs to at most one creator.",
  }),
});

// --- Money and rules

/** An amount in minor units of the campaign's currency: a non-negative integer (at most 10^12). */
export const minor = (field: string) =>
  z
    .number({ message: `${field} must be an integer amount in minor units` })
    .int(`${field} must be an integer amount in minor units`)
    .min(0, `${field} must not be negative`)
    .max(1e12, `${field} must be at most 1000000000000`);

const ruleFields = {
  cpm_minor: minor("cpm_minor")
    .nullable()
    .optional()
    .meta({ description: "Pay per 1,000 views earned, in minor units; null: no CPM part." }),
  cap_per_video_minor: minor("cap_per_video_minor")
    .nullable()
    .optional()
    .meta({ description: "The most the CPM part of one video pays; null: no cap." }),
  cap_per_creator_minor: minor("cap_per_creator_minor").nullable().optional().meta({
    description: "The most one creator (or one account in the campaign without a creator) is paid in total, fees included; null: no cap.",
  }),
  fee_per_video_minor: minor("fee_per_video_minor")
    .nullable()
    .optional()
    .meta({ description: "A fixed fee per qualifying video; null: none." }),
};

/** A payout rule (the campaign's, or one creator's override): every field optional; absent means null (none). */
export const payoutRule = z.strictObject(ruleFields);
export type PayoutRuleInput = z.output<typeof payoutRule>;

// --- Campaigns

/** A local date-time of the campaign's zone: `YYYY-MM-DDTHH:MM[:SS]`, or a day `YYYY-MM-DD` (its 00:00). */
export const localDateTime = (field: string) =>
  z
    .string({ message: `${field} must be a local date-time YYYY-MM-DDTHH:MM[:SS] or a day YYYY-MM-DD` })
    .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?)?$/, `${field} must be a local date-time YYYY-MM-DDTHH:MM[:SS] or a day YYYY-MM-DD`)
    .refine((s) => {
      const full = s.length === 10 ? `${s}T00:00:00` : s.length === 16 ? `${s}:00` : s;
      const d = new Date(`${full}Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(full) && full >= "2000-01-01" && full <= "2999-12-31";
    }, `${field} must be a real local date-time between 2000 and 2999`)
    .transform((s) => (s.length === 10 ? `${s}T00:00:00` : s.length === 16 ? `${s}:00` : s))
    .meta({
      description: "A local date-time in the campaign's time zone, YYYY-MM-DDTHH:MM[:SS] (a day alone means its 00:00).",
      example: "2026-11-01T00:00",
    });

const CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

export const currency = z
  .string({ message: "currency must be an ISO 4217 code" })
  .regex(/^[A-Za-z]{3}$/, "currency must be an ISO 4217 code, three letters")
  .transform((c) => c.toUpperCase())
  // The codes ICU knows (Node's full ICU: ISO 4217's active codes, and a few historic ones): ZZZ is refused.
  .refine((c) => CURRENCIES.has(c), "currency must be an ISO 4217 code (EUR, USD …), not a code of no currency")
  .meta({ description: "ISO 4217 code (EUR, USD …); amounts are integer minor units of it (cents for EUR)." });

export const hashtag = z
  .string({ message: "hashtag must be a string" })
  .trim()
  .transform((h) => h.replace(/^#/, "").toLowerCase())
  .pipe(z.string().min(1, "hashtag must not be empty").max(100, "hashtag must be at most 100 characters"))
  .meta({ description: "Only videos carrying this hashtag (without #, compared without regard to case)." });

const campaignFields = {
  name: name("name"),
  starts_at: localDateTime("starts_at"),
  ends_at: localDateTime("ends_at").meta({
    description: "The window's end, a local date-time (exclusive for postings; the last history point at or before it is the end's).",
  }),
  time_zone: timeZone.meta({ description: "The IANA time zone of starts_at and ends_at, e.g. Europe/Paris." }),
  currency,
  budget_minor: minor("budget_minor")
    .nullable()
    .optional()
    .meta({ description: "The budget in minor units; null: none (no budget events)." }),
  hashtag: hashtag.nullable().optional(),
  tag_id: uuid.nullable().optional().meta({ description: "Only videos carrying this workspace tag (GET /tags); null: any." }),
  ...ruleFields,
};

/** The longest period: 366 days (the spend over time has one point per local day). */
export const MAX_CAMPAIGN_DAYS = 366;
const periodOrder = (b: { starts_at?: string; ends_at?: string }) =>
  b.starts_at === undefined ||
  b.ends_at === undefined ||
  (b.ends_at > b.starts_at && Date.parse(`${b.ends_at}Z`) - Date.parse(`${b.starts_at}Z`) <= MAX_CAMPAIGN_DAYS * 86_400_000);
const periodIssue = { message: `ends_at must be after starts_at, at most ${MAX_CAMPAIGN_DAYS} days later`, path: ["ends_at"] };

export const createCampaignInput = z
  .strictObject({ ...campaignFields, time_zone: campaignFields.time_zone.default("UTC") })
  .refine(periodOrder, periodIssue);
export type CreateCampaignInput = z.output<typeof createCampaignInput>;

export const updateCampaignInput = z
  .strictObject({
    name: campaignFields.name.optional(),
    starts_at: campaignFields.starts_at.optional(),
    ends_at: campaignFields.ends_at.optional(),
    time_zone: campaignFields.time_zone.optional(),
    currency: campaignFields.currency.optional(),
    budget_minor: campaignFields.budget_minor,
    hashtag: campaignFields.hashtag,
    tag_id: campaignFields.tag_id,
    ...ruleFields,
  })
  .refine(periodOrder, periodIssue);
export type UpdateCampaignInput = z.output<typeof updateCampaignInput>;

export const CAMPAIGN_STATUSES = ["active", "closed"] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const listCampaignsQuery = page(50).extend({
  status: z
    .enum(CAMPAIGN_STATUSES, { message: "status must be active or closed" })
    .optional()
    .meta({ description: "Only campaigns in this status." }),
});

export const campaignMembersInput = z
  .strictObject({
    creator_ids: z.array(uuid, { message: "creator_ids must be an array of UUIDs" }).max(50, "creator_ids holds at most 50 ids").optional(),
    account_ids: z.array(uuid, { message: "account_ids must be an array of UUIDs" }).max(50, "account_ids holds at most 50 ids").optional(),
  })
  .refine((b) => (b.creator_ids?.length ?? 0) + (b.account_ids?.length ?? 0) > 0, {
    message: "give creator_ids, account_ids or both",
    path: ["creator_ids"],
  });

export const campaignVideosInput = z.strictObject({
  video_ids: idList("video_ids").meta({ description: "1 to 50 video ids the workspace tracks." }),
});

export const creatorRuleInput = payoutRule;

export const campaignRowsQuery = page(100);
