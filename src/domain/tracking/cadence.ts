/**
 * Adaptive refresh: when a video or an account is scraped next. One rule, written once and pure
 * (no clock, no database), so tests and the scheduler benchmark (bench/scheduler.ts) call it as the
 * scrape jobs do (./scrape-jobs.ts).
 *
 * Cadence (REFRESH_CADENCE, default `2d=1h,7d=4h,30d=1d,*=7d`): an item is refreshed at the
 * interval of the first tier whose age it has not reached, so a video is scraped hourly while it
 * is under 2 days old, every 4 hours in its first week, daily in its first month and weekly after.
 * A video's age is the time since it was posted; an account's, the time since its newest known
 * video (an account that posts keeps a fast cadence, so its new videos are found early). An item
 * whose age is unknown takes the second-to-last tier (daily by default).
 * An item that is accelerating takes the first tier whatever its age: views per hour since its
 * previous scrape at least REFRESH_HOT_VIEWS_PER_HOUR, or a day's worth of that growth at least
 * REFRESH_HOT_DAILY_GROWTH of its views so far (and at least 100 views a day, so a handful of views
 * on a tiny video is not a trend).
 * Plans shorten it: the interval is multiplied by the smallest `refresh_factor` among the plans of
 * the workspaces tracking the item (pro 0.5, enterprise 0.25 by default), never below 5 minutes.
 *
 * Spreading: each item has a phase in [0, 1) drawn from a hash of its id, and its due times lie
 * on its own grid `phase × interval + k × interval` (UTC epoch): the next refresh is the first grid
 * time at least half an interval away. Items of one interval are therefore spread evenly over that
 * interval whenever they were added (1,000,000 videos tracked in the same minute fall due at about
 * 1,000,000 / interval per minute, not all at once), and an item keeps a steady rhythm.
 *
 * Failures: a refresh whose job fails after its last attempt is retried after
 * REFRESH_BACKOFF_MINUTES, doubling at each consecutive failure up to REFRESH_BACKOFF_MAX_HOURS
 * (±10 %, from the id, so a platform outage does not bring every item back in the same minute);
 * after REFRESH_MAX_FAILURES consecutive failures it gives up: the item is `failed` with the reason
 * and leaves the schedule (a refresh request, or a workspace tracking it anew, puts it back).
 */
import { config, type CadenceTier } from "../../config.ts";

export interface CadenceSettings {
  tiers: CadenceTier[];
  hotViewsPerHour: number;
  hotDailyGrowth: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  maxFailures: number;
}

/** The configured settings (src/config.ts, REFRESH_*). */
export const CADENCE: CadenceSettings = {
  tiers: config.refresh.cadence,
  hotViewsPerHour: config.refresh.hotViewsPerHour,
  hotDailyGrowth: config.refresh.hotDailyGrowth,
  backoffBaseMs: config.refresh.backoffBaseMs,
  backoffMaxMs: config.refresh.backoffMaxMs,
  maxFailures: config.refresh.maxFailures,
};

/** The shortest interval any plan can bring an item to. */
export const MIN_REFRESH_INTERVAL_MS = 5 * 60_000;
/** Below this many views a day, relative growth does not make an item "accelerating". */
const HOT_MIN_VIEWS_PER_DAY = 100;

export interface CadenceInput {
  /** Since the video was posted (an account: since its newest known video); null when unknown. */
  ageMs: number | null;
  /** Views gained per hour between the previous scrape and this one; null on a first scrape. */
  viewsPerHour: number | null;
  /** Views so far (an account: its total views). */
  viewCount: number | null;
  /** The smallest refresh factor among the plans of the workspaces tracking the item (1 when unknown). */
  planFactor: number | null;
}

/** Whether the item's recent growth calls for the fastest tier. */
export function isAccelerating(input: Pick<CadenceInput, "viewsPerHour" | "viewCount">, s: CadenceSettings = CADENCE): boolean {
  const perHour = input.viewsPerHour;
  if (perHour === null || !(perHour > 0)) return false;
  if (perHour >= s.hotViewsPerHour) return true;
  const perDay = perHour * 24;
  return perDay >= HOT_MIN_VIEWS_PER_DAY && input.viewCount !== null && input.viewCount > 0 && perDay >= s.hotDailyGrowth * input.viewCount;
}

/** How long until the item's next refresh (before spreading). */
export function refreshInterval(input: CadenceInput, s: CadenceSettings = CADENCE): number {
  const tiers = s.tiers;
  let tier: CadenceTier;
  if (isAccelerating(input, s)) tier = tiers[0]!;
  else if (input.ageMs === null) tier = tiers[Math.max(0, tiers.length - 2)]!;
  else tier = tiers.find((t) => Math.max(0, input.ageMs!) < t.maxAgeMs) ?? tiers[tiers.length - 1]!;
  const factor = input.planFactor !== null && input.planFactor > 0 && input.planFactor <= 1 ? input.planFactor : 1;
  return Math.max(MIN_REFRESH_INTERVAL_MS, Math.round(tier.intervalMs * factor));
}

/** FNV-1a (32 bits) of the text, as a fraction in [0, 1): the item's phase. */
export function phaseOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) / 4294967296;
}

/** The first time on the item's grid (phase × interval + k × interval) at least half an interval after `now`. */
export function nextOnGrid(id: string, now: Date, intervalMs: number): Date {
  const earliest = now.getTime() + intervalMs / 2;
  const offset = phaseOf(id) * intervalMs;
  const k = Math.ceil((earliest - offset) / intervalMs);
  return new Date(Math.round(offset + k * intervalMs));
}

/** When the item is refreshed next after a successful scrape at `now`. */
export function nextRefreshAt(id: string, now: Date, input: CadenceInput, s: CadenceSettings = CADENCE): Date {
  return nextOnGrid(id, now, refreshInterval(input, s));
}

/** Views per hour between two measurements (null unless both are known and in order). */
export function viewsPerHour(
  previous: { count: number | null; at: Date | null },
  current: { count: number | null; at: Date },
): number | null {
  if (previous.count === null || previous.at === null || current.count === null) return null;
  const hours = (current.at.getTime() - previous.at.getTime()) / 3_600_000;
  return hours > 0 ? (current.count - previous.count) / hours : null;
}

/** What happens after the `failures`-th consecutive failed refresh: retry at `retryAt`, or give up. */
export function afterFailure(
  id: string,
  now: Date,
  failures: number,
  s: CadenceSettings = CADENCE,
): { givesUp: true } | { givesUp: false; retryAt: Date } {
  if (failures >= s.maxFailures) return { givesUp: true };
  const delay = Math.min(s.backoffBaseMs * 2 ** Math.max(0, failures - 1), s.backoffMaxMs);
  const spread = 0.9 + 0.2 * phaseOf(`${id}:${failures}`);
  return { givesUp: false, retryAt: new Date(now.getTime() + Math.round(delay * spread)) };
}
