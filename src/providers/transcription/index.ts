/** The transcription provider chosen by `TRANSCRIBE_PROVIDER`. */
import { config } from "../../config.js";
import { OpenAiTranscriber } from "./openai.js";
import { PocketsphinxTranscriber } from "./pocketsphinx.js";
import type { TranscriptionProvider } from "./types.js";

export type { Segment, Transcript, TranscriptionProvider } from "./types.js";

export function createTranscriptionProvider(name: "pocketsphinx" | "openai" = config.providers.transcribe): TranscriptionProvider {
  switch (name) {
    case "pocketsphinx":
      return new PocketsphinxTranscriber();
    case "openai":
      return new OpenAiTranscriber();
  }
}
