/**
 * The visual part of an analysis as it is stored and answered (docs/contract/decisions.md,
 * "analysis, visual part"): what the visual stage (./look.ts, `lookAtVideo`) saw, bounded, or the reason
 * nothing was seen. It lives in `video_analyses.visual` (JSON, read with the analysis: no extra
 * statement for any door) and each keyframe's small JPEG in `video_analysis_thumbnails` (read only
 * when a thumbnail is asked for). Both are written once the analyzing stage has looked at the video,
 * before the content analysis runs, and are deleted with the analysis.
 */
import type { VideoAnalysis } from "../../../generated/prisma/client.ts";
import { Prisma, prisma, sql } from "../../../infra/db.ts";
import { notFound } from "../../shared/errors.ts";
import { storableText } from "../../shared/unstorable.ts";
import type { Keyframe, OnScreenText, VisualEvidence } from "../ports.ts";

/** At most this many keyframes (and thumbnails) are kept per analysis (CHECK analysis_thumbnail_position). */
export const MAX_STORED_KEYFRAMES = 32;
/** A thumbnail larger than this is not kept (CHECK analysis_thumbnail_size); its keyframe has no thumbnail. */
export const MAX_THUMBNAIL_BYTES = 32 * 1024;
const MAX_TEXT_CHARS = 500;
const MAX_ON_SCREEN_TEXTS = 100;
const MAX_SKIPPED = 10;

export const VISUAL_STATUSES = {
  complete: "Every visual provider looked at the video.",
  partial: "Keyframes were taken but a part was left out (on-screen text or faces); `skipped` says why.",
  transcript_only:
    "Nothing was seen (no visual provider, no video rendition, or the visual stage failed): the analysis used the transcript alone; `skipped` says why.",
} as const;
export type VisualStatus = keyof typeof VISUAL_STATUSES;
export const VISUAL_STATUS_VALUES = Object.keys(VISUAL_STATUSES) as [VisualStatus, ...VisualStatus[]];

export interface StoredKeyframe {
  /** Seconds from the start of the video. */
  seconds: number;
  reason: Keyframe["reason"];
  /** The on-screen text read in this frame and confident enough to use; "" when none (or no recognizer ran). */
  text: string;
  /** Null when no face detector ran. */
  face: boolean | null;
  /** Whether a thumbnail is stored for it (one too large is not). */
  thumbnail: boolean;
}

/** The stored visual part (`video_analyses.visual`). */
export interface VisualPart {
  status: VisualStatus;
  durationSeconds: number | null;
  keyframes: StoredKeyframe[];
  onScreenText: OnScreenText[];
  textHook: string | null;
  /** Null when no keyframe provider ran. */
  cutCount: number | null;
  cutsPerMinute: number | null;
  firstCutSeconds: number | null;
  faceShare: number | null;
  providers: { keyframes: string | null; text: string | null; faces: string | null };
  skipped: string[];
}

/** What a keyframe provider's answer becomes when stored: the record and the thumbnails, by keyframe index. */
export interface VisualPartToStore {
  part: VisualPart;
  thumbnails: (Buffer | null)[];
}

/** Text as PostgreSQL can hold it (no NUL, no lone surrogate), within `max` characters. */
const storable = (s: string, max = MAX_TEXT_CHARS) => storableText(s).slice(0, max);
/** A finite number rounded to milliseconds (JSON holds neither NaN nor Infinity), else null. */
const finite = (n: number | null | undefined, digits = 3) =>
  typeof n === "number" && Number.isFinite(n) ? Number(n.toFixed(digits)) : null;

/** `n` indices spread evenly over `0..length-1`, ascending (all of them when there are no more than `n`). */
function evenlySpread(length: number, n: number): number[] {
  if (length <= n) return Array.from({ length }, (_, i) => i);
  return Array.from({ length: n }, (_, i) => Math.round((i * (length - 1)) / (n - 1)));
}

/** The visual evidence as it is stored: bounded in keyframes, text and bytes. */
export function visualPartOf(evidence: VisualEvidence): VisualPartToStore {
  const kept = evenlySpread(evidence.keyframes.length, MAX_STORED_KEYFRAMES).map((i) => evidence.keyframes[i]!);
  const thumbnails = kept.map((k) => (k.thumbnail.length > 0 && k.thumbnail.length <= MAX_THUMBNAIL_BYTES ? k.thumbnail : null));
  const seen = evidence.providers.keyframes !== null;
  const part: VisualPart = {
    status: !seen ? "transcript_only" : evidence.providers.text && evidence.providers.faces ? "complete" : "partial",
    durationSeconds: finite(evidence.durationSeconds),
    keyframes: kept.map((k, i) => ({
      seconds: finite(k.seconds) ?? 0,
      reason: k.reason,
      text: storable(k.text),
      face: k.face,
      thumbnail: thumbnails[i] !== null,
    })),
    onScreenText: evidence.onScreenText.slice(0, MAX_ON_SCREEN_TEXTS).map((t) => ({
      text: storable(t.text),
      firstSeconds: finite(t.firstSeconds) ?? 0,
      lastSeconds: finite(t.lastSeconds) ?? 0,
      language: t.language,
      confidence: finite(t.confidence, 2),
      used: t.used,
    })),
    textHook: evidence.textHook === null ? null : storable(evidence.textHook),
    cutCount: seen ? evidence.cutCount : null,
    cutsPerMinute: seen ? finite(evidence.cutsPerMinute, 2) : null,
    firstCutSeconds: finite(evidence.firstCutSeconds),
    faceShare: finite(evidence.faceShare),
    providers: evidence.providers,
    skipped: evidence.skipped.slice(0, MAX_SKIPPED).map((s) => storable(s)),
  };
  return { part, thumbnails };
}

/** The visual part of an analysis that saw nothing, with why. */
export function transcriptOnly(reasons: string[]): VisualPartToStore {
  return {
    part: {
      status: "transcript_only",
      durationSeconds: null,
      keyframes: [],
      onScreenText: [],
      textHook: null,
      cutCount: null,
      cutsPerMinute: null,
      firstCutSeconds: null,
      faceShare: null,
      providers: { keyframes: null, text: null, faces: null },
      skipped: reasons.slice(0, MAX_SKIPPED).map((s) => storable(s)),
    },
    thumbnails: [],
  };
}

/**
 * The stored visual part of an analysis; null before the analyzing stage has looked (and for older analyses).
 * On-screen text stored before lines carried a language and a confidence answers them as unknown, and used
 * (it was).
 */
export function visualPartOfAnalysis(a: Pick<VideoAnalysis, "visual">): VisualPart | null {
  const part = (a.visual as VisualPart | null) ?? null;
  if (!part) return null;
  return {
    ...part,
    onScreenText: part.onScreenText.map((t) => ({
      ...t,
      language: t.language ?? null,
      confidence: t.confidence ?? null,
      used: t.used ?? true,
    })),
  };
}

/**
 * Stores the visual part and its thumbnails (replacing any stored before) while the analysis is
 * `analyzing`, in one transaction. False when the analysis has moved on (failed by the sweeper,
 * deleted by a forced re-analysis): nothing is written.
 */
export async function storeVisualPart(analysisId: string, { part, thumbnails }: VisualPartToStore): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const moved = await tx.$executeRaw`
      UPDATE video_analyses SET visual = ${JSON.stringify(part)}::jsonb
      WHERE id = ${analysisId}::uuid AND status = 'analyzing'`;
    if (moved === 0) return false;
    await tx.videoAnalysisThumbnail.deleteMany({ where: { analysisId } });
    const rows = thumbnails.flatMap((jpeg, position) => (jpeg ? [{ analysisId, position, jpeg: new Uint8Array(jpeg) }] : []));
    if (rows.length > 0) await tx.videoAnalysisThumbnail.createMany({ data: rows });
    return true;
  });
}

/** The stored thumbnails of an analysis, by keyframe index (null where none is stored). */
export async function storedThumbnails(analysisId: string, count: number): Promise<(Buffer | null)[]> {
  const rows = await prisma.videoAnalysisThumbnail.findMany({ where: { analysisId }, select: { position: true, jpeg: true } });
  const byPosition = new Map(rows.map((r) => [r.position, Buffer.from(r.jpeg)]));
  return Array.from({ length: count }, (_, i) => byPosition.get(i) ?? null);
}

/**
 * One keyframe's thumbnail, for the workspace whose analysis it is and which still tracks the video
 * (as the analysis itself is read): NOT_FOUND otherwise, and for an index with no thumbnail.
 * `final` once the analysis has ended (the image no longer changes: it may be cached).
 */
export async function keyframeThumbnail(workspaceId: string, analysisId: string, index: number): Promise<{ jpeg: Buffer; final: boolean }> {
  const [row] = await sql<{ jpeg: Buffer; status: string }>(Prisma.sql`
    SELECT t.jpeg, a.status::text AS status
    FROM video_analyses a
    JOIN tracked_videos tv ON tv.workspace_id = a.workspace_id AND tv.video_id = a.video_id
    JOIN video_analysis_thumbnails t ON t.analysis_id = a.id AND t.position = ${index}
    WHERE a.id = ${analysisId}::uuid AND a.workspace_id = ${workspaceId}::uuid`);
  if (!row) throw notFound("Keyframe thumbnail");
  return { jpeg: row.jpeg, final: row.status === "completed" || row.status === "failed" };
}
