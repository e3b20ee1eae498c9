/**
 * What the analysis area publishes: every committed move of an analysis, on `analysisStatusChanged`
 * for the workspace and video (by whichever process made it). The stream subscriptions read is
 * ./watch.ts.
 */
import type { AnalysisStatus, VideoAnalysis } from "../../generated/prisma/client.ts";
import { publishEvent } from "../shared/events.ts";

export type AnalysisEvent = { analysisId: string; videoId: string; status: AnalysisStatus; error: string | null; at: string };

export function toEvent(a: Pick<VideoAnalysis, "id" | "videoId" | "status" | "error" | "updatedAt">): AnalysisEvent {
  return { analysisId: a.id, videoId: a.videoId, status: a.status, error: a.error, at: a.updatedAt.toISOString() };
}

/** Publishes the analysis's (committed) state. A lost event is never fatal: the state is in the database. */
export async function announce(a: Pick<VideoAnalysis, "id" | "workspaceId" | "videoId" | "status" | "error" | "updatedAt">): Promise<void> {
  await publishEvent("analysisStatusChanged", `${a.workspaceId}:${a.videoId}`, toEvent(a));
}
