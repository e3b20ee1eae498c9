/**
 * Video analysis: admission (the spec's state table), reading, and the state machine the pipeline
 * moves through. REST, GraphQL and the worker all call these functions.
 *
 *   (none) ──analyze──► pending ─► downloading ─► transcribed ─► analyzing ─► completed
 *                          └───────────┴──────────────┴──────────────┴──────► failed
 *
 * Exactly-once credits: admission reserves 5 credits in the transaction that inserts the analysis;
 * the reservation is captured in the transaction that moves the analysis to `completed` and released
 * in the one that moves it to `failed`. Every move is a conditional UPDATE (`WHERE status =
 * <expected>`), so a retried or duplicated job can never apply a move twice. Each committed move is
 * announced on `analysisStatusChanged` (id `${workspaceId}:${videoId}`) after the commit.
 *
 * Lock order, to stay deadlock-free: the workspace row (credits) first, then analysis rows.
 */
import { randomUUID } from "node:crypto";
import { Prisma, type AnalysisStatus, type VideoAnalysis } from "../../generated/prisma/client.ts";
import { prisma, sql, type Tx } from "../../infra/db.ts";
import { logger } from "../../infra/logger.ts";
import { announce } from "./events.ts";
import { captureReservation, creditsChanged, releaseReservation, reserve } from "../credits/service.ts";
import { enqueueAnalysis } from "./jobs.ts";
import { InsufficientCreditsError, notFound } from "../shared/errors.ts";
import { storableText } from "../shared/unstorable.ts";
import { recordWorkspaceEvents, relayWorkspaceEvents } from "../webhooks/outbox.ts";
import type { Segment } from "./ports.ts";
import type { ContentAnalysis } from "./ports.ts";

/** Credits an analysis costs, charged only when it completes. */
export const ANALYSIS_COST = 5;

export const ANALYSIS_STATUSES = ["pending", "downloading", "transcribed", "analyzing", "completed", "failed"] as const;
/** The states of an analysis still in progress (the partial unique index allows one per workspace and video). */
const RUNNING_STATUSES: AnalysisStatus[] = ["pending", "downloading", "transcribed", "analyzing"];

/** Position of a status in the sequence; both end states share the last position. */
export function statusRank(s: AnalysisStatus): number {
  return s === "failed" ? 4 : ANALYSIS_STATUSES.indexOf(s);
}

/** How an analyze call was answered (the spec's three 202 cases). */
export type AnalyzeOutcome = "queued" | "already_completed" | "in_progress";

export interface AnalyzeResult {
  analysisId: string;
  videoId: string;
  status: AnalysisStatus;
  outcome: AnalyzeOutcome;
  message: string;
}

function answer(a: Pick<VideoAnalysis, "id" | "videoId" | "status">, outcome: AnalyzeOutcome): AnalyzeResult {
  const message = {
    queued:
      "Analysis queued. It takes about 15 to 30 seconds; poll this video's analysis every 5 to 10 seconds until its status is completed or failed.",
    already_completed: "Analysis already completed. Nothing was restarted or charged; use force=true to delete it and analyse again.",
    in_progress: `Analysis in progress (status: ${a.status}).`,
  }[outcome];
  return { analysisId: a.id, videoId: a.videoId, status: a.status, outcome, message };
}

/** NOT_FOUND unless the workspace tracks the video (analyses and their streams are the tracking workspace's). */
export async function requireTrackedVideo(workspaceId: string, videoId: string): Promise<void> {
  const tracked = await prisma.trackedVideo.findUnique({ where: { workspaceId_videoId: { workspaceId, videoId } }, select: { id: true } });
  if (!tracked) throw notFound("Video");
}

const findRunning = (workspaceId: string, videoId: string) =>
  prisma.videoAnalysis.findFirst({ where: { workspaceId, videoId, status: { in: RUNNING_STATUSES } } });

const findLatest = (workspaceId: string, videoId: string) =>
  prisma.videoAnalysis.findFirst({ where: { workspaceId, videoId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });

/** True for the unique violation of `video_analyses_one_running_key` (a second running analysis). */
function isSecondRunningAnalysis(e: unknown): boolean {
  if (!(e instanceof Prisma.PrismaClientKnownRequestError) || e.code !== "P2002") return false;
  // With the pg driver adapter, meta.driverAdapterError.cause carries PostgreSQL's message (which
  // names the index) and the constraint's fields.
  return JSON.stringify(e.meta ?? {}).includes("video_analyses_one_running_key");
}

/**
 * The analyze operation, following the spec's state table:
 * - a video the workspace does not track: NOT_FOUND;
 * - an analysis already running (even with `force`): its current status, "in progress" — a second
 *   analysis is never started beside a running one, and nothing is reserved;
 * - the latest analysis completed and no `force`: "already completed", nothing restarted or charged;
 * - otherwise (none yet, the latest failed, or `force`): previous results of the video are deleted
 *   and a fresh `pending` analysis is admitted, reserving 5 credits in the same transaction
 *   (InsufficientCreditsError when `total_remaining - reserved < 5`).
 *
 * Two simultaneous calls start one analysis: the partial unique index rejects the second insert,
 * its transaction (reservation included) rolls back, and it answers with the running analysis.
 */
export async function analyze(workspaceId: string, videoId: string, opts: { force?: boolean }): Promise<AnalyzeResult> {
  await requireTrackedVideo(workspaceId, videoId);
  const running = await findRunning(workspaceId, videoId);
  if (running) return answer(running, "in_progress");
  if (!opts.force) {
    const latest = await findLatest(workspaceId, videoId);
    if (latest?.status === "completed") return answer(latest, "already_completed");
  }

  let created: VideoAnalysis;
  try {
    created = await prisma.$transaction(async (tx) => {
      const id = randomUUID();
      // reserve() takes the workspace row lock first: admissions of one workspace serialise here.
      const reservation = await reserve(
        { workspaceId, amount: ANALYSIS_COST, idempotencyKey: `analysis:${id}`, reason: `video analysis ${id}`, what: "a video analysis" },
        tx,
      );
      // A fresh analysis replaces the video's previous results (the `force` case, or a failed one).
      await tx.videoAnalysis.deleteMany({ where: { workspaceId, videoId, status: { in: ["completed", "failed"] } } });
      return tx.videoAnalysis.create({ data: { id, workspaceId, videoId, reservationId: reservation.id } });
    });
  } catch (e) {
    // Lost the race to a simultaneous call (unique index), or short of credits only because that
    // call's reservation now holds them: either way the running analysis is the answer.
    const lostRace = isSecondRunningAnalysis(e);
    if (lostRace || e instanceof InsufficientCreditsError) {
      const winner = await findRunning(workspaceId, videoId);
      if (winner) return answer(winner, "in_progress");
    }
    if (lostRace) {
      // The winner already finished (an instant pipeline): answer with it as it is now.
      const latest = await findLatest(workspaceId, videoId);
      if (latest?.status === "completed") return answer(latest, "already_completed");
    }
    throw e;
  }

  creditsChanged(workspaceId);
  await announce(created);
  try {
    await enqueueAnalysis(created.id);
  } catch (e) {
    // The analysis is committed; the sweeper re-queues analyses whose job is missing.
    logger.error({ err: (e as Error).message, analysisId: created.id }, "could not queue the analysis job; the sweeper will");
  }
  return answer(created, "queued");
}

/** The video's latest analysis for the workspace, or null when it has none. NOT_FOUND when untracked. */
export async function getAnalysis(workspaceId: string, videoId: string): Promise<VideoAnalysis | null> {
  await requireTrackedVideo(workspaceId, videoId);
  return findLatest(workspaceId, videoId);
}

/** Analyses of the workspace by id, in any order; other ids are left out. */
export async function analysesByIds(workspaceId: string, analysisIds: readonly string[]): Promise<VideoAnalysis[]> {
  if (analysisIds.length === 0) return [];
  return prisma.videoAnalysis.findMany({ where: { workspaceId, id: { in: [...analysisIds] } } });
}

/**
 * The latest analysis of each video for the workspace (videos without one are left out), in one
 * statement. The caller has already checked that the workspace tracks the videos.
 */
export async function latestAnalysesOfVideos(workspaceId: string, videoIds: readonly string[]): Promise<VideoAnalysis[]> {
  if (videoIds.length === 0) return [];
  return prisma.videoAnalysis.findMany({
    where: { workspaceId, videoId: { in: [...videoIds] } },
    orderBy: [{ videoId: "asc" }, { createdAt: "desc" }, { id: "desc" }],
    distinct: ["videoId"],
  });
}

// ---------------------------------------------------------------------------------------------
// State machine used by the pipeline (./pipeline.ts) and the sweeper.

export const loadAnalysis = (id: string) => prisma.videoAnalysis.findUnique({ where: { id } });

/** Every column of an analysis, as the Prisma model names them (RETURNING of the raw state moves). */
const ANALYSIS_COLUMNS = Prisma.raw(`id, workspace_id AS "workspaceId", video_id AS "videoId", status::text AS status, error,
  transcript_source AS "transcriptSource", transcript, segments, transcript_language AS "transcriptLanguage",
  transcript_confidence AS "transcriptConfidence", transcript_used AS "transcriptUsed", transcript_note AS "transcriptNote", hook_style AS "hookStyle", hook_phrase AS "hookPhrase",
  ugc_fit AS "ugcFit", ugc_confidence AS "ugcConfidence", cta_type AS "ctaType", cta_destination_url AS "ctaDestinationUrl",
  analysis_provider AS "analysisProvider", hook_source AS "hookSource", reasons, visual, reservation_id AS "reservationId", created_at AS "createdAt",
  updated_at AS "updatedAt", completed_at AS "completedAt"`);

/**
 * Moves the analysis from `from` to `to` (storing `transcript` with it) if it is still in `from`.
 * Returns the updated row, or null when another run already moved it (the caller re-reads and
 * carries on). Plain SQL: this runs several times per analysis on the worker's hot path, and a
 * raw statement skips Prisma's per-query compilation (measured: see bench/analysis.ts).
 */
export async function advance(
  id: string,
  from: AnalysisStatus,
  to: "downloading" | "transcribed" | "analyzing",
  transcript?: TranscriptData,
): Promise<VideoAnalysis | null> {
  const [row] = await sql<VideoAnalysis>(Prisma.sql`
    UPDATE video_analyses
    SET status = ${to}::"AnalysisStatus", updated_at = clock_timestamp(),
        transcript = COALESCE(${transcript?.transcript ?? null}, transcript),
        segments = COALESCE(${transcript ? JSON.stringify(transcript.segments) : null}::jsonb, segments),
        transcript_source = COALESCE(${transcript?.transcriptSource ?? null}, transcript_source),
        transcript_language = CASE WHEN ${transcript !== undefined}::boolean THEN ${transcript?.language ?? null}::text ELSE transcript_language END,
        transcript_confidence = CASE WHEN ${transcript !== undefined}::boolean THEN ${transcript?.confidence ?? null}::float8 ELSE transcript_confidence END,
        transcript_used = CASE WHEN ${transcript !== undefined}::boolean THEN ${transcript?.used ?? null}::boolean ELSE transcript_used END,
        transcript_note = CASE WHEN ${transcript !== undefined}::boolean THEN ${transcript?.note ?? null}::text ELSE transcript_note END
    WHERE id = ${id}::uuid AND status = ${from}::"AnalysisStatus"
    RETURNING ${ANALYSIS_COLUMNS}`);
  if (row) await announce(row);
  return row ?? null;
}

export interface TranscriptData {
  transcript: string;
  segments: Segment[];
  transcriptSource: string;
  /** BCP 47, or null when unknown. */
  language: string | null;
  /** 0-1; null when the source does not say (platform captions). */
  confidence: number | null;
  /** Whether the content analysis may judge from it (./speech.ts). */
  used: boolean;
  /** Why it is empty or set aside; null when used. */
  note: string | null;
}

export const storeTranscript = (id: string, t: TranscriptData) => advance(id, "downloading", "transcribed", t);

/**
 * `analyzing` → `completed` with the results, capturing the reservation in the same transaction:
 * both happen or neither, and only once (a second run finds the status moved and changes nothing).
 */
export async function complete(analysis: AnalysisRef, result: ContentAnalysis, provider: string): Promise<VideoAnalysis | null> {
  return settleAndMove(analysis, ["analyzing"], "captured", (tx, id, from) =>
    sql<VideoAnalysis>(
      Prisma.sql`
    UPDATE video_analyses
    SET status = 'completed', completed_at = clock_timestamp(), updated_at = clock_timestamp(), error = NULL,
        hook_style = ${result.hookStyle}, hook_phrase = ${result.hookPhrase}, ugc_fit = ${result.ugcFit},
        ugc_confidence = ${result.ugcConfidence}, cta_type = ${result.ctaType}, cta_destination_url = ${result.ctaDestinationUrl},
        analysis_provider = ${provider}, hook_source = ${result.hookSource ?? null},
        reasons = ${result.reasons ? JSON.stringify(boundedReasons(result.reasons)) : null}::jsonb
    WHERE id = ${id}::uuid AND status::text = ANY(${from})
    RETURNING ${ANALYSIS_COLUMNS}`,
      { tx },
    ),
  );
}

const MAX_REASONS = 40;
const MAX_REASON_CHARS = 500;

/** An analyser's reasons as stored: at most 40 lines of 500 characters, as PostgreSQL text holds them. */
function boundedReasons(reasons: string[]): string[] {
  return reasons.slice(0, MAX_REASONS).map((r) => storableText(r).slice(0, MAX_REASON_CHARS));
}

/** Any running state → `failed` with `error`, releasing the reservation in the same transaction. */
export async function fail(analysis: AnalysisRef, error: string): Promise<VideoAnalysis | null> {
  return settleAndMove(analysis, RUNNING_STATUSES, "released", (tx, id, from) =>
    sql<VideoAnalysis>(
      Prisma.sql`
    UPDATE video_analyses SET status = 'failed', updated_at = clock_timestamp(), error = ${error.slice(0, 2000)}
    WHERE id = ${id}::uuid AND status::text = ANY(${from})
    RETURNING ${ANALYSIS_COLUMNS}`,
      { tx },
    ),
  );
}

/** An analysis id, or the row already in hand (its id and reservation never change; saves a read). */
type AnalysisRef = string | Pick<VideoAnalysis, "id" | "status" | "reservationId">;

/**
 * Settles the reservation and moves the analysis (the conditional UPDATE `move`, raw SQL like
 * `advance`) in one transaction; nothing happens if the analysis is no longer in `from`.
 */
async function settleAndMove(
  ref: AnalysisRef,
  from: AnalysisStatus[],
  outcome: "captured" | "released",
  move: (tx: Tx, id: string, from: string[]) => Promise<VideoAnalysis[]>,
): Promise<VideoAnalysis | null> {
  const current = typeof ref === "string" ? await loadAnalysis(ref) : ref;
  if (!current || !from.includes(current.status)) return null;
  let eventIds: string[] = [];
  const row = await prisma
    .$transaction(async (tx) => {
      // Settling the reservation locks the workspace row first (the global lock order), then the
      // conditional UPDATE decides: if another run moved the analysis meanwhile, roll everything back.
      if (current.reservationId) {
        if (outcome === "captured") await captureReservation(current.reservationId, tx);
        else await releaseReservation(current.reservationId, tx);
      }
      const moved = await move(tx, current.id, from);
      if (!moved[0]) throw new StateMoved();
      // analysis.completed / analysis.failed, committed with the move (the outbox: docs/webhooks.md).
      eventIds = await recordWorkspaceEvents([analysisEvent(moved[0])], tx);
      return moved[0];
    })
    .catch((e) => {
      if (e instanceof StateMoved) return null;
      throw e;
    });
  if (row) {
    creditsChanged(row.workspaceId);
    await announce(row);
    await relayWorkspaceEvents(eventIds);
  }
  return row;
}

class StateMoved extends Error {}

/** The workspace event of a settled analysis (`completed` or `failed`). */
function analysisEvent(a: VideoAnalysis) {
  return {
    workspaceId: a.workspaceId,
    type: a.status === "completed" ? ("analysis.completed" as const) : ("analysis.failed" as const),
    data: {
      analysisId: a.id,
      videoId: a.videoId,
      status: a.status,
      error: a.error,
      completedAt: a.completedAt?.toISOString() ?? null,
      updatedAt: a.updatedAt.toISOString(),
    },
  };
}

/**
 * Fails every analysis that has not moved for `deadlineMs` (a worker lost for good, a job that ran
 * out of stall retries) and releases its credits. Returns how many it failed.
 */
export async function failStuckAnalyses(deadlineMs: number, now = new Date()): Promise<number> {
  const stuck = await prisma.videoAnalysis.findMany({
    where: { status: { in: RUNNING_STATUSES }, updatedAt: { lt: new Date(now.getTime() - deadlineMs) } },
    select: { id: true, status: true },
    take: 500,
  });
  let failed = 0;
  for (const a of stuck) {
    const seconds = Math.round(deadlineMs / 1000);
    if (
      await fail(
        a.id,
        `The analysis made no progress for ${seconds} seconds (stuck in ${a.status}) and was stopped; no credits were charged.`,
      )
    )
      failed++;
  }
  return failed;
}

/** Which of these analyses are running (the others ended or are gone). */
export async function runningAmong(ids: string[]): Promise<Set<string>> {
  const rows = await prisma.videoAnalysis.findMany({ where: { id: { in: ids }, status: { in: RUNNING_STATUSES } }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}

/** Running analyses that have not moved for `idleMs`: candidates for re-queueing by the sweeper. */
export async function idleRunningAnalyses(idleMs: number, now = new Date()): Promise<string[]> {
  const rows = await prisma.videoAnalysis.findMany({
    where: { status: { in: RUNNING_STATUSES }, updatedAt: { lt: new Date(now.getTime() - idleMs) } },
    select: { id: true },
    take: 500,
  });
  return rows.map((r) => r.id);
}
