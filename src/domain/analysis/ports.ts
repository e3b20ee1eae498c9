/**
 * The ports of the analysis pipeline (src/domain/analysis/pipeline.ts): what it asks of the media,
 * transcription and content-analysis providers. Providers (src/providers/media, transcription,
 * analysis) implement these; a provider that cannot do its work throws a ProviderError
 * (src/domain/shared/provider-error.ts) saying whether a retry may help.
 */
import type { Platform } from "../shared/platform.ts";
import type { CtaType, HookStyle, UgcFit } from "./vocabulary.ts";


// --- Media: captions and/or audio of a video -------------------------------------------------
export interface MediaInput {
  platform: Platform;
  platformVideoId: string;
  /** Canonical URL of the video (or, in tests, a loopback URL). */
  url: string;
  description: string;
  /** `dataSource` of the video record: `simulated` videos have no real media. */
  dataSource: string | null;
}

export interface MediaResult {
  /** The platform's own captions, when present: used as the transcript before any ASR. */
  captions: { text: string; segments: Segment[]; language: string | null } | null;
  /** 16 kHz mono 16-bit WAV of the audio; null only when captions were found and no audio fetched. */
  wavPath: string | null;
  durationSeconds: number | null;
}

export interface MediaProvider {
  readonly name: "ytdlp" | "simulated";
  /** Fetches captions and/or audio into `workDir` (created and removed by the caller). */
  fetch(input: MediaInput, opts: { workDir: string; signal?: AbortSignal }): Promise<MediaResult>;
}

// --- Transcription: text with timed segments from a WAV file ---------------------------------
/** A timed piece of transcript, in seconds from the start of the video. */
export interface Segment {
  start: number;
  end: number;
  text: string;
}

export interface Transcript {
  text: string;
  segments: Segment[];
  language: string | null;
}

export interface TranscriptionProvider {
  readonly name: "pocketsphinx" | "openai";
  /** Transcribes a 16 kHz mono WAV file. */
  transcribe(wavPath: string, opts?: { signal?: AbortSignal }): Promise<Transcript>;
}

// --- Content analysis: hook, UGC fit, call to action -----------------------------------------
export interface ContentInput {
  platform: Platform;
  transcript: string;
  segments: Segment[];
  description: string;
  hashtags: string[];
}

export interface ContentAnalysis {
  hookStyle: HookStyle;
  /** The hook as said (or written) in the first seconds; "" when there is none. */
  hookPhrase: string;
  ugcFit: UgcFit;
  /** 0-100. */
  ugcConfidence: number;
  ctaType: CtaType;
  ctaDestinationUrl: string | null;
}

export interface ContentAnalysisProvider {
  readonly name: "heuristic" | "openai";
  analyze(input: ContentInput, opts?: { signal?: AbortSignal }): Promise<ContentAnalysis>;
}
