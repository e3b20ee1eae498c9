/**
 * Live changes of tracked videos, published after the change is committed (from any process) and
 * watched by GraphQL subscriptions (./watch.ts):
 * - `videoUpdated` per video: each scrape that changes its state or metrics;
 * - `accountUpdated` per account: each scrape that changes its state or numbers (its page follows it);
 * - `trackedVideoChanged` per workspace: a video it tracks was added, updated (scraped) or removed
 *   (untracked) — one stream for a dashboard of the whole workspace;
 * - `trackedAccountChanged` per workspace: the same for the accounts it tracks (the accounts list follows it).
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { sql } from "../../infra/db.ts";
import { publishEvent, type EventPayloads } from "../shared/events.ts";

export type TrackedVideoChange = EventPayloads["trackedVideoChanged"]["change"];

/** Tells every workspace's watchers that these videos were added to or removed from its tracking. */
export async function announceTracking(
  workspaceId: string,
  videoIds: readonly string[],
  change: Exclude<TrackedVideoChange, "updated">,
): Promise<void> {
  const at = new Date().toISOString();
  await Promise.all(videoIds.map((videoId) => publishEvent("trackedVideoChanged", workspaceId, { workspaceId, videoId, change, at })));
}

/**
 * Tells watchers the video's scrape state or metrics changed: its own watchers, and the stream of
 * every workspace that tracks it (videos are global: one scrape serves them all).
 */
export async function announceVideo(videoId: string, scrapeStatus: string): Promise<void> {
  const at = new Date().toISOString();
  await publishEvent("videoUpdated", videoId, { videoId, scrapeStatus, at });
  const trackers = await sql<{ workspaceId: string }>(
    Prisma.sql`SELECT workspace_id AS "workspaceId" FROM tracked_videos WHERE video_id = ${videoId}::uuid`,
    {
      prepare: true,
    },
  );
  await Promise.all(
    trackers.map(({ workspaceId }) => publishEvent("trackedVideoChanged", workspaceId, { workspaceId, videoId, change: "updated", at })),
  );
}

/** Tells the workspace's watchers that it started or stopped tracking the account. */
export async function announceAccountTracking(
  workspaceId: string,
  accountId: string,
  change: Exclude<TrackedVideoChange, "updated">,
): Promise<void> {
  await publishEvent("trackedAccountChanged", workspaceId, { workspaceId, accountId, change, at: new Date().toISOString() });
}

/**
 * Tells the account's watchers its scrape state or numbers changed, and the stream of every workspace that
 * tracks it (accounts are global, like videos: one scrape serves them all).
 */
export async function announceAccount(accountId: string, scrapeStatus: string): Promise<void> {
  const at = new Date().toISOString();
  await publishEvent("accountUpdated", accountId, { accountId, scrapeStatus, at });
  const trackers = await sql<{ workspaceId: string }>(
    Prisma.sql`SELECT workspace_id AS "workspaceId" FROM tracked_accounts WHERE account_id = ${accountId}::uuid`,
    {
      prepare: true,
    },
  );
  await Promise.all(
    trackers.map(({ workspaceId }) =>
      publishEvent("trackedAccountChanged", workspaceId, { workspaceId, accountId, change: "updated", at }),
    ),
  );
}
