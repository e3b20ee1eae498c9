/**
 * GraphQL: tracked videos and accounts, through the same tracking services as REST.
 *
 * `Video` and `Account` are nodes loaded per request through DataLoaders over the domain's
 * workspace-scoped reads: a video is visible to a workspace that tracks it, an account to one that
 * tracks it or tracks one of its videos. A page's relations (each video's account, each account's
 * videos) are one read per level, never one per item.
 */
import { builder } from "../builder.js";
import { batchedConnection, entityId, nodeUuid, pagedConnection } from "../connections.js";
import type { Platform } from "../../../domain/shared/platform.js";
import { parseInput } from "../../../domain/shared/inputs.js";
import { canonicalAccountUrl } from "../../../domain/shared/platform.js";
import { ENGAGEMENT_RATE_DESCRIPTION } from "../../../domain/tracking/engagement.js";
import { ACCEPTED_ACCOUNT_LINKS, ACCEPTED_VIDEO_LINKS } from "../../../domain/tracking/urls.js";
import { watchTrackedVideos, watchVideo } from "../../../domain/tracking/events.js";
import { trackAccountInput, trackVideoInput, untrackVideosInput, DEFAULT_ACCOUNT_VIDEO_LIMIT } from "../../../domain/tracking/inputs.js";
import { day } from "../../../domain/shared/inputs.js";
import { z } from "zod";
import { getTrackedVideo, listTrackedVideos, trackedVideosByIds, trackVideo, untrackVideos, type BulkItemResult, type TrackVideoResult as TrackVideoResultData } from "../../../domain/tracking/videos.js";
import {
  accountsByIds,
  countVideosOfAccounts,
  getTrackedAccount,
  listTrackedAccounts,
  trackAccount,
  untrackAccount,
  videosOfAccounts,
  type TrackAccountResult as TrackAccountResultData,
} from "../../../domain/tracking/accounts.js";
import { ACCOUNT_VIDEOS_ORDER, TRACKED_ACCOUNTS_ORDER, TRACKED_VIDEOS_ORDER, type AccountView, type TrackedVideoRecord } from "../../../domain/tracking/views.js";

/** The platform values of the spec (platformA …) as GraphQL enum values (PLATFORM_A …). */
export const PlatformEnum = builder.enumType("Platform", {
  description:
    "PLATFORM_A: short-form video platform; PLATFORM_B: video platform with long videos and shorts; PLATFORM_C: photo and reel sharing platform. REST writes them platformA, platformB, platformC.",
  values: {
    PLATFORM_A: { value: "platformA" },
    PLATFORM_B: { value: "platformB" },
    PLATFORM_C: { value: "platformC" },
  } as const satisfies Record<string, { value: Platform }>,
});

export const ScrapeStatusEnum = builder.enumType("ScrapeStatus", {
  description: "Scraping state of a video or account: QUEUED → SCRAPING → READY, or FAILED (the reason is in scrapeError).",
  values: {
    QUEUED: { value: "queued" },
    SCRAPING: { value: "scraping" },
    READY: { value: "ready" },
    FAILED: { value: "failed" },
  } as const,
});

const COUNT_NOTE = "Null before the first scrape and where the source does not give this metric.";

export const VideoRef = builder.loadableNodeRef("Video", {
  id: { resolve: (v: TrackedVideoRecord) => v.id, parse: nodeUuid },
  load: (ids: string[], ctx) => trackedVideosByIds(ctx.auth.workspaceId, ids),
  sort: (v) => v.id,
  cacheResolved: (v) => v.id,
});

export const AccountRef = builder.loadableNodeRef("Account", {
  id: { resolve: (a: AccountView) => a.id, parse: nodeUuid },
  load: (ids: string[], ctx) => accountsByIds(ctx.auth.workspaceId, ids),
  sort: (a) => a.id,
  cacheResolved: (a) => a.id,
});

VideoRef.implement({
  description:
    "A video the workspace tracks. Videos are global to the service (one record per platform video, shared by every workspace that " +
    "tracks it, scraped once); `trackedVideoId` and `trackedAt` are this workspace's tracking record.",
  fields: (t) => ({
    uuid: t.exposeID("id", { description: "The video's UUID, as REST writes it." }),
    type: t.field({ type: PlatformEnum, description: "The video's platform.", resolve: (v) => v.platform }),
    platformVideoId: t.exposeString("platformVideoId"),
    url: t.exposeString("url", { description: "Canonical URL rebuilt from the parsed ids." }),
    description: t.exposeString("description"),
    hashtags: t.exposeStringList("hashtags"),
    viewCount: t.expose("viewCount", { type: "Count", nullable: true, description: COUNT_NOTE }),
    likeCount: t.expose("likeCount", { type: "Count", nullable: true, description: COUNT_NOTE }),
    commentCount: t.expose("commentCount", { type: "Count", nullable: true, description: COUNT_NOTE }),
    shareCount: t.expose("shareCount", { type: "Count", nullable: true, description: COUNT_NOTE }),
    bookmarkCount: t.expose("bookmarkCount", { type: "Count", nullable: true, description: COUNT_NOTE }),
    engagementRate: t.exposeFloat("engagementRate", { description: ENGAGEMENT_RATE_DESCRIPTION }),
    postedAt: t.expose("postedAt", { type: "DateTime", nullable: true }),
    durationSeconds: t.exposeInt("durationSeconds", { nullable: true }),
    thumbnailUrl: t.exposeString("thumbnailUrl"),
    username: t.exposeString("username"),
    displayName: t.exposeString("displayName"),
    canonicalAccountId: t.exposeID("accountId", { nullable: true, description: "UUID of the owning account, when known." }),
    account: t.field({
      type: AccountRef,
      nullable: true,
      description: "The owning account, when known.",
      resolve: (v) => v.accountId,
    }),
    musicName: t.exposeString("musicName"),
    musicAuthor: t.exposeString("musicAuthor"),
    musicCoverUrl: t.exposeString("musicCoverUrl"),
    language: t.exposeString("language", { nullable: true }),
    dataSource: t.exposeString("dataSource", { nullable: true, description: "Provider of the current numbers (ytdlp or simulated); null before the first scrape." }),
    scrapeStatus: t.field({ type: ScrapeStatusEnum, resolve: (v) => v.scrapeStatus }),
    scrapeError: t.exposeString("scrapeError", { nullable: true, description: "Why the last scrape failed (when scrapeStatus is FAILED)." }),
    lastScrapedAt: t.expose("lastScrapedAt", { type: "DateTime", nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    trackedVideoId: t.exposeID("trackedVideoId", { description: "The workspace's tracking record." }),
    trackedAt: t.expose("trackedAt", { type: "DateTime", description: "When the workspace started tracking the video." }),
  }),
});

const AccountTrackingRef = builder.objectRef<{ trackedAccountId: string; videoLimit: number; trackedAt: Date }>("AccountTracking").implement({
  description: "The workspace's tracking of an account.",
  fields: (t) => ({
    trackedAccountId: t.exposeID("trackedAccountId", { description: "The tracking record." }),
    videoLimit: t.exposeInt("videoLimit", { description: "Max number of the account's newest videos tracked (1-500)." }),
    trackedAt: t.expose("trackedAt", { type: "DateTime", description: "When the workspace started tracking the account." }),
  }),
});

/** Posting days of an account's videos, as REST's start_date/end_date (YYYY-MM-DD, both included). */
const postedBetween = z.object({ startDate: day.optional(), endDate: day.optional() });

AccountRef.implement({
  description:
    "A creator account, global to the service (one record per platform and username), as the workspace sees it: accounts it tracks " +
    "and accounts that own a video it tracks (for those, `tracking` is null).",
  fields: (t) => ({
    uuid: t.exposeID("id", { description: "The canonical account ID (REST's account id)." }),
    type: t.field({ type: PlatformEnum, resolve: (a) => a.platform }),
    username: t.exposeString("username", { description: "Lower-cased handle without '@'." }),
    url: t.string({ description: "Canonical HTTPS link of the account.", resolve: (a) => canonicalAccountUrl(a) }),
    displayName: t.exposeString("displayName"),
    avatarUrl: t.exposeString("avatarUrl"),
    followerCount: t.expose("followerCount", { type: "Count", nullable: true, description: COUNT_NOTE }),
    videoCount: t.expose("videoCount", { type: "Count", nullable: true, description: COUNT_NOTE }),
    totalViews: t.expose("totalViews", { type: "Count", nullable: true, description: COUNT_NOTE }),
    dataSource: t.exposeString("dataSource", { nullable: true }),
    scrapeStatus: t.field({ type: ScrapeStatusEnum, resolve: (a) => a.scrapeStatus }),
    scrapeError: t.exposeString("scrapeError", { nullable: true }),
    lastScrapedAt: t.expose("lastScrapedAt", { type: "DateTime", nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    tracking: t.field({
      type: AccountTrackingRef,
      nullable: true,
      description: "The workspace's tracking record; null for an account it does not track (the owner of a video it tracks).",
      resolve: (a) => (a.trackedAccountId === null ? null : { trackedAccountId: a.trackedAccountId, videoLimit: a.videoLimit, trackedAt: a.trackedAt }),
    }),
    videos: t.loadable({
      type: AccountVideosConnection,
      byPath: true,
      description:
        "The account's videos the workspace tracks, newest posted first (videos of unknown date last). startDate and endDate " +
        "(YYYY-MM-DD) are inclusive UTC days; with either, videos whose posting date is unknown are left out.",
      args: {
        ...t.arg.connectionArgs(),
        startDate: t.arg.string({ description: "YYYY-MM-DD" }),
        endDate: t.arg.string({ description: "YYYY-MM-DD" }),
      },
      // Every account of the response in one statement (and one count, only when asked).
      load: async (accountIds: string[], ctx, args) => {
        const { startDate, endDate } = parseInput(postedBetween, { startDate: args.startDate ?? undefined, endDate: args.endDate ?? undefined });
        const filter = { startDate, endDate };
        const { window, build } = batchedConnection(args, ACCOUNT_VIDEOS_ORDER);
        const rows = await videosOfAccounts(ctx.auth.workspaceId, accountIds, window, filter);
        let totals: Promise<Map<string, number>> | null = null;
        return accountIds.map((id) =>
          build(rows.get(id) ?? [], async () => (await (totals ??= countVideosOfAccounts(ctx.auth.workspaceId, accountIds, filter))).get(id) ?? 0),
        );
      },
      resolve: (a) => a.id,
    }),
  }),
});

const AccountVideosConnection = builder.connectionObject({ type: VideoRef, name: "AccountVideosConnection" });

const TrackVideoResult = builder.objectRef<TrackVideoResultData>("TrackVideoResult").implement({
  fields: (t) => ({
    trackedVideoId: t.exposeID("trackedVideoId", { description: "The workspace's tracking record." }),
    videoId: t.exposeID("videoId", { description: "The video's UUID." }),
    isNew: t.exposeBoolean("isNew", { description: "True when the video was new to the service (created and queued by this call)." }),
    video: t.field({ type: VideoRef, description: "The video as stored now (queued for its first scrape when new).", resolve: (r) => r.videoId }),
  }),
});

const TrackAccountResult = builder.objectRef<TrackAccountResultData>("TrackAccountResult").implement({
  description: "Usernames by outcome: added, already tracked, or failed because the plan's tracking limit is used up.",
  fields: (t) => ({
    added: t.exposeStringList("added"),
    alreadyTracked: t.exposeStringList("alreadyTracked"),
    failed: t.exposeStringList("failed"),
  }),
});

const UntrackVideoResultRef = builder.objectRef<BulkItemResult>("UntrackVideoResult").implement({
  fields: (t) => ({
    id: t.exposeString("id", { description: "The id as given." }),
    success: t.exposeBoolean("success"),
    error: t.exposeString("error", { nullable: true }),
  }),
});

// ---------------------------------------------------------------------------------------------
// Queries, mutations and the subscription: the same services as REST (src/domain/tracking).

builder.queryFields((t) => ({
  videos: t.connection(
    {
      type: VideoRef,
      description: "The workspace's tracked videos, newest tracked first (ties by tracking id).",
      resolve: (_r, args, ctx) => pagedConnection(args, TRACKED_VIDEOS_ORDER, (window) => listTrackedVideos(ctx.auth.workspaceId, window)),
    },
    { name: "VideoConnection" },
    { name: "VideoEdge" },
  ),
  video: t.field({
    type: VideoRef,
    description: "One tracked video, by its global ID or UUID (NOT_FOUND unless the workspace tracks it).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => getTrackedVideo(ctx.auth.workspaceId, entityId(args.id, "Video", "id")),
  }),
  accounts: t.connection(
    {
      type: AccountRef,
      description: "The workspace's tracked accounts, newest tracked first (ties by tracking id).",
      resolve: (_r, args, ctx) => pagedConnection(args, TRACKED_ACCOUNTS_ORDER, (window) => listTrackedAccounts(ctx.auth.workspaceId, window)),
    },
    { name: "AccountConnection" },
    { name: "AccountEdge" },
  ),
  account: t.field({
    type: AccountRef,
    description: "One tracked account, by its global ID or canonical account UUID (NOT_FOUND unless the workspace tracks it).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => getTrackedAccount(ctx.auth.workspaceId, entityId(args.id, "Account", "id")),
  }),
}));

builder.mutationFields((t) => ({
  trackVideo: t.field({
    type: TrackVideoResult,
    description:
      "Starts tracking a video by URL (INVALID_URL, ALREADY_TRACKED, VIDEO_LIMIT_REACHED). " + `Accepted links: ${ACCEPTED_VIDEO_LINKS}.`,
    args: { url: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => trackVideo(ctx.auth.workspaceId, parseInput(trackVideoInput, { url: args.url }).url),
  }),
  trackAccount: t.field({
    type: TrackAccountResult,
    description:
      "Starts tracking an account by URL (INVALID_URL); its newest videos, up to min(videoLimit, additions remaining), are tracked when it is scraped. " +
      `Accepted links: ${ACCEPTED_ACCOUNT_LINKS}.`,
    args: { url: t.arg.string({ required: true }), videoLimit: t.arg.int({ defaultValue: DEFAULT_ACCOUNT_VIDEO_LIMIT, description: "1 to 500." }) },
    resolve: (_r, args, ctx) => {
      const input = parseInput(trackAccountInput, { url: args.url, video_limit: args.videoLimit ?? undefined });
      return trackAccount(ctx.auth.workspaceId, input.url, input.video_limit);
    },
  }),
  untrackVideos: t.field({
    type: [UntrackVideoResultRef],
    description: "Untracks up to 50 videos (global IDs or UUIDs); one result per id in the order given (unknown and repeated ids fail per item).",
    args: { ids: t.arg.idList({ required: true }) },
    resolve: (_r, args, ctx) => {
      const ids = args.ids.map((id, i) => entityId(id, "Video", `ids.${i}`));
      return untrackVideos(ctx.auth.workspaceId, parseInput(untrackVideosInput, { ids }).ids);
    },
  }),
  untrackAccount: t.id({
    description: "Untracks an account (its videos stay tracked); returns its UUID.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => (await untrackAccount(ctx.auth.workspaceId, entityId(args.id, "Account", "id"))).id,
  }),
}));

const TrackedVideoChangeEnum = builder.enumType("TrackedVideoChangeKind", {
  values: {
    ADDED: { value: "added", description: "The workspace started tracking the video (by URL, or through a tracked account)." },
    UPDATED: { value: "updated", description: "A scrape changed the video's state or metrics." },
    REMOVED: { value: "removed", description: "The workspace stopped tracking the video." },
  } as const,
});

const TrackedVideoChangeRef = builder
  .objectRef<{ workspaceId: string; videoId: string; change: "added" | "updated" | "removed"; at: string }>("TrackedVideoChange")
  .implement({
    description: "A change of one of the workspace's tracked videos.",
    fields: (t) => ({
      change: t.field({ type: TrackedVideoChangeEnum, resolve: (e) => e.change }),
      videoId: t.exposeID("videoId", { description: "The video's UUID." }),
      at: t.field({ type: "DateTime", resolve: (e) => e.at }),
      video: t.field({
        type: VideoRef,
        nullable: true,
        description: "The video as stored when the change is delivered; null once the workspace no longer tracks it (REMOVED).",
        // Read fresh on every event (a subscription's DataLoaders would keep the first read).
        resolve: async (e, _a, ctx) => (await trackedVideosByIds(ctx.auth.workspaceId, [e.videoId]))[0] ?? null,
      }),
    }),
  });

builder.subscriptionFields((t) => ({
  trackedVideosChanged: t.field({
    type: TrackedVideoChangeRef,
    description:
      "Every change of the workspace's tracked videos in one stream: ADDED (tracked by URL or through an account), UPDATED (each scrape, " +
      "from whichever worker process made it), REMOVED (untracked). For a dashboard of the whole workspace.",
    subscribe: (_r, _a, ctx) => watchTrackedVideos(ctx.auth.workspaceId),
    resolve: (event) => event,
  }),
  videoUpdated: t.field({
    type: VideoRef,
    description:
      "The video each time a scrape changes it (state or metrics), from whichever process scraped it. NOT_FOUND unless the workspace tracks the video.",
    args: { videoId: t.arg.id({ required: true }) },
    subscribe: (_r, args, ctx) => watchVideo(ctx.auth.workspaceId, entityId(args.videoId, "Video", "videoId")),
    // Read fresh on every event (a subscription's DataLoaders would keep the first read).
    resolve: (event, _a, ctx) => getTrackedVideo(ctx.auth.workspaceId, (event as { videoId: string }).videoId),
  }),
}));
