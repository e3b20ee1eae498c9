import type { Platform } from "../../domain/shared/platform.js";
import type { Segment } from "../transcription/types.js";

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
