/**
 * Content analysis by any OpenAI-compatible chat completion, constrained by a JSON schema built
 * from the vocabulary (so the model can only answer allowed values). The client retries an invalid
 * answer once, then fails the analysis with a clear, non-retryable error.
 */
import { z } from "zod";
import { config } from "../../config.ts";
import {
  CTA_TYPES,
  CTA_TYPE_VALUES,
  HOOK_STYLES,
  HOOK_STYLE_VALUES,
  UGC_CONFIDENCE_DESCRIPTION,
  UGC_FITS,
  UGC_FIT_VALUES,
} from "../../domain/analysis/vocabulary.ts";
import { ProviderError } from "../../domain/shared/provider-error.ts";
import { OpenAiClient } from "../openai/client.ts";
import type { ContentAnalysis, ContentAnalysisProvider, ContentInput } from "../../domain/analysis/ports.ts";

const PROVIDER = "analysis:openai";

export interface OpenAiAnalysisOptions {
  baseUrl: string | undefined;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
}

function openAiAnalysisDefaults(): OpenAiAnalysisOptions {
  return { baseUrl: config.openai.baseUrl, apiKey: config.openai.apiKey, model: config.openai.model, timeoutMs: config.openai.timeoutMs };
}

/** Every field required and nullable where "none" is a valid answer: what strict JSON-schema mode demands. */
const contentAnalysisSchema = z.object({
  hookStyle: z.enum(HOOK_STYLE_VALUES).describe("Style of the hook in the first seconds."),
  hookPhrase: z.string().describe('The hook exactly as said or written in the first seconds; "" when hookStyle is none.'),
  ugcFit: z.enum(UGC_FIT_VALUES).describe("How well the video reads as user-generated content."),
  ugcConfidence: z.number().int().min(0).max(100).describe(UGC_CONFIDENCE_DESCRIPTION),
  ctaType: z.enum(CTA_TYPE_VALUES).describe("The main call to action."),
  ctaDestinationUrl: z
    .string()
    .nullable()
    .describe("The URL the call to action points to, copied from the text; null when the text names none."),
});

function listValues(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([key, description]) => `- ${key}: ${description}`)
    .join("\n");
}

const SYSTEM_PROMPT = [
  "You analyse short-form social videos from their transcript and description. Answer with one JSON object only.",
  "Judge only from the text given; never guess facts that are not there. Copy a URL only when it appears in the text.",
  `hookStyle, the opening in the first ~3 seconds:\n${listValues(HOOK_STYLES)}`,
  `ugcFit:\n${listValues(UGC_FITS)}`,
  `ugcConfidence: ${UGC_CONFIDENCE_DESCRIPTION}`,
  `ctaType, the main call to action:\n${listValues(CTA_TYPES)}`,
].join("\n\n");

/** The first segments with their timings, so "the first seconds" means the same as for the heuristic. */
function userPrompt(input: ContentInput): string {
  const opening = input.segments
    .slice(0, 8)
    .map((s) => `[${s.start.toFixed(1)}-${s.end.toFixed(1)}s] ${s.text}`)
    .join("\n");
  return [
    `Platform: ${input.platform}`,
    `Opening segments:\n${opening || "(none)"}`,
    `Transcript:\n${input.transcript || "(empty)"}`,
    `Description:\n${input.description || "(empty)"}`,
    `Hashtags: ${input.hashtags.length ? input.hashtags.map((h) => `#${h.replace(/^#/, "")}`).join(" ") : "(none)"}`,
  ].join("\n\n");
}

export class OpenAiAnalysisProvider implements ContentAnalysisProvider {
  readonly name = "openai" as const;
  private readonly client: OpenAiClient;
  private readonly model: string;

  constructor(options: Partial<OpenAiAnalysisOptions> = {}) {
    const opts = { ...openAiAnalysisDefaults(), ...options };
    if (!opts.baseUrl) throw new ProviderError(PROVIDER, "ANALYSIS_PROVIDER=openai needs OPENAI_BASE_URL", false);
    this.client = new OpenAiClient(PROVIDER, { baseUrl: opts.baseUrl, apiKey: opts.apiKey, timeoutMs: opts.timeoutMs });
    this.model = opts.model;
  }

  async analyze(input: ContentInput, { signal }: { signal?: AbortSignal } = {}): Promise<ContentAnalysis> {
    const answer = await this.client.chatJson({
      model: this.model,
      system: SYSTEM_PROMPT,
      user: userPrompt(input),
      schemaName: "content_analysis",
      schema: contentAnalysisSchema,
      signal,
    });
    return tidy(answer);
  }
}

/** Keeps the stored record consistent: no phrase without a hook, no destination without a CTA, "" URL = none. */
function tidy(answer: z.infer<typeof contentAnalysisSchema>): ContentAnalysis {
  const url = answer.ctaDestinationUrl?.trim() || null;
  return {
    ...answer,
    hookPhrase: answer.hookStyle === "none" ? "" : answer.hookPhrase.trim(),
    ctaDestinationUrl: answer.ctaType === "none" ? null : url,
  };
}
