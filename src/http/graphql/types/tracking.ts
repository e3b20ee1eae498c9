/**
 * GraphQL: tracked videos and accounts, through the same tracking services as REST.
 *
 * `Video` and `Account` are nodes loaded per request through DataLoaders over the domain's
 * workspace-scoped reads: a video is visible to a workspace that tracks it, an account to one that
 * tracks it or tracks one of its videos. A page's relations (each video's account, each account's
 * videos) are one read per level, never one per item.
 */
import { builder, type GraphQLContext } from "../builder.ts";
import { readOncePerEvent, sharedPerEvent } from "../subscriptions.ts";
import type { FieldNode, GraphQLResolveInfo } from "graphql";
import { batchedConnection, entityId, nodeUuid, nodesAsked, pagedConnection, perSelection, selectedFields } from "../connections.ts";
import type { Platform } from "../../../domain/shared/platform.ts";
import { parseInput, postedDays, type BulkItemResult } from "../../../domain/shared/inputs.ts";
import { canonicalAccountUrl } from "../../../domain/shared/platform.ts";
import { ENGAGEMENT_RATE_DESCRIPTION } from "../../../domain/tracking/engagement.ts";
import { ACCEPTED_ACCOUNT_LINKS, ACCEPTED_VIDEO_LINKS } from "../../../domain/tracking/urls.ts";
import { ACCOUNT_PLAN_BOUND } from "../../../domain/tracking/limits.ts";
import { watchAccount, watchTrackedAccounts, watchTrackedVideos, watchVideo } from "../../../domain/tracking/watch.ts";
import {
  accountListFilter,
  historyQuery,
  trackAccountInput,
  trackVideoInput,
  untrackVideosInput,
  videoListFilter,
  DEFAULT_ACCOUNT_VIDEO_LIMIT,
} from "../../../domain/tracking/inputs.ts";
import {
  accountHistories,
  countAccountHistories,
  countVideoHistories,
  historyRange,
  MAX_HISTORY_DAYS,
  historyOrder,
  videoHistories,
  type AccountPoint,
  type HistoryRange,
  type VideoPoint,
} from "../../../domain/tracking/history.ts";
import { requestAccountRefresh, requestVideoRefresh, type RefreshQueued } from "../../../domain/tracking/refresh.ts";
import {
  getTrackedVideo,
  listTrackedVideos,
  trackedVideosByIds,
  trackVideo,
  untrackVideos,
  type TrackVideoResult as TrackVideoResultData,
} from "../../../domain/tracking/videos.ts";
import {
  accountsByIds,
  countVideosOfAccounts,
  getTrackedAccount,
  findTrackedAccount,
  listTrackedAccounts,
  trackAccount,
  untrackAccount,
  videosOfAccounts,
  type TrackAccountResult as TrackAccountResultData,
} from "../../../domain/tracking/accounts.ts";
import {
  ACCOUNT_VIDEOS_ORDER,
  PARTIAL_OWNER,
  readOwner,
  trackedAccountsOrder,
  trackedVideosOrder,
  type AccountRecord,
  type AccountSort,
  type AccountTracking,
  type AccountView,
  type HistoryInterval,
  type OwnerFields,
  type TrackedVideoRecord,
  type VideoSort,
} from "../../../domain/tracking/views.ts";
import type { SortOrder } from "../../../domain/shared/pages.ts";

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

const ScrapeStatusEnum = builder.enumType("ScrapeStatus", {
  description: "Scraping state of a video or account: QUEUED → SCRAPING → READY, or FAILED (the reason is in scrapeError).",
  values: {
    QUEUED: { value: "queued" },
    SCRAPING: { value: "scraping" },
    READY: { value: "ready" },
    FAILED: { value: "failed" },
  } as const,
});

const COUNT_NOTE = "Null before the first scrape and where the source does not give this metric.";
const NEXT_REFRESH_NOTE =
  "When the service scrapes it next (adaptive cadence, see refreshVideo); null when it is not scheduled (nobody tracks it, or its refreshes failed for good).";

const HistoryIntervalEnum = builder.enumType("HistoryInterval", {
  description:
    "DAY: the last point of each UTC day. HOUR: every point at scrape resolution (past the full-resolution window, the daily points).",
  values: { HOUR: { value: "hour" }, DAY: { value: "day" } } as const satisfies Record<string, { value: HistoryInterval }>,
});

const VideoSortEnum = builder.enumType("VideoSort", {
  description:
    "Orders of the tracked-video list (REST GET /videos `sort`). Videos whose key is null come last in both orders; ties by video id.",
  values: {
    TRACKED_AT: { value: "tracked_at", description: "When the workspace started tracking it (the default)." },
    POSTED_AT: { value: "posted_at" },
    VIEWS: { value: "views" },
    ENGAGEMENT: { value: "engagement", description: "Engagement rate." },
    VIEWS_24H: { value: "views_24h" },
    OUTLIER: { value: "outlier", description: "Outlier score." },
  } as const satisfies Record<string, { value: VideoSort; description?: string }>,
});

const AccountSortEnum = builder.enumType("AccountSort", {
  description:
    "Orders of the tracked-account list. Accounts whose key is null (not scraped yet) come last in both orders; ties by tracking id.",
  values: {
    TRACKED_AT: { value: "tracked_at", description: "When the workspace started tracking it (the default)." },
    FOLLOWERS: { value: "followers" },
    TOTAL_VIEWS: { value: "total_views" },
    VIDEO_COUNT: { value: "video_count", description: "The account's number of videos on the platform." },
    USERNAME: { value: "username" },
  } as const satisfies Record<string, { value: AccountSort; description?: string }>,
});

/** Ascending or descending (the tracked-video list here, a folder's videos in ./folders.ts). */
export const SortOrderEnum = builder.enumType("SortOrder", {
  values: { ASC: { value: "asc" }, DESC: { value: "desc" } } as const satisfies Record<string, { value: SortOrder }>,
});

const VideoPointRef = builder.objectRef<VideoPoint>("VideoMetricPoint").implement({
  description: "A video's metrics as one scrape measured them.",
  fields: (t) => ({
    capturedAt: t.expose("capturedAt", { type: "DateTime", description: "When it was measured (its real time, also for daily points)." }),
    viewCount: t.expose("viewCount", { type: "Count", nullable: true }),
    likeCount: t.expose("likeCount", { type: "Count", nullable: true }),
    commentCount: t.expose("commentCount", { type: "Count", nullable: true }),
    shareCount: t.expose("shareCount", { type: "Count", nullable: true }),
    bookmarkCount: t.expose("bookmarkCount", { type: "Count", nullable: true }),
    source: t.exposeString("source", { description: "The provider that measured it: ytdlp or simulated." }),
  }),
});

const AccountPointRef = builder.objectRef<AccountPoint>("AccountMetricPoint").implement({
  description: "An account's metrics as one scrape measured them.",
  fields: (t) => ({
    capturedAt: t.expose("capturedAt", { type: "DateTime", description: "When it was measured (its real time, also for daily points)." }),
    followerCount: t.expose("followerCount", { type: "Count", nullable: true }),
    totalViews: t.expose("totalViews", { type: "Count", nullable: true }),
    videoCount: t.expose("videoCount", { type: "Count", nullable: true }),
    source: t.exposeString("source", { description: "The provider that measured it: ytdlp or simulated." }),
  }),
});

const VideoHistoryConnection = builder.connectionObject({ type: VideoPointRef, name: "VideoHistoryConnection" });
const AccountHistoryConnection = builder.connectionObject({ type: AccountPointRef, name: "AccountHistoryConnection" });

const HISTORY_FIELD_NOTE =
  "Oldest first; cursors are capture times. startDate and endDate (YYYY-MM-DD) are inclusive UTC days (default the last 30 days); " +
  `startDate after endDate is a VALIDATION_ERROR, and so is a range of more than ${MAX_HISTORY_DAYS.hour} days with interval HOUR or ` +
  `${MAX_HISTORY_DAYS.day} days (ten years) with DAY. Same points as REST GET …/history.`;

/** The history range of the field's arguments, checked as REST checks its query. */
function historyArgs(args: { startDate?: string | null; endDate?: string | null; interval?: HistoryInterval | null }): HistoryRange {
  return historyRange(
    parseInput(historyQuery, {
      start_date: args.startDate ?? undefined,
      end_date: args.endDate ?? undefined,
      interval: args.interval ?? undefined,
    }),
  );
}

/** The tag filter of the lists (REST `tag`, the domain's tagFilter: any of the tags; ./tags.ts defines Tag). */
const TAG_IDS_ARG = "Only items carrying any of these tags (global IDs or UUIDs, at most 20); a tag of another workspace matches nothing.";
const tagIdsOf = (ids: readonly (string | number)[] | null | undefined): string[] | undefined =>
  ids == null || ids.length === 0 ? undefined : ids.map((id, i) => entityId(id, "Tag", `tagIds.${i}`));

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
  // An owner read in part (`ownerFieldsAsked`) is primed under itself, a key no id can equal: never found
  // by `node(id:)` or any other load, which read the whole account.
  cacheResolved: (a) => (PARTIAL_OWNER in a ? (a as unknown as string) : a.id),
});

/**
 * The Account fields answered from the account's own columns, and the AccountRecord fields each reads. Any
 * other field (tracking, history, videos, tags …) asks for the whole AccountView.
 */
const OWNER_COLUMNS_OF: Record<string, readonly (keyof AccountRecord)[]> = {
  __typename: [],
  id: ["id"],
  uuid: ["id"],
  type: ["platform"],
  username: ["username"],
  url: ["platform", "username"],
  displayName: ["displayName"],
  avatarUrl: ["avatarUrl"],
  followerCount: ["followerCount"],
  videoCount: ["videoCount"],
  totalViews: ["totalViews"],
  dataSource: ["dataSource"],
  scrapeStatus: ["scrapeStatus"],
  scrapeError: ["scrapeError"],
  lastScrapedAt: ["lastScrapedAt"],
  createdAt: ["createdAt"],
  nextRefreshAt: ["nextRefreshAt"],
};

/** What these `account` fields ask of the owner: the AccountRecord fields their selections read, or all of it. */
function ownerFieldsOf(accountFields: readonly FieldNode[], info: GraphQLResolveInfo): OwnerFields {
  const fields = new Set<keyof AccountRecord>(["id"]);
  for (const f of selectedFields(accountFields, info)) {
    const read = OWNER_COLUMNS_OF[f.name.value];
    if (!read) return "all";
    for (const field of read) fields.add(field);
  }
  return [...fields];
}

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
      // A page read with its owners (`videos` when `account` is asked) carries each one, whole or the
      // fields this selection asks for: answered as it is, no loader call per video; otherwise (a row read
      // without them, or with fewer than asked) the id, through the Account loader. A part is only ever
      // read by this selection's fields: it is cast, not made an AccountView.
      resolve: (v, _args, _ctx, info) =>
        (readOwner(
          v,
          perSelection(info, "owner fields", () => ownerFieldsOf(info.fieldNodes, info)),
        ) as AccountView | null | undefined) ?? v.accountId,
    }),
    musicName: t.exposeString("musicName"),
    musicAuthor: t.exposeString("musicAuthor"),
    musicCoverUrl: t.exposeString("musicCoverUrl"),
    language: t.exposeString("language", { nullable: true }),
    dataSource: t.exposeString("dataSource", {
      nullable: true,
      description: "Provider of the current numbers (ytdlp or simulated); null before the first scrape.",
    }),
    scrapeStatus: t.field({ type: ScrapeStatusEnum, resolve: (v) => v.scrapeStatus }),
    scrapeError: t.exposeString("scrapeError", {
      nullable: true,
      description: "Why the last scrape failed (when scrapeStatus is FAILED).",
    }),
    lastScrapedAt: t.expose("lastScrapedAt", { type: "DateTime", nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    trackedVideoId: t.exposeID("trackedVideoId", { description: "The workspace's tracking record." }),
    trackedAt: t.expose("trackedAt", { type: "DateTime", description: "When the workspace started tracking the video." }),
    nextRefreshAt: t.expose("nextRefreshAt", { type: "DateTime", nullable: true, description: NEXT_REFRESH_NOTE }),
    views24h: t.expose("views24h", {
      type: "Count",
      nullable: true,
      description:
        "View growth over the 24 h before lastScrapedAt, from the history (interpolated between the stored points around that instant); " +
        "null until the history reaches back 24 h. Can be negative when a platform corrects its counter.",
    }),
    outlierScore: t.exposeFloat("outlierScore", {
      nullable: true,
      description: "Views against the median views of the account's recent other videos (REST outlierScore); null without enough of them.",
    }),
    history: t.loadable({
      type: VideoHistoryConnection,
      byPath: true,
      description: `The video's metric history. ${HISTORY_FIELD_NOTE}`,
      args: {
        ...t.arg.connectionArgs(),
        interval: t.arg({ type: HistoryIntervalEnum, defaultValue: "day" }),
        startDate: t.arg.string({ description: "YYYY-MM-DD" }),
        endDate: t.arg.string({ description: "YYYY-MM-DD" }),
      },
      // Every video of the response in one statement (and one count, only when asked).
      load: async (videoIds: string[], ctx, args) => {
        const range = historyArgs(args);
        const { window, build } = batchedConnection(args, historyOrder<VideoPoint>());
        const ws = ctx.auth.workspaceId;
        const rows = await videoHistories(ws, videoIds, range, window);
        let totals: Promise<Map<string, number>> | null = null;
        // A video untracked while this request ran has no history left to show: an empty one.
        return videoIds.map((id) =>
          build(rows.get(id) ?? [], async () => (await (totals ??= countVideoHistories(ws, videoIds, range))).get(id) ?? 0),
        );
      },
      resolve: (v) => v.id,
    }),
  }),
});

/** The workspace's tracking of an account, with the account's id (its rules' skipped videos are read by it: ./account-controls.ts). */
export type AccountTrackingOf = AccountTracking & { accountId: string };

export const AccountTrackingRef = builder.objectRef<AccountTrackingOf>("AccountTracking").implement({
  description: "The workspace's tracking of an account.",
  fields: (t) => ({
    trackedAccountId: t.exposeID("trackedAccountId", { description: "The tracking record." }),
    videoLimit: t.exposeInt("videoLimit", { description: "Max number of the account's newest videos tracked (1-500)." }),
    trackedAt: t.expose("trackedAt", { type: "DateTime", description: "When the workspace started tracking the account." }),
  }),
});

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
    nextRefreshAt: t.expose("nextRefreshAt", { type: "DateTime", nullable: true, description: NEXT_REFRESH_NOTE }),
    history: t.loadable({
      type: AccountHistoryConnection,
      byPath: true,
      nullable: true,
      description: `The account's metric history; null for an account the workspace does not track (the owner of a video it tracks). ${HISTORY_FIELD_NOTE}`,
      args: {
        ...t.arg.connectionArgs(),
        interval: t.arg({ type: HistoryIntervalEnum, defaultValue: "day" }),
        startDate: t.arg.string({ description: "YYYY-MM-DD" }),
        endDate: t.arg.string({ description: "YYYY-MM-DD" }),
      },
      // The domain read answers null for an account the workspace does not track (its tenancy rule).
      load: async (accountIds: string[], ctx, args) => {
        const range = historyArgs(args);
        const { window, build } = batchedConnection(args, historyOrder<AccountPoint>());
        const ws = ctx.auth.workspaceId;
        const rows = await accountHistories(ws, accountIds, range, window);
        let totals: Promise<Map<string, number>> | null = null;
        return accountIds.map((id) => {
          const points = rows.get(id);
          return points ? build(points, async () => (await (totals ??= countAccountHistories(ws, accountIds, range))).get(id) ?? 0) : null;
        });
      },
      resolve: (a) => a.id,
    }),
    tracking: t.field({
      type: AccountTrackingRef,
      nullable: true,
      description: "The workspace's tracking record; null for an account it does not track (the owner of a video it tracks).",
      resolve: (a) =>
        a.trackedAccountId === null
          ? null
          : {
              accountId: a.id,
              trackedAccountId: a.trackedAccountId,
              videoLimit: a.videoLimit,
              trackedAt: a.trackedAt,
              rules: a.rules,
              pausedAt: a.pausedAt,
            },
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
        const filter = parseInput(postedDays, { start_date: args.startDate ?? undefined, end_date: args.endDate ?? undefined });
        const { window, build } = batchedConnection(args, ACCOUNT_VIDEOS_ORDER);
        const rows = await videosOfAccounts(ctx.auth.workspaceId, accountIds, window, filter);
        let totals: Promise<Map<string, number>> | null = null;
        return accountIds.map((id) =>
          build(
            rows.get(id) ?? [],
            async () => (await (totals ??= countVideosOfAccounts(ctx.auth.workspaceId, accountIds, filter))).get(id) ?? 0,
          ),
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
    video: t.field({
      type: VideoRef,
      description: "The video as stored now (queued for its first scrape when new).",
      resolve: (r) => r.videoId,
    }),
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

const RefreshResultRef = builder.objectRef<RefreshQueued & { kind: "video" | "account" }>("RefreshResult").implement({
  description: "A queued refresh.",
  fields: (t) => ({
    uuid: t.exposeID("id", { description: "The video's or account's UUID." }),
    nextRefreshAt: t.expose("nextRefreshAt", { type: "DateTime", description: "Now: the item is due and its scrape queued." }),
    video: t.field({
      type: VideoRef,
      nullable: true,
      description: "The video (for refreshVideo).",
      resolve: (r) => (r.kind === "video" ? r.id : null),
    }),
    account: t.field({
      type: AccountRef,
      nullable: true,
      description: "The account (for refreshAccount).",
      resolve: (r) => (r.kind === "account" ? r.id : null),
    }),
  }),
});

const REFRESH_NOTE =
  "Queues a scrape now (REST POST …/refresh): NOT_FOUND unless the workspace tracks it; REFRESH_TOO_SOON (extensions.retryAfter: " +
  "the seconds to wait, REST's Retry-After) within REFRESH_MIN_INTERVAL_SECONDS of the item's last scrape or refresh request.";

/** One result per id of a bulk change (untrackVideos, folder memberships), in the order given. */
export const BulkItemResultRef = builder.objectRef<BulkItemResult>("BulkItemResult").implement({
  description: "Outcome of one id of a bulk change.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "The id as given." }),
    success: t.exposeBoolean("success"),
    error: t.exposeString("error", { nullable: true, description: "Why it failed, e.g. `Video not found`." }),
  }),
});

// ---------------------------------------------------------------------------------------------
// Queries, mutations and the subscription: the same services as REST (src/domain/tracking).

builder.queryFields((t) => ({
  videos: t.connection(
    {
      type: VideoRef,
      description:
        "The workspace's tracked videos, newest tracked first (ties by tracking id) unless `sort` says otherwise; `platform` and `q` " +
        "filter them as REST GET /videos does (totalCount counts the matching videos). Cursors belong to the order they were read in.",
      args: {
        platform: t.arg({ type: PlatformEnum }),
        q: t.arg.string({ description: "Words that must each appear (case-insensitive, anywhere) in the description or the username." }),
        sort: t.arg({ type: VideoSortEnum, defaultValue: "tracked_at" }),
        order: t.arg({ type: SortOrderEnum, defaultValue: "desc" }),
        tagIds: t.arg.idList({ description: TAG_IDS_ARG }),
      },
      resolve: (_r, args, ctx, info) => {
        const list = parseInput(videoListFilter, {
          platform: args.platform ?? undefined,
          q: args.q ?? undefined,
          sort: args.sort ?? undefined,
          order: args.order ?? undefined,
          tag: tagIdsOf(args.tagIds),
        });
        // Each video's account, when asked, comes with the page (one statement), only the columns the
        // selection reads when it reads only the account's own: `account` answers the row's owner (and
        // Pothos primes the request's Account loader with it when whole): no second statement.
        const owners = perSelection(info, "owners", () => {
          const asked = nodesAsked(info, "account");
          return asked.length > 0 ? ownerFieldsOf(asked, info) : undefined;
        });
        return pagedConnection(args, trackedVideosOrder(list.sort, list.order), (window) =>
          listTrackedVideos(ctx.auth.workspaceId, window, list, { owners }),
        );
      },
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
      description:
        "The workspace's tracked accounts, newest tracked first (ties by tracking id) unless `sort` says otherwise; `platform` and `q` " +
        "filter them (totalCount counts the matching accounts). Cursors belong to the order they were read in.",
      args: {
        platform: t.arg({ type: PlatformEnum }),
        q: t.arg.string({ description: "Words that must each appear (case-insensitive, anywhere) in the username or the display name." }),
        sort: t.arg({ type: AccountSortEnum, defaultValue: "tracked_at" }),
        order: t.arg({ type: SortOrderEnum, defaultValue: "desc" }),
        tagIds: t.arg.idList({ description: TAG_IDS_ARG }),
      },
      resolve: (_r, args, ctx) => {
        const list = parseInput(accountListFilter, {
          platform: args.platform ?? undefined,
          q: args.q ?? undefined,
          sort: args.sort ?? undefined,
          order: args.order ?? undefined,
          tag: tagIdsOf(args.tagIds),
        });
        return pagedConnection(args, trackedAccountsOrder(list.sort, list.order), (window) =>
          listTrackedAccounts(ctx.auth.workspaceId, window, list),
        );
      },
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
      `${ACCOUNT_PLAN_BOUND} Accepted links: ${ACCEPTED_ACCOUNT_LINKS}.`,
    args: {
      url: t.arg.string({ required: true }),
      videoLimit: t.arg.int({ defaultValue: DEFAULT_ACCOUNT_VIDEO_LIMIT, description: "1 to 500." }),
    },
    resolve: (_r, args, ctx) => {
      const input = parseInput(trackAccountInput, { url: args.url, video_limit: args.videoLimit ?? undefined });
      return trackAccount(ctx.auth.workspaceId, input.url, input.video_limit);
    },
  }),
  untrackVideos: t.field({
    type: [BulkItemResultRef],
    description:
      "Untracks up to 50 videos (global IDs or UUIDs); one result per id in the order given (unknown and repeated ids fail per item). " +
      "A video an active campaign may pay for stays tracked when a member asks (`success: false` with the reason); owners may.",
    args: { ids: t.arg.idList({ required: true }) },
    resolve: (_r, args, ctx) => {
      const ids = args.ids.map((id, i) => entityId(id, "Video", `ids.${i}`));
      return untrackVideos(ctx.auth, parseInput(untrackVideosInput, { ids }).ids);
    },
  }),
  refreshVideo: t.field({
    type: RefreshResultRef,
    description: `${REFRESH_NOTE}`,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => ({
      kind: "video" as const,
      ...(await requestVideoRefresh(ctx.auth.workspaceId, entityId(args.id, "Video", "id"))),
    }),
  }),
  refreshAccount: t.field({
    type: RefreshResultRef,
    description: `${REFRESH_NOTE} An account refresh also tracks its new videos within the plan's limits.`,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => ({
      kind: "account" as const,
      ...(await requestAccountRefresh(ctx.auth.workspaceId, entityId(args.id, "Account", "id"))),
    }),
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
        // Read on every event, once for all of the workspace's subscribers in this process (../subscriptions.ts).
        resolve: (e, _a, ctx) =>
          readOncePerEvent(
            ctx,
            `trackedVideo:${e.videoId}`,
            async () => (await trackedVideosByIds(ctx.auth.workspaceId, [e.videoId]))[0] ?? null,
          ),
      }),
    }),
  });

const TrackedAccountChangeEnum = builder.enumType("TrackedAccountChangeKind", {
  values: {
    ADDED: { value: "added", description: "The workspace started tracking the account." },
    UPDATED: { value: "updated", description: "A scrape changed the account's state or numbers." },
    REMOVED: { value: "removed", description: "The workspace stopped tracking the account (its videos stay tracked)." },
  } as const,
});

const TrackedAccountChangeRef = builder
  .objectRef<{ workspaceId: string; accountId: string; change: "added" | "updated" | "removed"; at: string }>("TrackedAccountChange")
  .implement({
    description: "A change of one of the workspace's tracked accounts.",
    fields: (t) => ({
      change: t.field({ type: TrackedAccountChangeEnum, resolve: (e) => e.change }),
      accountId: t.exposeID("accountId", { description: "The account's UUID." }),
      at: t.field({ type: "DateTime", resolve: (e) => e.at }),
      account: t.field({
        type: AccountRef,
        nullable: true,
        description: "The account as stored when the change is delivered; null once the workspace no longer tracks it (REMOVED).",
        // Read on every event, once for all of the workspace's subscribers in this process (../subscriptions.ts).
        resolve: (e, _a, ctx) =>
          readOncePerEvent(ctx, `trackedAccount:${e.accountId}`, () => findTrackedAccount(ctx.auth.workspaceId, e.accountId)),
      }),
    }),
  });

builder.subscriptionFields((t) => ({
  trackedAccountsChanged: t.field({
    type: TrackedAccountChangeRef,
    description:
      "Every change of the workspace's tracked accounts in one stream: ADDED, UPDATED (each scrape, from whichever worker process made it), " +
      "REMOVED (untracked). For the accounts list of a dashboard. It does not start with the current state (read it with `accounts`); a " +
      "change applied twice is harmless (`account` is read when delivered).",
    subscribe: (_r, _a, ctx) => sharedPerEvent(ctx, watchTrackedAccounts(ctx.auth.workspaceId)),
    resolve: (event) => event,
  }),
  trackedVideosChanged: t.field({
    type: TrackedVideoChangeRef,
    description:
      "Every change of the workspace's tracked videos in one stream: ADDED (tracked by URL or through an account), UPDATED (each scrape, " +
      "from whichever worker process made it), REMOVED (untracked). For a dashboard of the whole workspace. It does not start with the " +
      "current state (the whole list: read it with `videos`); a change applied twice is harmless (`video` is read when delivered).",
    subscribe: (_r, _a, ctx) => sharedPerEvent(ctx, watchTrackedVideos(ctx.auth.workspaceId)),
    resolve: (event) => event,
  }),
  videoUpdated: t.field({
    type: VideoRef,
    description:
      "The video as it is now, then each time a scrape changes it (state or metrics), from whichever process scraped it. NOT_FOUND unless the " +
      "workspace tracks the video.",
    args: { videoId: t.arg.id({ required: true }) },
    subscribe: (_r, args, ctx) => sharedPerEvent(ctx, watchVideo(ctx.auth.workspaceId, entityId(args.videoId, "Video", "videoId"))),
    // Read on every event, once for all of the workspace's subscribers in this process (../subscriptions.ts).
    resolve: (event, _a, ctx) => {
      const videoId = (event as { videoId: string }).videoId;
      return readOncePerEvent(ctx, `video:${videoId}`, () => getTrackedVideo(ctx.auth.workspaceId, videoId));
    },
  }),
  accountUpdated: t.field({
    type: AccountRef,
    description:
      "The tracked account as it is now, then each time a scrape changes it (state or numbers, and its newest videos tracked), from " +
      "whichever process scraped it. NOT_FOUND unless the workspace tracks the account.",
    args: { accountId: t.arg.id({ required: true }) },
    subscribe: (_r, args, ctx) => sharedPerEvent(ctx, watchAccount(ctx.auth.workspaceId, entityId(args.accountId, "Account", "accountId"))),
    // Read on every event, once for all of the workspace's subscribers in this process (../subscriptions.ts).
    resolve: (event, _a, ctx) => {
      const accountId = (event as { accountId: string }).accountId;
      return readOncePerEvent(ctx, `account:${accountId}`, () => getTrackedAccount(ctx.auth.workspaceId, accountId));
    },
  }),
}));
