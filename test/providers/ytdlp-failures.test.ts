/**
 * The one classifier of yt-dlp failures (src/providers/ytdlp/failures.ts), on the error texts the
 * scrape, media and search tests record from yt-dlp (test/providers/scrape-ytdlp.test.ts,
 * media-transcribe-e2e.test.ts, test/radar/ytdlp-search.test.ts, radar-ytdlp-worker.test.ts,
 * test/tracking/scrape-jobs.test.ts): permanent when the item is gone, private or never was;
 * retryable when the platform is busy, throttling or unreachable, whatever else the text says.
 */
import { describe, expect, it } from "vitest";
import { classifyYtdlpFailure, isPermanentFailure } from "../../src/providers/ytdlp/failures.js";
import { ProviderError } from "../../src/domain/shared/provider-error.js";

const PERMANENT = [
  // scrape
  "ERROR: [youtube] aBcD3fGh1jK: Video unavailable. This video has been removed by the uploader",
  "ERROR: [youtube] aBcD3fGh1jK: Private video. Sign in if you've been granted access to this video",
  "ERROR: [TikTok] 7350269128141550069: Video not available, status code 10204",
  "ERROR: [Instagram] C5aB3dEfGhI: This post is private",
  "ERROR: Unsupported URL: https://www.youtube.com/watch?v=aBcD3fGh1jK",
  "ERROR: [youtube:tab] @gone: This channel does not exist.",
  "ERROR: [youtube] aBcD3fGh1jK: Video unavailable",
  "ERROR: Private video",
  // media
  "ERROR: [youtube] abc: Private video. Sign in if you've been granted access",
  "ERROR: [youtube] abc: Video unavailable. This video has been removed by the uploader",
  "ERROR: Unsupported URL: https://example.com/",
  // media, Debian's real yt-dlp against a loopback server answering 404
  "ERROR: [generic] None: Unable to download webpage: HTTP Error 404: Not Found (caused by <HTTPError 404: 'Not Found'>); please report this issue on  https://github.com/yt-dlp/yt-dlp/issues?q= , filling out the appropriate issue template. Confirm you are on the latest version using  yt-dlp -U",
];

const RETRYABLE = [
  // scrape
  "ERROR: [youtube] aBcD3fGh1jK: Video unavailable. This content isn't available, try again later.",
  "ERROR: [youtube] aBcD3fGh1jK: Sign in to confirm you're not a bot. Use --cookies-from-browser",
  "ERROR: [TikTok] 7350269128141550069: Unable to download webpage: HTTP Error 429: Too Many Requests",
  "ERROR: [youtube] aBcD3fGh1jK: Unable to download API page: <urlopen error [Errno -2] Name or service not known>",
  "ERROR: [Instagram] C5aB3dEfGhI: Requested content is not available, rate-limit reached or login required",
  // media
  "ERROR: [generic] Unable to download webpage: HTTP Error 503: Service Unavailable",
  "ERROR: [generic] Unable to download webpage: <urlopen error [Errno 111] Connection refused>",
  // search
  "WARNING: unable to extract yt initial data\nERROR: Unable to download API page: HTTP Error 429: Too Many Requests",
  "ERROR: [youtube:search] Unable to download API page: HTTP Error 403: Forbidden",
];

describe("isPermanentFailure", () => {
  it.each(PERMANENT)("%j is permanent", (text) => {
    expect(isPermanentFailure(text)).toBe(true);
  });
  it.each(RETRYABLE)("%j is retryable", (text) => {
    expect(isPermanentFailure(text)).toBe(false);
  });
});

describe("classifyYtdlpFailure", () => {
  const exit = (provider: string, text: string) =>
    new ProviderError(provider, `yt-dlp exited with 1: ${text.split("\n").join(" | ")}`, true);

  it("turns a non-zero exit that says the item is gone into a permanent error of the same provider, keeping yt-dlp's words", () => {
    const e = classifyYtdlpFailure(exit("media:ytdlp", PERMANENT[0]!)) as ProviderError;
    expect(e).toBeInstanceOf(ProviderError);
    expect(e).toMatchObject({ provider: "media:ytdlp", retryable: false });
    expect(e.message).toBe(`media:ytdlp: not available at the source (yt-dlp exited with 1: ${PERMANENT[0]})`);
  });

  it("leaves busy exits, timeouts, a missing program and other errors as they are", () => {
    const busy = exit("ytdlp", RETRYABLE[2]!);
    expect(classifyYtdlpFailure(busy)).toBe(busy);
    const timeout = new ProviderError("ytdlp", "yt-dlp timed out after 300 ms: Video unavailable", true);
    expect(classifyYtdlpFailure(timeout)).toBe(timeout);
    const missing = new ProviderError("ytdlp", "yt-dlp is not installed or not on PATH", false);
    expect(classifyYtdlpFailure(missing)).toBe(missing);
    const other = new Error("Video unavailable");
    expect(classifyYtdlpFailure(other)).toBe(other);
  });
});
