/**
 * Live changes of tracked videos: published by the scrape jobs (from any worker process) and
 * watched by GraphQL subscriptions, for videos the watching workspace tracks.
 */
import { publishEvent, subscribeEvents, type EventPayloads } from "../shared/events.js";
import { getTrackedVideo } from "./videos.js";

/** Tells watchers the video's scrape state or metrics changed (after the change is committed). */
export function announceVideo(videoId: string, scrapeStatus: string): Promise<void> {
  return publishEvent("videoUpdated", videoId, { videoId, scrapeStatus, at: new Date().toISOString() });
}

/** The changes of a video the workspace tracks (NOT_FOUND otherwise, before anything is streamed). */
export async function watchVideo(workspaceId: string, videoId: string): Promise<AsyncIterable<EventPayloads["videoUpdated"]>> {
  await getTrackedVideo(workspaceId, videoId);
  return subscribeEvents("videoUpdated", videoId);
}
