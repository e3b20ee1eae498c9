/** Live progress of a radar search: published on every state change, watched by its workspace. */
import { eventsSubscribed, publishEvent, subscribeEvents } from "../shared/events.js";
import { getSearchSummary, type RadarSearchSummary } from "./service.js";

const TERMINAL = new Set(["completed", "failed"]);

/** Publishes the search's current status and result count (after commit; a lost event only delays a client). */
export function announceSearch(s: { id: string; status: string; resultCount: number; error: string | null }): void {
  void publishEvent("radarSearchUpdated", s.id, { searchId: s.id, status: s.status, resultCount: s.resultCount, error: s.error, at: new Date().toISOString() });
}

/**
 * The search's state now, then after each change, until a terminal status (completed, failed).
 * NOT_FOUND for another workspace's search, before anything is streamed. The event subscription is
 * active before the current state is read, so a change in between is not lost.
 */
export async function watchSearch(workspaceId: string, id: string): Promise<AsyncIterable<RadarSearchSummary>> {
  const first = await getSearchSummary(workspaceId, id);
  return searchUpdates(workspaceId, id, first);
}

async function* searchUpdates(workspaceId: string, id: string, first: RadarSearchSummary): AsyncGenerator<RadarSearchSummary> {
  if (TERMINAL.has(first.status)) {
    yield first;
    return;
  }
  const events = subscribeEvents("radarSearchUpdated", id)[Symbol.asyncIterator]();
  const nextEvent = events.next(); // starts the Redis subscription
  try {
    await eventsSubscribed(); // SUBSCRIBE is active in Redis: no change after the read below can be missed
    let current = await getSearchSummary(workspaceId, id);
    yield current;
    let pending = nextEvent;
    while (!TERMINAL.has(current.status)) {
      const ev = await pending;
      if (ev.done) return;
      current = await getSearchSummary(workspaceId, id);
      yield current;
      pending = events.next();
    }
  } finally {
    await events.return?.();
  }
}
