/**
 * Media for simulated (demo) videos, which have no real media anywhere: the description serves as
 * the platform captions, split by sentence and timed at a speaking rate. The transcript comes from
 * those captions, so no program is needed (a fresh install analyses its demo videos with nothing but
 * Node.js); with `speech: true` (tests, benchmarks) espeak-ng also speaks the text into real audio,
 * and the captions are timed over it.
 *
 * Asked `withVideo` (visual analysis), it renders a real short video with ffmpeg (./render-video.ts), so
 * the visual stage runs on real frames with no network: coloured scenes with cuts every few seconds, the
 * description's first line as a text overlay in the first seconds, a still of a face in every other scene
 * when the simulated creator talks to camera (a description in the first person), a small "SIMULATED"
 * label after the hook, and "simulated" in the file's metadata. No ffmpeg: no video, with the reason in
 * `videoUnavailable` (the analysis is then transcript-only).
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
import { renderVideo, type SceneSpec, type VideoSpec } from "./render-video.ts";
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

  async fetch(input: MediaInput, opts: { workDir: string; signal?: AbortSignal; withVideo?: boolean }): Promise<MediaResult> {
    const media = await this.fetchSpeech(input, opts);
    if (!opts.withVideo) return media;
    return { ...media, ...(await this.renderSimulatedVideo(input, media, opts)) };
  }

  private async fetchSpeech(input: MediaInput, { workDir, signal }: { workDir: string; signal?: AbortSignal }): Promise<MediaResult> {
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
      return {
        captions: { text: sentences.join(" "), segments: timeSentences(sentences, spoken, seconds), language: "en" },
        wavPath: null,
        durationSeconds: roundSeconds(seconds),
      };
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

  /** The video for the visual stage; a failure to render leaves it out with the reason (an abort is thrown). */
  private async renderSimulatedVideo(
    input: MediaInput,
    media: MediaResult,
    { workDir, signal }: { workDir: string; signal?: AbortSignal },
  ): Promise<Pick<MediaResult, "videoPath" | "videoUnavailable">> {
    const videoPath = join(workDir, "simulated-video.mp4");
    const spec = simulatedVideoSpec(input, Math.min(this.opts.maxSeconds, media.durationSeconds ?? 0), media.wavPath);
    try {
      await renderVideo(spec, videoPath, {
        provider: PROVIDER,
        ffmpegPath: this.opts.ffmpegPath,
        timeoutMs: this.opts.timeoutMs,
        workDir,
        signal,
      });
      return { videoPath };
    } catch (e) {
      if (signal?.aborted) throw e;
      return { videoPath: null, videoUnavailable: `the simulated video could not be rendered: ${(e as Error).message}` };
    }
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

/** Scene colours alternating dark and light, so each cut is a clear scene change. */
const SCENE_COLOURS = ["0x1f3a5f", "0xf2c14e", "0x7a1f3d", "0x9fe3f0", "0x1e5631", "0xf7b7c3"];
const SCENE_SECONDS = 3.5;
const HOOK_OVERLAY_SECONDS = 3;
const FIRST_PERSON = /\b(i|i'm|i've|me|my|mine)\b/i;

/**
 * What the simulated video shows: at least 5 seconds (the speech's length when longer), scenes of about
 * 3.5 s, the opening of the description's first line (`onScreenHook`) on screen for the first 3 s, a face in every other scene after the
 * first when the description speaks in the first person, a "SIMULATED" label after the hook.
 */
/** Words a creator puts on screen as a hook, at most: a line, not a paragraph. */
const MAX_OVERLAY_WORDS = 12;

/** The first line's opening sentences, as many as fit in MAX_OVERLAY_WORDS (at least the first). */
export function onScreenHook(description: string): string {
  let hook = "";
  for (const sentence of splitSentences(description.split("\n")[0] ?? "")) {
    const joined = hook ? `${hook} ${sentence}` : sentence;
    if (hook && joined.split(/\s+/).length > MAX_OVERLAY_WORDS) break;
    hook = joined;
  }
  return hook;
}

export function simulatedVideoSpec(
  input: Pick<MediaInput, "description" | "platformVideoId">,
  speechSeconds: number,
  audioPath: string | null,
): VideoSpec {
  const total = Math.max(5, speechSeconds);
  const count = Math.max(2, Math.round(total / SCENE_SECONDS));
  const talks = FIRST_PERSON.test(input.description);
  const offset = [...input.platformVideoId].reduce((n, c) => n + c.charCodeAt(0), 0) % 2; // varies the palette between videos
  const scenes: SceneSpec[] = Array.from({ length: count }, (_, i) => ({
    seconds: total / count,
    colour: SCENE_COLOURS[(i + offset * 2) % SCENE_COLOURS.length]!,
    face: talks && i % 2 === 1,
  }));
  const onScreen = collapseWhitespace(spokenForm(onScreenHook(input.description)));
  const hook = Math.min(HOOK_OVERLAY_SECONDS, total);
  return {
    scenes,
    overlays: [
      ...(onScreen ? [{ text: onScreen, from: 0, to: hook, position: "top" as const }] : []),
      { text: "SIMULATED", from: hook, to: total, position: "bottom" as const, size: 24 },
    ],
    ...(audioPath ? { audioPath } : {}),
    comment: "simulated demo video rendered by the service (MEDIA_PROVIDER=simulated): not a real platform video",
  };
}
