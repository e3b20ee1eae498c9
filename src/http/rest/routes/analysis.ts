/** /video-analysis: start (or answer about) an analysis of a tracked video, and read it. */
import { z } from "zod";
import type { VideoAnalysis } from "../../../generated/prisma/client.js";
import { ANALYSIS_COST, ANALYSIS_STATUSES, analyze, getAnalysis } from "../../../domain/analysis/service.js";
import { CTA_TYPES, CTA_TYPE_VALUES, HOOK_STYLES, HOOK_STYLE_VALUES, UGC_CONFIDENCE_DESCRIPTION, UGC_FITS, UGC_FIT_VALUES } from "../../../domain/analysis/vocabulary.js";
import { InsufficientCreditsError } from "../../../domain/shared/errors.js";
import { defineRoute } from "../route.js";
import { errorSchema, iso, isoOrNull, queryParams, timestamp, uuid } from "../schemas.js";
import { analyzeOptions } from "../../../domain/analysis/inputs.js";

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

const insufficientCreditsBody = z
  .object({
    statusCode: z.literal(400),
    message: z.string().meta({ description: "Names the cost (5 credits) and the balance available for new work." }),
  })
  .meta({ id: "AnalysisInsufficientCredits" });

const videoParams = z.object({ videoId: uuid });

export const analysisRoutes = [
  defineRoute({
    method: "post",
    path: "/video-analysis/{videoId}/analyze",
    summary: "Analyse a tracked video (transcript, hook, UGC fit, call to action)",
    description:
      `Costs ${ANALYSIS_COST} credits, reserved when the analysis is queued and charged only when it completes (released if it fails). ` +
      "Answers 202 in three cases: newly queued (status `pending`); already completed (status `completed`, nothing restarted or charged); " +
      "in progress (the current status). With `force=true` a completed or failed previous result is deleted and a fresh analysis starts; " +
      "while an analysis is running, `force` does not start a second one (the answer is the in-progress one). Analyze on a video whose last " +
      "analysis failed starts a fresh one without `force`. Two simultaneous calls start one analysis. 404 NOT_FOUND when the workspace does " +
      "not track the video.",
    tags: ["Video analysis"],
    params: videoParams,
    query: queryParams(analyzeOptions),
    errors: ["NOT_FOUND"],
    responses: {
      202: {
        description: "Queued, already completed, or in progress (see `message`).",
        schema: z.object({
          data: z.object({
            analysisId: z.string().meta({ format: "uuid" }),
            videoId: z.string().meta({ format: "uuid" }),
            status: z.enum(ANALYSIS_STATUSES),
          }),
          message: z.string(),
        }),
      },
      400: {
        description:
          "Insufficient credits: `{statusCode: 400, message}` (this endpoint's own shape, per the specification); or, for a bad " +
          "`videoId` or `force`, the usual `{code: \"VALIDATION_ERROR\", message, details}`.",
        schema: z.union([insufficientCreditsBody, errorSchema]),
      },
    },
    async handler({ auth, params, query }) {
      try {
        const r = await analyze(auth.workspaceId, params.videoId, { force: query.force });
        return { status: 202, body: { data: { analysisId: r.analysisId, videoId: r.videoId, status: r.status }, message: r.message } };
      } catch (e) {
        if (!(e instanceof InsufficientCreditsError)) throw e;
        return {
          status: 400,
          body: {
            statusCode: 400,
            message: `Insufficient credits: a video analysis costs ${e.required} credits and your balance available for it is ${e.available} credits.`,
          },
        };
      }
    },
  }),
  defineRoute({
    method: "get",
    path: "/video-analysis/{videoId}",
    summary: "Read the video's latest analysis",
    description: "`data` is null when the video has no analysis. 404 NOT_FOUND when the workspace does not track the video.",
    tags: ["Video analysis"],
    params: videoParams,
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "The latest analysis, or null.", schema: z.object({ data: analysisSchema.nullable() }) } },
    async handler({ auth, params }) {
      const a = await getAnalysis(auth.workspaceId, params.videoId);
      return { body: { data: a ? toAnalysisItem(a) : null } };
    },
  }),
];
