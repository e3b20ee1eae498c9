import { describe, expect, it } from "vitest";
import { DomainError } from "../../src/domain/shared/errors.js";
import { ACCEPTED_ACCOUNT_LINKS, ACCEPTED_VIDEO_LINKS, parseAccountUrl, parseVideoUrl } from "../../src/domain/tracking/urls.js";
import { canonicalAccountUrl, canonicalVideoUrl, isPlatformUsername, isPlatformVideoId } from "../../src/domain/shared/platform.js";

const YT = "dQw4w9WgXcQ";

/** Calls `fn` and returns the DomainError it throws (failing the test when it throws nothing else). */
function invalid(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DomainError);
    return e as DomainError;
  }
  throw new Error("expected INVALID_URL, but the URL was accepted");
}

describe("parseVideoUrl accepts every video shape of the three platforms", () => {
  it.each([
    // platform A: /@user/video/<numeric id>, every allowed host, case-insensitive host, query, slash
    ["https://www.tiktok.com/@scout2015/video/6718335390845095173", "platformA", "6718335390845095173", "scout2015"],
    ["https://tiktok.com/@scout2015/video/6718335390845095173", "platformA", "6718335390845095173", "scout2015"],
    ["https://m.tiktok.com/@scout2015/video/6718335390845095173", "platformA", "6718335390845095173", "scout2015"],
    ["https://WWW.TikTok.COM/@Scout.2015_/video/6718335390845095173", "platformA", "6718335390845095173", "scout.2015_"],
    ["https://www.tiktok.com/@scout2015/video/6718335390845095173/", "platformA", "6718335390845095173", "scout2015"],
    [
      "https://www.tiktok.com/@scout2015/video/6718335390845095173?is_from_webapp=1&sender_device=pc",
      "platformA",
      "6718335390845095173",
      "scout2015",
    ],
    ["https://www.tiktok.com/@scout2015/video/6718335390845095173#comments", "platformA", "6718335390845095173", "scout2015"],
    ["HTTPS://www.tiktok.com/@scout2015/video/6718335390845095173", "platformA", "6718335390845095173", "scout2015"],
    ["  https://www.tiktok.com/@scout2015/video/6718335390845095173\n", "platformA", "6718335390845095173", "scout2015"],
    // platform B: watch?v=, the short host, /shorts/
    [`https://www.youtube.com/watch?v=${YT}`, "platformB", YT, undefined],
    [`https://youtube.com/watch?v=${YT}`, "platformB", YT, undefined],
    [`https://m.youtube.com/watch?v=${YT}`, "platformB", YT, undefined],
    [`https://www.youtube.com/watch?feature=share&v=${YT}&t=42s`, "platformB", YT, undefined],
    [`https://www.YouTube.com/watch?v=${YT}&list=PL590L5WQmH8fJ54F369BLDSqIwcs-TCfs&index=2`, "platformB", YT, undefined],
    [`https://youtu.be/${YT}`, "platformB", YT, undefined],
    [`https://youtu.be/${YT}?si=B_RZg_I-lLaa7UU-`, "platformB", YT, undefined],
    [`https://youtu.be/${YT}/`, "platformB", YT, undefined],
    [`https://www.youtube.com/shorts/${YT}`, "platformB", YT, undefined],
    [`https://youtube.com/shorts/${YT}?feature=share`, "platformB", YT, undefined],
    [`https://m.youtube.com/shorts/${YT}/`, "platformB", YT, undefined],
    ["https://www.youtube.com/shorts/a-b_C1d2E3f", "platformB", "a-b_C1d2E3f", undefined],
    // platform C: /reel/<code>/ and /reels/<code>/, with and without the slash, share query
    ["https://www.instagram.com/reel/C9xYz12AbCd/", "platformC", "C9xYz12AbCd", undefined],
    ["https://instagram.com/reel/C9xYz12AbCd/", "platformC", "C9xYz12AbCd", undefined],
    ["https://m.instagram.com/reel/C9xYz12AbCd", "platformC", "C9xYz12AbCd", undefined],
    ["https://www.instagram.com/reel/C9xYz12AbCd/?igsh=MWQ1ZGUxMzBkMA==", "platformC", "C9xYz12AbCd", undefined],
    ["https://www.instagram.com/reels/C9xYz12AbCd/", "platformC", "C9xYz12AbCd", undefined],
    ["https://WWW.INSTAGRAM.COM/reel/C9xYz12AbCd/", "platformC", "C9xYz12AbCd", undefined],
  ] as const)("%s", (input, platform, platformVideoId, username) => {
    const ref = parseVideoUrl(input);
    expect(ref).toEqual({
      platform,
      platformVideoId,
      ...(username === undefined ? {} : { username }),
      canonicalUrl: canonicalVideoUrl({ platform, platformVideoId, username }),
    });
  });
});

describe("parseAccountUrl accepts every account shape of the three platforms", () => {
  it.each([
    ["https://www.tiktok.com/@scout2015", "platformA", "scout2015", "https://www.tiktok.com/@scout2015"],
    ["https://tiktok.com/@Scout2015/", "platformA", "scout2015", "https://www.tiktok.com/@scout2015"],
    ["https://m.tiktok.com/@scout.2015?lang=en", "platformA", "scout.2015", "https://www.tiktok.com/@scout.2015"],
    ["https://www.TIKTOK.com/@scout_2015?_t=8kXy&_r=1", "platformA", "scout_2015", "https://www.tiktok.com/@scout_2015"],
    ["https://www.instagram.com/natgeo/", "platformC", "natgeo", "https://www.instagram.com/natgeo/"],
    ["https://instagram.com/NatGeo", "platformC", "natgeo", "https://www.instagram.com/natgeo/"],
    ["https://m.instagram.com/nat.geo_travel/?hl=en", "platformC", "nat.geo_travel", "https://www.instagram.com/nat.geo_travel/"],
    ["https://www.instagram.com/natgeo/?igsh=MWQ1ZGUxMzBkMA%3D%3D", "platformC", "natgeo", "https://www.instagram.com/natgeo/"],
    ["https://www.youtube.com/@MrBeast", "platformB", "mrbeast", "https://www.youtube.com/@mrbeast"],
    ["https://youtube.com/@mr.beast-6000_x/", "platformB", "mr.beast-6000_x", "https://www.youtube.com/@mr.beast-6000_x"],
    ["https://m.youtube.com/@MrBeast?si=abc", "platformB", "mrbeast", "https://www.youtube.com/@mrbeast"],
  ] as const)("%s", (input, platform, username, canonicalUrl) => {
    expect(parseAccountUrl(input)).toEqual({ platform, username, canonicalUrl });
  });
});

const VIDEO_A = "https://www.tiktok.com/@scout2015/video/6718335390845095173";

/** Rejections that apply to both kinds of link: [label, input]. */
const NOT_A_SUPPORTED_LINK: Array<[string, string]> = [
  ["empty string", ""],
  ["only whitespace", "   "],
  ["tabs and newlines", "\t\n"],
  ["whitespace inside", "https://www.tik tok.com/@scout2015"],
  ["newline inside the host", "https://www.tik\ntok.com/@scout2015/video/6718335390845095173"],
  ["tab inside the path", "https://www.tiktok.com/@scout\t2015"],
  ["control character", "https://www.tiktok.com/@scout2015\u0000"],
  ["backslashes", "https:\\\\www.tiktok.com\\@scout2015"],
  ["backslash before a look-alike authority", "https://www.tiktok.com\\@evil.example/"],
  ["over 2048 characters", `https://www.youtube.com/watch?v=${YT}&pad=${"a".repeat(2048)}`],
  ["http scheme", "http://www.tiktok.com/@scout2015/video/6718335390845095173"],
  ["ftp scheme", "ftp://www.tiktok.com/@scout2015"],
  ["javascript scheme", "javascript:alert(document.cookie)//https://www.tiktok.com/@scout2015"],
  ["data scheme", "data:text/html,<script>alert(1)</script>"],
  ["scheme-relative", "//www.tiktok.com/@scout2015"],
  ["no scheme", "www.tiktok.com/@scout2015"],
  ["https without slashes", "https:www.tiktok.com/@scout2015"],
  ["no host", "https:///@scout2015"],
  ["look-alike suffix host", "https://www.tiktok.com.evil.example/@scout2015/video/6718335390845095173"],
  ["look-alike prefix host", "https://evil-tiktok.com/@scout2015"],
  ["look-alike glued host", "https://wwwtiktok.com/@scout2015"],
  ["other top-level domain", "https://www.tiktok.co/@scout2015"],
  ["sub-domain not allowlisted", "https://evil.tiktok.com/@scout2015"],
  ["short-link host", "https://vm.tiktok.com/ZMeAbCdEf/"],
  ["trailing-dot host", "https://www.tiktok.com./@scout2015"],
  ["short host look-alike", `https://youtu.be.evil.example/${YT}`],
  ["youtube look-alike", `https://notyoutube.com/watch?v=${YT}`],
  ["instagram look-alike", "https://www.instagram.com.evil.example/natgeo/"],
  ["non-ASCII look-alike host", "https://www.tiktоk.com/@scout2015"],
  ["punycode host", "https://xn--tktok-5ve.com/@scout2015"],
  ["percent-encoded host", "https://www.tiktok%2Ecom/@scout2015"],
  ["userinfo on a foreign host", "https://x@evil.example/"],
  ["userinfo on an allowed host", "https://user@www.tiktok.com/@scout2015/video/6718335390845095173"],
  ["user and password", `https://user:secret@www.youtube.com/watch?v=${YT}`],
  ["allowed host as userinfo", "https://www.tiktok.com@evil.example/@scout2015"],
  ["empty userinfo", "https://@www.tiktok.com/@scout2015"],
  ["explicit port", "https://www.tiktok.com:8443/@scout2015"],
  ["explicit default port", "https://www.tiktok.com:443/@scout2015"],
  ["empty port", "https://www.instagram.com:/natgeo/"],
  ["IPv4 literal", "https://127.0.0.1/@scout2015"],
  ["IPv4 as one number", "https://2130706433/@scout2015"],
  ["IPv4 in hex", "https://0x7f.0.0.1/@scout2015"],
  ["IPv6 literal", `https://[::1]/watch?v=${YT}`],
  ["a platform's home page", "https://www.tiktok.com/"],
  ["a platform's host without a path", "https://www.youtube.com"],
];

describe("parseVideoUrl refuses with INVALID_URL naming the accepted video links", () => {
  const videoOnly: Array<[string, string]> = [
    ["platform A account link", "https://www.tiktok.com/@scout2015"],
    ["platform B account link", "https://www.youtube.com/@MrBeast"],
    ["platform C account link", "https://www.instagram.com/natgeo/"],
    ["platform A non-numeric id", "https://www.tiktok.com/@scout2015/video/abc"],
    ["platform A id with letters", "https://www.tiktok.com/@scout2015/video/67183353908450951a3"],
    ["platform A negative id", "https://www.tiktok.com/@scout2015/video/-6718335390845095173"],
    ["platform A id with a leading zero", "https://www.tiktok.com/@scout2015/video/06718335390845095173"],
    ["platform A id too long", "https://www.tiktok.com/@scout2015/video/67183353908450951731234"],
    ["platform A without id", "https://www.tiktok.com/@scout2015/video/"],
    ["platform A without @", "https://www.tiktok.com/scout2015/video/6718335390845095173"],
    ["platform A photo post", "https://www.tiktok.com/@scout2015/photo/6718335390845095173"],
    ["platform A extra path", "https://www.tiktok.com/@scout2015/video/6718335390845095173/comments"],
    ["platform A doubled slash", "https://www.tiktok.com//@scout2015/video/6718335390845095173"],
    ["platform A bad handle", "https://www.tiktok.com/@scout%202015/video/6718335390845095173"],
    ["platform A handle too long", `https://www.tiktok.com/@${"a".repeat(25)}/video/6718335390845095173`],
    ["platform B id of 10 characters", "https://www.youtube.com/watch?v=dQw4w9WgXc"],
    ["platform B id of 12 characters", "https://www.youtube.com/watch?v=dQw4w9WgXcQQ"],
    ["platform B id with a bad character", "https://www.youtube.com/watch?v=dQw4w9WgX.Q"],
    ["platform B watch without v", "https://www.youtube.com/watch?list=PL590L5WQmH8fJ54F369BLDSqIwcs-TCfs"],
    ["platform B two different v", `https://www.youtube.com/watch?v=${YT}&v=aaaaaaaaaaa`],
    ["platform B empty v", "https://www.youtube.com/watch?v="],
    ["platform B short host with a long id", "https://youtu.be/dQw4w9WgXcQQ"],
    ["platform B short host without id", "https://youtu.be/"],
    ["platform B short host with extra path", `https://youtu.be/${YT}/more`],
    ["platform B short host with watch", `https://youtu.be/watch?v=${YT}`],
    ["platform B shorts with a short id", "https://www.youtube.com/shorts/abc"],
    ["platform B shorts without id", "https://www.youtube.com/shorts/"],
    ["platform B embed", `https://www.youtube.com/embed/${YT}`],
    ["platform B channel page", "https://www.youtube.com/channel/UCX6OQ3DkcsbYNE6H8uQQuVA"],
    ["platform C reel without code", "https://www.instagram.com/reel/"],
    ["platform C reel without code or slash", "https://www.instagram.com/reel"],
    ["platform C reels tab", "https://www.instagram.com/reels/"],
    ["platform C reel code with a bad character", "https://www.instagram.com/reel/C9xYz$2AbCd/"],
    ["platform C reel code too short", "https://www.instagram.com/reel/C9x/"],
    ["platform C reel with extra path", "https://www.instagram.com/reel/C9xYz12AbCd/comments/"],
    ["platform C generic post (decision: refused)", "https://www.instagram.com/p/C9xYz12AbCd/"],
    ["platform C explore", "https://www.instagram.com/explore/"],
    ["platform C accounts", "https://www.instagram.com/accounts/login/"],
    ["platform C story", "https://www.instagram.com/stories/natgeo/3312345678901234567/"],
  ];

  it.each([...NOT_A_SUPPORTED_LINK, ...videoOnly])("%s", (_label, input) => {
    const error = invalid(() => parseVideoUrl(input));
    expect(error.code).toBe("INVALID_URL");
    expect(error.status).toBe(400);
    expect(error.message).toContain(ACCEPTED_VIDEO_LINKS);
  });

  it("names every accepted video link in its message", () => {
    const { message } = invalid(() => parseVideoUrl("https://www.tiktok.com/@scout2015"));
    for (const link of [
      "https://www.tiktok.com/@user/video/<id>",
      "https://www.instagram.com/reel/<code>/",
      "https://www.youtube.com/watch?v=<id>",
      "https://youtu.be/<id>",
      "https://www.youtube.com/shorts/<id>",
    ]) {
      expect(message).toContain(link);
    }
    expect(message).toMatch(/HTTPS video link/);
    expect(message).toMatch(/account link, not a video link/);
  });

  it.each([
    ["", /it is empty/],
    [`https://www.youtube.com/watch?v=${YT}&pad=${"a".repeat(2048)}`, /longer than 2048 characters/],
    ["http://www.tiktok.com/@a/video/1", /only https:\/\/ links/],
    ["https://user@www.tiktok.com/@scout2015/video/6718335390845095173", /user names or passwords/],
    ["https://www.tiktok.com@evil.example/@scout2015", /user names or passwords/],
    ["https://www.tiktok.com:443/@scout2015/video/6718335390845095173", /explicit ports/],
    ["https://127.0.0.1/@scout2015/video/6718335390845095173", /IP addresses/],
    [`https://[::1]/watch?v=${YT}`, /IP addresses/],
    ["https://www.tiktok.com.evil.example/@scout2015/video/6718335390845095173", /host is not a supported platform/],
    ["https://www.tik tok.com/@scout2015", /whitespace/],
  ])("says why %j is refused", (input, reason) => {
    expect(invalid(() => parseVideoUrl(input)).message).toMatch(reason);
  });

  it("refuses input that is not a string at run time", () => {
    expect(invalid(() => parseVideoUrl(42 as unknown as string)).code).toBe("INVALID_URL");
    expect(invalid(() => parseVideoUrl(null as unknown as string)).code).toBe("INVALID_URL");
  });
});

describe("parseAccountUrl refuses with INVALID_URL naming the accepted account links", () => {
  const accountOnly: Array<[string, string]> = [
    ["platform A video link", VIDEO_A],
    ["platform B watch link", `https://www.youtube.com/watch?v=${YT}`],
    ["platform B short host link", `https://youtu.be/${YT}`],
    ["platform B shorts link", `https://www.youtube.com/shorts/${YT}`],
    ["platform C reel link", "https://www.instagram.com/reel/C9xYz12AbCd/"],
    ["platform C reels link", "https://www.instagram.com/reels/C9xYz12AbCd/"],
    ["platform A without @", "https://www.tiktok.com/scout2015"],
    ["platform A bare @", "https://www.tiktok.com/@"],
    ["platform A handle too long", `https://www.tiktok.com/@${"a".repeat(25)}`],
    ["platform A handle with a bad character", "https://www.tiktok.com/@scout-2015"],
    ["platform A extra path", "https://www.tiktok.com/@scout2015/liked"],
    ["platform B without @", "https://www.youtube.com/MrBeast"],
    ["platform B handle too short", "https://www.youtube.com/@ab"],
    ["platform B legacy channel id", "https://www.youtube.com/channel/UCX6OQ3DkcsbYNE6H8uQQuVA"],
    ["platform B legacy custom name", "https://www.youtube.com/c/MrBeast6000"],
    ["platform B legacy user name", "https://www.youtube.com/user/MrBeast6000"],
    ["platform B channel tab", "https://www.youtube.com/@MrBeast/videos"],
    ["platform B handle on the short host", "https://youtu.be/@MrBeast"],
    ["platform C reserved explore", "https://www.instagram.com/explore/"],
    ["platform C reserved accounts", "https://www.instagram.com/accounts/"],
    ["platform C reserved accounts page", "https://www.instagram.com/accounts/login/"],
    ["platform C reserved reel without code", "https://www.instagram.com/reel/"],
    ["platform C reserved p", "https://www.instagram.com/p/"],
    ["platform C reserved stories", "https://www.instagram.com/stories/"],
    ["platform C username with @", "https://www.instagram.com/@natgeo/"],
    ["platform C username with a hyphen", "https://www.instagram.com/nat-geo/"],
    ["platform C username starting with a dot", "https://www.instagram.com/.natgeo/"],
    ["platform C username with double dots", "https://www.instagram.com/nat..geo/"],
    ["platform C username over 30 characters", `https://www.instagram.com/${"a".repeat(31)}/`],
    ["platform C profile tab", "https://www.instagram.com/natgeo/reels/"],
  ];

  it.each([...NOT_A_SUPPORTED_LINK, ...accountOnly])("%s", (_label, input) => {
    const error = invalid(() => parseAccountUrl(input));
    expect(error.code).toBe("INVALID_URL");
    expect(error.status).toBe(400);
    expect(error.message).toContain(ACCEPTED_ACCOUNT_LINKS);
  });

  it("says when a video link was sent as an account", () => {
    const { message } = invalid(() => parseAccountUrl(VIDEO_A));
    expect(message).toMatch(/video link, not an account link/);
    expect(message).toContain("https://www.tiktok.com/@user");
    expect(message).toContain("https://www.instagram.com/user/");
    expect(message).toContain("https://www.youtube.com/@handle");
  });

  it("never echoes the submitted string", () => {
    const { message } = invalid(() => parseAccountUrl("https://evil.example/<script>"));
    expect(message).not.toContain("evil.example");
    expect(message).not.toContain("<script>");
  });
});

describe("canonical links", () => {
  it.each([
    [
      { platform: "platformA", platformVideoId: "6718335390845095173", username: "Scout2015" },
      "https://www.tiktok.com/@scout2015/video/6718335390845095173",
    ],
    [{ platform: "platformA", platformVideoId: "6718335390845095173" }, "https://www.tiktok.com/@_/video/6718335390845095173"],
    [{ platform: "platformB", platformVideoId: YT }, `https://www.youtube.com/watch?v=${YT}`],
    [{ platform: "platformC", platformVideoId: "C9xYz12AbCd" }, "https://www.instagram.com/reel/C9xYz12AbCd/"],
  ] as const)("video %j → %s", (ref, expected) => {
    expect(canonicalVideoUrl(ref)).toBe(expected);
  });

  it.each([
    [{ platform: "platformA", username: "Scout2015" }, "https://www.tiktok.com/@scout2015"],
    [{ platform: "platformB", username: "MrBeast" }, "https://www.youtube.com/@mrbeast"],
    [{ platform: "platformC", username: "natgeo" }, "https://www.instagram.com/natgeo/"],
  ] as const)("account %j → %s", (ref, expected) => {
    expect(canonicalAccountUrl(ref)).toBe(expected);
  });

  it.each([
    VIDEO_A,
    "https://m.tiktok.com/@Scout2015/video/6718335390845095173/?lang=en",
    `https://youtu.be/${YT}?t=10`,
    `https://m.youtube.com/shorts/${YT}`,
    `https://www.youtube.com/watch?v=${YT}&list=x`,
    "https://instagram.com/reels/C9xYz12AbCd",
  ])("video round trip: %s parses to a canonical link that parses to itself", (input) => {
    const first = parseVideoUrl(input);
    const second = parseVideoUrl(first.canonicalUrl);
    expect(second).toEqual(first);
    expect(second.canonicalUrl).toBe(first.canonicalUrl);
  });

  it("gives one canonical link for every platform B shape of the same video", () => {
    const links = [`https://www.youtube.com/watch?v=${YT}`, `https://youtu.be/${YT}`, `https://youtube.com/shorts/${YT}/`];
    expect(new Set(links.map((l) => parseVideoUrl(l).canonicalUrl))).toEqual(new Set([`https://www.youtube.com/watch?v=${YT}`]));
  });

  it.each(["https://tiktok.com/@Scout2015/", "https://m.youtube.com/@MrBeast?si=1", "https://instagram.com/NatGeo"])(
    "account round trip: %s",
    (input) => {
      const first = parseAccountUrl(input);
      expect(parseAccountUrl(first.canonicalUrl)).toEqual(first);
    },
  );

  it("the placeholder handle of a platform A link without one round-trips", () => {
    const url = canonicalVideoUrl({ platform: "platformA", platformVideoId: "6718335390845095173" });
    expect(parseVideoUrl(url)).toMatchObject({ platform: "platformA", platformVideoId: "6718335390845095173", canonicalUrl: url });
  });

  it.each([
    [{ platform: "platformA", platformVideoId: "12ab" }],
    [{ platform: "platformA", platformVideoId: "123", username: "bad handle" }],
    [{ platform: "platformB", platformVideoId: "short" }],
    [{ platform: "platformB", platformVideoId: "--version=1" }],
    [{ platform: "platformC", platformVideoId: "../../x" }],
  ] as const)("refuses to build a video link from ids of the wrong form: %j", (ref) => {
    expect(() => canonicalVideoUrl(ref)).toThrow(RangeError);
  });

  it.each([
    [{ platform: "platformA", username: "has space" }],
    [{ platform: "platformB", username: "ab" }],
    [{ platform: "platformC", username: "explore" }],
    [{ platform: "platformC", username: "a/b" }],
  ] as const)("refuses to build an account link from a username of the wrong form: %j", (ref) => {
    expect(() => canonicalAccountUrl(ref)).toThrow(RangeError);
  });

  it("tells the username forms apart", () => {
    expect(isPlatformUsername("platformA", "chef.marta")).toBe(true);
    expect(isPlatformUsername("platformA", "chef-marta")).toBe(false);
    expect(isPlatformUsername("platformB", "ab")).toBe(false);
    expect(isPlatformUsername("platformB", "sweet-bytes")).toBe(true);
    expect(isPlatformUsername("platformC", "natgeo")).toBe(true);
    expect(isPlatformUsername("platformC", "explore")).toBe(false);
    expect(isPlatformUsername("platformC", "nat..geo")).toBe(false);
  });

  it("tells the video id forms apart", () => {
    expect(isPlatformVideoId("platformA", "6718335390845095173")).toBe(true);
    expect(isPlatformVideoId("platformA", YT)).toBe(false);
    expect(isPlatformVideoId("platformB", YT)).toBe(true);
    expect(isPlatformVideoId("platformB", "6718335390845095173")).toBe(false);
    expect(isPlatformVideoId("platformC", "C9xYz12AbCd")).toBe(true);
    expect(isPlatformVideoId("platformC", "a/b")).toBe(false);
  });
});
