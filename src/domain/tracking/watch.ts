/** The streams of tracked videos GraphQL subscriptions read (./events.ts publishes the changes). */
import { currentThenEvents, subscribeEvents, type EventPayloads } from "../shared/events.ts";
import { getTrackedAccount } from "./accounts.ts";
import { getTrackedVideo } from "./videos.ts";

/**
 * The video the workspace tracks (NOT_FOUND otherwise, before anything is streamed): its current
 * state first, then each change a scrape makes (from any process).
 */
export async function watchVideo(workspaceId: string, videoId: string): Promise<AsyncIterable<EventPayloads["videoUpdated"]>> {
  await getTrackedVideo(workspaceId, videoId);
  return currentThenEvents("videoUpdated", videoId, async () => {
    const v = await getTrackedVideo(workspaceId, videoId);
    return { videoId, scrapeStatus: v.scrapeStatus, at: (v.lastScrapedAt ?? v.createdAt).toISOString() };
  });
}

/**
 * Every change of the workspace's tracked videos (added, updated, removed), as it happens. It does
 * not start with the current state (that is the workspace's whole list: read it with the `videos`
 * connection); ADDED and UPDATED carry the video as stored when delivered, so applying a change
 * twice is harmless.
 */
export function watchTrackedVideos(workspaceId: string): AsyncIterable<EventPayloads["trackedVideoChanged"]> {
  return subscribeEvents("trackedVideoChanged", workspaceId);
}

/**
 * The account the workspace tracks (NOT_FOUND otherwise, before anything is streamed): its current
 * state first, then each change a scrape makes (from any process).
 */
export async function watchAccount(workspaceId: string, accountId: string): Promise<AsyncIterable<EventPayloads["accountUpdated"]>> {
  await getTrackedAccount(workspaceId, accountId);
  return currentThenEvents("accountUpdated", accountId, async () => {
    const a = await getTrackedAccount(workspaceId, accountId);
    return { accountId, scrapeStatus: a.scrapeStatus, at: (a.lastScrapedAt ?? a.createdAt).toISOString() };
  });
}

/**
 * Every change of the workspace's tracked accounts (added, updated by a scrape, removed), as it happens; like
 * `watchTrackedVideos`, it does not start with the current state (read it with the `accounts` connection).
 */
export function watchTrackedAccounts(workspaceId: string): AsyncIterable<EventPayloads["trackedAccountChanged"]> {
  return subscribeEvents("trackedAccountChanged", workspaceId);
}
