/**
 * The `ytdlp` search provider: yt-dlp's own search of platform B (`ytsearchN:<query>`), flat, so one
 * run per query lists N videos without opening each one.
 *
 * - One run per query through the shared runner (../ytdlp/runner.ts: budget, the process's bound,
 *   timeout, JSON lines, failure classification). The user's text is a single argv element after
 *   `--` (no shell, never an option).
 * - Flat entries carry id, title, a description snippet, channel, thumbnails and views; with
 *   `--extractor-args youtubetab:approximate_date` also an approximate posting time parsed from the
 *   source's "3 days ago". Likes, comments and shares are not in a flat entry: they stay null
 *   (never invented), and so does anything else an entry lacks.
 * - Filters are applied to what the entries say: unknown views fail any minimum, an unknown posting
 *   time fails any period.
 * - `textRank` is the source's own order: (n - i) / n for the i-th of n entries, 1 for the first.
 */
import { canonicalVideoUrl, isPlatformUsername, isPlatformVideoId } from "../../domain/shared/platform.ts";
import type { Platform } from "../../domain/shared/platform.ts";
import { ProviderError } from "../../domain/shared/provider-error.ts";
import type { OutboundBudget } from "../outbound-budget.ts";
import { YtdlpRunner, type JsonObject } from "../ytdlp/runner.ts";
import { passesFilters, type SearchCandidate, type SearchProvider, type SearchRequest } from "../../domain/radar/ports.ts";

const PROVIDER = "ytdlp";
const PLATFORM: Platform = "platformB";

/** Entries one search asks for at most (yt-dlp pages through results 20 at a time). */
export const MAX_SEARCH_RESULTS = 100;
/** A flat search listing is a few kB per entry; far more is not one. */
const MAX_STDOUT_BYTES = 8 * 1024 * 1024;

const ARGS = [
  "--no-warnings",
  "--no-progress",
  "--no-cache-dir",
  "--flat-playlist",
  "--dump-json",
  "--extractor-args",
  "youtubetab:approximate_date",
  "--socket-timeout",
  "30",
];

export interface YtdlpSearchOptions {
  /** The yt-dlp program (YTDLP_PATH). */
  path: string;
  timeoutMs: number;
  /** How many yt-dlp processes may run at once (YTDLP_CONCURRENCY, shared with the scrape and media providers). */
  concurrency: number;
  /** The deployment-wide calls-per-platform budget (YTDLP_CALLS_PER_MINUTE); none when absent. */
  budget: OutboundBudget;
}

type Entry = JsonObject;

export class YtdlpSearchProvider implements SearchProvider {
  readonly name = "ytdlp" as const;
  private readonly ytdlp: YtdlpRunner;

  constructor(options: Partial<YtdlpSearchOptions> = {}) {
    this.ytdlp = new YtdlpRunner({ provider: PROVIDER, ...options });
  }

  supports(platform: Platform): boolean {
    return platform === PLATFORM;
  }

  async search(request: SearchRequest, opts: { signal?: AbortSignal } = {}): Promise<SearchCandidate[]> {
    if (!this.supports(request.platform))
      throw new ProviderError(PROVIDER, `search covers ${PLATFORM} only, not ${request.platform}`, false);
    const text = request.text.replace(/\s+/g, " ").trim();
    const count = Math.min(MAX_SEARCH_RESULTS, Math.max(0, Math.floor(request.limit)));
    if (text === "" || count === 0) return [];
    const args = [...ARGS, "--", `ytsearch${count}:${text}`];
    const entries = await this.ytdlp.jsonLines({
      platform: request.platform,
      args,
      maxStdoutBytes: MAX_STDOUT_BYTES,
      signal: opts.signal,
      what: `the search ${JSON.stringify(text)}`,
    });
    const candidates = toCandidates(entries);
    return candidates.filter((c) => passesFilters(c, request)).slice(0, count);
  }
}

/** Entries that are videos of the platform (not channels or playlists), once each, in source order. */
export function toCandidates(entries: Entry[]): SearchCandidate[] {
  const videos = entries.filter(isVideoEntry);
  const unique = videos.filter((e, i) => videos.findIndex((o) => o.id === e.id) === i);
  return unique.map((entry, i) => toCandidate(entry, (unique.length - i) / unique.length));
}

function isVideoEntry(entry: Entry): boolean {
  const ieKey = text(entry.ie_key);
  return (ieKey === "" || ieKey === "Youtube") && isPlatformVideoId(PLATFORM, text(entry.id));
}

function toCandidate(entry: Entry, textRank: number): SearchCandidate {
  const platformVideoId = text(entry.id);
  return {
    videoId: null,
    platform: PLATFORM,
    platformVideoId,
    // The canonical link rebuilt from the id, as everywhere in the service: never the source's string.
    url: canonicalVideoUrl({ platform: PLATFORM, platformVideoId }),
    description: [text(entry.title), text(entry.description)].filter(Boolean).join("\n\n"),
    username: usernameOf(entry),
    viewCount: count(entry.view_count),
    likeCount: count(entry.like_count),
    commentCount: count(entry.comment_count),
    shareCount: count(entry.repost_count),
    postedAt: postedAtOf(entry),
    thumbnailUrl: thumbnailOf(entry),
    textRank,
  };
}

function text(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}

function count(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;
}

/** The channel's handle: `uploader_id` "@handle" (current yt-dlp) or the "/@handle" of its URL, else "". */
function usernameOf(entry: Entry): string {
  const fromId = text(entry.uploader_id).startsWith("@") ? text(entry.uploader_id).slice(1) : "";
  const fromUrl = /\/@([^/?#]+)/.exec(text(entry.uploader_url) || text(entry.channel_url))?.[1] ?? "";
  let handle = fromId || fromUrl;
  try {
    handle = decodeURIComponent(handle);
  } catch {
    // keep it as it was
  }
  handle = handle.toLowerCase();
  return isPlatformUsername(PLATFORM, handle) ? handle : "";
}

/** `timestamp` (approximate in flat entries) or `release_timestamp`, else `upload_date` (YYYYMMDD). */
function postedAtOf(entry: Entry): Date | null {
  const seconds = count(entry.timestamp) ?? count(entry.release_timestamp);
  if (seconds !== null) return new Date(seconds * 1000);
  const day = /^(\d{4})(\d{2})(\d{2})$/.exec(text(entry.upload_date));
  return day ? new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]))) : null;
}

/** `thumbnail` if given, else the last (largest) of `thumbnails`. */
function thumbnailOf(entry: Entry): string {
  const listed = Array.isArray(entry.thumbnails)
    ? entry.thumbnails.map((t) => (typeof t === "object" && t !== null ? text((t as Entry).url) : "")).filter(Boolean)
    : [];
  return text(entry.thumbnail) || listed.at(-1) || "";
}
