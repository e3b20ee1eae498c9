/**
 * Scraping through yt-dlp: `--dump-json` for one video, `-J --flat-playlist` for an account's
 * profile and newest videos. Every run goes through one concurrency bound and a timeout; yt-dlp
 * only ever sees the canonical URL rebuilt from parsed ids, after `--`.
 *
 * Runs use `--no-config` so that a user's yt-dlp config file cannot change the output this parses.
 * An operator who needs cookies or a proxy (platform C mostly answers only to a logged-in session)
 * points YTDLP_PATH at a wrapper script that adds them.
 */
import { config } from "../../config.js";
import { ProviderError } from "../../domain/shared/provider-error.js";
import { concurrencyLimit, runProgram, sharedProgramLimit } from "../process.js";
import type { OutboundBudget } from "../outbound-budget.js";
import type { Platform } from "../../domain/shared/platform.js";
import type { AccountRef, ScrapedAccount, ScrapedVideo, ScrapeProvider, VideoRef } from "../../domain/tracking/ports.js";
import { type Info, isInfo, mapAccount, mapListedVideos, mapVideo } from "./ytdlp-map.js";

const PROVIDER = "ytdlp";

/** Options every run gets: predictable output, metadata only, no progress noise, bounded waits. */
const COMMON_ARGS = [
  "--no-config",
  "--no-warnings",
  "--no-progress",
  "--no-cache-dir",
  "--skip-download",
  // Metadata is what is wanted, even when the platform offers no downloadable format.
  "--ignore-no-formats-error",
  "--socket-timeout",
  "30",
];

/** A video's info JSON with every format listed can run to megabytes; more is not a video. */
const MAX_STDOUT_BYTES = 32 * 1024 * 1024;

/** Platform A lets a creator pin up to three older videos above the newest ones. */
const PINNED_MAX = 3;

export interface YtdlpScrapeOptions {
  /** The yt-dlp program (YTDLP_PATH). */
  path: string;
  timeoutMs: number;
  /** How many yt-dlp processes may run at once; given, the provider gets a bound of its own. */
  concurrency: number;
  /** The deployment-wide calls-per-platform budget (YTDLP_CALLS_PER_MINUTE); none when absent. */
  budget: OutboundBudget;
}

type Limit = ReturnType<typeof concurrencyLimit>;


export class YtdlpScrapeProvider implements ScrapeProvider {
  readonly name = "ytdlp" as const;
  private readonly path: string;
  private readonly timeoutMs: number;
  private readonly limit: Limit;
  private readonly budget: OutboundBudget | undefined;

  constructor(options: Partial<YtdlpScrapeOptions> = {}) {
    this.budget = options.budget;
    this.path = options.path ?? config.programs.ytdlp;
    this.timeoutMs = options.timeoutMs ?? config.programs.ytdlpTimeoutMs;
    this.limit = options.concurrency
      ? concurrencyLimit(options.concurrency)
      : sharedProgramLimit("yt-dlp", config.programs.ytdlpConcurrency);
  }

  async scrapeVideo(ref: VideoRef): Promise<ScrapedVideo> {
    const infos = await this.runJson(ref.platform, ["--dump-json", "--no-playlist", "--", ref.canonicalUrl]);
    // One line per video; with --no-playlist there is one, but pick by id to be sure.
    const info = infos.find((i) => String(i.id) === ref.platformVideoId) ?? infos[0];
    return mapVideo(ref, info);
  }

  async scrapeAccount(ref: AccountRef, opts: { maxVideos: number }): Promise<{ account: ScrapedAccount; videos: ScrapedVideo[] }> {
    const max = Math.max(0, Math.floor(opts.maxVideos));
    if (ref.platform === "platformB") return this.scrapeChannel(ref, max);
    const extra = ref.platform === "platformA" ? PINNED_MAX : 0;
    const listing = await this.listing(ref.platform, ref.canonicalUrl, max + extra);
    return { account: mapAccount(ref, listing, listing), videos: mapListedVideos(ref, listing, max) };
  }

  /**
   * Platform B: the channel page gives the profile (followers, channel id) but lists tabs, not
   * videos; the channel's uploads playlist ("UU" + the id after "UC") lists long videos and shorts
   * together, newest first.
   */
  private async scrapeChannel(ref: AccountRef, max: number) {
    const profile = await this.listing(ref.platform, ref.canonicalUrl, 1);
    if (max === 0) return { account: mapAccount(ref, profile, null), videos: [] };
    const channelId = [profile.channel_id, profile.id].map(String).find((v) => /^UC[A-Za-z0-9_-]{22}$/.test(v));
    if (!channelId) throw new ProviderError(PROVIDER, `yt-dlp gave no channel id for ${ref.canonicalUrl}`, true);
    const uploads = await this.listing(ref.platform, `https://www.youtube.com/playlist?list=UU${channelId.slice(2)}`, max);
    return { account: mapAccount(ref, profile, uploads), videos: mapListedVideos(ref, uploads, max) };
  }

  private async listing(platform: Platform, url: string, entries: number): Promise<Info> {
    // `--playlist-end 0` would mean "no end": ask for one entry and drop it instead.
    const args = ["--dump-single-json", "--flat-playlist", "--playlist-end", String(Math.max(1, entries)), "--", url];
    const [info] = await this.runJson(platform, args);
    return entries === 0 ? { ...info, entries: [] } : info;
  }

  /** Runs yt-dlp within the platform's budget and under the shared bound, and parses its output: one JSON object per line. */
  private async runJson(platform: Platform, args: string[]): Promise<Info[]> {
    await this.budget?.take(platform);
    const { stdout } = await this.limit(() => this.run(args));
    return parseJsonLines(stdout, args.at(-1) ?? "");
  }

  private async run(args: string[]) {
    try {
      return await runProgram(PROVIDER, this.path, [...COMMON_ARGS, ...args], {
        timeoutMs: this.timeoutMs,
        maxStdoutBytes: MAX_STDOUT_BYTES,
      });
    } catch (e) {
      throw classifyFailure(e);
    }
  }
}

/**
 * Parses yt-dlp's stdout. Output that is not one JSON object per line is a bad answer, retryable
 * once or twice (a crash mid-write, a page the platform served instead of data), so the job's
 * retry policy decides when to give up.
 */
export function parseJsonLines(stdout: string, url: string): Info[] {
  const lines = stdout.split("\n").map((l) => l.trim()).filter(Boolean);
  const parsed = lines.map((line) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      return undefined;
    }
  });
  if (parsed.length === 0 || !parsed.every(isInfo)) {
    const excerpt = JSON.stringify(stdout.trim().slice(0, 80));
    throw new ProviderError(PROVIDER, `yt-dlp did not print JSON info for ${url} (output began ${excerpt})`, true);
  }
  return parsed;
}

/** Messages that mean the video or account is gone, private or never was: retrying will not help. */
const GONE =
  /Video unavailable|Private video|(?:video|account|post) is private|does not exist|not exist anymore|HTTP Error (?:404|410)|Unsupported URL|has been removed|been terminated|been suspended|no longer available|video (?:is )?not available|members[- ]only|confirm your age|not available in your country/i;

/** …except when the platform says it is busy, whatever else the message says. */
const BUSY = /try again later|HTTP Error (?:429|5\d\d)|rate[- ]limit|not a bot|timed out/i;

/**
 * Non-zero exits are retryable by default (yt-dlp exits 1 for network trouble too); the known
 * "not there" messages are not. Timeouts stay retryable; a missing program stays non-retryable.
 */
export function classifyFailure(e: unknown): unknown {
  if (!(e instanceof ProviderError) || !e.retryable || !/exited with/.test(e.message)) return e;
  if (!GONE.test(e.message) || BUSY.test(e.message)) return e;
  const detail = e.message.slice(`${e.provider}: `.length);
  return new ProviderError(PROVIDER, `not available at the source (${detail})`, false, { cause: e });
}
