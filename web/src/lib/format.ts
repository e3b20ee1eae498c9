/**
 * How numbers and dates read everywhere in the dashboard: counts compact ("1.2M"), percentages with
 * one decimal, times relative ("3 h ago") with the exact time for a tooltip. The browser's locale
 * decides separators; tests run Chromium with en-US.
 */
const compact = new Intl.NumberFormat(undefined, { notation: "compact", maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const exact = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const dayOnly = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

/** 1234567 → "1.2M"; null (not measured yet) → "—". */
export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined) return "—";
  return compact.format(n);
}

/** A count in full, for tooltips and credits: 1234567 → "1,234,567". */
export function formatWhole(n: number | null | undefined): string {
  if (n === null || n === undefined) return "—";
  return whole.format(n);
}

/** Engagement rate (already in percent) → "4.3 %". */
export function formatPercent(n: number | null | undefined): string {
  if (n === null || n === undefined) return "—";
  return `${n.toFixed(1)} %`;
}

/** Growth with its sign: 1200 → "+1.2K". */
export function formatDelta(n: number | null | undefined): string {
  if (n === null || n === undefined) return "—";
  return (n > 0 ? "+" : "") + compact.format(n);
}

export function formatExact(iso: string): string {
  return exact.format(new Date(iso));
}

export function formatDay(iso: string): string {
  return dayOnly.format(new Date(iso));
}

const UNITS: [limit: number, seconds: number, unit: string][] = [
  [60, 1, "s"],
  [3600, 60, "min"],
  [86400, 3600, "h"],
  [86400 * 30, 86400, "d"],
  [86400 * 365, 86400 * 30, "mo"],
  [Infinity, 86400 * 365, "y"],
];

/** "3 h ago", "in 5 min", "just now". */
export function formatRelative(iso: string, now = Date.now()): string {
  const diff = Math.round((new Date(iso).getTime() - now) / 1000);
  const abs = Math.abs(diff);
  if (abs < 10) return "just now";
  const [, seconds, unit] = UNITS.find(([limit]) => abs < limit)!;
  const value = Math.floor(abs / seconds);
  return diff < 0 ? `${value} ${unit} ago` : `in ${value} ${unit}`;
}

/** Seconds of a transcript → "1:05". */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The platforms, written once: filters, forms and labels read this list. */
export const PLATFORMS = [
  { value: "PLATFORM_A", label: "Platform A" },
  { value: "PLATFORM_B", label: "Platform B" },
  { value: "PLATFORM_C", label: "Platform C" },
] as const;

export type PlatformValue = (typeof PLATFORMS)[number]["value"];

export function platformName(type: string): string {
  return PLATFORMS.find((p) => p.value === type)?.label ?? type;
}

/** A count with its noun, the one plural rule: 1 → "1 video", 3 → "3 videos", 1200 → "1,200 videos". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatWhole(n)} ${n === 1 ? one : many}`;
}

/** What a video is called where its description is missing (one fallback everywhere). */
export function videoTitle(v: { description?: string | null; username?: string | null }): string {
  return v.description || (v.username ? `Video by @${v.username}` : "Untitled video");
}

/**
 * Text cut for a line of its own (an option, a link, a title): white space folded, and when longer than `max`
 * characters, cut at the last word that fits, with an ellipsis; a single word longer than that is cut inside.
 */
export function truncate(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const head = flat.slice(0, max - 1);
  const atWord = head.lastIndexOf(" ");
  return `${(atWord > max / 2 ? head.slice(0, atWord) : head).replace(/[\s,;:.–—-]+$/, "")}…`;
}

/** How an account is named for people: "Mia Rossi (@mia_makes)", or "@mia_makes" without a display name. */
export const accountName = (a: { username: string; displayName?: string | null }) =>
  a.displayName ? `${a.displayName} (@${a.username})` : `@${a.username}`;

/** A video's title on one short line (pickers, links in lists): `truncate(videoTitle(v))`. */
export const shortTitle = (v: Parameters<typeof videoTitle>[0], max = 80) => truncate(videoTitle(v), max);

/** An enum value for people: "LINK_IN_BIO" → "Link in bio". */
export function humanize(value: string): string {
  const words = value.toLowerCase().replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
