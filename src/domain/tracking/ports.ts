import type { Platform } from "../shared/platform.ts";

/** What the service hands a scrape provider: ids parsed from a URL and the canonical URL rebuilt
 *  from them (never the user's string). */
export interface VideoRef {
  platform: Platform;
  platformVideoId: string;
  /** Platform A URLs carry the author's handle; known for videos tracked by URL. */
  username?: string;
  canonicalUrl: string;
}

export interface AccountRef {
  platform: Platform;
  /** Lower-cased handle without "@". */
  username: string;
  canonicalUrl: string;
}

/** A video's metadata and metrics as a source reported them. A metric the source does not give
 *  is null, never invented. Strings the source lacks are "". */
export interface ScrapedVideo {
  platform: Platform;
  platformVideoId: string;
  url: string;
  description: string;
  hashtags: string[];
  viewCount: number | null;
  likeCount: number | null;
  commentCount: number | null;
  shareCount: number | null;
  bookmarkCount: number | null;
  postedAt: Date | null;
  durationSeconds: number | null;
  thumbnailUrl: string;
  /** Author handle, lower-cased, without "@"; "" when unknown. */
  username: string;
  displayName: string;
  musicName: string;
  musicAuthor: string;
  musicCoverUrl: string;
  language: string | null;
  /** True when the source only listed the video (an account's flat listing) rather than scraping
   *  it: fields the listing lacks are null or "" without meaning the video lacks them, so they must
   *  not overwrite known values, and a scrape of the video itself fills them in. */
  partial?: boolean;
}

export interface ScrapedAccount {
  platform: Platform;
  username: string;
  platformAccountId: string | null;
  displayName: string;
  avatarUrl: string;
  followerCount: number | null;
  videoCount: number | null;
  totalViews: number | null;
}

export interface ScrapeProvider {
  /** Recorded on every snapshot and record as `dataSource`: `ytdlp` or `simulated`. */
  readonly name: "ytdlp" | "simulated";
  /** `signal`: the job was handed back (src/domain/shared/jobs.ts): stop (its budget wait, its program) and throw. */
  scrapeVideo(ref: VideoRef, opts?: { signal?: AbortSignal }): Promise<ScrapedVideo>;
  /** The account's profile and its newest videos (newest first), at most `maxVideos` of them. */
  scrapeAccount(
    ref: AccountRef,
    opts: { maxVideos: number; signal?: AbortSignal },
  ): Promise<{ account: ScrapedAccount; videos: ScrapedVideo[] }>;
}
