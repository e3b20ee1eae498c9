/**
 * Content analysis by any OpenAI-compatible chat completion, constrained by a JSON schema built
 * from the vocabulary (so the model can only answer allowed values). The client retries an invalid
 * answer once, then fails the analysis with a clear, non-retryable error.
 *
 * What the visual stage saw (`input.visual`) goes with the text: the pacing, the face share and the
 * on-screen text with its times always; the keyframes themselves as images (`detail: low`) when the
 * model can see (OPENAI_VISION: `true`, or `auto` and a model name of a known vision family). A server
 * that refuses the images is reported with what to set.
 */
import { z } from "zod";
import { config } from "../../config.ts";
import { readFile } from "node:fs/promises";
import {
  CTA_TYPES,
  CTA_TYPE_VALUES,
  HOOK_SOURCE_VALUES,
  HOOK_SOURCES,
  HOOK_STYLES,
  HOOK_STYLE_VALUES,
  UGC_CONFIDENCE_DESCRIPTION,
  UGC_FITS,
  UGC_FIT_VALUES,
} from "../../domain/analysis/vocabulary.ts";
import { ProviderError } from "../../domain/shared/provider-error.ts";
import { OpenAiClient, type ContentPart } from "../openai/client.ts";
import type { ContentAnalysis, ContentAnalysisProvider, ContentInput, VisualEvidence } from "../../domain/analysis/ports.ts";

const PROVIDER = "analysis:openai";

export interface OpenAiAnalysisOptions {
  baseUrl: string | undefined;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
  /** Send keyframes as images: `auto` decides from the model's name (OPENAI_VISION). */
  vision: "auto" | "true" | "false";
}

function openAiAnalysisDefaults(): OpenAiAnalysisOptions {
  return {
    baseUrl: config.openai.baseUrl,
    apiKey: config.openai.apiKey,
    model: config.openai.model,
    timeoutMs: config.openai.timeoutMs,
    vision: config.openai.vision,
  };
}

/** Model families that take images (OpenAI's and the common open ones served by OpenAI-compatible servers). */
const VISION_MODELS =
  /gpt-4o|gpt-4\.1|gpt-4-turbo|gpt-4-vision|gpt-5|^o[134]\b|claude|gemini|gemma-3|llava|vision|[-_.]vl\b|-vl-|pixtral|llama-4|minicpm-v|moondream|qwen.*vl/i;

export function modelSees(model: string, vision: OpenAiAnalysisOptions["vision"]): boolean {
  return vision === "true" || (vision === "auto" && VISION_MODELS.test(model));
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
  hookSource: z.enum(HOOK_SOURCE_VALUES).nullable().describe("Where the hook phrase was found; null when hookStyle is none."),
  reasons: z.array(z.string()).describe("One short line per judgement, naming its evidence (a keyframe and its time for what was seen)."),
});

/**
 * How answers are read: as asked, except that the two fields added with visual analysis may be missing
 * (servers that do not enforce the schema, stand-ins written before them): no source, no reasons.
 */
const acceptedAnswer = contentAnalysisSchema.extend({
  hookSource: contentAnalysisSchema.shape.hookSource.default(null),
  reasons: contentAnalysisSchema.shape.reasons.default([]),
}) as unknown as typeof contentAnalysisSchema;

function listValues(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([key, description]) => `- ${key}: ${description}`)
    .join("\n");
}

const SYSTEM_PROMPT = [
  "You analyse short-form social videos from their transcript, description and what is on screen (keyframes, their on-screen text, cuts, faces). Answer with one JSON object only.",
  "Judge only from the text given; never guess facts that are not there. Copy a URL only when it appears in the text.",
  `hookStyle, the opening in the first ~3 seconds:\n${listValues(HOOK_STYLES)}`,
  `ugcFit:\n${listValues(UGC_FITS)}`,
  `ugcConfidence: ${UGC_CONFIDENCE_DESCRIPTION}`,
  `ctaType, the main call to action:\n${listValues(CTA_TYPES)}`,
  `hookSource:\n${listValues(HOOK_SOURCES)}`,
  "On short-form platforms the hook is often written on screen in the first seconds rather than said.",
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
    ...(input.visual ? [seenText(input.visual)] : []),
  ].join("\n\n");
}

/** What the visual stage saw, in words: the model gets the OCR text whether or not it gets the images. */
export function seenText(visual: VisualEvidence): string {
  const text = visual.onScreenText.map((t) => `[${t.firstSeconds.toFixed(1)}-${t.lastSeconds.toFixed(1)}s] ${t.text}`).join("\n");
  return [
    `Seen on screen (${visual.durationSeconds.toFixed(1)} s looked at, ${visual.keyframes.length} keyframes):`,
    `Text hook (on screen in the first 3 s): ${visual.textHook ?? "(none)"}`,
    `On-screen text:\n${text || "(none read)"}`,
    `Cuts: ${visual.cutCount} (${visual.cutsPerMinute} per minute), first at ${visual.firstCutSeconds === null ? "(none)" : `${visual.firstCutSeconds} s`}`,
    `Face on camera: ${visual.faceShare === null ? "(not looked for)" : `in ${Math.round(visual.faceShare * 100)} % of keyframes`}`,
    ...(visual.skipped.length ? [`Not looked at: ${visual.skipped.join("; ")}`] : []),
  ].join("\n");
}

/** The prompt with each keyframe as an image, labelled with its number and time. */
async function withKeyframes(text: string, visual: VisualEvidence): Promise<ContentPart[]> {
  const parts: ContentPart[] = [{ type: "text", text }];
  for (const [i, frame] of visual.keyframes.entries()) {
    const jpeg = await readFile(frame.imagePath);
    parts.push(
      { type: "text", text: `Keyframe ${i + 1} at ${frame.seconds.toFixed(1)} s:` },
      { type: "image_url", image_url: { url: `data:image/jpeg;base64,${jpeg.toString("base64")}`, detail: "low" } },
    );
  }
  return parts;
}

export class OpenAiAnalysisProvider implements ContentAnalysisProvider {
  readonly name = "openai" as const;
  private readonly client: OpenAiClient;
  private readonly model: string;
  private readonly sees: boolean;

  constructor(options: Partial<OpenAiAnalysisOptions> = {}) {
    const opts = { ...openAiAnalysisDefaults(), ...options };
    if (!opts.baseUrl) throw new ProviderError(PROVIDER, "ANALYSIS_PROVIDER=openai needs OPENAI_BASE_URL", false);
    this.client = new OpenAiClient(PROVIDER, { baseUrl: opts.baseUrl, apiKey: opts.apiKey, timeoutMs: opts.timeoutMs });
    this.model = opts.model;
    this.sees = modelSees(opts.model, opts.vision);
  }

  async analyze(input: ContentInput, { signal }: { signal?: AbortSignal } = {}): Promise<ContentAnalysis> {
    const images = this.sees && input.visual && input.visual.keyframes.length > 0;
    const user = images ? await withKeyframes(userPrompt(input), input.visual!) : userPrompt(input);
    try {
      const answer = await this.client.chatJson({
        model: this.model,
        system: SYSTEM_PROMPT,
        user,
        schemaName: "content_analysis",
        schema: contentAnalysisSchema,
        accept: acceptedAnswer,
        signal,
      });
      return tidy(answer);
    } catch (e) {
      // A server whose model takes no images answers 400 about them: say what to set rather than leave a bare HTTP error.
      if (images && e instanceof ProviderError && /HTTP 4\d\d/.test(e.message) && /image/i.test(e.message)) {
        throw new ProviderError(
          PROVIDER,
          `${e.message} (the keyframes were sent as images: set OPENAI_VISION=false if model ${this.model} cannot take images)`,
          false,
          { cause: e },
        );
      }
      throw e;
    }
  }
}

/** Keeps the stored record consistent: no phrase without a hook, no destination without a CTA, "" URL = none. */
function tidy(answer: z.infer<typeof contentAnalysisSchema>): ContentAnalysis {
  const url = answer.ctaDestinationUrl?.trim() || null;
  return {
    ...answer,
    hookPhrase: answer.hookStyle === "none" ? "" : answer.hookPhrase.trim(),
    hookSource: answer.hookStyle === "none" ? null : answer.hookSource,
    ctaDestinationUrl: answer.ctaType === "none" ? null : url,
  };
}
