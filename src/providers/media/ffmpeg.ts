/**
 * Converts any audio or video file into the format both speech recognisers expect:
 * 16 kHz, mono, 16-bit PCM WAV, cut at `maxSeconds`.
 */
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
