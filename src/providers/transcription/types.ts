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
