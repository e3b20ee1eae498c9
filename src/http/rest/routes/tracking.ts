/**
 * Tracking: /videos and /accounts. Thin: validate, call the tracking services, shape the spec's
 * envelopes and casing. Decisions where the spec is silent are written in the descriptions.
 */
import { ACCOUNT_PLAN_BOUND } from "../../../domain/tracking/limits.ts";
import { z } from "zod";
import { getTrackedVideo, listTrackedVideos, trackVideo, untrackVideos } from "../../../domain/tracking/videos.ts";
import {
  getTrackedAccount,
  listAccountVideos,
  listTrackedAccounts,
  trackAccount,
  untrackAccount,
} from "../../../domain/tracking/accounts.ts";
import { accountHistory, historyRange, MAX_HISTORY_DAYS, videoHistory } from "../../../domain/tracking/history.ts";
import { requestAccountRefresh, requestVideoRefresh, type RefreshQueued } from "../../../domain/tracking/refresh.ts";
import {
  listSkippedVideos,
  pauseAccount,
  resumeAccount,
  retryAccountSync,
  setAccountRules,
} from "../../../domain/tracking/account-controls.ts";
import { config } from "../../../config.ts";
import {
  accountRules,
  accountVideosQuery,
  historyQuery,
  skippedVideosQuery,
  listAccountsQuery,
  listVideosQuery,
  trackAccountInput,
  trackVideoInput,
  untrackVideosInput,
} from "../../../domain/tracking/inputs.ts";
import { defineRoute } from "../route.ts";
import { errorSchema, idParams, queryParams } from "../schemas.ts";
import { iso, timestamp, uuid } from "../../../domain/shared/records.ts";
import { bulkItemResult, pagination, paginationSchema } from "../../records/common.ts";
import { skippedVideoItem, skippedVideoSchema } from "../../../domain/tracking/records.ts";
import {
  accountItem,
  accountPointSchema,
  accountSchema,
  historyEnvelope,
  trackedVideoItem,
  trackedVideoSchema,
  videoItem,
  videoPointSchema,
  videoSchema,
} from "../../../domain/tracking/records.ts";
import type { RouteResponse } from "../route.ts";

const HISTORY_DESCRIPTION =
  `Oldest first. Range: start_date and end_date, inclusive UTC days (default the last 30 days, today included); start_date after ` +
  `end_date is 400 VALIDATION_ERROR, and so is a range of more than ${MAX_HISTORY_DAYS.hour} days with interval=hour or ` +
  `${MAX_HISTORY_DAYS.day} days (ten years) with interval=day (the message names the cap). interval=day (default): the last point of each UTC day (capturedAt is that point's real time; a ` +
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
    schema: z.object({
      data: z.object({ id: uuid, nextRefreshAt: timestamp.meta({ description: "Now: the item is due and its scrape queued." }) }),
      message: z.string(),
    }),
  },
  429: {
    description:
      "REFRESH_TOO_SOON (within REFRESH_MIN_INTERVAL_SECONDS of the last scrape or refresh request) or RATE_LIMITED (the key's budget); " +
      "both with Retry-After in seconds.",
    schema: errorSchema,
  },
};

/** 202; REFRESH_TOO_SOON is thrown, and answered 429 with its Retry-After by the error mapping (src/http/errors.ts). */
async function refreshAnswer(request: () => Promise<RefreshQueued>): Promise<RouteResponse> {
  const r = await request();
  return {
    status: 202,
    body: {
      data: { id: r.id, nextRefreshAt: iso(r.nextRefreshAt) },
      message: "Refresh queued: the new numbers appear within a few minutes.",
    },
  };
}

export const trackingRoutes = [
  defineRoute({
    method: "post",
    path: "/videos",
    operationId: "trackVideo",
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
    operationId: "listVideos",
    exportAs: { kind: "videos" },
    summary: "List tracked videos",
    description:
      "Paginated; newest tracked first (ties by trackedVideoId). Items are full video records with the tracking record. Optional: " +
      "platform, q (words of the description or username), tag (videos carrying any of these tags, see /tags), sort and order; an " +
      "unknown sort, order or platform is 400 VALIDATION_ERROR. With platform, q or tag, pagination.total counts the matching videos. Without any of them the answer is the spec's list, unchanged. " +
      "Sorting by views_24h or outlier finds a workspace's spiking videos (both are computed when a scrape is stored).",
    tags: ["Videos"],
    query: queryParams(listVideosQuery),
    responses: {
      200: {
        description: "A page of tracked videos.",
        schema: z.object({ data: z.array(trackedVideoSchema), pagination: paginationSchema }),
      },
    },
    async handler({ auth, query }) {
      const { platform, q, sort, order, tag } = query;
      const page = await listTrackedVideos(auth.workspaceId, query, { platform, q, sort, order, tag });
      return { body: { data: page.items.map(trackedVideoItem), pagination: pagination(page.total, query.limit, query.offset) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/videos/{id}",
    operationId: "getVideo",
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
    operationId: "getVideoHistory",
    exportAs: { kind: "video_history", params: (p) => ({ videoId: p.id }) },
    summary: "Metric history of a tracked video",
    description: `${HISTORY_DESCRIPTION} 404 NOT_FOUND unless the workspace tracks the video.`,
    tags: ["Videos"],
    params: idParams,
    query: queryParams(historyQuery),
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "The video's points in the range.", schema: historyEnvelope(videoPointSchema) } },
    async handler({ auth, params, query }) {
      const range = historyRange(query);
      const h = await videoHistory(auth.workspaceId, params.id, range);
      // The domain's points are the REST items (same names, in order; src/domain/tracking/history.ts): no copy of hundreds of points.
      return { body: { data: { interval: h.interval, points: h.points } } };
    },
  }),
  defineRoute({
    method: "post",
    path: "/videos/{id}/refresh",
    operationId: "refreshVideo",
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
    operationId: "untrackVideos",
    summary: "Untrack up to 50 videos",
    description:
      "Each id is processed independently; one result per id, in the order given. An id the workspace does not track gives " +
      '`success: false` with `error: "Video not found."`; a repeated id is processed once and its later copies give `success: false` ' +
      "with a duplicate note. More than 50 ids, or an id that is not a UUID, answers 400 VALIDATION_ERROR. Untracking frees tracking " +
      "slots; the global video record stays for other workspaces. A video an active campaign may pay for (posted by a member's account " +
      "in its window, or added to it by hand) stays tracked when a member asks: `success: false` with the reason; owners may " +
      "(docs/campaigns.md).",
    tags: ["Videos"],
    body: untrackVideosInput,
    responses: {
      200: {
        description: "Per-id results.",
        schema: z.object({ data: z.array(bulkItemResult) }),
      },
    },
    async handler({ auth, body }) {
      return { body: { data: await untrackVideos(auth, body.ids) } };
    },
  }),
  defineRoute({
    method: "post",
    path: "/accounts",
    operationId: "trackAccount",
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
        ? `Account queued for tracking. Up to ${body.video_limit} of its newest videos (video_limit) will be tracked, each taking one of ` +
          "the plan's tracking slots while additions remain; they appear within a few minutes."
        : data.alreadyTracked.length
          ? "Account is already tracked."
          : "Account not added: the plan's video tracking limit is reached (accounts waiting for their first videos hold one addition each).";
      return { status: 201, body: { data, message } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/accounts",
    operationId: "listAccounts",
    exportAs: { kind: "accounts" },
    summary: "List tracked accounts",
    description:
      "Paginated; newest tracked first (ties by trackedAccountId). Optional tag: accounts carrying any of these tags (see /tags); " +
      "pagination.total then counts the matching accounts.",
    tags: ["Accounts"],
    query: queryParams(listAccountsQuery),
    responses: {
      200: { description: "A page of tracked accounts.", schema: z.object({ data: z.array(accountSchema), pagination: paginationSchema }) },
    },
    async handler({ auth, query }) {
      const page = await listTrackedAccounts(auth.workspaceId, query, { tag: query.tag });
      return { body: { data: page.items.map(accountItem), pagination: pagination(page.total, query.limit, query.offset) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/accounts/{id}",
    operationId: "getAccount",
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
    operationId: "untrackAccount",
    summary: "Untrack an account",
    description: "Stops tracking the account. Its videos stay tracked (untrack them with POST /videos/bulk-untrack).",
    tags: ["Accounts"],
    params: idParams,
    errors: ["NOT_FOUND"],
    responses: {
      200: { description: "The account is untracked.", schema: z.object({ data: z.object({ id: uuid }), message: z.string() }) },
    },
    async handler({ auth, params }) {
      const data = await untrackAccount(auth.workspaceId, params.id);
      return { body: { data, message: "Account untracked. Its videos stay tracked." } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/accounts/{id}/history",
    operationId: "getAccountHistory",
    exportAs: { kind: "account_history", params: (p) => ({ accountId: p.id }) },
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
      const range = historyRange(query);
      const h = await accountHistory(auth.workspaceId, params.id, range);
      return { body: { data: { interval: h.interval, points: h.points } } };
    },
  }),
  defineRoute({
    method: "post",
    path: "/accounts/{id}/refresh",
    operationId: "refreshAccount",
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
    method: "put",
    path: "/accounts/{id}/rules",
    operationId: "setAccountRules",
    summary: "Set a tracked account's rules",
    description:
      "Replaces the workspace's rules on the videos the account brings (a field left out is emptied: `{}` removes every rule). The next " +
      "scrape of the account applies them: a listed video they refuse is not tracked, takes no slot, and is listed with the reason at " +
      "GET /accounts/{id}/skipped-videos. Hashtags are stored lower-cased without #; words and phrases lower-cased. Unknown fields, more " +
      "than 20 items in a list, a duration outside 1-86400 seconds or a day not written YYYY-MM-DD are 400 VALIDATION_ERROR. 404 " +
      "NOT_FOUND unless the workspace tracks the account.",
    tags: ["Accounts"],
    params: idParams,
    body: accountRules,
    errors: ["NOT_FOUND", "VALIDATION_ERROR"],
    responses: { 200: { description: "The account with its new rules.", schema: z.object({ data: accountSchema, message: z.string() }) } },
    async handler({ auth, params, body }) {
      const account = await setAccountRules(auth.workspaceId, params.id, body);
      return { body: { data: accountItem(account), message: "Rules saved: the account's next scrape applies them." } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/accounts/{id}/skipped-videos",
    operationId: "listAccountSkippedVideos",
    summary: "Videos an account's rules skipped",
    description:
      "The videos the account's listings brought that the workspace's rules refused (not tracked, no slot taken), newest skipped first, " +
      "each with the rule and the reason in words. The newest 200 per account are kept; a video the rules later let in (the rules changed) " +
      "leaves the list when it is tracked. 404 NOT_FOUND unless the workspace tracks the account.",
    tags: ["Accounts"],
    params: idParams,
    query: queryParams(skippedVideosQuery),
    errors: ["NOT_FOUND"],
    responses: {
      200: {
        description: "A page of skipped videos.",
        schema: z.object({ data: z.array(skippedVideoSchema), pagination: paginationSchema }),
      },
    },
    async handler({ auth, params, query }) {
      const page = await listSkippedVideos(auth.workspaceId, params.id, query);
      return { body: { data: page.items.map(skippedVideoItem), pagination: pagination(page.total, query.limit, query.offset) } };
    },
  }),
  defineRoute({
    method: "post",
    path: "/accounts/{id}/pause",
    operationId: "pauseAccount",
    summary: "Pause a tracked account",
    description:
      "Pauses the workspace's tracking of the account: no scheduled scrape on its behalf (the account leaves the refresh schedule unless " +
      "another workspace tracks it unpaused) and no new video tracked through it; its videos already tracked stay tracked and keep " +
      "refreshing. Pausing a paused account changes nothing (pausedAt keeps its first time). 404 NOT_FOUND unless the workspace tracks the account.",
    tags: ["Accounts"],
    params: idParams,
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "The account, paused.", schema: z.object({ data: accountSchema, message: z.string() }) } },
    async handler({ auth, params }) {
      return {
        body: {
          data: accountItem(await pauseAccount(auth.workspaceId, params.id)),
          message: "Tracking paused: no scrape is scheduled for this workspace.",
        },
      };
    },
  }),
  defineRoute({
    method: "post",
    path: "/accounts/{id}/resume",
    operationId: "resumeAccount",
    summary: "Resume a paused account",
    description:
      "Resumes the workspace's tracking of the account: a paused account is due at once and its scrape queued, which tracks what it " +
      "posted meanwhile (within the video limit, the plan and the rules). Resuming an account that is not paused changes nothing. " +
      "404 NOT_FOUND unless the workspace tracks the account.",
    tags: ["Accounts"],
    params: idParams,
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "The account, tracked again.", schema: z.object({ data: accountSchema, message: z.string() }) } },
    async handler({ auth, params }) {
      return {
        body: { data: accountItem(await resumeAccount(auth.workspaceId, params.id)), message: "Tracking resumed: a scrape is queued." },
      };
    },
  }),
  defineRoute({
    method: "post",
    path: "/accounts/{id}/retry",
    operationId: "retryAccountSync",
    summary: "Retry a failed sync",
    description:
      "Retries the account's failed sync: when its last scrape failed (scrapeError says why; scrapeStatus failed, or ready with older " +
      "numbers), the account goes back to queued with its failure count reset and one scrape is queued (queued: true). Asked again, or " +
      "for an account that is queued, scraping or healthy, nothing more is queued (queued: false): a retry never queues twice. 404 " +
      "NOT_FOUND unless the workspace tracks the account.",
    tags: ["Accounts"],
    params: idParams,
    errors: ["NOT_FOUND"],
    responses: {
      202: {
        description: "The retry's outcome and the account as it is now.",
        schema: z.object({
          data: z.object({
            id: uuid,
            queued: z.boolean().meta({ description: "True when this call queued a scrape." }),
            account: accountSchema,
          }),
          message: z.string(),
        }),
      },
    },
    async handler({ auth, params }) {
      const r = await retryAccountSync(auth.workspaceId, params.id);
      const message = r.queued
        ? "Retry queued: the account is scraped again within a few minutes."
        : "Nothing to retry: the account's sync has not failed, or a retry is already queued.";
      return { status: 202, body: { data: { id: r.id, queued: r.queued, account: accountItem(r.account) }, message } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/accounts/{id}/videos",
    operationId: "listAccountVideos",
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
    responses: {
      200: {
        description: "A page of the account's videos.",
        schema: z.object({ data: z.array(videoSchema), pagination: paginationSchema }),
      },
    },
    async handler({ auth, params, query }) {
      const page = await listAccountVideos(auth.workspaceId, params.id, query, query);
      return { body: { data: page.items.map(videoItem), pagination: pagination(page.total, query.limit, query.offset) } };
    },
  }),
];
