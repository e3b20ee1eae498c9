/**
 * Media through yt-dlp: first the platform's own captions (cheap and usually better than speech
 * recognition), and only when there are none, the audio, converted by ffmpeg to 16 kHz mono WAV.
 *
 * Two yt-dlp runs rather than one: when captions exist the audio is never downloaded at all. Asked
 * `withVideo` (visual analysis), it also downloads a small video rendition, whose sound, when it has
 * some, is the audio (no third download); each run takes its turn of the same budget and bound.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { config } from "../../config.ts";
import { ProviderError } from "../../domain/shared/provider-error.ts";
import type { OutboundBudget } from "../outbound-budget.ts";
import { YtdlpRunner } from "../ytdlp/runner.ts";
import { parseCaptions } from "./captions.ts";
import { probeStreams, toSpeechWav, type MediaStreams } from "./ffmpeg.ts";
import type { MediaInput, MediaProvider, MediaResult } from "../../domain/analysis/ports.ts";

const PROVIDER = "media:ytdlp";

export interface YtdlpMediaOptions {
  ytdlpPath: string;
  ffmpegPath: string;
  /** For the captions run (metadata and subtitle files only). */
  ytdlpTimeoutMs: number;
  /** For the audio download, and again for the ffmpeg conversion. */
  mediaTimeoutMs: number;
  maxBytes: number;
  maxSeconds: number;
  /** How many yt-dlp processes may run at once (YTDLP_CONCURRENCY, shared with the scrape and search providers). */
  concurrency: number;
  /** yt-dlp `--sub-langs`: the recognisers are English-only, so English captions are what helps. */
  subLangs: string;
  /** The deployment-wide calls-per-platform budget (YTDLP_CALLS_PER_MINUTE); none when absent. */
  budget?: OutboundBudget;
}

function ytdlpMediaDefaults(): YtdlpMediaOptions {
  return {
    ytdlpPath: config.programs.ytdlp,
    ffmpegPath: config.programs.ffmpeg,
    ytdlpTimeoutMs: config.programs.ytdlpTimeoutMs,
    mediaTimeoutMs: config.media.timeoutMs,
    maxBytes: config.media.maxBytes,
    maxSeconds: config.media.maxSeconds,
    concurrency: config.programs.ytdlpConcurrency,
    subLangs: "en.*,en",
  };
}

/** Options every run gets: no playlists, no cache (the runner adds --no-config). */
const COMMON_ARGS = ["--no-playlist", "--no-cache-dir", "--no-progress", "--socket-timeout", "30"];

/** What the captions run prints (one video's info) and the audio run's progress stay far below this. */
const MAX_STDOUT_BYTES = 32 * 1024 * 1024;

interface VideoInfo {
  duration?: number;
}

export class YtdlpMediaProvider implements MediaProvider {
  readonly name = "ytdlp" as const;
  private readonly opts: YtdlpMediaOptions;
  private readonly ytdlp: YtdlpRunner;

  constructor(options: Partial<YtdlpMediaOptions> = {}) {
    this.opts = { ...ytdlpMediaDefaults(), ...options };
    this.ytdlp = new YtdlpRunner({
      provider: PROVIDER,
      path: this.opts.ytdlpPath,
      concurrency: this.opts.concurrency,
      budget: this.opts.budget,
    });
  }

  async fetch(
    input: MediaInput,
    { workDir, signal, withVideo }: { workDir: string; signal?: AbortSignal; withVideo?: boolean },
  ): Promise<MediaResult> {
    checkInput(input);
    const info = await this.fetchInfoAndCaptions(input, workDir, signal);
    const captions = await readBestCaptions(workDir);
    const video = withVideo ? await this.videoRendition(input, workDir, signal) : {};
    // One probe of the rendition says what it holds: a sound file has no picture to look at, a silent video no sound to fetch again.
    const rendition = video.videoPath ? await this.probeRendition(video, signal) : null;
    const audioInRendition = rendition?.audio ? video.videoPath! : null;
    if (video.videoPath && rendition && !rendition.video) {
      Object.assign(video, { videoPath: null, videoUnavailable: "the media has no video stream (sound only)" });
    }
    if (captions) {
      const lastEnd = captions.segments.at(-1)?.end ?? null;
      return { captions, wavPath: null, durationSeconds: info.duration ?? lastEnd, ...video };
    }
    const wavPath = join(workDir, "audio.wav");
    const source = audioInRendition ?? (await this.downloadAudio(input, workDir, signal));
    if (source !== audioInRendition && !(await this.probe(source, signal)).audio) {
      return {
        captions: null,
        wavPath: null,
        audioUnavailable: "the media has no audio stream",
        durationSeconds: info.duration ?? null,
        ...video,
      };
    }
    const wav = await this.speechFrom(source, wavPath, signal);
    return { captions: null, wavPath, durationSeconds: info.duration ?? wav.durationSeconds, ...video };
  }

  /** The rendition's streams; a rendition ffprobe cannot read is left out with the reason, as a failed download is. */
  private async probeRendition(
    video: Pick<MediaResult, "videoPath" | "videoUnavailable">,
    signal?: AbortSignal,
  ): Promise<MediaStreams | null> {
    try {
      return await this.probe(video.videoPath!, signal);
    } catch (e) {
      if (signal?.aborted || !(e instanceof ProviderError) || e.retryable) throw e;
      Object.assign(video, { videoPath: null, videoUnavailable: e.message });
      return null;
    }
  }

  private probe(path: string, signal?: AbortSignal): Promise<MediaStreams> {
    return probeStreams(path, { provider: PROVIDER, ffmpegPath: this.opts.ffmpegPath, timeoutMs: this.opts.mediaTimeoutMs, signal });
  }

  private speechFrom(source: string, wavPath: string, signal?: AbortSignal) {
    return toSpeechWav(source, wavPath, {
      provider: PROVIDER,
      ffmpegPath: this.opts.ffmpegPath,
      maxSeconds: this.opts.maxSeconds,
      timeoutMs: this.opts.mediaTimeoutMs,
      signal,
    });
  }

  /**
   * The visual stage's rendition: the lowest format that has video and is at least 360 px high (smaller
   * ones are too small to read on-screen text from), else the lowest with video; a combined one (video
   * and audio) first, so that the audio need not be downloaded again. Bounded in bytes like the audio
   * (MEDIA_MAX_BYTES); the visual stage looks at its first MEDIA_MAX_SECONDS only. Any failure but a
   * cancellation leaves the video out with the reason: the analysis goes on from the transcript.
   */
  private async videoRendition(
    input: MediaInput,
    workDir: string,
    signal?: AbortSignal,
  ): Promise<Pick<MediaResult, "videoPath" | "videoUnavailable">> {
    try {
      return { videoPath: await this.download(input, workDir, "video", "w[height>=360]/wv*[height>=360]/w/wv*", signal) };
    } catch (e) {
      if (signal?.aborted) throw e;
      return { videoPath: null, videoUnavailable: (e as Error).message };
    }
  }

  private downloadAudio(input: MediaInput, workDir: string, signal?: AbortSignal): Promise<string> {
    return this.download(input, workDir, "source", "bestaudio/best", signal);
  }

  /**
   * Writes the captions (manual ones win over automatic ones for the same language) and prints the
   * video's metadata. `--ignore-errors` turns a caption file that fails to download into a warning
   * (the audio path still works); an unavailable video still exits non-zero.
   */
  private async fetchInfoAndCaptions({ url, platform }: MediaInput, workDir: string, signal?: AbortSignal): Promise<VideoInfo> {
    const args = [
      ...COMMON_ARGS,
      "--ignore-errors",
      "--skip-download",
      "--write-subs",
      "--write-auto-subs",
      "--sub-langs",
      this.opts.subLangs,
      "--sub-format",
      "vtt/srt/best",
      "--dump-json",
      "--no-simulate",
      "-o",
      join(workDir, "captions.%(ext)s"),
      "--",
      url,
    ];
    const { stdout } = await this.ytdlp.run({
      platform,
      args,
      timeoutMs: this.opts.ytdlpTimeoutMs,
      maxStdoutBytes: MAX_STDOUT_BYTES,
      signal,
    });
    const line = stdout.trim().split("\n").at(-1) ?? "";
    try {
      const parsed = JSON.parse(line) as { duration?: unknown };
      return { duration: typeof parsed.duration === "number" && parsed.duration > 0 ? parsed.duration : undefined };
    } catch {
      throw new ProviderError(PROVIDER, `yt-dlp printed no video metadata for ${url}`, true);
    }
  }

  /** One download of `format` into `<name>.<ext>`, within MEDIA_MAX_BYTES. */
  private async download(
    { url, platform }: MediaInput,
    workDir: string,
    name: string,
    format: string,
    signal?: AbortSignal,
  ): Promise<string> {
    const args = [
      ...COMMON_ARGS,
      "-f",
      format,
      "--max-filesize",
      String(this.opts.maxBytes),
      "--no-part",
      "-o",
      join(workDir, `${name}.%(ext)s`),
      "--",
      url,
    ];
    const { stdout } = await this.ytdlp.run({
      platform,
      args,
      timeoutMs: this.opts.mediaTimeoutMs,
      maxStdoutBytes: MAX_STDOUT_BYTES,
      signal,
    });
    // yt-dlp refuses an oversized file with a message and exit code 0, leaving no file behind.
    if (/larger than max-filesize/i.test(stdout)) throw this.tooLarge();
    const file = (await readdir(workDir)).find((f) => f.startsWith(`${name}.`));
    if (!file) throw new ProviderError(PROVIDER, `yt-dlp downloaded no media for ${url}`, false);
    const path = join(workDir, file);
    // Without a Content-Length yt-dlp cannot enforce the limit before downloading: check afterwards.
    if ((await stat(path)).size > this.opts.maxBytes) throw this.tooLarge();
    return path;
  }

  private tooLarge(): ProviderError {
    return new ProviderError(PROVIDER, `the media is larger than the ${this.opts.maxBytes}-byte limit (MEDIA_MAX_BYTES)`, false);
  }
}

function checkInput(input: MediaInput): void {
  if (input.dataSource === "simulated") {
    throw new ProviderError(
      PROVIDER,
      "this video is simulated demo data and has no real media; analyse it with MEDIA_PROVIDER=simulated",
      false,
    );
  }
  let protocol = "";
  try {
    protocol = new URL(input.url).protocol;
  } catch {
    /* reported below */
  }
  if (protocol !== "https:" && protocol !== "http:") {
    throw new ProviderError(PROVIDER, `not an http(s) URL: ${JSON.stringify(input.url)}`, false);
  }
}

/** Languages in order of preference; a plain `en` track beats a regional one. */
function captionRank(language: string): number {
  if (language === "en") return 0;
  if (/^en-(US|GB|CA|AU)$/i.test(language)) return 1;
  if (/^en-orig$/i.test(language)) return 3;
  return 2;
}

/** Reads the caption files the captions run left in `workDir` (`captions.<lang>.<vtt|srt>`). */
async function readBestCaptions(workDir: string): Promise<MediaResult["captions"]> {
  const files = (await readdir(workDir))
    .map((name) => ({ name, match: /^captions\.(.+)\.(vtt|srt)$/.exec(name) }))
    .filter((f) => f.match)
    .map((f) => ({ name: f.name, language: f.match![1]! }))
    .sort((a, b) => captionRank(a.language) - captionRank(b.language) || a.name.localeCompare(b.name));
  for (const file of files) {
    const parsed = parseCaptions(await readFile(join(workDir, file.name), "utf8"));
    if (parsed.segments.length > 0) return { ...parsed, language: file.language };
  }
  return null;
}
