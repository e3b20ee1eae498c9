/**
 * The time axis of a chart (components/TimeSeriesChart.tsx): where its ticks go and what they say,
 * by the resolution of the chart's buckets. uPlot's own time axis picks ticks by pixel room alone, so
 * a daily chart over a few days got a tick every few hours, each labelled with the same day.
 *
 * - Ticks (`timeTickSplits`) are whole buckets: UTC midnights on a daily chart (a daily point is the
 *   last of its UTC day), whole hours on an hourly one, every 1, 2, 3… buckets so that they fit.
 * - Labels (`timeTickLabels`) say the bucket: the day on a daily chart (with the year when the ticks
 *   span years); the hour on an hourly one, with the day on the first tick of each day. A label
 *   already used by an earlier tick is left empty, so no two ticks ever read the same.
 */
export type Resolution = "hour" | "day";

const HOUR = 3600;
const DAY = 86_400;

/** Tick steps, in seconds, smallest first. */
const DAY_STEPS = [1, 2, 3, 7, 14, 30, 61, 91, 182, 365, 730, 1461];
const STEPS: Record<Resolution, number[]> = {
  // An hourly chart may span a year (the history's cap): its steps go on in days.
  hour: [1, 2, 3, 4, 6, 12].map((h) => h * HOUR).concat(DAY_STEPS.map((d) => d * DAY)),
  day: DAY_STEPS.map((d) => d * DAY),
};

/**
 * Ticks from `min` to `max` (Unix seconds), at most `maxTicks`: multiples of the smallest step that
 * fits, aligned to UTC (midnights, whole hours).
 */
export function timeTickSplits(min: number, max: number, resolution: Resolution, maxTicks: number): number[] {
  const steps = STEPS[resolution];
  const room = Math.max(1, maxTicks);
  const step = steps.find((s) => (max - min) / s <= room) ?? steps[steps.length - 1]!;
  const out: number[] = [];
  for (let t = Math.ceil(min / step) * step; t <= max; t += step) out.push(t);
  return out;
}

export interface AxisLocale {
  /** BCP 47 locale (default: the browser's). */
  locale?: string;
  /** IANA zone of hour labels (default: the browser's); day labels are UTC days, as daily buckets are. */
  timeZone?: string;
}

/** The label of each tick (Unix seconds, ascending), by the chart's resolution; never the same text twice. */
export function timeTickLabels(splits: readonly number[], resolution: Resolution, o: AxisLocale = {}): string[] {
  const seen = new Set<string>();
  const unique = (label: string) => {
    if (seen.has(label)) return "";
    seen.add(label);
    return label;
  };
  if (resolution === "day") {
    const withYear = splits.length > 1 && splits[splits.length - 1]! - splits[0]! > 300 * DAY;
    const day = new Intl.DateTimeFormat(o.locale, {
      month: "short",
      day: "numeric",
      ...(withYear ? { year: "numeric" } : {}),
      timeZone: "UTC",
    });
    return splits.map((t) => unique(day.format(t * 1000)));
  }
  const day = new Intl.DateTimeFormat(o.locale, { month: "short", day: "numeric", timeZone: o.timeZone });
  // 24-hour clock: the shortest unambiguous hour on a narrow axis ("14:00", not "02:00 PM").
  const time = new Intl.DateTimeFormat(o.locale, { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: o.timeZone });
  let previousDay = "";
  return splits.map((t) => {
    const d = day.format(t * 1000);
    const label = d !== previousDay ? `${d} ${time.format(t * 1000)}` : time.format(t * 1000);
    previousDay = d;
    // An hour already shown on another day ("06:00" twice) takes its day to tell them apart.
    return seen.has(label) ? unique(`${d} ${time.format(t * 1000)}`) : unique(label);
  });
}
