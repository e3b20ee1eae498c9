/**
 * Transcription through any OpenAI-compatible `/audio/transcriptions` endpoint (`verbose_json`,
 * segment timestamps). A Whisper-class model names the language it heard (`language`), which the
 * transcript carries; its confidence is the segments' mean token probability (`exp(avg_logprob)`, each
 * segment weighted by its length), when the server gives `avg_logprob`.
 */
import { z } from "zod";
import { config } from "../../config.ts";
import { ProviderError } from "../../domain/shared/provider-error.ts";
import { describeDetails, issuesToDetails } from "../../domain/shared/inputs.ts";
import { OpenAiClient } from "../openai/client.ts";
import { collapseWhitespace, roundSeconds } from "./segments.ts";
import type { Segment, Transcript, TranscriptionProvider } from "../../domain/analysis/ports.ts";

const PROVIDER = "transcription:openai";

export interface OpenAiTranscriberOptions {
  baseUrl: string | undefined;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
}

function openAiTranscriberDefaults(): OpenAiTranscriberOptions {
  return {
    baseUrl: config.openai.baseUrl,
    apiKey: config.openai.apiKey,
    model: config.openai.transcribeModel,
    timeoutMs: config.openai.timeoutMs,
  };
}

const verboseJson = z.object({
  text: z.string(),
  language: z.string().nullish(),
  segments: z
    .array(z.object({ start: z.number().min(0), end: z.number().min(0), text: z.string(), avg_logprob: z.number().nullish() }))
    .nullish(),
});

export class OpenAiTranscriber implements TranscriptionProvider {
  readonly name = "openai" as const;
  private readonly client: OpenAiClient;
  private readonly model: string;

  constructor(options: Partial<OpenAiTranscriberOptions> = {}) {
    const opts = { ...openAiTranscriberDefaults(), ...options };
    if (!opts.baseUrl) {
      throw new ProviderError(PROVIDER, "TRANSCRIBE_PROVIDER=openai needs OPENAI_BASE_URL", false);
    }
    this.client = new OpenAiClient(PROVIDER, { baseUrl: opts.baseUrl, apiKey: opts.apiKey, timeoutMs: opts.timeoutMs });
    this.model = opts.model;
  }

  async transcribe(wavPath: string, { signal }: { signal?: AbortSignal } = {}): Promise<Transcript> {
    const body = await this.client.transcribe(wavPath, this.model, signal);
    const parsed = verboseJson.safeParse(body);
    if (!parsed.success) {
      const problem = describeDetails(issuesToDetails(parsed.error));
      throw new ProviderError(PROVIDER, `the transcription answer is not verbose_json (${problem})`, false);
    }
    const segments: Segment[] = (parsed.data.segments ?? [])
      .map((s) => ({ start: roundSeconds(s.start), end: roundSeconds(Math.max(s.start, s.end)), text: collapseWhitespace(s.text) }))
      .filter((s) => s.text.length > 0);
    return {
      text: collapseWhitespace(parsed.data.text),
      segments,
      language: parsed.data.language ? languageCode(parsed.data.language) : null,
      confidence: segmentConfidence(parsed.data.segments ?? []),
    };
  }
}

/** exp(avg_logprob) of the segments, weighted by their durations; null when the server gives none. */
export function segmentConfidence(segments: { start: number; end: number; avg_logprob?: number | null }[]): number | null {
  let weighted = 0;
  let total = 0;
  for (const s of segments) {
    if (s.avg_logprob == null) continue;
    const seconds = Math.max(0.01, s.end - s.start);
    weighted += Math.exp(Math.min(0, s.avg_logprob)) * seconds;
    total += seconds;
  }
  return total > 0 ? Math.round((weighted / total) * 1000) / 1000 : null;
}

let namesToCodes: Map<string, string> | null = null;

/**
 * Whisper's verbose_json names the language in English ("english"); the rest of the service uses
 * ISO 639-1 codes, as captions do. Unknown names are kept as given rather than guessed.
 */
export function languageCode(language: string): string {
  const lower = language.trim().toLowerCase();
  if (/^[a-z]{2}(-[a-z0-9]+)?$/i.test(lower)) return lower;
  if (!namesToCodes) {
    namesToCodes = new Map();
    const names = new Intl.DisplayNames(["en"], { type: "language", fallback: "none" });
    for (let a = 97; a <= 122; a++) {
      for (let b = 97; b <= 122; b++) {
        const code = String.fromCharCode(a, b);
        const name = names.of(code)?.toLowerCase();
        if (name && name !== code && !namesToCodes.has(name)) namesToCodes.set(name, code);
      }
    }
  }
  return namesToCodes.get(lower) ?? lower;
}
