/**
 * Scraping through yt-dlp: `--dump-json` for one video, `-J --flat-playlist` for an account's
 * profile and newest videos. Every run goes through the shared runner (../ytdlp/runner.ts: budget,
 * concurrency bound, timeout, JSON lines, failure classification); yt-dlp only ever sees the
 * canonical URL rebuilt from parsed ids, after `--`.
 */
import { ProviderError } from "../../domain/shared/provider-error.ts";
import type { OutboundBudget } from "../outbound-budget.ts";
import type { Platform } from "../../domain/shared/platform.ts";
import type { AccountRef, ScrapedAccount, ScrapedVideo, ScrapeProvider, VideoRef } from "../../domain/tracking/ports.ts";
import { YtdlpRunner } from "../ytdlp/runner.ts";
import { type Info, mapAccount, mapListedVideos, mapVideo } from "./ytdlp-map.ts";

const PROVIDER = "ytdlp";

/** Options every run gets: predictable output, metadata only, no progress noise, bounded waits. */
const COMMON_ARGS = [
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
  /** How many yt-dlp processes may run at once (YTDLP_CONCURRENCY, shared with the media and search providers). */
  concurrency: number;
  /** The deployment-wide calls-per-platform budget (YTDLP_CALLS_PER_MINUTE); none when absent. */
  budget: OutboundBudget;
}

export class YtdlpScrapeProvider implements ScrapeProvider {
  readonly name = "ytdlp" as const;
  private readonly ytdlp: YtdlpRunner;

  constructor(options: Partial<YtdlpScrapeOptions> = {}) {
    this.ytdlp = new YtdlpRunner({ provider: PROVIDER, ...options });
  }

  async scrapeVideo(ref: VideoRef, opts: { signal?: AbortSignal } = {}): Promise<ScrapedVideo> {
    const infos = await this.runJson(ref.platform, ["--dump-json", "--no-playlist", "--", ref.canonicalUrl], opts.signal);
    // One line per video; with --no-playlist there is one, but pick by id to be sure.
    const info = infos.find((i) => String(i.id) === ref.platformVideoId) ?? infos[0];
    return mapVideo(ref, info);
  }

  async scrapeAccount(
    ref: AccountRef,
    opts: { maxVideos: number; signal?: AbortSignal },
  ): Promise<{ account: ScrapedAccount; videos: ScrapedVideo[] }> {
    const max = Math.max(0, Math.floor(opts.maxVideos));
    if (ref.platform === "platformB") return this.scrapeChannel(ref, max, opts.signal);
    const extra = ref.platform === "platformA" ? PINNED_MAX : 0;
    const listing = await this.listing(ref.platform, ref.canonicalUrl, max + extra, opts.signal);
    return { account: mapAccount(ref, listing, listing), videos: mapListedVideos(ref, listing, max) };
  }

  /**
   * Platform B: the channel page gives the profile (followers, channel id) but lists tabs, not
   * videos; the channel's uploads playlist ("UU" + the id after "UC") lists long videos and shorts
   * together, newest first.
   */
  private async scrapeChannel(ref: AccountRef, max: number, signal?: AbortSignal) {
    const profile = await this.listing(ref.platform, ref.canonicalUrl, 1, signal);
    if (max === 0) return { account: mapAccount(ref, profile, null), videos: [] };
    const channelId = [profile.channel_id, profile.id].map(String).find((v) => /^UC[A-Za-z0-9_-]{22}$/.test(v));
    if (!channelId) throw new ProviderError(PROVIDER, `yt-dlp gave no channel id for ${ref.canonicalUrl}`, true);
    const uploads = await this.listing(ref.platform, `https://www.youtube.com/playlist?list=UU${channelId.slice(2)}`, max, signal);
    return { account: mapAccount(ref, profile, uploads), videos: mapListedVideos(ref, uploads, max) };
  }

  private async listing(platform: Platform, url: string, entries: number, signal?: AbortSignal): Promise<Info> {
    // `--playlist-end 0` would mean "no end": ask for one entry and drop it instead.
    const args = ["--dump-single-json", "--flat-playlist", "--playlist-end", String(Math.max(1, entries)), "--", url];
    const [info] = await this.runJson(platform, args, signal);
    return entries === 0 ? { ...info, entries: [] } : info;
  }

  /** One run of yt-dlp for `url` (the last argument): one JSON object per line, at least one; `signal` stops its budget wait and its program. */
  private runJson(platform: Platform, args: string[], signal?: AbortSignal): Promise<Info[]> {
    return this.ytdlp.jsonLines({
      platform,
      args: [...COMMON_ARGS, ...args],
      maxStdoutBytes: MAX_STDOUT_BYTES,
      what: args.at(-1) ?? "",
      atLeastOne: true,
      ...(signal ? { signal } : {}),
    });
  }
}
