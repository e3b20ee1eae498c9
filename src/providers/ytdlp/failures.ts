/**
 * Which yt-dlp failures are permanent: the one classifier of every yt-dlp run (scrapes, media
 * downloads, searches; ./runner.ts applies it). A non-zero exit is retryable by default: yt-dlp exits
 * 1 for network trouble and throttling as much as for a missing video. It is permanent only when
 * yt-dlp's message says the item is gone, private or was never there, and nothing in it says the
 * platform is busy. Timeouts stay retryable; a missing program stays permanent (src/providers/process.ts).
 */
import { ProviderError } from "../../domain/shared/provider-error.ts";

/** The item is gone, private, restricted to others, or never was: retrying will not bring it back. */
const GONE = new RegExp(
  [
    "Video unavailable",
    "Private video",
    "(?:video|account|post|channel) is private",
    "does not exist",
    "not exist anymore",
    "HTTP Error (?:404|410)",
    "Unsupported URL",
    "has been removed",
    "been terminated",
    "been suspended",
    "no longer available",
    "(?:video|content) (?:is )?not available",
    "members[- ]only",
    "confirm your age",
    "not available in your country",
  ].join("|"),
  "i",
);

/** …except when the platform says it is busy or refusing this machine for now, whatever else the message says. */
const BUSY =
  /try again later|HTTP Error (?:429|5\d\d)|rate[- ]limit|not a bot|timed out|urlopen error|Connection (?:refused|reset)|Temporary failure/i;

/** Whether yt-dlp's error text means the item is not there for good (the test table: test/providers/ytdlp-failures.test.ts). */
export function isPermanentFailure(message: string): boolean {
  return GONE.test(message) && !BUSY.test(message);
}

/** A retryable ProviderError of a non-zero yt-dlp exit whose message says the item is gone becomes permanent; anything else is as it was. */
export function classifyYtdlpFailure(e: unknown): unknown {
  if (!(e instanceof ProviderError) || !e.retryable || !/exited with/.test(e.message) || !isPermanentFailure(e.message)) return e;
  const detail = e.message.slice(`${e.provider}: `.length);
  return new ProviderError(e.provider, `not available at the source (${detail})`, false, { cause: e });
}
