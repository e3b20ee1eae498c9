/**
 * Media for simulated (demo) videos, which have no real media anywhere: the description serves as
 * the platform captions, split by sentence and timed at a speaking rate. The transcript comes from
 * those captions, so no program is needed (a fresh install analyses its demo videos with nothing but
 * Node.js); with `speech: true` (tests, benchmarks) espeak-ng also speaks the text into real audio,
 * and the captions are timed over it.
 *
 * It refuses any video whose `dataSource` is not "simulated": for a real video, a transcript made up
 * from its description would be invented data presented as what the video says.
 */
import { join } from "node:path";
import { config } from "../../config.ts";
import { ProviderError } from "../../domain/shared/provider-error.ts";
import { runProgram } from "../process.ts";
import { collapseWhitespace, roundSeconds, splitSentences } from "../transcription/segments.ts";
import type { Segment } from "../../domain/analysis/ports.ts";
import { toSpeechWav } from "./ffmpeg.ts";
import type { MediaInput, MediaProvider, MediaResult } from "../../domain/analysis/ports.ts";
import { readWavInfo } from "./wav.ts";

const PROVIDER = "media:simulated";

export interface SimulatedMediaOptions {
  espeakPath: string;
  ffmpegPath: string;
  timeoutMs: number;
  maxSeconds: number;
  /** espeak-ng voice; the recognisers are English-only. */
  voice: string;
  /** Words per minute (espeak-ng's default is 175). */
  wordsPerMinute: number;
  /** Also synthesise the audio with espeak-ng (and ffmpeg); off, the captions alone are returned (no program runs). */
  speech: boolean;
}

function simulatedMediaDefaults(): SimulatedMediaOptions {
  return {
    espeakPath: config.programs.espeak,
    ffmpegPath: config.programs.ffmpeg,
    timeoutMs: config.media.timeoutMs,
    maxSeconds: config.media.maxSeconds,
    voice: "en-us",
    wordsPerMinute: 165,
    speech: config.media.simulatedSpeech,
  };
}

export class SimulatedMediaProvider implements MediaProvider {
  readonly name = "simulated" as const;
  private readonly opts: SimulatedMediaOptions;

  constructor(options: Partial<SimulatedMediaOptions> = {}) {
    this.opts = { ...simulatedMediaDefaults(), ...options };
  }

  async fetch(input: MediaInput, { workDir, signal }: { workDir: string; signal?: AbortSignal }): Promise<MediaResult> {
    if (input.dataSource !== "simulated") {
      throw new ProviderError(
        PROVIDER,
        `refusing a video whose dataSource is ${JSON.stringify(input.dataSource)}: only simulated videos get ` +
          "synthetic media; analyse real videos with MEDIA_PROVIDER=ytdlp",
        false,
      );
    }
    const sentences = splitSentences(input.description);
    if (sentences.length === 0) {
      // Nothing is said in a video with no description: empty captions, no audio.
      return { captions: { text: "", segments: [], language: "en" }, wavPath: null, durationSeconds: null };
    }
    const spoken = sentences.map(spokenForm);
    if (!this.opts.speech) {
      // The pipeline takes captions as the transcript before any audio: none is made.
      const seconds = speakingSeconds(spoken, this.opts.wordsPerMinute);
      return { captions: { text: sentences.join(" "), segments: timeSentences(sentences, spoken, seconds), language: "en" }, wavPath: null, durationSeconds: roundSeconds(seconds) };
    }
    const rawPath = join(workDir, "speech-raw.wav");
    await this.speak(spoken.join("\n"), rawPath, signal);
    const raw = await readWavInfo(rawPath);
    if (!raw || raw.durationSeconds <= 0) throw new ProviderError(PROVIDER, "espeak-ng produced no audio", false);
    const wavPath = join(workDir, "audio.wav");
    await toSpeechWav(rawPath, wavPath, {
      provider: PROVIDER,
      ffmpegPath: this.opts.ffmpegPath,
      maxSeconds: this.opts.maxSeconds,
      timeoutMs: this.opts.timeoutMs,
      signal,
    });
    const segments = timeSentences(sentences, spoken, raw.durationSeconds);
    return {
      captions: { text: sentences.join(" "), segments, language: "en" },
      wavPath,
      durationSeconds: roundSeconds(raw.durationSeconds),
    };
  }

  /** The text goes through stdin: no argument-length limit, and text starting with "-" is not an option. */
  private async speak(text: string, outPath: string, signal?: AbortSignal): Promise<void> {
    const args = ["-v", this.opts.voice, "-s", String(this.opts.wordsPerMinute), "-w", outPath, "--stdin"];
    await runProgram(PROVIDER, this.opts.espeakPath, args, { timeoutMs: this.opts.timeoutMs, signal, stdin: text });
  }
}

/**
 * What espeak-ng is asked to say for a caption sentence: a URL as its host name and hashtags without
 * the "#" (spelled out, "h t t p s colon slash slash" would take longer than the rest of the video),
 * pictographs dropped (espeak-ng would read their names aloud).
 */
export function spokenForm(sentence: string): string {
  const text = sentence
    .replace(/\bhttps?:\/\/(?:www\.)?([^\s/?#]+)\S*/gi, "$1")
    .replace(/#(\w)/g, "$1")
    .replace(/[\p{Extended_Pictographic}\u{FE0F}\u{200D}]/gu, "");
  return collapseWhitespace(text);
}

/** How long the sentences take to say at `wordsPerMinute`, with a pause of half a second after each. */
export function speakingSeconds(spoken: string[], wordsPerMinute: number): number {
  const words = spoken.reduce((n, s) => n + s.split(/\s+/).filter(Boolean).length, 0);
  return (words * 60) / wordsPerMinute + 0.5 * spoken.length;
}

/** Pause espeak-ng makes at a sentence break, in characters' worth of speaking time. */
const SENTENCE_PAUSE_CHARS = 6;

/**
 * Spreads the synthesised audio's real duration over the sentences in proportion to how much of
 * each is spoken, so the caption timings line up with the audio closely enough for "the first
 * seconds" of a video to mean the same thing in captions and audio.
 */
export function timeSentences(sentences: string[], spoken: string[], totalSeconds: number): Segment[] {
  const weights = spoken.map((s) => s.replace(/[^\p{L}\p{N}]/gu, "").length + SENTENCE_PAUSE_CHARS);
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  let start = 0;
  return sentences.map((text, i) => {
    const end = i === sentences.length - 1 ? totalSeconds : start + (totalSeconds * weights[i]!) / totalWeight;
    const segment = { start: roundSeconds(start), end: roundSeconds(end), text };
    start = end;
    return segment;
  });
}
