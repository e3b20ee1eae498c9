/** What the radar publishes: a search's progress, on every state change (./watch.ts is the stream its workspace reads). */
import { publishEvent } from "../shared/events.ts";

/** Publishes the search's current status and result count (after commit; a lost event only delays a client). */
export function announceSearch(s: { id: string; status: string; resultCount: number; error: string | null }): void {
  void publishEvent("radarSearchUpdated", s.id, {
    searchId: s.id,
    status: s.status,
    resultCount: s.resultCount,
    error: s.error,
    at: new Date().toISOString(),
  });
}
