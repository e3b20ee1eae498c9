/**
 * The analysis MCP tools: AI analyses of videos (as REST /videos/{id}/analyze and /videos/{id}/analysis).
 */
import { z } from "zod";
import { analyzeOptions } from "../../../domain/analysis/inputs.ts";
import { ANALYSIS_COST, analyze, getAnalysis } from "../../../domain/analysis/service.ts";
import { toAnalysisItem } from "../../records/analysis.ts";
import { READ, WRITE, defineTool, videoId, type AnyTool } from "../tool.ts";

export const analysisTools: AnyTool[] = [
  defineTool({
    name: "analyze_video",
    title: "Start an AI analysis of a video (5 credits)",
    description:
      `Costs ${ANALYSIS_COST} credits: starts an AI analysis of a tracked video (transcript, hook, UGC fit, call to action), ` +
      `reserving ${ANALYSIS_COST} credits that are charged when it completes and released if it fails. When an analysis already ` +
      "completed (and `force` is not true) or one is running, nothing is started or charged: the answer says so. The analysis " +
      "takes about 15 to 30 seconds; poll get_video_analysis. Errors: INSUFFICIENT_CREDITS, NOT_FOUND.",
    input: z.object({ video_id: videoId, ...analyzeOptions.shape }),
    annotations: WRITE,
    idempotent: true,
    run: async ({ auth }, input) => {
      const r = await analyze(auth.workspaceId, input.video_id, { force: input.force });
      const started = r.outcome === "queued";
      return {
        data: { analysisId: r.analysisId, videoId: r.videoId, status: r.status },
        message: r.message,
        credits: started
          ? {
              cost: ANALYSIS_COST,
              note: `${ANALYSIS_COST} credits reserved now, charged when the analysis completes, released if it fails.`,
            }
          : { cost: 0, note: "Nothing was started, so nothing was reserved or charged." },
      };
    },
  }),
  defineTool({
    name: "get_video_analysis",
    title: "Read a video's analysis",
    description:
      "The video's latest AI analysis: status (pending → downloading → transcribed → analyzing → completed, or failed), transcript " +
      "with its language and confidence (`transcriptUsed` false and `transcriptNote` saying why when it was set aside: not used for any judgement), " +
      "hook style and phrase and where the hook came from (`hookSource`: speech, screen or description), UGC fit, call to action, " +
      "the `reasons` of each judgement, and `visual`: what the analysis saw in the video (keyframes with their time and on-screen text, " +
      "the text hook shown in the first 3 seconds, cuts and cuts per minute, the share of keyframes with a face, and what was skipped " +
      "and why). A keyframe's `thumbnailUrl` is a path on this service, fetched with the same API key. `data` is null when the video " +
      "was never analysed. Free.",
    input: z.object({ video_id: videoId }),
    annotations: READ,
    run: async ({ auth }, input) => {
      const a = await getAnalysis(auth.workspaceId, input.video_id);
      return { data: a ? toAnalysisItem(a) : null };
    },
  }),
];
