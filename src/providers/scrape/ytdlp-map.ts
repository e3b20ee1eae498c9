/**
 * Maps yt-dlp's info JSON (`--dump-json`, `-J --flat-playlist`) onto ScrapedVideo and ScrapedAccount.
 *
 * Field names are those of yt-dlp's extractors, old and new, since operators run anything from
 * Debian's 2023 package to a current release:
 * - counts: view_count, like_count, comment_count, repost_count (→ shareCount), save_count
 *   (→ bookmarkCount; platform A's extractor reads it from the platform's collect_count);
 * - people: platform A `uploader` is the handle and the nickname is `channel` (new) or `creator`
 *   (old); platform B `uploader_id` is "@handle" (new) or a channel id (old), the name is `channel`;
 *   platform C `channel` is the username (`uploader_id` in old versions) and `uploader` the full name;
 * - music: `track` and `artist` (or the newer `artists` list).
 * A value the source does not give stays null (counts) or "" (strings): nothing is invented.
 */
import { canonicalVideoUrl, isPlatformUsername, isPlatformVideoId } from "../../domain/shared/platform.ts";
import type { Platform } from "../../domain/shared/platform.ts";
import { mergeHashtags } from "./hashtags.ts";
import type { AccountRef, ScrapedAccount, ScrapedVideo, VideoRef } from "../../domain/tracking/ports.ts";

export type Info = Record<string, unknown>;

function isInfo(value: unknown): value is Info {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A non-negative count, or null when the source did not give one. */
function count(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;
}

function text(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}

function firstText(...values: unknown[]): string {
  return values.map(text).find((v) => v !== "") ?? "";
}

function textList(value: unknown): string[] {
  return Array.isArray(value) ? value.map(text).filter((v) => v !== "") : [];
}

function handle(value: unknown): string {
  return text(value).replace(/^@/, "").toLowerCase();
}

/** `timestamp` (or a premiere's `release_timestamp`) in seconds, else `upload_date` (YYYYMMDD, UTC). */
function postedAt(info: Info): Date | null {
  const seconds = count(info.timestamp) ?? count(info.release_timestamp);
  if (seconds !== null) return new Date(seconds * 1000);
  const day = /^(\d{4})(\d{2})(\d{2})$/.exec(text(info.upload_date));
  return day ? new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]))) : null;
}

/** `thumbnail` is yt-dlp's pick; flat entries only carry the list, sorted worst to best. */
function thumbnailUrl(info: Info): string {
  const listed = Array.isArray(info.thumbnails) ? info.thumbnails.filter(isInfo).map((t) => text(t.url)) : [];
  return firstText(info.thumbnail, ...listed.reverse());
}

/** The author's handle, or "" when the source gives none of the platform's form (links are built from it). */
function usernameOf(platform: Platform, info: Info): string {
  const name = rawUsernameOf(platform, info);
  return isPlatformUsername(platform, name) ? name : "";
}

function rawUsernameOf(platform: Platform, info: Info): string {
  switch (platform) {
    case "platformA":
      return handle(info.uploader);
    case "platformB": {
      // New versions: uploader_id "@handle"; otherwise the handle is in the uploader's URL.
      const fromId = text(info.uploader_id).startsWith("@") ? handle(info.uploader_id) : "";
      const fromUrl = /\/@([^/?#]+)/.exec(firstText(info.uploader_url, info.channel_url))?.[1] ?? "";
      return fromId || handle(safeDecode(fromUrl));
    }
    case "platformC": {
      // Old versions put the username in uploader_id; new ones put the numeric user id there.
      const oldStyle = /^\d+$/.test(text(info.uploader_id)) ? "" : info.uploader_id;
      return handle(firstText(info.channel, oldStyle));
    }
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function displayNameOf(platform: Platform, info: Info): string {
  switch (platform) {
    case "platformA":
      return firstText(info.channel, info.creator, ...textList(info.creators));
    case "platformB":
      return firstText(info.channel, info.uploader);
    case "platformC":
      return firstText(info.uploader, info.channel);
  }
}

/**
 * Platform B is the only one with a title apart from the description, and the service's video has
 * no title field: its description is the title, then the description. On platforms A and C the
 * title is derived from the caption (or "Video by …") and adds nothing.
 */
function descriptionOf(platform: Platform, info: Info): string {
  const description = text(info.description);
  if (platform !== "platformB") return description;
  const title = text(info.title);
  return [title, description].filter(Boolean).join("\n\n");
}

function musicAuthorOf(info: Info): string {
  return firstText(info.artist, textList(info.artists).join(", "));
}

/** Maps one video's info. `ref` supplies the ids and the canonical URL: never the source's URL. */
export function mapVideo(ref: VideoRef, info: Info, opts: { partial?: boolean } = {}): ScrapedVideo {
  const description = descriptionOf(ref.platform, info);
  return {
    platform: ref.platform,
    platformVideoId: ref.platformVideoId,
    url: ref.canonicalUrl,
    description,
    hashtags: mergeHashtags(description, textList(info.tags)),
    viewCount: count(info.view_count),
    likeCount: count(info.like_count),
    commentCount: count(info.comment_count),
    shareCount: count(info.repost_count),
    bookmarkCount: count(info.save_count),
    postedAt: postedAt(info),
    durationSeconds: count(info.duration),
    thumbnailUrl: thumbnailUrl(info),
    username: usernameOf(ref.platform, info) || (ref.username ?? ""),
    displayName: displayNameOf(ref.platform, info),
    musicName: text(info.track),
    musicAuthor: musicAuthorOf(info),
    // yt-dlp gives no cover art for the sound of a video.
    musicCoverUrl: "",
    language: text(info.language) || null,
    ...(opts.partial ? { partial: true } : {}),
  };
}

/**
 * The videos of an account's flat listing, newest first, at most `max`. Entries whose id is not a
 * video id of the platform (a nested tab, a photo post) are skipped. Every one is marked partial:
 * a listing carries only some of a video's fields.
 */
export function mapListedVideos(account: AccountRef, listing: Info, max: number): ScrapedVideo[] {
  const entries = Array.isArray(listing.entries) ? listing.entries.filter(isInfo) : [];
  const seen = new Set<string>();
  const videos: ScrapedVideo[] = [];
  for (const entry of entries) {
    const id = text(entry.id);
    if (!isPlatformVideoId(account.platform, id) || seen.has(id) || /\/photo\//.test(text(entry.url))) continue;
    seen.add(id);
    const username = usernameOf(account.platform, entry) || account.username;
    const ids = { platform: account.platform, platformVideoId: id, username: account.platform === "platformA" ? username : undefined };
    videos.push(mapVideo({ ...ids, canonicalUrl: canonicalVideoUrl(ids) }, entry, { partial: true }));
  }
  return newestFirst(videos).slice(0, max);
}

/**
 * Listings come newest first, except pinned videos at the top; when every video has a date, sorting
 * puts the pinned ones where they belong. Without dates the source's order is kept.
 */
function newestFirst(videos: ScrapedVideo[]): ScrapedVideo[] {
  if (!videos.every((v) => v.postedAt)) return videos;
  return [...videos].sort((a, b) => b.postedAt!.getTime() - a.postedAt!.getTime());
}

/** The avatar among a channel's thumbnails (platform B also lists banners), else the thumbnail. */
function avatarOf(profile: Info): string {
  const thumbnails = Array.isArray(profile.thumbnails) ? profile.thumbnails.filter(isInfo) : [];
  const byId = (test: (id: string) => boolean) => thumbnails.find((t) => test(text(t.id)) && text(t.url));
  const avatar = byId((id) => id === "avatar_uncropped") ?? byId((id) => id.includes("avatar"));
  return avatar ? text(avatar.url) : text(profile.thumbnail);
}

/** An id of the account on its platform that is not just its username. */
function accountIdOf(ref: AccountRef, profile: Info): string | null {
  const candidates = [profile.channel_id, text(profile.uploader_id).startsWith("@") ? "" : profile.uploader_id, profile.id];
  const id = candidates.map(text).find((v) => v !== "" && v.toLowerCase() !== ref.username);
  return id ?? null;
}

/**
 * Maps an account's profile and its listing (one and the same JSON on platforms A and C; two runs on
 * platform B). `videoCount` is yt-dlp's `playlist_count` of the listing, which it only reports when
 * it knows the full length; follower and view totals only where the extractor reports them.
 */
export function mapAccount(ref: AccountRef, profile: Info, listing: Info | null): ScrapedAccount {
  const firstEntry = Array.isArray(listing?.entries) ? listing.entries.find(isInfo) : undefined;
  const entryName = firstEntry && usernameOf(ref.platform, firstEntry) === ref.username ? displayNameOf(ref.platform, firstEntry) : "";
  return {
    platform: ref.platform,
    username: ref.username,
    platformAccountId: accountIdOf(ref, profile),
    displayName: displayNameOf(ref.platform, profile) || entryName,
    avatarUrl: avatarOf(profile),
    followerCount: count(profile.channel_follower_count),
    videoCount: listing ? count(listing.playlist_count) : null,
    totalViews: count(profile.view_count),
  };
}
