/**
 * The tracking MCP tools: tracked videos and accounts, their lists, a video's history, an account's rules,
 * pausing and retrying (as REST /videos and /accounts).
 */
import { ACCOUNT_PLAN_BOUND } from "../../../domain/tracking/limits.ts";
import { z } from "zod";
import { uuid } from "../../../domain/shared/inputs.ts";
import {
  accountRules,
  historyQuery,
  listAccountsQuery,
  listVideosQuery,
  skippedVideosQuery,
  trackAccountInput,
  trackVideoInput,
} from "../../../domain/tracking/inputs.ts";
import {
  listSkippedVideos,
  pauseAccount,
  resumeAccount,
  retryAccountSync,
  setAccountRules,
} from "../../../domain/tracking/account-controls.ts";
import { historyRange, MAX_HISTORY_DAYS, videoHistory } from "../../../domain/tracking/history.ts";
import { getTrackedVideo, listTrackedVideos, trackVideo } from "../../../domain/tracking/videos.ts";
import { listTrackedAccounts, trackAccount } from "../../../domain/tracking/accounts.ts";
import { pagination } from "../../records/common.ts";
import { accountItem, skippedVideoItem, trackedVideoItem } from "../../../domain/tracking/records.ts";
import { READ, SETTING, WRITE, defineTool, videoId, type AnyTool } from "../tool.ts";

const accountId = uuid.meta({ description: "The account's id (the canonical account id, `id` of an account record)." });

export const trackingTools: AnyTool[] = [
  defineTool({
    name: "track_video",
    title: "Track a video",
    description:
      "Starts tracking a video by its link; its metrics (views, likes, comments, shares, saves) are scraped in the background and " +
      "appear within a few minutes (read them with get_video). Uses no credits; counts toward the plan's tracking limit " +
      "(VIDEO_LIMIT_REACHED when it is used up). Errors: INVALID_URL (not an accepted link), ALREADY_TRACKED.",
    input: trackVideoInput,
    annotations: WRITE,
    idempotent: true,
    run: async ({ auth }, input) => ({
      data: await trackVideo(auth.workspaceId, input.url),
      message: "Video tracked and queued for scraping; its metrics appear within a few minutes (get_video).",
    }),
  }),
  defineTool({
    name: "track_account",
    title: "Track a creator account",
    description:
      "Starts tracking a creator account by its link; a background scrape then tracks up to `video_limit` of its newest videos " +
      `(never more than the plan's remaining tracking limit). Uses no credits. ${ACCOUNT_PLAN_BOUND} The username lands in exactly one list: ` +
      "`added`, `alreadyTracked` or `failed` (no room left). Error: INVALID_URL.",
    input: trackAccountInput,
    annotations: WRITE,
    idempotent: true,
    run: async ({ auth }, input) => ({
      data: await trackAccount(auth.workspaceId, input.url, input.video_limit),
      message: "Accounts in `added` are queued; their videos appear in list_videos within a few minutes.",
    }),
  }),
  defineTool({
    name: "set_account_rules",
    title: "Set a tracked account's rules",
    description:
      "Replaces the rules on the videos a tracked account brings (REST PUT /accounts/{id}/rules): includeHashtags / excludeHashtags " +
      "(e.g. only #brandname, never #ad), includeWords / excludeWords (whole words of the description), minDurationSeconds, postedAfter " +
      "(YYYY-MM-DD). A field left out is emptied. The account's next scrape applies them: a refused video is not tracked and takes no " +
      "slot (see list_account_skipped_videos). NOT_FOUND unless the workspace tracks the account. Free.",
    input: accountRules.extend({ account_id: accountId }),
    annotations: SETTING,
    run: async ({ auth }, { account_id, ...rules }) => ({
      data: accountItem(await setAccountRules(auth.workspaceId, account_id, rules)),
      message: "Rules saved: the account's next scrape applies them.",
    }),
  }),
  defineTool({
    name: "list_account_skipped_videos",
    title: "Videos a tracked account's rules skipped",
    description:
      "The videos a tracked account's listings brought that its rules refused (not tracked, no slot taken), newest first, each with the " +
      "rule and the reason (REST GET /accounts/{id}/skipped-videos). NOT_FOUND unless the workspace tracks the account. Free.",
    input: skippedVideosQuery.extend({ account_id: accountId }),
    annotations: READ,
    run: async ({ auth }, input) => {
      const page = await listSkippedVideos(auth.workspaceId, input.account_id, input);
      return { data: page.items.map(skippedVideoItem), pagination: pagination(page.total, input.limit, input.offset) };
    },
  }),
  defineTool({
    name: "pause_account",
    title: "Pause a tracked account",
    description:
      "Pauses the tracking of an account (REST POST /accounts/{id}/pause): no scheduled scrape on the workspace's behalf and no new " +
      "video tracked through it; its videos already tracked stay tracked. Undo with resume_account. NOT_FOUND unless tracked. Free.",
    input: z.object({ account_id: accountId }),
    annotations: SETTING,
    run: async ({ auth }, input) => ({
      data: accountItem(await pauseAccount(auth.workspaceId, input.account_id)),
      message: "Tracking paused.",
    }),
  }),
  defineTool({
    name: "resume_account",
    title: "Resume a paused account",
    description:
      "Resumes a paused account's tracking (REST POST /accounts/{id}/resume): it is scraped at once and what it posted meanwhile is " +
      "tracked (within its video limit, the plan and its rules). NOT_FOUND unless tracked. Free.",
    input: z.object({ account_id: accountId }),
    annotations: SETTING,
    run: async ({ auth }, input) => ({
      data: accountItem(await resumeAccount(auth.workspaceId, input.account_id)),
      message: "Tracking resumed: a scrape is queued.",
    }),
  }),
  defineTool({
    name: "retry_account_sync",
    title: "Retry a tracked account's failed sync",
    description:
      "When a tracked account's last scrape failed (scrapeError says why), queues one scrape again (REST POST /accounts/{id}/retry). " +
      "`queued` is false when there is nothing to retry (not failed, or a retry is already queued): it never queues twice. NOT_FOUND " +
      "unless tracked. Free.",
    input: z.object({ account_id: accountId }),
    annotations: SETTING,
    run: async ({ auth }, input) => {
      const r = await retryAccountSync(auth.workspaceId, input.account_id);
      return {
        data: { id: r.id, queued: r.queued, account: accountItem(r.account) },
        message: r.queued ? "Retry queued: the account is scraped again within a few minutes." : "Nothing to retry.",
      };
    },
  }),
  defineTool({
    name: "list_videos",
    title: "List tracked videos",
    description:
      "A page of the workspace's tracked videos with their latest metrics and engagement rate, with the filters and sorting of " +
      "REST GET /videos (newest tracked first by default; `tag`: only videos carrying any of these tag ids, from list_tags). " +
      "`pagination.has_more` says whether another page exists. Free.",
    input: listVideosQuery,
    annotations: READ,
    run: async ({ auth }, input) => {
      const page = await listTrackedVideos(auth.workspaceId, input, input);
      return { data: page.items.map(trackedVideoItem), pagination: pagination(page.total, input.limit, input.offset) };
    },
  }),
  defineTool({
    name: "get_video",
    title: "Read a tracked video",
    description:
      "One tracked video, full detail: metrics, engagement rate, author, music, scrape status. NOT_FOUND unless the workspace tracks it. Free.",
    input: z.object({ video_id: videoId }),
    annotations: READ,
    run: async ({ auth }, input) => ({ data: trackedVideoItem(await getTrackedVideo(auth.workspaceId, input.video_id)) }),
  }),
  defineTool({
    name: "get_video_history",
    title: "Read a tracked video's metric history",
    description:
      "A tracked video's metrics over time, oldest first (REST GET /videos/{id}/history): interval=day (default) gives the last point of " +
      "each UTC day, interval=hour every scrape in the recent window. Range: start_date and end_date, inclusive UTC days (default the " +
      `last 30 days; at most ${MAX_HISTORY_DAYS.hour} days with interval=hour, ${MAX_HISTORY_DAYS.day} with day). Use it to see how fast a ` +
      "video grows or when it spiked. NOT_FOUND unless the workspace tracks it. Free.",
    input: historyQuery.extend({ video_id: videoId }),
    annotations: READ,
    run: async ({ auth }, input) => {
      const range = historyRange(input);
      const h = await videoHistory(auth.workspaceId, input.video_id, range);
      return { data: { interval: h.interval, points: h.points } };
    },
  }),
  defineTool({
    name: "list_accounts",
    title: "List tracked accounts",
    description:
      "A page of the workspace's tracked accounts (newest tracked first), as REST GET /accounts; `tag`: only accounts carrying any of " +
      "these tag ids (from list_tags). Free.",
    input: listAccountsQuery,
    annotations: READ,
    run: async ({ auth }, input) => {
      const page = await listTrackedAccounts(auth.workspaceId, input, { tag: input.tag });
      return { data: page.items.map(accountItem), pagination: pagination(page.total, input.limit, input.offset) };
    },
  }),
];
