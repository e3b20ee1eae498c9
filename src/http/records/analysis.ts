/**
 * A video's analysis as every door answers it (REST /video-analysis, MCP get_video_analysis): the
 * zod schema of the OpenAPI document and the mapper from the stored analysis.
 */
import { z } from "zod";
import type { VideoAnalysis } from "../../generated/prisma/client.ts";
import { ANALYSIS_STATUSES } from "../../domain/analysis/service.ts";
import { CTA_TYPES, CTA_TYPE_VALUES, HOOK_STYLES, HOOK_STYLE_VALUES, UGC_CONFIDENCE_DESCRIPTION, UGC_FITS, UGC_FIT_VALUES } from "../../domain/analysis/vocabulary.ts";
import { iso, isoOrNull, timestamp } from "./common.ts";

/** "value: meaning" lines of a vocabulary, for the OpenAPI descriptions. */
const describe = (title: string, values: Record<string, string>) =>
  `${title} One of: ${Object.entries(values).map(([v, d]) => `\`${v}\` (${d})`).join("; ")}. Null until the analysis is completed.`;

const STATUS_DESCRIPTION =
  "pending → downloading → transcribed → analyzing → completed, or failed (see `error`). The transcript and segments are " +
  "available from `transcribed` on, while the content analysis runs. An analysis takes about 15 to 30 seconds; poll every 5 to 10 seconds.";

const segment = z
  .object({
    start: z.number().meta({ description: "Seconds from the start of the video." }),
    end: z.number().meta({ description: "Seconds from the start of the video." }),
    text: z.string(),
  })
  .meta({ id: "TranscriptSegment" });

export const analysisSchema = z
  .object({
    analysisId: z.string().meta({ format: "uuid" }),
    videoId: z.string().meta({ format: "uuid" }),
    status: z.enum(ANALYSIS_STATUSES).meta({ description: STATUS_DESCRIPTION }),
    error: z.string().optional().meta({ description: "Why the analysis failed; present only when `status` is failed." }),
    transcript: z.string().nullable().meta({ description: "Full transcript; null before status transcribed (and after a failure before it)." }),
    segments: z.array(segment).nullable().meta({ description: "The transcript as timed segments; null before status transcribed." }),
    transcriptSource: z
      .string()
      .nullable()
      .meta({ description: "Where the transcript came from: `captions` (the platform's own captions, used first), `pocketsphinx` or `openai` (speech recognition)." }),
    hookStyle: z.enum(HOOK_STYLE_VALUES).nullable().meta({ description: describe("How the video opens.", HOOK_STYLES) }),
    hookPhrase: z.string().nullable().meta({ description: "The hook as said (or written) in the first seconds; \"\" when there is none. Null until completed." }),
    ugcFit: z.enum(UGC_FIT_VALUES).nullable().meta({ description: describe("How well the video reads as user-generated content.", UGC_FITS) }),
    ugcConfidence: z.number().int().min(0).max(100).nullable().meta({ description: `${UGC_CONFIDENCE_DESCRIPTION} Null until completed.` }),
    ctaType: z.enum(CTA_TYPE_VALUES).nullable().meta({ description: describe("The video's call to action.", CTA_TYPES) }),
    ctaDestinationUrl: z.string().nullable().meta({ description: "Where the call to action sends the viewer, when a URL is found in the video or its description." }),
    analysisProvider: z.string().nullable().meta({ description: "Which content analysis produced the results: `heuristic` or `openai`." }),
    createdAt: timestamp,
    updatedAt: timestamp.meta({ description: "Time of the last status change." }),
    completedAt: timestamp.nullable(),
  })
  .meta({ id: "VideoAnalysis" });

export function toAnalysisItem(a: VideoAnalysis): z.infer<typeof analysisSchema> {
  return {
    analysisId: a.id,
    videoId: a.videoId,
    status: a.status,
    ...(a.status === "failed" ? { error: a.error ?? "The analysis failed." } : {}),
    transcript: a.transcript,
    segments: (a.segments as z.infer<typeof segment>[] | null) ?? null,
    transcriptSource: a.transcriptSource,
    hookStyle: a.hookStyle as z.infer<typeof analysisSchema>["hookStyle"],
    hookPhrase: a.hookPhrase,
    ugcFit: a.ugcFit as z.infer<typeof analysisSchema>["ugcFit"],
    ugcConfidence: a.ugcConfidence,
    ctaType: a.ctaType as z.infer<typeof analysisSchema>["ctaType"],
    ctaDestinationUrl: a.ctaDestinationUrl,
    analysisProvider: a.analysisProvider,
    createdAt: iso(a.createdAt),
    updatedAt: iso(a.updatedAt),
    completedAt: isoOrNull(a.completedAt),
  };
}
