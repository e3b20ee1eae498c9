/** Live progress of a radar search, as its workspace watches it (GraphQL radarSearchUpdated); ./events.ts publishes the changes. */
import { listening, subscribeEvents } from "../shared/events.ts";
import { getSearchSummary, type RadarSearchSummary } from "./service.ts";

const TERMINAL = new Set(["completed", "failed"]);

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
    await listening(); // SUBSCRIBE is active in Redis: no change after the read below can be missed
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
