/** The streams of tracked videos GraphQL subscriptions read (./events.ts publishes the changes). */
import { subscribeEvents, type EventPayloads } from "../shared/events.js";
import { getTrackedVideo } from "./videos.js";

/** The changes of a video the workspace tracks (NOT_FOUND otherwise, before anything is streamed). */
export async function watchVideo(workspaceId: string, videoId: string): Promise<AsyncIterable<EventPayloads["videoUpdated"]>> {
  await getTrackedVideo(workspaceId, videoId);
  return subscribeEvents("videoUpdated", videoId);
}

/** Every change of the workspace's tracked videos (added, updated, removed), as it happens. */
export function watchTrackedVideos(workspaceId: string): AsyncIterable<EventPayloads["trackedVideoChanged"]> {
  return subscribeEvents("trackedVideoChanged", workspaceId);
}
