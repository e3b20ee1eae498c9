/**
 * A video's analysis as every door answers it (REST /video-analysis, MCP get_video_analysis): the
 * zod schema of the OpenAPI document and the mapper from the stored analysis.
 */
import { z } from "zod";
import type { VideoAnalysis } from "../../generated/prisma/client.ts";
import { ANALYSIS_STATUSES } from "../../domain/analysis/service.ts";
import {
  CTA_TYPES,
  CTA_TYPE_VALUES,
  HOOK_SOURCES,
  HOOK_SOURCE_VALUES,
  HOOK_STYLES,
  HOOK_STYLE_VALUES,
  UGC_CONFIDENCE_DESCRIPTION,
  UGC_FITS,
  UGC_FIT_VALUES,
} from "../../domain/analysis/vocabulary.ts";
import {
  MAX_STORED_KEYFRAMES,
  VISUAL_STATUSES,
  VISUAL_STATUS_VALUES,
  visualPartOfAnalysis,
  type VisualPart,
} from "../../domain/analysis/visual/part.ts";
import { iso, isoOrNull, timestamp } from "../../domain/shared/records.ts";

/** "value: meaning" lines of a vocabulary, for the OpenAPI descriptions. */
const describe = (title: string, values: Record<string, string>) =>
  `${title} One of: ${Object.entries(values)
    .map(([v, d]) => `\`${v}\` (${d})`)
    .join("; ")}. Null until the analysis is completed.`;

const STATUS_DESCRIPTION =
  "pending → downloading → transcribed → analyzing → completed, or failed (see `error`). The transcript and segments are " +
  "available from `transcribed` on, while the visual part and the content analysis run; `visual` is stored during `analyzing`. " +
  "An analysis takes about 15 to 30 seconds; poll every 5 to 10 seconds.";

const segment = z
  .object({
    start: z.number().meta({ description: "Seconds from the start of the video." }),
    end: z.number().meta({ description: "Seconds from the start of the video." }),
    text: z.string(),
  })
  .meta({ id: "TranscriptSegment" });

/**
 * Where a keyframe's thumbnail is served: relative to the service's address, the same on every door. It names
 * its workspace, so an `<img>` in a tab on one workspace loads even when the person has since chosen another
 * (a session's read may name its workspace by `?workspace=`: src/http/who-is-asking.ts; a key ignores it).
 */
export const thumbnailUrl = (workspaceId: string, analysisId: string, index: number) =>
  `/api/v1/analyses/${analysisId}/keyframes/${index}/thumbnail?workspace=${workspaceId}`;

export const VISUAL_DESCRIPTIONS = {
  visual:
    "What the analysis saw in the video: keyframes with their time, on-screen text and thumbnail, the text hook, cuts and pacing, " +
    "the share of keyframes with a face, and which providers produced each. Null until the analyzing stage has looked at the video " +
    "(it is stored during `analyzing`, after the transcript), and for analyses made before visual analysis existed.",
  status: `${Object.entries(VISUAL_STATUSES)
    .map(([v, d]) => `\`${v}\`: ${d}`)
    .join(" ")}`,
  durationSeconds: "The video rendition's length in seconds; null when nothing was seen.",
  textHook: "The text shown on screen in the first 3 seconds (the text hook); null when none.",
  cutCount: "Scene changes (cuts) found in the whole video; null when no keyframe provider ran.",
  cutsPerMinute: "Pacing: cuts per minute of video; null when no keyframe provider ran.",
  firstCutSeconds: "When the first cut happens; null when there is none.",
  faceShare:
    "Share of keyframes showing a face, 0 to 1 (a person talking to camera is the strongest UGC signal); null when no face detector ran.",
  providers:
    "The provider that produced each part (`ffmpeg`; `paddleocr+tesseract` for on-screen text; `face-api`); null for a part that was skipped.",
  skipped: "Parts left out and why, in words (a missing program or model, a video with no rendition, a failure); empty when nothing was.",
  onScreenText:
    "On-screen text, de-duplicated across keyframes, ascending by when it first appears; each line with its language and the recogniser's confidence, those below the confidence floor marked `used: false`.",
  firstSeconds: "When it first appears (the earliest keyframe showing it), seconds from the start.",
  lastSeconds: "The latest keyframe showing it, seconds from the start.",
  textLanguage:
    "The line's language as a BCP 47 tag (`en`, `ru`, `zh`, `vi`); null when its letters do not settle it (a short line, a name).",
  textConfidence:
    "How sure the text recogniser was of the line, 0 to 1 (its best reading across keyframes); null for analyses made before it was kept.",
  textUsed:
    "Whether the analysis used the line: false when it was read below the confidence floor (VISUAL_TEXT_CONFIDENCE_FLOOR, 0.8 by default), or does not read as words of its script (a Latin line mostly of no English word: a pattern of the picture, Cyrillic read as Latin look-alikes). " +
    "Such a line is answered, but no judgement (text hook, hook, call to action, UGC fit) read it; the reasons say so.",
  keyframes: `The frames looked at, ascending by time: the first frame, cuts and evenly spaced frames, at most VISUAL_MAX_KEYFRAMES (12 by default, at most ${MAX_STORED_KEYFRAMES}).`,
  keyframeIndex: "The keyframe's position in `keyframes` (0-based), as in its thumbnail's URL.",
  keyframeReason:
    "Why the frame was picked: `first` (the first frame), `scene` (a scene change: a cut) or `interval` (an evenly spaced sample).",
  keyframeText:
    'The on-screen text read in this frame above the confidence floor, one line each; "" when none (or no text recognizer ran).',
  keyframeFace: "Whether a face is on screen; null when no face detector ran.",
  thumbnailUrl:
    "A small JPEG of the frame (about 160 px wide), relative to the service's address and naming its workspace (`?workspace=`): " +
    "GET it with the workspace's API key or a dashboard session of one of its members (404 for anyone else); null when none was kept.",
  hookSource: `Where \`hookPhrase\` came from. One of: ${Object.entries(HOOK_SOURCES)
    .map(([v, d]) => `\`${v}\` (${d})`)
    .join("; ")}. Null when there is no hook, or until completed.`,
  reasons:
    "The analysis's reasons, one line per judgement, each naming its evidence (a keyframe and its time for what was seen). Null until completed (and for analyses made before they were recorded).",
};

const onScreenTextSchema = z
  .object({
    text: z.string(),
    firstSeconds: z.number().meta({ description: VISUAL_DESCRIPTIONS.firstSeconds }),
    lastSeconds: z.number().meta({ description: VISUAL_DESCRIPTIONS.lastSeconds }),
    language: z.string().nullable().meta({ description: VISUAL_DESCRIPTIONS.textLanguage }),
    confidence: z.number().min(0).max(1).nullable().meta({ description: VISUAL_DESCRIPTIONS.textConfidence }),
    used: z.boolean().meta({ description: VISUAL_DESCRIPTIONS.textUsed }),
  })
  .meta({ id: "OnScreenText" });

const keyframeSchema = z
  .object({
    index: z.number().int().min(0).meta({ description: VISUAL_DESCRIPTIONS.keyframeIndex }),
    seconds: z.number().meta({ description: "Seconds from the start of the video." }),
    reason: z.enum(["first", "scene", "interval"]).meta({ description: VISUAL_DESCRIPTIONS.keyframeReason }),
    text: z.string().meta({ description: VISUAL_DESCRIPTIONS.keyframeText }),
    face: z.boolean().nullable().meta({ description: VISUAL_DESCRIPTIONS.keyframeFace }),
    thumbnailUrl: z.string().nullable().meta({ description: VISUAL_DESCRIPTIONS.thumbnailUrl }),
  })
  .meta({ id: "AnalysisKeyframe" });

const visualSchema = z
  .object({
    status: z.enum(VISUAL_STATUS_VALUES).meta({ description: VISUAL_DESCRIPTIONS.status }),
    durationSeconds: z.number().nullable().meta({ description: VISUAL_DESCRIPTIONS.durationSeconds }),
    textHook: z.string().nullable().meta({ description: VISUAL_DESCRIPTIONS.textHook }),
    cutCount: z.number().int().nullable().meta({ description: VISUAL_DESCRIPTIONS.cutCount }),
    cutsPerMinute: z.number().nullable().meta({ description: VISUAL_DESCRIPTIONS.cutsPerMinute }),
    firstCutSeconds: z.number().nullable().meta({ description: VISUAL_DESCRIPTIONS.firstCutSeconds }),
    faceShare: z.number().min(0).max(1).nullable().meta({ description: VISUAL_DESCRIPTIONS.faceShare }),
    providers: z
      .object({ keyframes: z.string().nullable(), text: z.string().nullable(), faces: z.string().nullable() })
      .meta({ description: VISUAL_DESCRIPTIONS.providers }),
    skipped: z.array(z.string()).meta({ description: VISUAL_DESCRIPTIONS.skipped }),
    onScreenText: z.array(onScreenTextSchema).meta({ description: VISUAL_DESCRIPTIONS.onScreenText }),
    keyframes: z.array(keyframeSchema).meta({ description: VISUAL_DESCRIPTIONS.keyframes }),
  })
  .meta({ id: "AnalysisVisual", description: VISUAL_DESCRIPTIONS.visual });

export type VisualRecord = z.infer<typeof visualSchema>;

/** The stored visual part as the doors answer it: each keyframe with its index and thumbnail URL. */
export function toVisualRecord(workspaceId: string, analysisId: string, v: VisualPart): VisualRecord {
  const { keyframes, ...rest } = v;
  return {
    ...rest,
    keyframes: keyframes.map(({ thumbnail, ...k }, index) => ({
      index,
      ...k,
      thumbnailUrl: thumbnail ? thumbnailUrl(workspaceId, analysisId, index) : null,
    })),
  };
}

export const analysisSchema = z
  .object({
    analysisId: z.string().meta({ format: "uuid" }),
    videoId: z.string().meta({ format: "uuid" }),
    status: z.enum(ANALYSIS_STATUSES).meta({ description: STATUS_DESCRIPTION }),
    error: z.string().optional().meta({ description: "Why the analysis failed; present only when `status` is failed." }),
    transcript: z
      .string()
      .nullable()
      .meta({ description: "Full transcript; null before status transcribed (and after a failure before it)." }),
    segments: z.array(segment).nullable().meta({ description: "The transcript as timed segments; null before status transcribed." }),
    transcriptSource: z.string().nullable().meta({
      description:
        "Where the transcript came from: `captions` (the platform's own captions, used first), `pocketsphinx` or `openai` (speech recognition); `none` when the media has no audio stream (the transcript is then empty).",
    }),
    transcriptLanguage: z.string().nullable().meta({
      description:
        "The transcript's language, BCP 47 (`en`, `fr`): the caption track's, or the one the recogniser heard; null when unknown (e.g. speech the English-only offline recogniser could not read) and before status transcribed.",
    }),
    transcriptConfidence: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .meta({ description: "How sure the speech recogniser was of the transcript, 0-1; null when it does not say (platform captions)." }),
    transcriptUsed: z.boolean().nullable().meta({
      description:
        "Whether the analysis judged from the transcript: false when it was set aside (recognised below the confidence floor SPEECH_CONFIDENCE_FLOOR, 0.5 by default, or words that do not read as a language the recogniser knows) or is empty; such a transcript is kept here but used for no judgement. Null before status transcribed and for analyses made before it was kept.",
    }),
    transcriptNote: z
      .string()
      .nullable()
      .meta({ description: "Why the transcript is empty or was set aside, in words (also among `reasons`); null when it was used." }),
    hookStyle: z
      .enum(HOOK_STYLE_VALUES)
      .nullable()
      .meta({ description: describe("How the video opens.", HOOK_STYLES) }),
    hookPhrase: z
      .string()
      .nullable()
      .meta({ description: 'The hook as said (or written) in the first seconds; "" when there is none. Null until completed.' }),
    ugcFit: z
      .enum(UGC_FIT_VALUES)
      .nullable()
      .meta({ description: describe("How well the video reads as user-generated content.", UGC_FITS) }),
    ugcConfidence: z
      .number()
      .int()
      .min(0)
      .max(100)
      .nullable()
      .meta({ description: `${UGC_CONFIDENCE_DESCRIPTION} Null until completed.` }),
    ctaType: z
      .enum(CTA_TYPE_VALUES)
      .nullable()
      .meta({ description: describe("The video's call to action.", CTA_TYPES) }),
    ctaDestinationUrl: z
      .string()
      .nullable()
      .meta({ description: "Where the call to action sends the viewer, when a URL is found in the video or its description." }),
    analysisProvider: z.string().nullable().meta({ description: "Which content analysis produced the results: `heuristic` or `openai`." }),
    hookSource: z.enum(HOOK_SOURCE_VALUES).nullable().meta({ description: VISUAL_DESCRIPTIONS.hookSource }),
    reasons: z.array(z.string()).nullable().meta({ description: VISUAL_DESCRIPTIONS.reasons }),
    visual: visualSchema.nullable(),
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
    transcriptLanguage: a.transcriptLanguage,
    transcriptConfidence: a.transcriptConfidence,
    transcriptUsed: a.transcriptUsed,
    transcriptNote: a.transcriptNote,
    hookStyle: a.hookStyle as z.infer<typeof analysisSchema>["hookStyle"],
    hookPhrase: a.hookPhrase,
    ugcFit: a.ugcFit as z.infer<typeof analysisSchema>["ugcFit"],
    ugcConfidence: a.ugcConfidence,
    ctaType: a.ctaType as z.infer<typeof analysisSchema>["ctaType"],
    ctaDestinationUrl: a.ctaDestinationUrl,
    analysisProvider: a.analysisProvider,
    hookSource: a.hookSource as z.infer<typeof analysisSchema>["hookSource"],
    reasons: (a.reasons as string[] | null) ?? null,
    visual: visualOf(a),
    createdAt: iso(a.createdAt),
    updatedAt: iso(a.updatedAt),
    completedAt: isoOrNull(a.completedAt),
  };
}

/** The analysis's visual part as answered; null before it was looked at. */
export function visualOf(a: VideoAnalysis): VisualRecord | null {
  const v = visualPartOfAnalysis(a);
  return v ? toVisualRecord(a.workspaceId, a.id, v) : null;
}
