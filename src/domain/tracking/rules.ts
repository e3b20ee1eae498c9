/**
 * Account tracking rules, judged: whether a video an account's listing brought may be
 * tracked for a workspace, and if not, which rule refused it and why, in words. Pure: the scrape
 * path (./scrape-store.ts, trackAccountVideos) applies it per workspace before any slot is taken.
 *
 * What a listing does not say cannot refuse a video: an unknown duration passes `minDurationSeconds`,
 * an unknown posting time passes `postedAfter` (a flat listing often lacks both; the video's own
 * scrape fills them in, and the next refresh of the account judges it again only if it is still
 * untracked). Include rules need what they ask for to be present: no hashtags, no match.
 */
import { accountRules, type AccountRules } from "./inputs.ts";

export type { AccountRules };
export type AccountRule = keyof AccountRules;

/** What a rule needs to know of a video (the stored video row, after the listing was stored). */
export interface JudgedVideo {
  description: string;
  /** Lower-cased, without "#" (as stored). */
  hashtags: readonly string[];
  durationSeconds: number | null;
  postedAt: Date | null;
}

export interface Refusal {
  rule: AccountRule;
  reason: string;
}

export const NO_RULES: AccountRules = accountRules.parse({});

/**
 * The rules as stored (`tracked_accounts.rules`, the document accountRules validated) with every
 * field present. A stored document this version cannot read counts as no
 * rule rather than failing the account's scrape.
 */
export function storedRules(value: unknown): AccountRules {
  const parsed = accountRules.safeParse(value ?? {});
  return parsed.success ? parsed.data : NO_RULES;
}

/** Whether any rule is set (a workspace without rules takes the listing as before). */
export function hasRules(r: AccountRules): boolean {
  return (
    r.includeHashtags.length + r.excludeHashtags.length + r.includeWords.length + r.excludeWords.length > 0 ||
    r.minDurationSeconds !== null ||
    r.postedAfter !== null
  );
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A word or phrase as a whole word of the text (letters, digits and _ do not continue it), case-insensitively. */
function mentions(text: string, phrase: string): boolean {
  return new RegExp(`(?<![\\p{L}\\p{M}\\p{N}_])${escapeRegExp(phrase)}(?![\\p{L}\\p{M}\\p{N}_])`, "iu").test(text);
}

const tags = (list: readonly string[]) => list.map((t) => `#${t}`).join(", ");
const quoted = (list: readonly string[]) => list.map((w) => `"${w}"`).join(", ");

/** Null when the rules let the video in; otherwise the first rule that refuses it (exclusions first). */
export function judgeVideo(r: AccountRules, v: JudgedVideo): Refusal | null {
  const has = new Set(v.hashtags.map((t) => t.toLowerCase()));
  const excludedTag = r.excludeHashtags.find((t) => has.has(t));
  if (excludedTag) return { rule: "excludeHashtags", reason: `Has #${excludedTag}, which this account's rules exclude.` };
  const excludedWord = r.excludeWords.find((w) => mentions(v.description, w));
  if (excludedWord) return { rule: "excludeWords", reason: `Mentions "${excludedWord}", which this account's rules exclude.` };
  if (r.includeHashtags.length > 0 && !r.includeHashtags.some((t) => has.has(t))) {
    return { rule: "includeHashtags", reason: `Has none of ${tags(r.includeHashtags)}, which this account's rules require.` };
  }
  if (r.includeWords.length > 0 && !r.includeWords.some((w) => mentions(v.description, w))) {
    return { rule: "includeWords", reason: `Mentions none of ${quoted(r.includeWords)}, which this account's rules require.` };
  }
  if (r.minDurationSeconds !== null && v.durationSeconds !== null && v.durationSeconds < r.minDurationSeconds) {
    return {
      rule: "minDurationSeconds",
      reason: `Lasts ${v.durationSeconds} s, shorter than the rules' minimum of ${r.minDurationSeconds} s.`,
    };
  }
  if (r.postedAfter !== null && v.postedAt !== null && v.postedAt < new Date(`${r.postedAfter}T00:00:00.000Z`)) {
    return {
      rule: "postedAfter",
      reason: `Posted on ${v.postedAt.toISOString().slice(0, 10)}, before ${r.postedAfter}, the first day the rules take.`,
    };
  }
  return null;
}

/** The rule names, for the doors' enums (GraphQL SkippedVideoRule) and descriptions. */
export const ACCOUNT_RULES = [
  "includeHashtags",
  "excludeHashtags",
  "includeWords",
  "excludeWords",
  "minDurationSeconds",
  "postedAfter",
] as const satisfies readonly AccountRule[];
