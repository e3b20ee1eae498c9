/**
 * Parsing of the video and account links users submit, and the canonical links rebuilt from them.
 *
 * The user's string never leaves this module: it is checked against an allowlist of each platform's
 * real hosts and a fixed set of path shapes, reduced to ids, and providers are only ever handed the
 * canonical HTTPS URL rebuilt from those ids. Anything else is refused with INVALID_URL and a message
 * naming the accepted links.
 *
 * Decisions (written here because the spec leaves them open):
 * - Hosts: tiktok.com, www.tiktok.com, m.tiktok.com (platform A); youtube.com, www.youtube.com,
 *   m.youtube.com, and the short host youtu.be (platform B); instagram.com, www.instagram.com,
 *   m.instagram.com (platform C). Short-link hosts that only redirect (vm.tiktok.com, vt.tiktok.com)
 *   carry no id, so they cannot be parsed without a network call and are refused.
 * - Platform C videos: `/reel/<code>/` (what "copy link" gives) and `/reels/<code>/` (the address the
 *   reels feed shows for the same reel, same shortcode) are accepted. `/p/<code>/` is refused: it is the
 *   generic post address, usually a photo or carousel, and the link alone cannot tell a reel from a photo.
 * - Platform B accounts: only `/@handle`; legacy `/channel/…`, `/c/…` and `/user/…` addresses and
 *   channel tabs (`/@handle/videos`) are refused, as the spec names only the handle shape.
 * - Query strings and fragments are tolerated everywhere (share links carry `?si=`, `?igsh=`,
 *   `?is_from_webapp=` …) and ignored, except `v` on platform B's watch page. One trailing slash is
 *   tolerated on every path.
 * - Surrounding whitespace (a pasted link) is trimmed; whitespace, control characters (NUL included),
 *   lone UTF-16 surrogates or backslashes inside the link are refused, because URL parsers silently
 *   drop or rewrite them.
 * - Dot segments (`/../admin`, `/%2e%2e/admin`, `/./x`) are refused, never resolved: a link is never
 *   normalised into another handle. Handles must match the platform's grammar (src/domain/shared/platform.ts):
 *   e.g. `https://www.tiktok.com/@..` is refused.
 */
import type { AccountRef, VideoRef } from "./ports.ts";
import { DomainError } from "../shared/errors.ts";
import { C_RESERVED, PATTERN, canonicalAccountUrl, canonicalVideoUrl, type Platform } from "../shared/platform.ts";

const MAX_URL_LENGTH = 2048;

export const ACCEPTED_VIDEO_LINKS =
  "https://www.tiktok.com/@user/video/<id>, https://www.instagram.com/reel/<code>/, " +
  "https://www.youtube.com/watch?v=<id>, https://youtu.be/<id> or https://www.youtube.com/shorts/<id>";

export const ACCEPTED_ACCOUNT_LINKS = "https://www.tiktok.com/@user, https://www.instagram.com/user/ or https://www.youtube.com/@handle";

type Kind = "video" | "account";

const SHORT_HOST = "youtu.be";

/** A path segment that URL parsing resolves away: ".", "..", also percent-encoded (%2e). */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

// A Map, not an object literal: a host such as "constructor" must not find Object.prototype members.
const HOSTS = new Map<string, Platform>([
  ["tiktok.com", "platformA"],
  ["www.tiktok.com", "platformA"],
  ["m.tiktok.com", "platformA"],
  ["youtube.com", "platformB"],
  ["www.youtube.com", "platformB"],
  ["m.youtube.com", "platformB"],
  [SHORT_HOST, "platformB"],
  ["instagram.com", "platformC"],
  ["www.instagram.com", "platformC"],
  ["m.instagram.com", "platformC"],
]);

function invalidUrl(kind: Kind, reason: string): DomainError {
  const accepted = kind === "video" ? ACCEPTED_VIDEO_LINKS : ACCEPTED_ACCOUNT_LINKS;
  return new DomainError(
    "INVALID_URL",
    `Invalid ${kind} URL (${reason}): url must be an HTTPS ${kind} link of a supported platform: ${accepted}.`,
  );
}

/**
 * An account link refused for its handle carries the handle as written (path without its slashes and
 * "@"), so POST /accounts can report it under `failed` next to the INVALID_URL code.
 */
function withHandle(error: DomainError, kind: Kind, rawPath: string): DomainError {
  if (kind === "account") {
    const asWritten = rawPath.replace(/^\/+|\/+$/g, "").replace(/^@/, "");
    error.data = { added: [], alreadyTracked: [], failed: [asWritten] };
  }
  return error;
}

interface Located {
  url: URL;
  host: string;
  platform: Platform;
  /** Path segments, one trailing slash removed; an empty segment means a doubled slash. */
  segments: string[];
}

/** Checks everything but the path: length, characters, scheme, authority, host allowlist. */
function locate(input: unknown, kind: Kind): Located {
  if (typeof input !== "string") throw invalidUrl(kind, "it is not a string");
  const raw = input.trim();
  if (raw === "") throw invalidUrl(kind, "it is empty");
  if (raw.length > MAX_URL_LENGTH) throw invalidUrl(kind, `it is longer than ${MAX_URL_LENGTH} characters`);
  // The WHATWG parser strips tabs and newlines and turns "\" into "/"; refuse instead of guessing.
  if (/[\s\u0000-\u001f\u007f\\]/u.test(raw)) {
    throw invalidUrl(kind, "it contains whitespace, control characters or backslashes");
  }
  if (/\p{Cs}/u.test(raw)) throw invalidUrl(kind, "it is not valid Unicode (a lone surrogate)");
  const authority = /^https:\/\/([^/?#]*)/i.exec(raw)?.[1];
  if (authority === undefined) throw invalidUrl(kind, "only https:// links are accepted");
  checkAuthority(authority, kind);
  // The URL parser resolves "." and ".." segments (written plainly or as %2e): `/../admin` would
  // name the account `admin`. A link is never normalised into another handle: refuse them.
  const rawPath = /^[^?#]*/.exec(raw.slice("https://".length + authority.length))![0];
  if (rawPath.split("/").some((segment) => DOT_SEGMENT.test(segment))) {
    throw withHandle(invalidUrl(kind, "it contains a dot segment (. or ..)"), kind, rawPath);
  }
  const host = authority.toLowerCase();
  const platform = HOSTS.get(host);
  if (!platform) throw invalidUrl(kind, "the host is not a supported platform");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidUrl(kind, "it is not a valid URL");
  }
  // Defence in depth: the parser must agree with the authority checked above.
  if (url.hostname !== host || url.port !== "" || url.username !== "" || url.password !== "") {
    throw invalidUrl(kind, "the host is not a supported platform");
  }
  return { url, host, platform, segments: pathSegments(url.pathname) };
}

function checkAuthority(authority: string, kind: Kind): void {
  if (authority === "") throw invalidUrl(kind, "it has no host");
  if (authority.includes("@")) throw invalidUrl(kind, "user names or passwords in the link are not accepted");
  if (authority.startsWith("[")) throw invalidUrl(kind, "IP addresses are not accepted");
  if (authority.includes(":")) throw invalidUrl(kind, "explicit ports are not accepted");
  if (/^[0-9.]+$/.test(authority) || /^0x/i.test(authority)) throw invalidUrl(kind, "IP addresses are not accepted");
  if (!/^[a-z0-9.-]+$/i.test(authority)) throw invalidUrl(kind, "the host is not a supported platform");
}

function pathSegments(pathname: string): string[] {
  const trimmed = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
  return trimmed === "/" ? [] : trimmed.slice(1).split("/");
}

type VideoIds = Omit<VideoRef, "canonicalUrl">;

/** The video ids the path names, or null when it is not a video link of the platform. */
function videoIdsOf({ url, host, platform, segments }: Located): VideoIds | null {
  const [first, second, third, ...rest] = segments;
  switch (platform) {
    case "platformA": {
      if (rest.length || third === undefined || second !== "video" || !first.startsWith("@")) return null;
      const username = first.slice(1);
      if (!PATTERN.aUser.test(username) || !PATTERN.aVideoId.test(third)) return null;
      return { platform, platformVideoId: third, username: username.toLowerCase() };
    }
    case "platformB": {
      const id = youtubeVideoId(url, host, segments);
      return id && PATTERN.bVideoId.test(id) ? { platform, platformVideoId: id } : null;
    }
    case "platformC": {
      if (rest.length || third !== undefined || (first !== "reel" && first !== "reels")) return null;
      return second !== undefined && PATTERN.cCode.test(second) ? { platform, platformVideoId: second } : null;
    }
  }
}

function youtubeVideoId(url: URL, host: string, segments: string[]): string | null {
  if (host === SHORT_HOST) return segments.length === 1 ? segments[0] : null;
  if (segments.length === 2 && segments[0] === "shorts") return segments[1];
  if (segments.length === 1 && segments[0] === "watch") {
    const ids = url.searchParams.getAll("v");
    // Two different ids in one link are ambiguous; refuse rather than pick one.
    return ids.length === 1 ? ids[0] : null;
  }
  return null;
}

/** The account username the path names (lower-cased, without "@"), or null. */
function accountUsernameOf({ host, platform, segments }: Located): string | null {
  if (segments.length !== 1) return null;
  const [segment] = segments;
  switch (platform) {
    case "platformA":
      return segment.startsWith("@") && PATTERN.aUser.test(segment.slice(1)) ? segment.slice(1).toLowerCase() : null;
    case "platformB":
      if (host === SHORT_HOST) return null;
      return segment.startsWith("@") && PATTERN.bHandle.test(segment.slice(1)) ? segment.slice(1).toLowerCase() : null;
    case "platformC": {
      const name = segment.toLowerCase();
      return PATTERN.cUser.test(name) && !C_RESERVED.has(name) ? name : null;
    }
  }
}

/** Parses a submitted video link; throws INVALID_URL (a DomainError) for anything not accepted. */
export function parseVideoUrl(input: string): VideoRef {
  const located = locate(input, "video");
  const ids = videoIdsOf(located);
  if (!ids) {
    const reason =
      accountUsernameOf(located) !== null ? "it is an account link, not a video link" : "it is not a video link of the platform";
    throw invalidUrl("video", reason);
  }
  return { ...ids, canonicalUrl: canonicalVideoUrl(ids) };
}

/** Parses a submitted account link; throws INVALID_URL (a DomainError) for anything not accepted. */
export function parseAccountUrl(input: string): AccountRef {
  const located = locate(input, "account");
  const username = accountUsernameOf(located);
  if (username === null) {
    if (videoIdsOf(located) !== null) throw invalidUrl("account", "it is a video link, not an account link");
    // One path segment that is not a handle of the platform (e.g. `/@..`): refused, never adjusted into one.
    const error = invalidUrl("account", "it is not an account link of the platform");
    throw located.segments.length === 1 && located.host !== SHORT_HOST ? withHandle(error, "account", located.url.pathname) : error;
  }
  const ids = { platform: located.platform, username };
  return { ...ids, canonicalUrl: canonicalAccountUrl(ids) };
}
