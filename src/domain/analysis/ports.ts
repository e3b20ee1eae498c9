/**
 * The ports of the analysis pipeline (src/domain/analysis/pipeline.ts): what it asks of the media,
 * transcription and content-analysis providers. Providers (src/providers/media, transcription,
 * analysis) implement these; a provider that cannot do its work throws a ProviderError
 * (src/domain/shared/provider-error.ts) saying whether a retry may help.
 */
import type { Platform } from "../shared/platform.ts";
import type { CtaType, HookSource, HookStyle, UgcFit } from "./vocabulary.ts";

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
  /** 16 kHz mono 16-bit WAV of the audio; null when captions were found and no audio fetched, or when the media has no sound (`audioUnavailable`). */
  wavPath: string | null;
  /** Why there is no audio to transcribe (the media has no audio stream), when `wavPath` is null for that reason. */
  audioUnavailable?: string;
  durationSeconds: number | null;
  /**
   * A small video rendition for the visual stage (the lowest format that has video, bounded in bytes
   * and seconds like the audio), when asked for with `withVideo`; null when none could be had, with
   * the reason in `videoUnavailable`.
   */
  videoPath?: string | null;
  videoUnavailable?: string;
}

export interface MediaProvider {
  readonly name: "ytdlp" | "simulated";
  /** Fetches captions and/or audio, and the video rendition when `withVideo`, into `workDir` (created and removed by the caller). */
  fetch(input: MediaInput, opts: { workDir: string; signal?: AbortSignal; withVideo?: boolean }): Promise<MediaResult>;
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
  /** BCP 47; null when unknown (the recogniser heard speech it cannot tell the language of). */
  language: string | null;
  /** How sure the recogniser is of its words, 0-1; null or absent when it does not say. */
  confidence?: number | null;
  /** `language` is the one the recogniser knows, assumed rather than heard (an English-only recogniser says "en" of any speech). */
  languageAssumed?: boolean;
  /**
   * Why the words do not read as speech in a language the recogniser knows, in words (mostly fillers and
   * repeats, another language's letter statistics); absent when nothing is in doubt. A doubted transcript is
   * kept and marked, never judged.
   */
  doubt?: string | null;
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
  /** What the visual stage saw; null for a transcript-only analysis. */
  visual?: VisualEvidence | null;
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
  /** Where `hookPhrase` came from: said, shown on screen, or the description; null when there is no hook. */
  hookSource?: HookSource | null;
  /** One line per decision, naming its evidence (a frame and its time for what was seen). */
  reasons?: string[];
}

export interface ContentAnalysisProvider {
  readonly name: "heuristic" | "openai";
  analyze(input: ContentInput, opts?: { signal?: AbortSignal }): Promise<ContentAnalysis>;
}

// --- Seeing the video: keyframes, on-screen text, faces (the visual stage) --------------------
// The media provider hands the pipeline a small video rendition (`MediaResult.videoPath`);
// the visual stage (src/domain/analysis/visual/look.ts, `lookAtVideo`) asks these three providers for what is on screen
// and composes their answers into `VisualEvidence`, which the content analyser reads beside the
// transcript and which the analysis record keeps. Each provider may be absent or fail: the stage then
// degrades (the part is left out, the reason recorded in `VisualEvidence.skipped`); it never fails
// the analysis.

/** One frame picked for analysis, written by the keyframe provider as a JPEG in the work directory. */
export interface Keyframe {
  /** Seconds from the start of the video. */
  seconds: number;
  /** A JPEG large enough to read text from (e.g. 720 px on its long side). */
  imagePath: string;
  /** A small JPEG for the record and the dashboard (e.g. 160 px wide, a few KB). */
  thumbnailPath: string;
  /**
   * The readable-size frame in grayscale as a binary PGM, when the keyframe provider writes one: the visual
   * stage hands it to the text recognizer and the face detector (which read PGM or JPEG) so that neither
   * decodes the JPEG again (decoding in JavaScript cost as much as the detection itself).
   */
  grayPath?: string;
  /** Why the frame was picked: the first frame, a scene change (a cut), or an evenly spaced sample. */
  reason: "first" | "scene" | "interval";
  /**
   * Nothing visible changed since the previous keyframe (every frame between them was scanned and found
   * the same as the one before it): the visual stage reuses the previous keyframe's text and faces
   * instead of reading this one again. Absent or false: look at it.
   */
  sameAsPrevious?: boolean;
}

export interface KeyframeSet {
  durationSeconds: number;
  /** Times of every scene change found (cuts), ascending, before the keyframe cap is applied. */
  cuts: number[];
  /** At most the cap asked for, ascending by time. */
  keyframes: Keyframe[];
  /**
   * Frames where part of the picture changed without a cut (a subtitle or a caption switching), read for on-screen
   * text only: not keyframes of the record. At most the cap again, ascending by time.
   */
  textMoments?: Keyframe[];
}

export interface KeyframeProvider {
  readonly name: "ffmpeg";
  extract(videoPath: string, opts: { workDir: string; maxKeyframes: number; signal?: AbortSignal }): Promise<KeyframeSet>;
}

/** One line of on-screen text as a recogniser read it. */
export interface ReadTextLine {
  text: string;
  /** How sure the recogniser is of the line, 0-1. */
  confidence: number;
  /** The line's language as BCP 47 (`en`, `ru`, `zh`), or null when unknown. */
  language: string | null;
  /**
   * False when the line does not read as words of its script (a Latin line mostly of no English word: a pattern
   * of the picture, a logo, Cyrillic read as Latin look-alikes): never used, whatever its confidence. Absent: unknown.
   */
  readsAsWords?: boolean;
}

/** On-screen text of one keyframe (OCR), line by line, top to bottom. */
export interface TextRecognizer {
  readonly name: string;
  read(frame: { imagePath: string; grayPath?: string }, opts?: { signal?: AbortSignal }): Promise<{ lines: ReadTextLine[] }>;
}

/** Faces in one image. */
export interface FaceDetector {
  readonly name: "face-api";
  detect(imagePath: string, opts?: { signal?: AbortSignal }): Promise<{ faces: number; largestFaceShare: number }>;
}

/** The visual providers as configured; null where none is configured or its program/model is missing (`missing` says why). */
export interface VisualProviders {
  keyframes: KeyframeProvider | null;
  text: TextRecognizer | null;
  faces: FaceDetector | null;
  /** Why a provider above is null, in words (e.g. "tesseract is not installed (Debian package tesseract-ocr)"). */
  missing: string[];
}

/** What the visual stage saw in one keyframe. */
export interface SeenKeyframe {
  seconds: number;
  reason: Keyframe["reason"];
  /** The frame's on-screen text confident enough to use, one line each; "" when none (or no recognizer ran). */
  text: string;
  /** Every line read in the frame, with its confidence and language (those below the floor too); absent for a stored part read back. */
  lines?: ReadTextLine[];
  /** Null when no face detector ran. */
  face: boolean | null;
  /** The small JPEG's bytes. */
  thumbnail: Buffer;
  /** The readable-size JPEG, for a vision model during this run only (never stored). */
  imagePath: string;
}

/** A piece of on-screen text, de-duplicated across keyframes, with when it is shown. */
export interface OnScreenText {
  text: string;
  firstSeconds: number;
  lastSeconds: number;
  /** BCP 47, or null when unknown. */
  language: string | null;
  /** The recogniser's confidence in its best reading, 0-1; null for analyses made before it was kept. */
  confidence: number | null;
  /** Whether the analysis used it (its confidence reached the floor and it reads as words); other text is kept, marked, and never judged. */
  used: boolean;
}

export interface VisualEvidence {
  durationSeconds: number;
  keyframes: SeenKeyframe[];
  /** Ascending by first appearance; lines below the confidence floor too (`used: false`). */
  onScreenText: OnScreenText[];
  /** The text on screen in the first 3 seconds, one piece per line (`\n`) in order of appearance; null when none. */
  textHook: string | null;
  cutCount: number;
  /** When each cut happens, seconds, ascending (empty for a stored part read back: the record keeps the count). */
  cutTimes: number[];
  cutsPerMinute: number;
  firstCutSeconds: number | null;
  /** Share of keyframes with a face, 0-1; null when no face detector ran. */
  faceShare: number | null;
  /** The provider that produced each part; null for a part that was skipped. */
  providers: { keyframes: string | null; text: string | null; faces: string | null };
  /** Parts left out and why, in words (a missing program or model, a video with no rendition). */
  skipped: string[];
  /** Evidence seen but not used for a judgement, and why, in words (on-screen text below the confidence floor). */
  setAside: string[];
}
