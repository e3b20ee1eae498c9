/**
 * The ports of a radar search (./run.ts): search providers and the query expander. Providers
 * (src/providers/search) implement these; a provider that cannot answer throws a ProviderError
 * (src/domain/shared/provider-error.ts). A provider applies the request's bounds with the domain's
 * own rule (passesFilters); the search applies them again, since a provider is not trusted to.
 */
import type { Platform } from "../shared/platform.js";

export { passesFilters } from "./filters.js";
export { ProviderError } from "../shared/provider-error.js";

/** One search of one expanded query against one source, filters included. */
export interface SearchRequest {
  text: string;
  platform: Platform;
  /** Results with fewer views are excluded (0 = any). A result with unknown views fails any minimum > 0. */
  minViews: number;
  /** Results posted before this instant are excluded (null = any). */
  postedAfter: Date | null;
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
