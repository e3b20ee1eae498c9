/**
 * The three platforms and their identifiers: written neutrally as in the spec (platform option,
 * `type`, …), the form each platform gives its video ids and account handles, and the one canonical
 * HTTPS link rebuilt from those ids. URL intake (src/domain/tracking/urls.ts) and the providers that
 * read ids from a source (ports: src/domain/tracking/ports.ts) check ids with these rules.
 */
export const PLATFORMS = ["platformA", "platformB", "platformC"] as const;
export type Platform = (typeof PLATFORMS)[number];

/** The id shapes of each platform. Usernames are matched case-insensitively and stored lower-cased. */
export const PATTERN = {
  /** Platform A video ids are 64-bit integers written in decimal. */
  aVideoId: /^[1-9][0-9]{0,18}$/,
  /** Platform A handles: letters, digits, "_" and ".", at most 24, not ending with "." (so never only dots). */
  aUser: /^(?!.*\.$)[a-z0-9_.]{1,24}$/i,
  bVideoId: /^[A-Za-z0-9_-]{11}$/,
  /** Platform B handles: 3 to 30 of letters, digits, "_", "-" and ".", never only dots (non-Latin handles are not accepted). */
  bHandle: /^(?!\.+$)[A-Za-z0-9._-]{3,30}$/,
  /** Platform C shortcodes are base64url; private posts have longer ones. */
  cCode: /^[A-Za-z0-9_-]{5,64}$/,
  /** Platform C usernames: up to 30 of letters, digits, "_" and ".", no leading, trailing or double ".". */
  cUser: /^(?!\.)(?!.*\.\.)(?!.*\.$)[a-z0-9._]{1,30}$/i,
} as const;

/** First path segments of platform C that are pages of the site, not profiles. */
export const C_RESERVED = new Set([
  "about",
  "accounts",
  "api",
  "ar",
  "blog",
  "challenge",
  "create",
  "developer",
  "developers",
  "direct",
  "directory",
  "emails",
  "explore",
  "graphql",
  "help",
  "jobs",
  "legal",
  "lite",
  "live",
  "locations",
  "login",
  "nametag",
  "oauth",
  "p",
  "press",
  "privacy",
  "reel",
  "reels",
  "session",
  "signup",
  "static",
  "stories",
  "terms",
  "tv",
  "web",
  "your_activity",
]);

/**
 * The one canonical HTTPS link of a video, rebuilt from its ids. Platform A links need a handle;
 * without one the platform's placeholder "_" is used (the platform resolves the video by its id).
 * Throws a RangeError for ids of the wrong form: they come from code, not from users.
 */
export function canonicalVideoUrl(ref: { platform: Platform; platformVideoId: string; username?: string }): string {
  const id = ref.platformVideoId;
  switch (ref.platform) {
    case "platformA": {
      const user = ref.username ? ref.username.toLowerCase() : "_";
      requireForm(PATTERN.aVideoId.test(id) && PATTERN.aUser.test(user), ref);
      return `https://www.tiktok.com/@${user}/video/${id}`;
    }
    case "platformB":
      requireForm(PATTERN.bVideoId.test(id), ref);
      return `https://www.youtube.com/watch?v=${id}`;
    case "platformC":
      requireForm(PATTERN.cCode.test(id), ref);
      return `https://www.instagram.com/reel/${id}/`;
  }
}

/** The one canonical HTTPS link of an account, rebuilt from its lower-cased username. */
export function canonicalAccountUrl(ref: { platform: Platform; username: string }): string {
  const user = ref.username.toLowerCase();
  switch (ref.platform) {
    case "platformA":
      requireForm(PATTERN.aUser.test(user), ref);
      return `https://www.tiktok.com/@${user}`;
    case "platformB":
      requireForm(PATTERN.bHandle.test(user), ref);
      return `https://www.youtube.com/@${user}`;
    case "platformC":
      requireForm(PATTERN.cUser.test(user) && !C_RESERVED.has(user), ref);
      return `https://www.instagram.com/${user}/`;
  }
}

function requireForm(ok: boolean, ref: object): void {
  if (!ok) throw new RangeError(`cannot build a canonical URL from ids of the wrong form: ${JSON.stringify(ref)}`);
}

/** Whether `username` (lower-cased, without "@") has the form of an account name of `platform`. */
export function isPlatformUsername(platform: Platform, username: string): boolean {
  switch (platform) {
    case "platformA":
      return PATTERN.aUser.test(username);
    case "platformB":
      return PATTERN.bHandle.test(username);
    case "platformC":
      return PATTERN.cUser.test(username) && !C_RESERVED.has(username);
  }
}

/** Whether `id` has the form of a video id of `platform` (for ids that come from a provider). */
export function isPlatformVideoId(platform: Platform, id: string): boolean {
  const pattern = { platformA: PATTERN.aVideoId, platformB: PATTERN.bVideoId, platformC: PATTERN.cCode }[platform];
  return pattern.test(id);
}
