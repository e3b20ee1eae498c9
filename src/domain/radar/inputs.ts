/**
 * Inputs of the radar use cases, shared by REST (request body, query) and GraphQL (mutation and
 * field arguments). Body field names are the contract's (docs/contract/decisions.md: snake_case like
 * other request bodies).
 */
import { z } from "zod";
import { page } from "../shared/inputs.ts";
import { PLATFORMS } from "../shared/platform.ts";
import { DEPTHS, MIN_VIEWS_VALUES, TIME_PERIODS } from "./filters.ts";

const MAX_QUERY_LENGTH = 1000;
const MAX_LANGUAGE_LENGTH = 50;

/** Time periods as stored and returned: `month` is accepted on input as a synonym of `last month`. */
export const STORED_TIME_PERIODS = TIME_PERIODS.filter((p) => p !== "month") as ["any", "today", "week", "last month", "year"];
export type StoredTimePeriod = (typeof STORED_TIME_PERIODS)[number];

/** A radar search to create. */
export const createSearchInput = z.strictObject({
  query: z
    .string({ message: "query is required and must be a string" })
    .trim()
    .min(1, "query must not be empty")
    .max(MAX_QUERY_LENGTH, `query must be at most ${MAX_QUERY_LENGTH} characters`)
    .meta({
      description:
        "What content is sought; a detailed, specific description gives better results. 1 to 1000 characters (surrounding spaces trimmed).",
    }),
  platform: z
    .enum(PLATFORMS, { message: `platform must be one of ${PLATFORMS.join(", ")}` })
    .default("platformA")
    .meta({ description: "Platform searched (default platformA)." }),
  depth: z
    .enum(DEPTHS, { message: `depth must be one of ${DEPTHS.join(", ")}` })
    .default("standard")
    .meta({ description: "Research depth: quick (3 generated queries), standard (6) or deep (12). Default standard." }),
  min_views: z
    .enum(MIN_VIEWS_VALUES, { message: `min_views must be one of ${MIN_VIEWS_VALUES.join(", ")}` })
    .default("any")
    .meta({
      description:
        "Minimum views, an inclusive bound (10k = at least 10,000). Results whose views are unknown pass only `any`. Default any.",
    }),
  time_period: z
    .enum(TIME_PERIODS, { message: `time_period must be one of ${TIME_PERIODS.join(", ")}` })
    .default("any")
    .transform((p): StoredTimePeriod => (p === "month" ? "last month" : p))
    .meta({
      description:
        "Posting time: today (since 00:00 UTC), week (last 7 days), `last month` (since the same day one calendar month ago; " +
        "`month` is accepted as a synonym and stored as `last month`), year, or any (default).",
    }),
  language: z
    .string({ message: "language must be a string" })
    .trim()
    .min(1, "language must not be empty")
    .max(MAX_LANGUAGE_LENGTH, `language must be at most ${MAX_LANGUAGE_LENGTH} characters`)
    .default("English")
    .meta({ description: "Preferred language for generating the search queries, a name (English) or code (en). Default English." }),
});
export type CreateSearchInput = z.output<typeof createSearchInput>;

export const radarHistoryQuery = page(20);
export const searchResultsQuery = page(20);
