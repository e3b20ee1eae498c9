/**
 * Inputs of the tracking use cases, one schema each, shared by every door (REST validates its
 * bodies and queries with them, adding only query-string coercion; GraphQL maps its arguments onto
 * them), so both refuse the same things with the same VALIDATION_ERROR. Field names are the REST
 * contract's (snake_case where the spec writes it so).
 */
import { z } from "zod";
import { day, idList, page, pageLimit, pageOffset, postedDays, sortOrder } from "../shared/inputs.ts";
import { searchText } from "../shared/search.ts";
import { PLATFORMS } from "../shared/platform.ts";
import { ACCOUNT_SORTS, HISTORY_INTERVALS, VIDEO_SORTS } from "./views.ts";
import { ACCEPTED_ACCOUNT_LINKS, ACCEPTED_VIDEO_LINKS } from "./urls.ts";
import { tagFilter } from "../tags/inputs.ts";

export const DEFAULT_ACCOUNT_VIDEO_LIMIT = 50;
const MAX_ACCOUNT_VIDEO_LIMIT = 500;

/**
 * A link as submitted: only "is it a string" is checked here (VALIDATION_ERROR); whether it is an
 * accepted link is URL intake's rule (./urls.ts), answered with INVALID_URL.
 */
const urlField = (kind: "video" | "account", accepted: string) =>
  z.string({ message: "url is required and must be a string" }).meta({
    description: `HTTPS ${kind} link. Accepted: ${accepted}. Any other string answers 400 INVALID_URL; a missing or non-string url answers 400 VALIDATION_ERROR.`,
  });

export const trackVideoInput = z.strictObject({ url: urlField("video", ACCEPTED_VIDEO_LINKS) });

const VIDEO_LIMIT_MESSAGE = `video_limit must be an integer from 1 to ${MAX_ACCOUNT_VIDEO_LIMIT}`;

export const trackAccountInput = z.strictObject({
  url: urlField("account", ACCEPTED_ACCOUNT_LINKS),
  video_limit: z
    .number({ message: VIDEO_LIMIT_MESSAGE })
    .int(VIDEO_LIMIT_MESSAGE)
    .min(1, VIDEO_LIMIT_MESSAGE)
    .max(MAX_ACCOUNT_VIDEO_LIMIT, VIDEO_LIMIT_MESSAGE)
    .default(DEFAULT_ACCOUNT_VIDEO_LIMIT)
    .meta({
      description: `Max number of the account's newest videos tracked (1-${MAX_ACCOUNT_VIDEO_LIMIT}, default ${DEFAULT_ACCOUNT_VIDEO_LIMIT}).`,
    }),
});

/** Up to 50 video ids; an empty list is allowed (it answers an empty list). */
export const untrackVideosInput = z.strictObject({ ids: idList("ids", 0) });

/**
 * GET /videos' optional filters and order (docs/contract/decisions.md, "Metric history and
 * refresh"); without them the list is the spec's (newest tracked first).
 */
export const videoListFilter = z.object({
  platform: z
    .enum(PLATFORMS, { message: `platform must be one of ${PLATFORMS.join(", ")}` })
    .optional()
    .meta({ description: "Only videos of this platform." }),
  q: searchText("the video's description or its author's username"),
  sort: z
    .enum(VIDEO_SORTS, { message: `sort must be one of ${VIDEO_SORTS.join(", ")}` })
    .default("tracked_at")
    .meta({
      description:
        "tracked_at (default: when the workspace started tracking), posted_at, views, engagement (engagement rate), views_24h, outlier " +
        "(outlierScore). Videos whose key is null (not scraped yet, unknown) come last in both orders; ties by video id.",
    }),
  order: sortOrder("order").default("desc").meta({ description: "desc (default) or asc." }),
  tag: tagFilter,
});

export const listVideosQuery = page(20).extend(videoListFilter.shape);

/** GET /videos/{id}/history and /accounts/{id}/history. */
export const historyQuery = z.object({
  start_date: day.optional().meta({ description: "YYYY-MM-DD, inclusive UTC day (default: 29 days before end_date, so 30 days in all)." }),
  end_date: day.optional().meta({ description: "YYYY-MM-DD, inclusive UTC day (default: today, or start_date when it is later)." }),
  interval: z.enum(HISTORY_INTERVALS, { message: "interval must be hour or day" }).default("day").meta({
    description:
      "day (default): the last point of each UTC day. hour: every point at scrape resolution (past the full-resolution window, the daily points).",
  }),
});
export type HistoryQuery = z.output<typeof historyQuery>;
/** GET /accounts: the spec's page, and the tag filter (additive). */
export const listAccountsQuery = page(20).extend({ tag: tagFilter });

/** Filters and order of GraphQL `accounts` (REST GET /accounts takes none: its list is the spec's). */
export const accountListFilter = z.object({
  platform: videoListFilter.shape.platform,
  q: searchText("the account's username or display name"),
  sort: z.enum(ACCOUNT_SORTS, { message: `sort must be one of ${ACCOUNT_SORTS.join(", ")}` }).default("tracked_at"),
  order: sortOrder("order").default("desc"),
  tag: tagFilter,
});

export const accountVideosQuery = page(20).extend(postedDays.shape);

// ---------------------------------------------------------------------------------------------
// Account tracking rules: one document per tracked account, replaced whole. Names are
// the same on every door (REST body and record, GraphQL, MCP); judged by ./rules.ts.

const MAX_RULE_ITEMS = 20;
const HASHTAG_RULE = /^[\p{L}\p{M}\p{N}_]{1,100}$/u;
const HASHTAG_MESSAGE = "a hashtag is 1 to 100 letters, digits or _, with or without its leading #";
const WORD_MESSAGE = "a word or phrase is 1 to 100 characters";

/** A hashtag as the service stores them (./rules.ts compares with `videos.hashtags`): lower-cased, without "#". */
const ruleHashtag = z
  .string({ message: HASHTAG_MESSAGE })
  .trim()
  .transform((s) => s.replace(/^#/, "").toLowerCase())
  .pipe(z.string().regex(HASHTAG_RULE, HASHTAG_MESSAGE));
const ruleWord = z.string({ message: WORD_MESSAGE }).trim().toLowerCase().min(1, WORD_MESSAGE).max(100, WORD_MESSAGE);
const ruleList = <S extends z.ZodType>(item: S, field: string, what: string) =>
  z
    .array(item, { message: `${field} must be a list` })
    .max(MAX_RULE_ITEMS, `${field} holds at most ${MAX_RULE_ITEMS} items`)
    .default([])
    .meta({ description: what });

export const accountRules = z.strictObject({
  includeHashtags: ruleList(
    ruleHashtag,
    "includeHashtags",
    "Only videos with at least one of these hashtags (with or without #, case-insensitive). Empty: no such rule.",
  ),
  excludeHashtags: ruleList(ruleHashtag, "excludeHashtags", "Never videos with any of these hashtags."),
  includeWords: ruleList(
    ruleWord,
    "includeWords",
    "Only videos whose description has at least one of these words or phrases (whole words, case-insensitive). Empty: no such rule.",
  ),
  excludeWords: ruleList(
    ruleWord,
    "excludeWords",
    "Never videos whose description has any of these words or phrases (whole words, case-insensitive).",
  ),
  minDurationSeconds: z
    .number({ message: "minDurationSeconds must be a whole number of seconds from 1 to 86400, or null" })
    .int("minDurationSeconds must be a whole number of seconds from 1 to 86400, or null")
    .min(1, "minDurationSeconds must be a whole number of seconds from 1 to 86400, or null")
    .max(86_400, "minDurationSeconds must be a whole number of seconds from 1 to 86400, or null")
    .nullable()
    .default(null)
    .meta({
      description:
        "Only videos lasting at least this many seconds (a video whose duration the listing does not give passes). Null: no such rule.",
    }),
  postedAfter: day
    .transform((d) => d.toISOString().slice(0, 10))
    .nullable()
    .default(null)
    .meta({
      description:
        "YYYY-MM-DD: only videos posted on or after 00:00 UTC of that day (a video whose posting time is not known passes). Null: no such rule.",
    }),
});
export type AccountRules = z.output<typeof accountRules>;

/** GET /accounts/{id}/skipped-videos. */
export const skippedVideosQuery = page(20);
