import type { Platform } from "../../domain/shared/platform.js";
import type { Segment } from "../transcription/types.js";
import type { CtaType, HookStyle, UgcFit } from "../../domain/analysis/vocabulary.js";

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
