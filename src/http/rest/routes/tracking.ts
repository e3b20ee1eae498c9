/**
 * Tracking: /videos and /accounts. Thin: validate, call the tracking services, shape the spec's
 * envelopes and casing. Decisions where the spec is silent are written in the descriptions.
 */
import { ACCOUNT_PLAN_BOUND } from "../../../domain/tracking/limits.js";
import { z } from "zod";
import { ENGAGEMENT_RATE_DESCRIPTION } from "../../../domain/tracking/engagement.js";
import { canonicalAccountUrl } from "../../../domain/shared/platform.js";
import { getTrackedVideo, listTrackedVideos, trackVideo, untrackVideos } from "../../../domain/tracking/videos.js";
import { getTrackedAccount, listAccountVideos, listTrackedAccounts, trackAccount, untrackAccount } from "../../../domain/tracking/accounts.js";
import { accountHistory, historyRange, videoHistory } from "../../../domain/tracking/history.js";
import { RefreshTooSoonError, requestAccountRefresh, requestVideoRefresh, type RefreshQueued } from "../../../domain/tracking/refresh.js";
import { OUTLIER_MIN_SAMPLE, OUTLIER_SAMPLE } from "../../../domain/tracking/scrape.js";
import { config } from "../../../config.js";
import {
  accountVideosQuery,
  historyQuery,
  listAccountsQuery,
  listVideosQuery,
  trackAccountInput,
  trackVideoInput,
  untrackVideosInput,
} from "../../../domain/tracking/inputs.js";
import type { TrackedAccountView, TrackedVideoRecord, VideoRecord } from "../../../domain/tracking/views.js";
import { defineRoute } from "../route.js";
import { errorSchema, idParams, iso, isoOrNull, pagination, paginationSchema, platform, queryParams, timestamp, uuid } from "../schemas.js";
import type { RouteResponse } from "../route.js";

const NEXT_REFRESH_DESCRIPTION =
  "When the service scrapes it next (adaptive cadence, see the refresh endpoint): null when it is not scheduled (nobody tracks it, or " +
  "its refreshes failed for good: scrapeStatus failed). While a scrape is queued it is the time that scrape is retried if it is lost.";

const count = (what: string) =>
  z
    .number()
    .int()
    .nullable()
    .meta({ description: `${what}. Null before the first scrape and where the source does not give it (shareCount and bookmarkCount on platforms B and C with yt-dlp).` });

const scrapeStatus = z.enum(["queued", "scraping", "ready", "failed"]).meta({
  description: "queued → scraping → ready; failed after the last retry (or at once when the source says the item does not exist), with the reason in scrapeError. A ready record stays ready when a later refresh fails.",
});

const videoFields = {
  id: uuid,
  platformVideoId: z.string().meta({ description: "The video's id on its platform." }),
  url: z.string().meta({ description: "Canonical HTTPS link rebuilt from the parsed ids (never the submitted string)." }),
  type: platform,
  description: z.string(),
  hashtags: z.array(z.string()),
  viewCount: count("Views"),
  likeCount: count("Likes"),
  commentCount: count("Comments"),
  shareCount: count("Shares"),
  bookmarkCount: count("Bookmarks (saves)"),
  engagementRate: z.number().meta({ description: ENGAGEMENT_RATE_DESCRIPTION }),
  postedAt: timestamp.nullable().meta({ description: "When the video was posted; null until the first scrape." }),
  thumbnailUrl: z.string().meta({
    description: "Thumbnail URL as the source gives it; \"\" when unknown. Simulated videos (dataSource simulated) have none: \"\" (the service serves no placeholder image).",
  }),
  username: z.string().meta({ description: "Author handle, lower-cased, without '@'; \"\" when unknown." }),
  displayName: z.string(),
  canonicalAccountId: uuid.nullable().meta({
    description:
      "UUID of the owning account. Every successful scrape links the video to the account of its author (created, not tracked, when " +
      "missing: GET /accounts/{id} and its history stay 404 until the workspace tracks it, and tracking it then answers `added`), so it " +
      "is a UUID after the first successful scrape; null before, and only where the source names no author.",
  }),
  musicName: z.string().meta({ description: "\"\" when the platform gives none (platform B)." }),
  musicAuthor: z.string(),
  musicCoverUrl: z.string(),
  durationSeconds: z.number().int().nullable(),
  scrapeStatus,
  scrapeError: z.string().nullable().meta({ description: "Why the last scrape failed; null after a successful one." }),
  lastScrapedAt: timestamp.nullable(),
  dataSource: z.string().nullable().meta({ description: "Provider of the numbers: ytdlp (live) or simulated (synthetic demo data); null before the first scrape." }),
  nextRefreshAt: timestamp.nullable().meta({ description: NEXT_REFRESH_DESCRIPTION }),
  views24h: z.number().int().nullable().meta({
    description:
      "View growth over the 24 hours before lastScrapedAt, computed from the history when the scrape is stored: viewCount minus the " +
      "view count 24 h earlier, that one read from the stored points around that instant (linearly interpolated between the latest " +
      "point at or before it and the next one). A video posted less than 24 h before the scrape counts all its views. Null before the " +
      "history reaches back 24 h (e.g. the first scrape of an older video). Can be negative when a platform corrects its counter.",
  }),
  outlierScore: z.number().nullable().meta({
    description:
      `The video's views against the median views of its account's ${OUTLIER_SAMPLE} most recently posted other videos known to the ` +
      `service (with a posting date and a view count), as of lastScrapedAt: 1 is typical, ${config.spikeOutlierThreshold} or more is a ` +
      `spike (the video.spike event). Null without at least ${OUTLIER_MIN_SAMPLE} such videos, or when their median is 0. 4 decimals.`,
  }),
};

const videoSchema = z.object(videoFields).meta({ id: "Video", description: "A video, full detail." });

const trackedVideoSchema = z
  .object({
    ...videoFields,
    trackedVideoId: uuid.meta({ description: "The workspace's tracking record." }),
    trackedAt: timestamp.meta({ description: "When the workspace started tracking the video." }),
  })
  .meta({ id: "TrackedVideo", description: "A tracked video, full detail, with the workspace's tracking record." });

export function videoItem(v: VideoRecord) {
  return {
    id: v.id,
    platformVideoId: v.platformVideoId,
    url: v.url,
    type: v.platform,
    description: v.description,
    hashtags: v.hashtags,
    viewCount: v.viewCount,
    likeCount: v.likeCount,
    commentCount: v.commentCount,
    shareCount: v.shareCount,
    bookmarkCount: v.bookmarkCount,
    engagementRate: v.engagementRate,
    postedAt: isoOrNull(v.postedAt),
    thumbnailUrl: v.thumbnailUrl,
    username: v.username,
    displayName: v.displayName,
    canonicalAccountId: v.accountId,
    musicName: v.musicName,
    musicAuthor: v.musicAuthor,
    musicCoverUrl: v.musicCoverUrl,
    durationSeconds: v.durationSeconds,
    scrapeStatus: v.scrapeStatus,
    scrapeError: v.scrapeError,
    lastScrapedAt: isoOrNull(v.lastScrapedAt),
    dataSource: v.dataSource,
    nextRefreshAt: isoOrNull(v.nextRefreshAt),
    views24h: v.views24h,
    outlierScore: v.outlierScore,
  };
}

export const trackedVideoItem = (v: TrackedVideoRecord) => ({ ...videoItem(v), trackedVideoId: v.trackedVideoId, trackedAt: iso(v.trackedAt) });

export const accountSchema = z
  .object({
    id: uuid.meta({ description: "The canonical account ID." }),
    trackedAccountId: uuid.meta({ description: "The workspace's tracking record." }),
    type: platform,
    username: z.string().meta({ description: "Lower-cased handle without '@'." }),
    url: z.string().meta({ description: "Canonical HTTPS link of the account." }),
    displayName: z.string(),
    avatarUrl: z.string(),
    followerCount: count("Followers"),
    videoCount: count("Videos the account has posted (as the source reports it)"),
    totalViews: count("Views over the account's videos the source lists"),
    videoLimit: z.number().int().meta({ description: "Max number of the account's newest videos tracked (1-500)." }),
    scrapeStatus,
    scrapeError: z.string().nullable(),
    lastScrapedAt: timestamp.nullable(),
    dataSource: z.string().nullable().meta({ description: "ytdlp or simulated; null before the first scrape." }),
    createdAt: timestamp.meta({ description: "When the workspace started tracking the account." }),
    nextRefreshAt: timestamp.nullable().meta({ description: NEXT_REFRESH_DESCRIPTION }),
  })
  .meta({ id: "Account", description: "A tracked account." });

export function accountItem(a: TrackedAccountView) {
  return {
    id: a.id,
    trackedAccountId: a.trackedAccountId,
    type: a.platform,
    username: a.username,
    url: canonicalAccountUrl(a),
    displayName: a.displayName,
    avatarUrl: a.avatarUrl,
    followerCount: a.followerCount,
    videoCount: a.videoCount,
    totalViews: a.totalViews,
    videoLimit: a.videoLimit,
    scrapeStatus: a.scrapeStatus,
    scrapeError: a.scrapeError,
    lastScrapedAt: isoOrNull(a.lastScrapedAt),
    dataSource: a.dataSource,
    createdAt: iso(a.trackedAt),
    nextRefreshAt: isoOrNull(a.nextRefreshAt),
  };
}

const pointSource = z.string().meta({ description: "The provider that measured the point: ytdlp or simulated." });

const videoPointSchema = z
  .object({
    capturedAt: timestamp.meta({ description: "When the point was measured (its real time, also for daily points)." }),
    viewCount: count("Views"),
    likeCount: count("Likes"),
    commentCount: count("Comments"),
    shareCount: count("Shares"),
    bookmarkCount: count("Bookmarks (saves)"),
    source: pointSource,
  })
  .meta({ id: "VideoMetricPoint" });

const accountPointSchema = z
  .object({
    capturedAt: timestamp.meta({ description: "When the point was measured (its real time, also for daily points)." }),
    followerCount: count("Followers"),
    totalViews: count("Views over the account's videos the source lists"),
    videoCount: count("Videos the account has posted"),
    source: pointSource,
  })
  .meta({ id: "AccountMetricPoint" });

const historyEnvelope = <S extends z.ZodType>(point: S) =>
  z.object({ data: z.object({ interval: z.enum(["hour", "day"]), points: z.array(point) }) });

const HISTORY_DESCRIPTION =
  `Oldest first. Range: start_date and end_date, inclusive UTC days (default the last 30 days, today included); start_date after ` +
  `end_date is 400 VALIDATION_ERROR. interval=day (default): the last point of each UTC day (capturedAt is that point's real time; a ` +
  `day without a scrape has no point). interval=hour: every point at scrape resolution for the last ` +
  `${config.history.fullResolutionDays} UTC days (today included; HISTORY_FULL_RESOLUTION_DAYS), and the daily points before them ` +
  `(older points are rolled up to one per day). Points are as often as the item was scraped (adaptive cadence: see the refresh endpoint). ` +
  `source is the provider that measured each point.`;

const REFRESH_DESCRIPTION =
  `Queues a scrape of the item now: 202 with nextRefreshAt = now (the item is due; its new numbers and point appear when the scrape is ` +
  `done, usually within seconds). Items are global: the refresh serves every workspace tracking it. A call within ` +
  `${Math.round(config.refresh.minIntervalMs / 1000)} seconds (REFRESH_MIN_INTERVAL_SECONDS) of the item's last scrape or last refresh ` +
  `request (by any workspace) is 429 REFRESH_TOO_SOON with Retry-After (seconds). Without requests, items are refreshed on an adaptive ` +
  `cadence (REFRESH_CADENCE, default: hourly while a video is under 2 days old or accelerating, every 4 hours in its first week, daily in ` +
  `its first month, weekly after; an account by the age of its newest video; faster on pro (x0.5) and enterprise (x0.25) plans), each ` +
  `item at a steady phase drawn from its id so that items spread over time. A refresh that keeps failing backs off (30 min, doubling, ` +
  `at most 24 h) and after ${config.refresh.maxFailures} consecutive failures the item is failed with the reason (scrapeError) and no ` +
  `longer scheduled (nextRefreshAt null) until it is refreshed again by request.`;

const refreshResponses = {
  202: {
    description: "The scrape is queued.",
    schema: z.object({ data: z.object({ id: uuid, nextRefreshAt: timestamp.meta({ description: "Now: the item is due and its scrape queued." }) }), message: z.string() }),
  },
  429: {
    description:
      "REFRESH_TOO_SOON (within REFRESH_MIN_INTERVAL_SECONDS of the last scrape or refresh request) or RATE_LIMITED (the key's budget); " +
      "both with Retry-After in seconds.",
    schema: errorSchema,
  },
};

/** 202, or 429 REFRESH_TOO_SOON with Retry-After (the header is part of the contract). */
async function refreshAnswer(request: () => Promise<RefreshQueued>): Promise<RouteResponse> {
  try {
    const r = await request();
    return { status: 202, body: { data: { id: r.id, nextRefreshAt: iso(r.nextRefreshAt) }, message: "Refresh queued: the new numbers appear within a few minutes." } };
  } catch (e) {
    if (!(e instanceof RefreshTooSoonError)) throw e;
    return { status: 429, body: { code: e.code, message: e.message }, headers: { "Retry-After": String(e.retryAfterSeconds) } };
  }
}

export const trackingRoutes = [
  defineRoute({
    method: "post",
    path: "/videos",
    summary: "Start tracking a video",
    description:
      "Queues the video for scraping; metrics appear within a few minutes. Uses no credits; counts toward the plan's video tracking limit " +
      "(403 VIDEO_LIMIT_REACHED when additions_remaining is 0). Videos are global: a video already known to the service (tracked by " +
      "another workspace) is not created or scraped again, and `isNew` is false. 409 ALREADY_TRACKED when this workspace tracks it already.",
    tags: ["Videos"],
    body: trackVideoInput,
    errors: ["INVALID_URL", "ALREADY_TRACKED", "VIDEO_LIMIT_REACHED"],
    responses: {
      201: {
        description: "The video is tracked and queued for scraping.",
        schema: z.object({
          data: z.object({
            trackedVideoId: uuid.meta({ description: "The workspace's tracking record." }),
            videoId: uuid,
            isNew: z.boolean().meta({ description: "True when the video was new to the service (created and queued by this call)." }),
          }),
          message: z.string(),
        }),
      },
    },
    async handler({ auth, body }) {
      const data = await trackVideo(auth.workspaceId, body.url);
      return { status: 201, body: { data, message: "Video queued for tracking. Metrics appear within a few minutes." } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/videos",
    summary: "List tracked videos",
    description:
      "Paginated; newest tracked first (ties by trackedVideoId). Items are full video records with the tracking record. Optional: " +
      "platform, q (words of the description or username), sort and order; an unknown sort, order or platform is 400 VALIDATION_ERROR. " +
      "With platform or q, pagination.total counts the matching videos. Without any of them the answer is the spec's list, unchanged. " +
      "Sorting by views_24h or outlier finds a workspace's spiking videos (both are computed when a scrape is stored).",
    tags: ["Videos"],
    query: queryParams(listVideosQuery),
    responses: { 200: { description: "A page of tracked videos.", schema: z.object({ data: z.array(trackedVideoSchema), pagination: paginationSchema }) } },
    async handler({ auth, query }) {
      const { platform, q, sort, order } = query;
      const page = await listTrackedVideos(auth.workspaceId, query, { platform, q, sort, order });
      return { body: { data: page.items.map(trackedVideoItem), pagination: pagination(page.total, query.limit, query.offset) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/videos/{id}",
    summary: "Get one tracked video",
    tags: ["Videos"],
    params: idParams,
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "The video, full detail.", schema: z.object({ data: trackedVideoSchema }) } },
    async handler({ auth, params }) {
      return { body: { data: trackedVideoItem(await getTrackedVideo(auth.workspaceId, params.id)) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/videos/{id}/history",
    summary: "Metric history of a tracked video",
    description: `${HISTORY_DESCRIPTION} 404 NOT_FOUND unless the workspace tracks the video.`,
    tags: ["Videos"],
    params: idParams,
    query: queryParams(historyQuery),
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "The video's points in the range.", schema: historyEnvelope(videoPointSchema) } },
    async handler({ auth, params, query }) {
      const range = historyRange({ startDate: query.start_date, endDate: query.end_date, interval: query.interval });
      const h = await videoHistory(auth.workspaceId, params.id, range);
      // The domain's points are the REST items (same names, in order; src/domain/tracking/history.ts): no copy of hundreds of points.
      return { body: { data: { interval: h.interval, points: h.points } } };
    },
  }),
  defineRoute({
    method: "post",
    path: "/videos/{id}/refresh",
    summary: "Refresh a tracked video now",
    description: `${REFRESH_DESCRIPTION} 404 NOT_FOUND unless the workspace tracks the video.`,
    tags: ["Videos"],
    params: idParams,
    errors: ["NOT_FOUND", "REFRESH_TOO_SOON"],
    responses: refreshResponses,
    handler: ({ auth, params }) => refreshAnswer(() => requestVideoRefresh(auth.workspaceId, params.id)),
  }),
  defineRoute({
    method: "post",
    path: "/videos/bulk-untrack",
    summary: "Untrack up to 50 videos",
    description:
      "Each id is processed independently; one result per id, in the order given. An id the workspace does not track gives " +
      "`success: false` with `error: \"Video not found.\"`; a repeated id is processed once and its later copies give `success: false` " +
      "with a duplicate note. More than 50 ids, or an id that is not a UUID, answers 400 VALIDATION_ERROR. Untracking frees tracking " +
      "slots; the global video record stays for other workspaces.",
    tags: ["Videos"],
    body: untrackVideosInput,
    responses: {
      200: {
        description: "Per-id results.",
        schema: z.object({ data: z.array(z.object({ id: z.string(), success: z.boolean(), error: z.string().optional() })) }),
      },
    },
    async handler({ auth, body }) {
      return { body: { data: await untrackVideos(auth.workspaceId, body.ids) } };
    },
  }),
  defineRoute({
    method: "post",
    path: "/accounts",
    summary: "Start tracking a creator account",
    description:
      "Queues the account for scraping; the scrape then tracks up to min(video_limit, additions_remaining) of its newest videos. " +
      `Uses no credits. ${ACCOUNT_PLAN_BOUND} The username (lower-cased, without '@') lands in ` +
      "exactly one list: `added`, `alreadyTracked` (the workspace tracks it already; its video_limit is left unchanged) or `failed` " +
      "(no room: no additions remain beyond the pending accounts). A link whose handle breaks the platform's handle grammar, " +
      "dot segments included (`/@..`, `/../admin`, `/%2e%2e/admin`), is never adjusted into another handle: 400 INVALID_URL whose body " +
      "also carries `data: {added: [], alreadyTracked: [], failed: [<the handle as written>]}`.",
    tags: ["Accounts"],
    body: trackAccountInput,
    errors: ["INVALID_URL"],
    responses: {
      201: {
        description: "Usernames by outcome.",
        schema: z.object({
          data: z.object({ added: z.array(z.string()), alreadyTracked: z.array(z.string()), failed: z.array(z.string()) }),
          message: z.string(),
        }),
      },
    },
    async handler({ auth, body }) {
      const data = await trackAccount(auth.workspaceId, body.url, body.video_limit);
      const message = data.added.length
        ? "Account queued for tracking. Its videos appear within a few minutes."
        : data.alreadyTracked.length
          ? "Account is already tracked."
          : "Account not added: the plan's video tracking limit is reached (accounts waiting for their first videos hold one addition each).";
      return { status: 201, body: { data, message } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/accounts",
    summary: "List tracked accounts",
    description: "Paginated; newest tracked first (ties by trackedAccountId).",
    tags: ["Accounts"],
    query: queryParams(listAccountsQuery),
    responses: { 200: { description: "A page of tracked accounts.", schema: z.object({ data: z.array(accountSchema), pagination: paginationSchema }) } },
    async handler({ auth, query }) {
      const page = await listTrackedAccounts(auth.workspaceId, query);
      return { body: { data: page.items.map(accountItem), pagination: pagination(page.total, query.limit, query.offset) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/accounts/{id}",
    summary: "Get one tracked account",
    tags: ["Accounts"],
    params: idParams,
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "The account.", schema: z.object({ data: accountSchema }) } },
    async handler({ auth, params }) {
      return { body: { data: accountItem(await getTrackedAccount(auth.workspaceId, params.id)) } };
    },
  }),
  defineRoute({
    method: "delete",
    path: "/accounts/{id}",
    summary: "Untrack an account",
    description: "Stops tracking the account. Its videos stay tracked (untrack them with POST /videos/bulk-untrack).",
    tags: ["Accounts"],
    params: idParams,
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "The account is untracked.", schema: z.object({ data: z.object({ id: uuid }), message: z.string() }) } },
    async handler({ auth, params }) {
      const data = await untrackAccount(auth.workspaceId, params.id);
      return { body: { data, message: "Account untracked. Its videos stay tracked." } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/accounts/{id}/history",
    summary: "Metric history of a tracked account",
    description:
      `${HISTORY_DESCRIPTION} 404 NOT_FOUND unless the workspace tracks the account (an owner account of a tracked video that the ` +
      "workspace does not track is 404 too).",
    tags: ["Accounts"],
    params: idParams,
    query: queryParams(historyQuery),
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "The account's points in the range.", schema: historyEnvelope(accountPointSchema) } },
    async handler({ auth, params, query }) {
      const range = historyRange({ startDate: query.start_date, endDate: query.end_date, interval: query.interval });
      const h = await accountHistory(auth.workspaceId, params.id, range);
      return { body: { data: { interval: h.interval, points: h.points } } };
    },
  }),
  defineRoute({
    method: "post",
    path: "/accounts/{id}/refresh",
    summary: "Refresh a tracked account now",
    description:
      `${REFRESH_DESCRIPTION} An account refresh also lists its newest videos: new ones are tracked within the plan's limits and announced ` +
      "(account.video_discovered). 404 NOT_FOUND unless the workspace tracks the account.",
    tags: ["Accounts"],
    params: idParams,
    errors: ["NOT_FOUND", "REFRESH_TOO_SOON"],
    responses: refreshResponses,
    handler: ({ auth, params }) => refreshAnswer(() => requestAccountRefresh(auth.workspaceId, params.id)),
  }),
  defineRoute({
    method: "get",
    path: "/accounts/{id}/videos",
    summary: "Tracked videos of one account",
    description:
      "The account's videos this workspace tracks, newest posted first (videos not scraped yet, whose date is unknown, last; ties by id). " +
      "Both date bounds are inclusive UTC days: start_date keeps videos posted at or after 00:00 UTC of that day, end_date those posted " +
      "before the end (24:00 UTC) of that day; with either bound, videos whose posting date is unknown are left out. start_date after " +
      "end_date answers 400 VALIDATION_ERROR. 404 NOT_FOUND unless the workspace tracks the account.",
    tags: ["Accounts"],
    params: idParams,
    query: queryParams(accountVideosQuery),
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "A page of the account's videos.", schema: z.object({ data: z.array(videoSchema), pagination: paginationSchema }) } },
    async handler({ auth, params, query }) {
      const page = await listAccountVideos(auth.workspaceId, params.id, query, { startDate: query.start_date, endDate: query.end_date });
      return { body: { data: page.items.map(videoItem), pagination: pagination(page.total, query.limit, query.offset) } };
    },
  }),
];
