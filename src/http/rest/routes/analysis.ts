/** /video-analysis: start (or answer about) an analysis of a tracked video, and read it. */
import { createHash } from "node:crypto";
import { z } from "zod";
import { ANALYSIS_COST, ANALYSIS_STATUSES, analyze, getAnalysis } from "../../../domain/analysis/service.ts";
import { InsufficientCreditsError } from "../../../domain/shared/errors.ts";
import { defineRoute } from "../route.ts";
import { errorSchema, queryParams } from "../schemas.ts";
import { uuid } from "../../../domain/shared/records.ts";
import { analysisSchema, toAnalysisItem } from "../../records/analysis.ts";
import { analyzeOptions, keyframeRef } from "../../../domain/analysis/inputs.ts";
import { keyframeThumbnail } from "../../../domain/analysis/visual/part.ts";

const insufficientCreditsBody = z
  .object({
    statusCode: z.literal(400),
    message: z.string().meta({ description: "Names the cost (5 credits) and the balance available for new work." }),
  })
  .meta({ id: "AnalysisInsufficientCredits" });

const videoParams = z.object({ videoId: uuid });

const jpeg = z.string().meta({ description: "The JPEG's bytes.", contentMediaType: "image/jpeg" });

export const analysisRoutes = [
  defineRoute({
    method: "post",
    path: "/video-analysis/{videoId}/analyze",
    operationId: "analyzeVideo",
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
          '`videoId` or `force`, the usual `{code: "VALIDATION_ERROR", message, details}`.',
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
    operationId: "getVideoAnalysis",
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
  defineRoute({
    method: "get",
    path: "/analyses/{analysisId}/keyframes/{index}/thumbnail",
    operationId: "getKeyframeThumbnail",
    summary: "A keyframe's thumbnail (JPEG)",
    description:
      "The small JPEG (about 160 px wide) of one keyframe of an analysis: the `thumbnailUrl` of `visual.keyframes[index]` in the " +
      "analysis record (GET /video-analysis/{videoId}), which links here. Served only to the workspace that owns the analysis and tracks " +
      "its video, with an API key or a dashboard session (an `<img>` on the dashboard sends its cookie); 404 NOT_FOUND for anyone else, " +
      "and for an index with no thumbnail. Once the analysis has ended the image never changes: it may be cached (`Cache-Control: " +
      "private, immutable`); until then it is revalidated by its ETag.",
    tags: ["Video analysis"],
    params: queryParams(keyframeRef),
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "The thumbnail.", mediaType: "image/jpeg", schema: jpeg } },
    async handler({ auth, params }) {
      const t = await keyframeThumbnail(auth.workspaceId, params.analysisId, params.index);
      // The app sends no ETags (app.ts); an image gets its own, so a revalidation is a 304 (Express compares If-None-Match).
      const etag = `"${createHash("sha256").update(t.jpeg).digest("base64url").slice(0, 22)}"`;
      return {
        body: t.jpeg,
        headers: { ETag: etag, "Cache-Control": t.final ? "private, max-age=86400, immutable" : "private, no-cache" },
      };
    },
  }),
];
