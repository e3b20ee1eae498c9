/**
 * Converts any audio or video file into the format both speech recognisers expect:
 * 16 kHz, mono, 16-bit PCM WAV, cut at `maxSeconds`; and says, with one ffprobe run, which streams a
 * file has (a video without sound, a sound file without picture), so that what a file lacks is known
 * before anything is asked of it rather than read from an error's text.
 */
import { basename, dirname, join } from "node:path";
import { ProviderError } from "../../domain/shared/provider-error.ts";
import { runProgram } from "../process.ts";
import { isSpeechWav, readWavInfo, type WavInfo } from "./wav.ts";

export interface ToSpeechWavOptions {
  ffmpegPath: string;
  maxSeconds: number;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Name used in errors, e.g. "media:ytdlp". */
  provider: string;
}

export async function toSpeechWav(input: string, output: string, opts: ToSpeechWavOptions): Promise<WavInfo> {
  const args = [
    "-nostdin",
    "-hide_banner",
    "-loglevel",
    "error",
    "-y",
    "-i",
    input,
    "-vn",
    "-sn",
    "-dn", // audio only: no video, subtitle or data streams
    "-t",
    String(opts.maxSeconds),
    "-ar",
    "16000",
    "-ac",
    "1",
    "-c:a",
    "pcm_s16le",
    "-f",
    "wav",
    output,
  ];
  try {
    await runProgram(opts.provider, opts.ffmpegPath, args, { timeoutMs: opts.timeoutMs, signal: opts.signal, maxStdoutBytes: 64 * 1024 });
  } catch (e) {
    throw classifyFfmpegError(opts.provider, e);
  }
  const info = await readWavInfo(output).catch(() => null);
  if (!isSpeechWav(info)) {
    throw new ProviderError(opts.provider, "ffmpeg did not produce a 16 kHz mono 16-bit WAV file", false);
  }
  return info;
}

/** A file without an audio stream, or one ffmpeg cannot decode, will not get better on a retry. */
function classifyFfmpegError(provider: string, e: unknown): unknown {
  if (!(e instanceof ProviderError) || !/exited with/.test(e.message)) return e;
  if (/does not contain any stream|matches no streams|Invalid data found|could not find codec|no audio/i.test(e.message)) {
    return new ProviderError(provider, `the media has no audio ffmpeg can decode (${e.message})`, false, { cause: e });
  }
  return e;
}

/** The streams a media file has: sound, and a moving picture (a cover image attached to a sound file is none). */
export interface MediaStreams {
  audio: boolean;
  video: boolean;
}

export interface ProbeOptions {
  ffmpegPath: string;
  timeoutMs: number;
  signal?: AbortSignal;
  provider: string;
}

/** ffprobe is installed beside ffmpeg (Debian's `ffmpeg` package ships both): FFMPEG_PATH names it too. */
export function ffprobeBeside(ffmpegPath: string): string {
  const name = basename(ffmpegPath).replace(/ffmpeg/, "ffprobe");
  const program = name === basename(ffmpegPath) ? "ffprobe" : name;
  return ffmpegPath.includes("/") ? join(dirname(ffmpegPath), program) : program;
}

/** Which streams `input` has. A file ffprobe cannot read at all is a non-retryable ProviderError. */
export async function probeStreams(input: string, opts: ProbeOptions): Promise<MediaStreams> {
  const args = ["-v", "error", "-show_entries", "stream=codec_type:stream_disposition=attached_pic", "-of", "json", input];
  let stdout: string;
  try {
    ({ stdout } = await runProgram(opts.provider, ffprobeBeside(opts.ffmpegPath), args, {
      timeoutMs: opts.timeoutMs,
      signal: opts.signal,
      maxStdoutBytes: 256 * 1024,
    }));
  } catch (e) {
    if (e instanceof ProviderError && /exited with/.test(e.message)) {
      throw new ProviderError(opts.provider, `the media cannot be read as audio or video (${e.message})`, false, { cause: e });
    }
    throw e;
  }
  const streams = parseStreams(stdout);
  return {
    audio: streams.some((s) => s.codec_type === "audio"),
    video: streams.some((s) => s.codec_type === "video" && s.disposition?.attached_pic !== 1),
  };
}

function parseStreams(stdout: string): { codec_type?: string; disposition?: { attached_pic?: number } }[] {
  try {
    const parsed = JSON.parse(stdout) as { streams?: unknown };
    return Array.isArray(parsed.streams) ? parsed.streams : [];
  } catch {
    return [];
  }
}
