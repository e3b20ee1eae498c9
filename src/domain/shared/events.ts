/**
 * The events clients may watch, one catalog for the whole service: each topic's payload, published
 * after the change is committed by whichever process made it (src/infra/events.ts carries them over
 * Redis pub/sub to every API process). A lost event never loses data: the state is in PostgreSQL,
 * and the streams of a single object read its current state first (`currentThenEvents`, and the
 * areas' watch.ts); docs/architecture.md lists the streams that do not.
 */
import { publish, subscribe, subscribed } from "../../infra/events.ts";
import { logger } from "../../infra/logger.ts";
import type { AnalysisStatus } from "../../generated/prisma/client.ts";
import type { WorkspaceEvent } from "./workspace-events.ts";
import { DomainError } from "./errors.ts";

/** Topic → payload. Ids in channel names are workspace-scoped where the data is (analyses, credits). */
export interface EventPayloads {
  /** id = `${workspaceId}:${videoId}` */
  analysisStatusChanged: { analysisId: string; videoId: string; status: AnalysisStatus; error: string | null; at: string };
  /** id = videoId (videos are global; subscribers are checked to track the video) */
  videoUpdated: { videoId: string; scrapeStatus: string; at: string };
  /** id = accountId (accounts are global; subscribers are checked to track the account) */
  accountUpdated: { accountId: string; scrapeStatus: string; at: string };
  /** id = searchId */
  radarSearchUpdated: { searchId: string; status: string; resultCount: number; error: string | null; at: string };
  /** id = workspaceId; any change of the credit balance or reservations */
  creditsUpdated: { workspaceId: string; at: string };
  /** id = workspaceId; the workspace's integration events (./workspace-events.ts) */
  workspaceEvent: WorkspaceEvent;
  /** id = workspaceId; a tracked video of the workspace was added, scraped (changed) or untracked */
  trackedVideoChanged: { workspaceId: string; videoId: string; change: "added" | "updated" | "removed"; at: string };
  /** id = workspaceId; a tracked account of the workspace was added, scraped (changed) or untracked */
  trackedAccountChanged: { workspaceId: string; accountId: string; change: "added" | "updated" | "removed"; at: string };
  /** id = `${workspaceId}:${userId}`; a person's notifications in the workspace changed (a new one, marked read) */
  notificationsChanged: { workspaceId: string; userId: string; at: string };
  /** id = `${workspaceId}:${exportId}`; an export job's status or progress changed (src/domain/exports/) */
  exportUpdated: { exportId: string; status: string; rowsWritten: number; at: string };
  /** id = "all"; a credential was withdrawn (an API key, a person's session, a membership): every process ends
   *  the live connections held under that subject (src/domain/keys/revocation.ts) */
  accessRevoked: { subject: string; at: string };
}
export type Topic = keyof EventPayloads;

/** Publishes after a commit; a failure is logged, never thrown (the change itself is committed). */
export async function publishEvent<T extends Topic>(topic: T, id: string, payload: EventPayloads[T]): Promise<void> {
  try {
    await publish(topic, id, payload);
  } catch (e) {
    logger.warn({ err: (e as Error).message, topic, id }, "could not publish an event");
  }
}

/**
 * Resolves once the streams just started are listening in Redis (infra's `subscribed`); SERVICE_UNAVAILABLE
 * when Redis refused the subscription: said to the client (who may subscribe again) rather than a stream
 * that stays silent.
 */
export async function listening(): Promise<void> {
  try {
    await subscribed();
  } catch (e) {
    logger.warn({ err: (e as Error).message }, "a live subscription was refused by Redis");
    throw new DomainError(
      "SERVICE_UNAVAILABLE",
      "Live updates are unavailable: the event bus refused the subscription. Subscribe again later.",
    );
  }
}

/**
 * Topics whose events reach their listeners at once, ahead of the subscribers' fan-out (which goes a chunk per turn of
 * the event loop, behind any burst): a withdrawn key or session must end its streams without waiting for them.
 */
const AT_ONCE: ReadonlySet<Topic> = new Set<Topic>(["accessRevoked"]);

/** The events of `<topic>:<id>` as they come, until the consumer stops. */
export function subscribeEvents<T extends Topic>(topic: T, id: string): AsyncIterable<EventPayloads[T]> {
  return subscribe(topic, id, { atOnce: AT_ONCE.has(topic) }) as AsyncIterable<EventPayloads[T]>;
}

/**
 * `current()` first, then the events of `<topic>:<id>` until the consumer stops. Listening starts,
 * and Redis confirms it, before the current state is read: a change between the read and the first
 * event is never lost (it may arrive once more, after the state that already holds it).
 */
export async function* currentThenEvents<T extends Topic>(
  topic: T,
  id: string,
  current: () => Promise<EventPayloads[T]>,
): AsyncGenerator<EventPayloads[T]> {
  const events = subscribeEvents(topic, id)[Symbol.asyncIterator]();
  try {
    let next = events.next(); // starts the Redis subscription
    await listening();
    yield await current();
    for (;;) {
      const r = await next;
      if (r.done) return;
      next = events.next();
      yield r.value;
    }
  } finally {
    await events.return?.();
  }
}
