/**
 * Live status of a video's analysis, as GraphQL subscriptions read it: a watcher gets the current
 * state first and then each newer state once, in order (./events.ts publishes the moves).
 */
import { listening, subscribeEvents } from "../shared/events.ts";
import { toEvent, type AnalysisEvent } from "./events.ts";
import { getAnalysis, requireTrackedVideo, statusRank } from "./service.ts";

/**
 * The analysis status of a video the workspace tracks (NOT_FOUND otherwise, before anything is
 * streamed): the current state, then the live changes newer than what was already sent. The stream
 * stays open for later analyses of the video until the consumer stops.
 */
export async function watchAnalysis(workspaceId: string, videoId: string): Promise<AsyncIterable<AnalysisEvent & { workspaceId: string }>> {
  await requireTrackedVideo(workspaceId, videoId);
  return statusChanges(workspaceId, videoId);
}

type WatchedEvent = AnalysisEvent & { workspaceId: string };

/**
 * One object per event and workspace for every watcher of the channel (a channel is one workspace's):
 * subscriptions share their answers per event object (src/http/graphql/fan-out.ts).
 */
const withWorkspaceOf = new WeakMap<AnalysisEvent, WatchedEvent>();
function withWorkspace(e: AnalysisEvent, workspaceId: string): WatchedEvent {
  let w = withWorkspaceOf.get(e);
  if (!w || w.workspaceId !== workspaceId) withWorkspaceOf.set(e, (w = { ...e, workspaceId }));
  return w;
}

/** Listening starts (and is confirmed by Redis) before the current state is read, so nothing falls in between. */
async function* statusChanges(workspaceId: string, videoId: string): AsyncGenerator<AnalysisEvent & { workspaceId: string }> {
  const events = subscribeEvents("analysisStatusChanged", `${workspaceId}:${videoId}`)[Symbol.asyncIterator]();
  const sent = new Map<string, number>(); // analysisId → rank of the last status sent
  const fresh = (e: AnalysisEvent) => statusRank(e.status) > (sent.get(e.analysisId) ?? -1);
  try {
    let next = events.next(); // starts the Redis subscription
    await listening();
    const current = await getAnalysis(workspaceId, videoId);
    if (current) {
      const e = toEvent(current);
      sent.set(e.analysisId, statusRank(e.status));
      yield { ...e, workspaceId };
    }
    for (;;) {
      const r = await next;
      if (r.done) return;
      next = events.next();
      if (!fresh(r.value)) continue;
      sent.set(r.value.analysisId, statusRank(r.value.status));
      yield withWorkspace(r.value, workspaceId);
    }
  } finally {
    await events.return?.();
  }
}
