/**
 * GraphQL: video analysis through the same services as REST (`analyzeVideo`, `videoAnalysis`) and
 * live status (`analysisStatusChanged`, over graphql-ws and SSE).
 *
 * The subscription first sends the current state (when there is an analysis), then every change
 * published by whichever process made it, dropping anything not newer than what this subscriber
 * already got: each status of an analysis arrives once and in order, ending with COMPLETED or
 * FAILED, even for a subscriber that connects while the analysis is already running.
 */
import type { AnalysisStatus, VideoAnalysis } from "../../../generated/prisma/client.ts";
import { builder } from "../builder.ts";
import { sharedPerEvent } from "../subscriptions.ts";
import { entityId, nodeUuid } from "../connections.ts";
import { VideoRef } from "./tracking.ts";
import { analyzeOptions } from "../../../domain/analysis/inputs.ts";
import {
  ANALYSIS_COST,
  analysesByIds,
  analyze,
  latestAnalysesOfVideos,
  getAnalysis,
  type AnalyzeOutcome,
  type AnalyzeResult,
} from "../../../domain/analysis/service.ts";
import { CTA_TYPES, HOOK_SOURCES, HOOK_STYLES, UGC_CONFIDENCE_DESCRIPTION, UGC_FITS } from "../../../domain/analysis/vocabulary.ts";
import { VISUAL_STATUSES } from "../../../domain/analysis/visual/part.ts";
import { VISUAL_DESCRIPTIONS as D, visualOf, type VisualRecord } from "../../records/analysis.ts";
import { parseInput } from "../../../domain/shared/inputs.ts";
import { watchAnalysis } from "../../../domain/analysis/watch.ts";
import type { AnalysisEvent } from "../../../domain/analysis/events.ts";
import type { Segment } from "../../../domain/analysis/ports.ts";

/** `{bold_claim: "…"}` → `{BOLD_CLAIM: {value: "bold_claim", description: "…"}}` */
function enumValues<K extends string>(vocabulary: Record<K, string>) {
  return Object.fromEntries(
    Object.entries(vocabulary).map(([value, description]) => [value.toUpperCase(), { value, description: description as string }]),
  ) as Record<Uppercase<K>, { value: K; description: string }>;
}

const AnalysisStatusEnum = builder.enumType("AnalysisStatus", {
  description: "PENDING → DOWNLOADING → TRANSCRIBED → ANALYZING → COMPLETED, or FAILED.",
  values: enumValues({
    pending: "Queued; no work done yet.",
    downloading: "Fetching the video's captions or audio (and a small video rendition) and transcribing it.",
    transcribed: "Transcript and segments are stored and readable; the visual part and the content analysis come next.",
    analyzing:
      "Looking at the video (the visual part, stored as soon as it is done), then the content analysis (hook, UGC fit, call to action).",
    completed: "Done; the credits are charged now.",
    failed: "Stopped with an error; no credits are charged.",
  } satisfies Record<AnalysisStatus, string>),
});

const HookStyleEnum = builder.enumType("HookStyle", { description: "How the video opens.", values: enumValues(HOOK_STYLES) });
const UgcFitEnum = builder.enumType("UgcFit", {
  description: "How well the video reads as user-generated content.",
  values: enumValues(UGC_FITS),
});
const CtaTypeEnum = builder.enumType("CtaType", { description: "The video's call to action.", values: enumValues(CTA_TYPES) });

const HookSourceEnum = builder.enumType("HookSource", {
  description: "Where an analysis's hook phrase came from.",
  values: enumValues(HOOK_SOURCES),
});
const AnalysisVisualStatusEnum = builder.enumType("AnalysisVisualStatus", {
  description: "How much of the video the analysis saw.",
  values: enumValues(VISUAL_STATUSES),
});
const KeyframeReasonEnum = builder.enumType("KeyframeReason", {
  description: "Why a keyframe was picked.",
  values: enumValues({
    first: "The video's first frame.",
    scene: "A scene change (a cut).",
    interval: "An evenly spaced sample.",
  } satisfies Record<VisualRecord["keyframes"][number]["reason"], string>),
});

type KeyframeRecord = VisualRecord["keyframes"][number];
const AnalysisKeyframeRef = builder.objectRef<KeyframeRecord>("AnalysisKeyframe").implement({
  description: "A frame the analysis looked at.",
  fields: (t) => ({
    index: t.exposeInt("index", { description: D.keyframeIndex }),
    seconds: t.exposeFloat("seconds", { description: "Seconds from the start of the video." }),
    reason: t.field({ type: KeyframeReasonEnum, description: D.keyframeReason, resolve: (k) => k.reason }),
    text: t.exposeString("text", { description: D.keyframeText }),
    face: t.exposeBoolean("face", { nullable: true, description: D.keyframeFace }),
    thumbnailUrl: t.exposeString("thumbnailUrl", { nullable: true, description: D.thumbnailUrl }),
  }),
});

const OnScreenTextRef = builder.objectRef<VisualRecord["onScreenText"][number]>("OnScreenText").implement({
  description: "A piece of on-screen text, de-duplicated across keyframes, with when it is shown.",
  fields: (t) => ({
    text: t.exposeString("text"),
    firstSeconds: t.exposeFloat("firstSeconds", { description: D.firstSeconds }),
    lastSeconds: t.exposeFloat("lastSeconds", { description: D.lastSeconds }),
    language: t.exposeString("language", { nullable: true, description: D.textLanguage }),
    confidence: t.exposeFloat("confidence", { nullable: true, description: D.textConfidence }),
    used: t.exposeBoolean("used", { description: D.textUsed }),
  }),
});

const AnalysisVisualProvidersRef = builder.objectRef<VisualRecord["providers"]>("AnalysisVisualProviders").implement({
  description: D.providers,
  fields: (t) => ({
    keyframes: t.exposeString("keyframes", { nullable: true, description: "Keyframes, cuts and thumbnails (`ffmpeg`)." }),
    text: t.exposeString("text", { nullable: true, description: "On-screen text (`paddleocr+tesseract`)." }),
    faces: t.exposeString("faces", { nullable: true, description: "Faces (`face-api`)." }),
  }),
});

const AnalysisVisualRef = builder.objectRef<VisualRecord>("AnalysisVisual").implement({
  description: D.visual,
  fields: (t) => ({
    status: t.field({ type: AnalysisVisualStatusEnum, resolve: (v) => v.status }),
    durationSeconds: t.exposeFloat("durationSeconds", { nullable: true, description: D.durationSeconds }),
    textHook: t.exposeString("textHook", { nullable: true, description: D.textHook }),
    cutCount: t.exposeInt("cutCount", { nullable: true, description: D.cutCount }),
    cutsPerMinute: t.exposeFloat("cutsPerMinute", { nullable: true, description: D.cutsPerMinute }),
    firstCutSeconds: t.exposeFloat("firstCutSeconds", { nullable: true, description: D.firstCutSeconds }),
    faceShare: t.exposeFloat("faceShare", { nullable: true, description: D.faceShare }),
    providers: t.field({ type: AnalysisVisualProvidersRef, resolve: (v) => v.providers }),
    skipped: t.exposeStringList("skipped", { description: D.skipped }),
    onScreenText: t.field({ type: [OnScreenTextRef], description: D.onScreenText, resolve: (v) => v.onScreenText }),
    keyframes: t.field({ type: [AnalysisKeyframeRef], description: D.keyframes, resolve: (v) => v.keyframes }),
  }),
});

const AnalyzeOutcomeEnum = builder.enumType("AnalyzeOutcome", {
  values: enumValues({
    queued: "A fresh analysis was queued (status PENDING).",
    already_completed: "The video's analysis is already completed; nothing was restarted or charged.",
    in_progress: "An analysis is already running; its current status is returned.",
  } satisfies Record<AnalyzeOutcome, string>),
});

const SegmentRef = builder.objectRef<Segment>("TranscriptSegment").implement({
  fields: (t) => ({
    start: t.exposeFloat("start", { description: "Seconds from the start of the video." }),
    end: t.exposeFloat("end", { description: "Seconds from the start of the video." }),
    text: t.exposeString("text"),
  }),
});

const UNTIL_COMPLETED = "Null until the analysis is completed.";

const VideoAnalysisRef = builder.loadableNodeRef("VideoAnalysis", {
  id: { resolve: (a: VideoAnalysis) => a.id, parse: nodeUuid },
  load: (ids: string[], ctx) => analysesByIds(ctx.auth.workspaceId, ids),
  sort: (a) => a.id,
  cacheResolved: (a) => a.id,
});

VideoAnalysisRef.implement({
  description: "An analysis of a tracked video for this workspace.",
  fields: (t) => ({
    uuid: t.exposeID("id", { description: "The analysis's UUID (REST's analysisId)." }),
    videoId: t.exposeID("videoId", { description: "The video's UUID." }),
    video: t.field({ type: VideoRef, resolve: (a) => a.videoId }),
    status: t.field({ type: AnalysisStatusEnum, resolve: (a) => a.status }),
    error: t.string({
      nullable: true,
      description: "Why the analysis failed; set only when FAILED.",
      resolve: (a) => (a.status === "failed" ? a.error : null),
    }),
    transcript: t.exposeString("transcript", { nullable: true, description: "Available from TRANSCRIBED on." }),
    segments: t.field({
      type: [SegmentRef],
      nullable: true,
      description: "The transcript as timed segments; available from TRANSCRIBED on.",
      resolve: (a) => (a.segments as unknown as Segment[] | null) ?? null,
    }),
    transcriptSource: t.exposeString("transcriptSource", {
      nullable: true,
      description: "`captions`, `pocketsphinx` or `openai`; `none` when the media has no audio stream (the transcript is then empty).",
    }),
    transcriptLanguage: t.exposeString("transcriptLanguage", {
      nullable: true,
      description: "The transcript's language, BCP 47; null when unknown (speech the recogniser could not read) and before TRANSCRIBED.",
    }),
    transcriptConfidence: t.exposeFloat("transcriptConfidence", {
      nullable: true,
      description: "How sure the speech recogniser was of the transcript, 0-1; null when it does not say (platform captions).",
    }),
    transcriptUsed: t.exposeBoolean("transcriptUsed", {
      nullable: true,
      description:
        "Whether the analysis judged from the transcript: false when it was set aside (below SPEECH_CONFIDENCE_FLOOR, or not a language the recogniser knows) or is empty; kept, used for no judgement.",
    }),
    transcriptNote: t.exposeString("transcriptNote", {
      nullable: true,
      description: "Why the transcript is empty or was set aside, in words; null when it was used.",
    }),
    hookStyle: t.field({ type: HookStyleEnum, nullable: true, description: UNTIL_COMPLETED, resolve: (a) => a.hookStyle as never }),
    hookPhrase: t.exposeString("hookPhrase", {
      nullable: true,
      description: `The hook as said or written in the first seconds ("" when none). ${UNTIL_COMPLETED}`,
    }),
    ugcFit: t.field({ type: UgcFitEnum, nullable: true, description: UNTIL_COMPLETED, resolve: (a) => a.ugcFit as never }),
    ugcConfidence: t.exposeInt("ugcConfidence", { nullable: true, description: `${UGC_CONFIDENCE_DESCRIPTION} ${UNTIL_COMPLETED}` }),
    ctaType: t.field({ type: CtaTypeEnum, nullable: true, description: UNTIL_COMPLETED, resolve: (a) => a.ctaType as never }),
    ctaDestinationUrl: t.exposeString("ctaDestinationUrl", { nullable: true }),
    analysisProvider: t.exposeString("analysisProvider", { nullable: true, description: "`heuristic` or `openai`." }),
    hookSource: t.field({
      type: HookSourceEnum,
      nullable: true,
      description: `Where hookPhrase came from; null when there is no hook. ${UNTIL_COMPLETED}`,
      resolve: (a) => a.hookSource as never,
    }),
    reasons: t.stringList({ nullable: true, description: D.reasons, resolve: (a) => (a.reasons as string[] | null) ?? null }),
    visual: t.field({ type: AnalysisVisualRef, nullable: true, description: D.visual, resolve: (a) => visualOf(a) }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "Time of the last status change." }),
    completedAt: t.expose("completedAt", { type: "DateTime", nullable: true }),
  }),
});

const AnalyzeVideoResultRef = builder.objectRef<AnalyzeResult & { workspaceId: string }>("AnalyzeVideoResult").implement({
  fields: (t) => ({
    analysisId: t.exposeID("analysisId"),
    videoId: t.exposeID("videoId"),
    status: t.field({ type: AnalysisStatusEnum, resolve: (r) => r.status }),
    outcome: t.field({ type: AnalyzeOutcomeEnum, resolve: (r) => r.outcome }),
    message: t.exposeString("message"),
    analysis: t.field({
      type: VideoAnalysisRef,
      nullable: true,
      description: "The analysis as stored now.",
      resolve: async (r) => getAnalysis(r.workspaceId, r.videoId),
    }),
  }),
});

const AnalysisStatusChangeRef = builder.objectRef<AnalysisEvent & { workspaceId: string }>("AnalysisStatusChange").implement({
  description: "One status of an analysis, as it was committed.",
  fields: (t) => ({
    analysisId: t.exposeID("analysisId"),
    videoId: t.exposeID("videoId"),
    status: t.field({ type: AnalysisStatusEnum, resolve: (e) => e.status }),
    error: t.exposeString("error", { nullable: true, description: "Set when FAILED." }),
    at: t.field({ type: "DateTime", description: "When the status was committed.", resolve: (e) => e.at }),
    analysis: t.field({
      type: VideoAnalysisRef,
      nullable: true,
      description: "The analysis as stored when this change is delivered (it may already be further along).",
      resolve: (e) => getAnalysis(e.workspaceId, e.videoId),
    }),
  }),
});

// The latest analysis of each video of a response: one read for the whole page.
builder.objectField(VideoRef, "analysis", (t) =>
  t.loadable({
    type: VideoAnalysisRef,
    nullable: true,
    description: "The video's latest analysis for this workspace, or null when it has none.",
    load: async (videoIds: string[], ctx) => {
      const byVideo = new Map((await latestAnalysesOfVideos(ctx.auth.workspaceId, videoIds)).map((a) => [a.videoId, a]));
      return videoIds.map((id) => byVideo.get(id) ?? null);
    },
    resolve: (v) => v.id,
  }),
);

builder.queryFields((t) => ({
  videoAnalysis: t.field({
    type: VideoAnalysisRef,
    nullable: true,
    description: "The video's latest analysis, or null when it has none. NOT_FOUND when the workspace does not track the video.",
    args: { videoId: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => getAnalysis(ctx.auth.workspaceId, entityId(args.videoId, "Video", "videoId")),
  }),
}));

builder.mutationFields((t) => ({
  analyzeVideo: t.field({
    type: AnalyzeVideoResultRef,
    description:
      `Analyses a tracked video (REST: POST /video-analysis/{videoId}/analyze). Costs ${ANALYSIS_COST} credits, reserved now and charged ` +
      "only on completion. Errors: NOT_FOUND (video not tracked), INSUFFICIENT_CREDITS (the message names the cost and the balance).",
    args: {
      videoId: t.arg.id({ required: true }),
      force: t.arg.boolean({ defaultValue: false, description: "Delete the previous result and analyse again." }),
    },
    resolve: async (_r, args, ctx) => {
      const videoId = entityId(args.videoId, "Video", "videoId");
      const { force } = parseInput(analyzeOptions, { force: args.force ?? undefined });
      const r = await analyze(ctx.auth.workspaceId, videoId, { force });
      return { ...r, workspaceId: ctx.auth.workspaceId };
    },
  }),
}));

builder.subscriptionFields((t) => ({
  analysisStatusChanged: t.field({
    type: AnalysisStatusChangeRef,
    description:
      "Live status of the video's analysis (graphql-ws, or SSE with `Accept: text/event-stream`). Sends the current status first " +
      "(when the video has an analysis), then each later status once and in order, ending with COMPLETED or FAILED. The stream stays " +
      "open for later analyses of the video (e.g. after analyzeVideo with force) until the client stops it.",
    args: { videoId: t.arg.id({ required: true }) },
    // The checks run before the stream starts, so a bad or foreign videoId is an ordinary GraphQL error.
    subscribe: (_r, args, ctx) => sharedPerEvent(ctx, watchAnalysis(ctx.auth.workspaceId, entityId(args.videoId, "Video", "videoId"))),
    resolve: (event) => event,
  }),
}));
