/**
 * The ports of a radar search (./run.ts): search providers and the query expander. Providers
 * (src/providers/search) implement these; a provider that cannot answer throws a ProviderError
 * (src/domain/shared/provider-error.ts). The bounds of a request mean what `passesFilters` (below)
 * says: a provider applies them with it, and the search applies them again, since a provider is
 * not trusted to.
 */
import type { Platform } from "../shared/platform.ts";

/** The bounds a result must meet (./filters.ts turns the radar's filter words into them). */
export interface CandidateFilters {
  /** Results with fewer views are excluded (0 = any). A result with unknown views fails any minimum > 0. */
  minViews: number;
  /** Results posted before this instant are excluded (null = any). A result of unknown posting time fails any bound. */
  postedAfter: Date | null;
}

/** One search of one expanded query against one source, filters included. */
export interface SearchRequest extends CandidateFilters {
  text: string;
  platform: Platform;
  /** Preferred language, as the user wrote it (e.g. "English"). */
  language: string;
  limit: number;
}

/** A video a search found. `videoId` is set when it is a video the service knows (catalog). */
export interface SearchCandidate {
  videoId: string | null;
  platform: Platform;
  platformVideoId: string;
  url: string;
  description: string;
  username: string;
  viewCount: number | null;
  likeCount: number | null;
  commentCount: number | null;
  shareCount: number | null;
  /** Saves; catalog results have it, flat search listings do not (absent = unknown). */
  bookmarkCount?: number | null;
  postedAt: Date | null;
  thumbnailUrl: string;
  /** The source's own relevance for the query, 0-1 when it has one. */
  textRank: number | null;
}

export interface SearchProvider {
  readonly name: "catalog" | "ytdlp";
  /** Platforms this provider can search; the radar job skips it for others. */
  supports(platform: Platform): boolean;
  search(request: SearchRequest, opts?: { signal?: AbortSignal }): Promise<SearchCandidate[]>;
}

export interface QueryExpander {
  readonly name: "openai" | "offline";
  /** Turns the user's description into `count` distinct search queries in `language`. */
  expand(description: string, count: number, language: string): Promise<string[]>;
}

/**
 * Whether a candidate satisfies the filters. Unknown numbers never pass a bound: a result whose
 * views are unknown fails any minimum above 0, one whose posting time is unknown fails any period.
 */
export function passesFilters(candidate: Pick<SearchCandidate, "viewCount" | "postedAt">, filters: CandidateFilters): boolean {
  if (filters.minViews > 0 && (candidate.viewCount === null || !(candidate.viewCount >= filters.minViews))) return false;
  if (filters.postedAfter !== null) {
    if (candidate.postedAt === null || !(candidate.postedAt.getTime() >= filters.postedAfter.getTime())) return false;
  }
  return true;
}
