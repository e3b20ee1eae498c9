/**
 * The radar's filter vocabulary (minimum views, time period, research depth) and the pure functions
 * that turn it into the numbers a SearchRequest carries. The REST/GraphQL layers validate against
 * these lists, so the words accepted and their meaning live in one place.
 */
import type { CandidateFilters } from "./ports.ts";

/** Minimum views: each option is an inclusive lower bound (a 9,999-view video never passes `10k`). */
export const MIN_VIEWS = { any: 0, "10k": 10_000, "25k": 25_000, "50k": 50_000, "100k": 100_000 } as const;
export type MinViewsOption = keyof typeof MIN_VIEWS;
export const MIN_VIEWS_VALUES = Object.keys(MIN_VIEWS) as [MinViewsOption, ...MinViewsOption[]];

/**
 * Time periods. The spec writes `last month`; docs/contract/decisions.md also accepts `month` as its synonym.
 *
 * - `today`: since 00:00 UTC of the current UTC day. Not "the last 24 hours": a post from yesterday
 *   evening must not count as today's. Timestamps in the service are UTC, so the day is the UTC day.
 * - `week`: the last 7 × 24 hours (a rolling week, not the calendar week, which would be almost
 *   empty on Mondays).
 * - `last month` / `month`: since the same instant one calendar month ago (22 Nov → 22 Oct). When
 *   that day does not exist, the month's last day (31 Mar → 28/29 Feb).
 * - `year`: since the same instant one calendar year ago (29 Feb → 28 Feb of the year before).
 * - `any`: no bound.
 */
export const TIME_PERIODS = ["any", "today", "week", "last month", "month", "year"] as const;
export type TimePeriod = (typeof TIME_PERIODS)[number];

/** Research depth → number of expanded queries. */
export const QUERIES_PER_DEPTH = { quick: 3, standard: 6, deep: 12 } as const;
export type Depth = keyof typeof QUERIES_PER_DEPTH;
export const DEPTHS = Object.keys(QUERIES_PER_DEPTH) as [Depth, ...Depth[]];

const DAY_MS = 24 * 60 * 60 * 1000;

/** The earliest posting instant a result may have for `period`, measured from `now` (null = any). */
export function postedAfterFor(period: TimePeriod, now: Date = new Date()): Date | null {
  switch (period) {
    case "any":
      return null;
    case "today":
      return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    case "week":
      return new Date(now.getTime() - 7 * DAY_MS);
    case "last month":
    case "month":
      return shiftUtcMonths(now, -1);
    case "year":
      return shiftUtcMonths(now, -12);
  }
}

/** `date` moved by whole calendar months in UTC, clamping the day to the target month's length. */
function shiftUtcMonths(date: Date, months: number): Date {
  const target = new Date(date.getTime());
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return target;
}

/** The numbers a SearchRequest carries for the radar's filter words. */
export function filtersFor(options: { minViews: MinViewsOption; timePeriod: TimePeriod }, now: Date = new Date()): CandidateFilters {
  return { minViews: MIN_VIEWS[options.minViews], postedAfter: postedAfterFor(options.timePeriod, now) };
}
