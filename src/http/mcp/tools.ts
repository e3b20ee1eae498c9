/**
 * The MCP door's tools: one per operation an agent may perform, each over the same domain function
 * as the REST route that does the same thing.
 *
 * - `input` is the domain's zod input (src/domain/<area>/inputs.ts), or domain pieces composed with
 *   an id (`uuid` from src/domain/shared/inputs.ts): the JSON Schema an agent sees is generated from
 *   it (./server.ts) and arguments are parsed with it (`parseInput`), so the tool refuses exactly what
 *   REST refuses, with the same VALIDATION_ERROR. No rule is restated here.
 * - A result is the REST answer's `data` (and `pagination`), built by the REST mappers, so agents and
 *   integrations read the same records, documented once in the OpenAPI document; tools add a
 *   `message` where the agent needs to know what happens next, and `credits` where the call spends them.
 * - Every tool runs for one workspace: the API key's (`ctx.auth.workspaceId`).
 */
import { ACCOUNT_PLAN_BOUND } from "../../domain/tracking/limits.ts";
import { z } from "zod";
import type { Actor } from "../../domain/people/actor.ts";
import type { Logger } from "../../infra/logger.ts";
import { uuid } from "../../domain/shared/inputs.ts";
import {
  accountRules,
  historyQuery,
  listAccountsQuery,
  listVideosQuery,
  skippedVideosQuery,
  trackAccountInput,
  trackVideoInput,
} from "../../domain/tracking/inputs.ts";
import {
  listSkippedVideos,
  pauseAccount,
  resumeAccount,
  retryAccountSync,
  setAccountRules,
} from "../../domain/tracking/account-controls.ts";
import { historyRange, MAX_HISTORY_DAYS, videoHistory } from "../../domain/tracking/history.ts";
import { getTrackedVideo, listTrackedVideos, trackVideo } from "../../domain/tracking/videos.ts";
import { listTrackedAccounts, trackAccount } from "../../domain/tracking/accounts.ts";
import {
  createFolderInput,
  folderAnalyticsQuery,
  folderGrowthQuery,
  folderParentId,
  listFoldersQuery,
} from "../../domain/folders/inputs.ts";
import { createFolder, listFolderSummaries, updateFolder } from "../../domain/folders/service.ts";
import { createTagInput, listTagsQuery, tagAccountIdsInput, tagVideoIdsInput } from "../../domain/tags/inputs.ts";
import { createTag, listTagSummaries, tagAccounts, tagVideos, untagAccounts, untagVideos } from "../../domain/tags/service.ts";
import { folderAnalytics, folderGrowth } from "../../domain/folders/contents.ts";
import { growthQuery, topVideosQuery } from "../../domain/analytics/inputs.ts";
import { growth, topVideos } from "../../domain/analytics/service.ts";
import { analyzeOptions } from "../../domain/analysis/inputs.ts";
import { ANALYSIS_COST, analyze, getAnalysis } from "../../domain/analysis/service.ts";
import { createSearchInput, searchResultsQuery } from "../../domain/radar/inputs.ts";
import { createSearch, getSearch, RADAR_SEARCH_COST } from "../../domain/radar/service.ts";
import { getWorkspaceInfo } from "../../domain/workspace/service.ts";
import { pagination } from "../records/common.ts";
import { accountItem, skippedVideoItem, trackedVideoItem } from "../records/tracking.ts";
import { folderRecordItem, folderSummaryItem } from "../records/folders.ts";
import { tagItem, tagSummaryItem } from "../records/tags.ts";
import { topVideoItem } from "../records/analytics.ts";
import { toAnalysisItem } from "../records/analysis.ts";
import { searchDetailItem } from "../records/radar.ts";
import { LATEST_LEDGER_ENTRIES, readCredits } from "../../domain/credits/service.ts";
import { creditsItem, workspaceInfoItem } from "../records/workspace.ts";
import { listNotificationsQuery, markReadInput } from "../../domain/notifications/inputs.ts";
import { countNotifications, listNotifications, markRead } from "../../domain/notifications/service.ts";
import { personIn } from "../../domain/notifications/person.ts";
import { notificationItemOf } from "../records/notifications.ts";
import { listCampaignsQuery, listCreatorsQuery } from "../../domain/campaigns/inputs.ts";
import { accountIdsOfCreators, listCreators } from "../../domain/campaigns/creators.ts";
import { listCampaigns, requireCampaign } from "../../domain/campaigns/service.ts";
import { campaignPayeeRows, campaignTotals, campaignVideoRows } from "../../domain/campaigns/earnings.ts";
import { campaignItem, creatorItem, payeeRowItem, payoutRowItem, totalsItem } from "../records/campaigns.ts";
import { startExportInput } from "../../domain/exports/inputs.ts";
import { getExport, startExport, type ExportRecord } from "../../domain/exports/service.ts";
import { exportAnswer } from "../records/exports.ts";

/** How long export_list waits for its export before answering its id and status (issue 33). */
export const EXPORT_WAIT_MS = 20_000;

/** Polls the export until it ends or `waitMs` passes. */
async function exportWithin(reader: Actor, first: ExportRecord, waitMs: number): Promise<ExportRecord> {
  const deadline = Date.now() + waitMs;
  let e = first;
  while ((e.status === "queued" || e.status === "running") && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    e = await getExport(reader, e.id);
  }
  return e;
}

/** Who calls, for one tool call or resource read. */
export interface ToolContext {
  auth: Actor;
  requestId: string;
  log: Logger;
}

/** The MCP tool annotations this server uses (hints for the client, never trusted by it). */
interface Hints {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDefinition<S extends z.ZodType> {
  name: string;
  title: string;
  description: string;
  input: S;
  annotations: Hints;
  /**
   * A tool that spends credits or creates takes an optional `idempotencyKey` argument: a call
   * repeated with the same key and arguments does its work once and answers the first answer again
   * (src/domain/shared/idempotency.ts, applied by ./server.ts).
   */
  idempotent?: true;
  run(ctx: ToolContext, input: z.output<S>): Promise<Record<string, unknown>>;
}

export type AnyTool = ToolDefinition<z.ZodType>;

const defineTool = <S extends z.ZodType>(tool: ToolDefinition<S>): AnyTool => tool as unknown as AnyTool;

const READ: Hints = { readOnlyHint: true, openWorldHint: false };
/** Writes that add work (tracking, analyses, searches) and never remove anything. */
const WRITE: Hints = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

const videoId = uuid.meta({ description: "The video's id (`id` in list_videos, `videoId` in track_video)." });
const accountId = uuid.meta({ description: "The account's id (the canonical account id, `id` of an account record)." });
/** Changes to a tracked account's own settings: repeating one changes nothing more. */
const SETTING: Hints = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const folderId = uuid.meta({ description: "The folder's id (from list_folders)." });
const tagId = uuid.meta({ description: "The tag's id (from list_tags or create_tag)." });
/** Writes that change how items are organised (folders, tags) and remove nothing tracked. */
const ORGANISE: Hints = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const searchId = uuid.meta({ description: "The search's id (`searchId` from start_radar_search)." });
const noInput = z.object({});

export const tools: AnyTool[] = [
  defineTool({
    name: "get_workspace",
    title: "Workspace: plan, credits, limits",
    description:
      "The workspace's plan, its credit balance and its video tracking limit (`limits.additions_remaining` is how many more videos " +
      "can be tracked). Free.",
    input: noInput,
    annotations: READ,
    run: async ({ auth }) => ({ data: workspaceInfoItem(await getWorkspaceInfo(auth.workspaceId)) }),
  }),
  defineTool({
    name: "get_credits",
    title: "Credit balance",
    description:
      "The credit balance (`total_remaining`; `reserved` is held by running analyses), when the monthly allowance renews " +
      `(\`cycle_resets_at\`) and the ${LATEST_LEDGER_ENTRIES} latest ledger entries. A video analysis costs ${ANALYSIS_COST} credits, a radar search ${RADAR_SEARCH_COST}. Free.`,
    input: noInput,
    annotations: READ,
    run: async ({ auth }) => ({ data: creditsItem(await readCredits(auth.workspaceId)) }),
  }),
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
    name: "list_folders",
    title: "List folders",
    description:
      "A page of the workspace's folders (newest first, every level; `parentId`: only that folder's sub-folders; `q`: only those whose " +
      "name holds its words) with their video, " +
      "account and sub-folder counts and their `parentId` (null: top-level); their ids serve get_folder_analytics. Free.",
    input: listFoldersQuery,
    annotations: READ,
    run: async ({ auth }, input) => {
      const { items, total } = await listFolderSummaries(auth.workspaceId, input, { parentId: input.parentId, q: input.q });
      return { data: items.map(folderSummaryItem), pagination: pagination(total, input.limit, input.offset) };
    },
  }),
  defineTool({
    name: "get_folder_analytics",
    title: "Folder analytics",
    description:
      "Aggregates of a folder (its videos added directly plus the tracked videos of its accounts): totals of views, likes, comments, " +
      "shares, mean engagement rate and the 5 most viewed videos. includeDescendants=true: over the folder and all its sub-folders " +
      "(each video and account once). NOT_FOUND for a folder of another workspace. Free.",
    input: folderAnalyticsQuery.extend({ folder_id: folderId }),
    annotations: READ,
    run: async ({ auth }, input) => ({ data: await folderAnalytics(auth.workspaceId, input.folder_id, input) }),
  }),
  defineTool({
    name: "get_folder_growth",
    title: "Growth of a folder's accounts",
    description:
      "Daily totals of followers, views and videos over a folder's tracked accounts, newest UTC day first, for the last 7, 30 or 90 " +
      "days or `all` (as get_growth does for the workspace). includeDescendants=true: its sub-folders' accounts too, each once. Free.",
    input: folderGrowthQuery.extend({ folder_id: folderId }),
    annotations: READ,
    run: async ({ auth }, input) => ({ data: await folderGrowth(auth.workspaceId, input.folder_id, input.period, input) }),
  }),
  defineTool({
    name: "create_folder",
    title: "Create a folder",
    description: "Creates a folder, top-level or inside `parentId` (folders nest at most 5 levels: FOLDER_TOO_DEEP). Free.",
    input: createFolderInput,
    annotations: WRITE,
    idempotent: true,
    run: async ({ auth }, input) => ({ data: folderRecordItem(await createFolder(auth.workspaceId, input.name, input.parentId ?? null)) }),
  }),
  defineTool({
    name: "move_folder",
    title: "Move a folder",
    description:
      "Moves a folder, with its sub-folders and contents, into `parentId` (null: top level). At most 5 levels deep (FOLDER_TOO_DEEP), " +
      "never into itself or its own sub-folders (FOLDER_CYCLE). Free.",
    input: z.strictObject({ folder_id: folderId, parentId: folderParentId }),
    annotations: ORGANISE,
    run: async ({ auth }, input) => {
      const f = await updateFolder(auth.workspaceId, input.folder_id, { parentId: input.parentId });
      return { data: { id: f.id, name: f.name, parentId: f.parentId } };
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
  defineTool({
    name: "list_tags",
    title: "List tags, grouped",
    description:
      "The workspace's tags by name, each with how many tracked videos and accounts carry it and the views of those videos (the " +
      "workspace's items grouped by tag; `q`: only the tags whose name holds its words). Filter list_videos and list_accounts with `tag`. Free.",
    input: listTagsQuery,
    annotations: READ,
    run: async ({ auth }, input) => {
      const { items, total } = await listTagSummaries(auth.workspaceId, input, { q: input.q });
      return { data: items.map(tagSummaryItem), pagination: pagination(total, input.limit, input.offset) };
    },
  }),
  defineTool({
    name: "create_tag",
    title: "Create a tag",
    description:
      "Creates a tag: a name (1 to 50 characters, unique without regard to case: TAG_EXISTS) and an optional colour #rrggbb. Free.",
    input: createTagInput,
    annotations: WRITE,
    idempotent: true,
    run: async ({ auth }, input) => ({ data: tagItem(await createTag(auth.workspaceId, input)) }),
  }),
  defineTool({
    name: "tag_videos",
    title: "Tag videos",
    description:
      "Puts a tag on up to 50 tracked videos; one result per id (`Video not found` for a video the workspace does not track). Free.",
    input: tagVideoIdsInput.extend({ tag_id: tagId }),
    annotations: ORGANISE,
    run: async ({ auth }, input) => ({ data: await tagVideos(auth.workspaceId, input.tag_id, input.video_ids) }),
  }),
  defineTool({
    name: "untag_videos",
    title: "Untag videos",
    description: "Takes a tag off up to 50 videos; answers how many carried it. The videos stay tracked. Free.",
    input: tagVideoIdsInput.extend({ tag_id: tagId }),
    annotations: ORGANISE,
    run: async ({ auth }, input) => ({ data: await untagVideos(auth.workspaceId, input.tag_id, input.video_ids) }),
  }),
  defineTool({
    name: "tag_accounts",
    title: "Tag accounts",
    description: "Puts a tag on up to 50 tracked accounts; one result per id (`Account not found` when not tracked). Free.",
    input: tagAccountIdsInput.extend({ tag_id: tagId }),
    annotations: ORGANISE,
    run: async ({ auth }, input) => ({ data: await tagAccounts(auth.workspaceId, input.tag_id, input.account_ids) }),
  }),
  defineTool({
    name: "untag_accounts",
    title: "Untag accounts",
    description: "Takes a tag off up to 50 accounts; answers how many carried it. The accounts stay tracked. Free.",
    input: tagAccountIdsInput.extend({ tag_id: tagId }),
    annotations: ORGANISE,
    run: async ({ auth }, input) => ({ data: await untagAccounts(auth.workspaceId, input.tag_id, input.account_ids) }),
  }),
  defineTool({
    name: "get_top_videos",
    title: "Top videos",
    description:
      "The workspace's tracked videos ranked by engagement rate (highest first), then views, then id; only scraped videos are ranked. Free.",
    input: topVideosQuery,
    annotations: READ,
    run: async ({ auth }, input) => ({ data: (await topVideos(auth.workspaceId, { limit: input.limit, offset: 0 })).map(topVideoItem) }),
  }),
  defineTool({
    name: "get_growth",
    title: "Growth of tracked accounts",
    description:
      "Daily totals of followers, views and videos over all the workspace's tracked accounts, newest UTC day first, for the " +
      "last 7, 30 or 90 days or since the first snapshot (`all`). Days without a snapshot carry the last known values. Free.",
    input: growthQuery,
    annotations: READ,
    run: async ({ auth }, input) => ({ data: await growth(auth.workspaceId, input.period) }),
  }),
  defineTool({
    name: "analyze_video",
    title: "Start an AI analysis of a video (5 credits)",
    description:
      `Costs ${ANALYSIS_COST} credits: starts an AI analysis of a tracked video (transcript, hook, UGC fit, call to action), ` +
      `reserving ${ANALYSIS_COST} credits that are charged when it completes and released if it fails. When an analysis already ` +
      "completed (and `force` is not true) or one is running, nothing is started or charged: the answer says so. The analysis " +
      "takes about 15 to 30 seconds; poll get_video_analysis. Errors: INSUFFICIENT_CREDITS, NOT_FOUND.",
    input: z.object({ video_id: videoId, ...analyzeOptions.shape }),
    annotations: WRITE,
    idempotent: true,
    run: async ({ auth }, input) => {
      const r = await analyze(auth.workspaceId, input.video_id, { force: input.force });
      const started = r.outcome === "queued";
      return {
        data: { analysisId: r.analysisId, videoId: r.videoId, status: r.status },
        message: r.message,
        credits: started
          ? {
              cost: ANALYSIS_COST,
              note: `${ANALYSIS_COST} credits reserved now, charged when the analysis completes, released if it fails.`,
            }
          : { cost: 0, note: "Nothing was started, so nothing was reserved or charged." },
      };
    },
  }),
  defineTool({
    name: "get_video_analysis",
    title: "Read a video's analysis",
    description:
      "The video's latest AI analysis: status (pending → downloading → transcribed → analyzing → completed, or failed), transcript, " +
      "hook style and phrase and where the hook came from (`hookSource`: speech, screen or description), UGC fit, call to action, " +
      "the `reasons` of each judgement, and `visual`: what the analysis saw in the video (keyframes with their time and on-screen text, " +
      "the text hook shown in the first 3 seconds, cuts and cuts per minute, the share of keyframes with a face, and what was skipped " +
      "and why). A keyframe's `thumbnailUrl` is a path on this service, fetched with the same API key. `data` is null when the video " +
      "was never analysed. Free.",
    input: z.object({ video_id: videoId }),
    annotations: READ,
    run: async ({ auth }, input) => {
      const a = await getAnalysis(auth.workspaceId, input.video_id);
      return { data: a ? toAnalysisItem(a) : null };
    },
  }),
  defineTool({
    name: "start_radar_search",
    title: "Start a content radar search (100 credits)",
    description:
      `Costs ${RADAR_SEARCH_COST} credits, charged at once (refunded once if the search fails): an AI content-discovery search ` +
      "that generates search queries from `query` and ranks the videos found. It runs in the background; poll get_radar_search " +
      "with the returned `searchId` until its status is completed or failed. Error: INSUFFICIENT_CREDITS.",
    input: createSearchInput,
    annotations: WRITE,
    idempotent: true,
    run: async ({ auth }, input) => ({
      data: await createSearch(auth.workspaceId, input),
      message: "Search queued; poll get_radar_search until its status is completed or failed.",
      credits: { cost: RADAR_SEARCH_COST, note: `${RADAR_SEARCH_COST} credits charged now; refunded once if the search fails.` },
    }),
  }),
  defineTool({
    name: "get_radar_search",
    title: "Read a radar search",
    description:
      "A radar search: status (pending, searching, completed, failed), the generated queries and a page of its ranked results " +
      "(best first; each says whether the workspace tracks it already). Free.",
    input: z.object({ search_id: searchId, ...searchResultsQuery.shape }),
    annotations: READ,
    run: async ({ auth }, input) => {
      const s = await getSearch(auth.workspaceId, input.search_id, { limit: input.limit, offset: input.offset });
      return { data: searchDetailItem(s), pagination: pagination(s.resultCount, input.limit, input.offset) };
    },
  }),
  defineTool({
    name: "list_notifications",
    title: "Read the person's notifications",
    description:
      "The signed-in person's notifications in this workspace (video spikes, new videos of tracked accounts, analyses and radar " +
      "searches finished, credits low: as their alert rules chose), newest first, with `unreadCount`. Needs a person's session " +
      "(FORBIDDEN with an API key: notifications belong to a person). Free.",
    input: listNotificationsQuery,
    annotations: READ,
    run: async ({ auth }, input) => {
      const who = personIn(auth);
      const [items, total, unreadCount] = await Promise.all([
        listNotifications(who, { limit: input.limit, offset: input.offset }, input.unread),
        countNotifications(who, input.unread),
        countNotifications(who, true),
      ]);
      return { data: items.map(notificationItemOf), pagination: pagination(total, input.limit, input.offset), unreadCount };
    },
  }),
  defineTool({
    name: "mark_notifications_read",
    title: "Mark notifications read",
    description:
      "Marks the person's notifications read: `ids` (from list_notifications, at most 100) or `all: true`. Needs a person's session. Free.",
    input: markReadInput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async ({ auth }, input) => ({ data: await markRead(auth, input) }),
  }),
  // --- Campaigns and creators (issue 35): what the workspace owes its creators.
  defineTool({
    name: "list_campaigns",
    title: "List campaigns",
    description:
      "The workspace's campaigns, newest first (REST GET /campaigns); `status`: active or closed. Money in integer minor units of `currency`. Free.",
    input: listCampaignsQuery,
    annotations: READ,
    run: async ({ auth }, input) => {
      const { items, total } = await listCampaigns(auth.workspaceId, input, { status: input.status });
      return { data: items.map(campaignItem), pagination: pagination(total, input.limit, input.offset) };
    },
  }),
  defineTool({
    name: "list_creators",
    title: "List creators",
    description:
      "The workspace's creators by name, each with its account ids (REST GET /creators; `q`: only those whose name holds its words). Free.",
    input: listCreatorsQuery,
    annotations: READ,
    run: async ({ auth }, input) => {
      const { items, total } = await listCreators(auth.workspaceId, input, { q: input.q });
      const accounts = await accountIdsOfCreators(
        auth.workspaceId,
        items.map((c) => c.id),
      );
      return { data: items.map((c) => creatorItem(c, accounts.get(c.id) ?? [])), pagination: pagination(total, input.limit, input.offset) };
    },
  }),
  defineTool({
    name: "get_campaign_payouts",
    title: "What do we owe for a campaign",
    description:
      "What the workspace owes for a campaign (REST GET /campaigns/{id}/payouts): the totals and one row per creator (payout, views earned, " +
      "what the per-creator cap took off); with `creator_id`, only that creator's row and its video rows with their evidence (the two history " +
      "points used: time, views, source). Money in integer minor units of `currency`, rounded half-up per video; totals are sums of rows. " +
      "A closed campaign answers its frozen figures. Find ids with list_campaigns and list_creators. Free.",
    input: z.object({
      campaign_id: uuid.meta({ description: "The campaign's id (from list_campaigns)." }),
      creator_id: uuid.optional().meta({ description: "Only this creator (from list_creators)." }),
    }),
    annotations: READ,
    run: async ({ auth }, input) => {
      const c = await requireCampaign(auth.workspaceId, input.campaign_id);
      const [totals, payees] = await Promise.all([campaignTotals(auth.workspaceId, c), campaignPayeeRows(auth.workspaceId, c)]);
      if (!input.creator_id) return { data: { campaign: campaignItem(c), totals: totalsItem(totals), creators: payees.map(payeeRowItem) } };
      const id = input.creator_id.toLowerCase();
      const rows = await campaignVideoRows(auth.workspaceId, c, { limit: 100, offset: 0 }, { creatorId: id });
      const mine = payees.filter((p) => p.creatorId === id).map(payeeRowItem);
      return {
        data: {
          campaign: campaignItem(c),
          totals: totalsItem(totals),
          creators: mine,
          videos: rows.items.map(payoutRowItem),
          videoCount: rows.total,
        },
        message: mine.length
          ? `${mine[0]!.payeeName} is owed ${mine[0]!.payout} (minor units of ${c.currency}) for ${c.name}${c.status === "closed" ? " (frozen at closing)" : " so far"}.`
          : "This creator has no qualifying video in the campaign: nothing is owed.",
      };
    },
  }),
  // Exports (issue 33, docs/exports.md).
  defineTool({
    name: "export_list",
    title: "Export a list to a CSV or XLSX file",
    description:
      "Writes every row of a list (kind: videos, accounts, folder_videos, folder_accounts, video_history, account_history, radar_results, " +
      'credit_ledger, audit_log) matching `filter` (the list\'s REST query names, e.g. {folderId, sort: "views"}) to a CSV or XLSX file, ' +
      `and waits up to ${EXPORT_WAIT_MS / 1000} seconds for it: the answer's data.downloadUrl is a signed link (valid 15 minutes, no other ` +
      "credential needed) once status is completed; otherwise poll get_export with data.id. Errors: NOT_FOUND, VALIDATION_ERROR, " +
      "EXPORT_LIMIT_REACHED (two exports already running). Free.",
    input: startExportInput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    idempotent: true,
    run: async ({ auth }, input) => {
      const e = await exportWithin(auth, await startExport(auth, input), EXPORT_WAIT_MS);
      const data = await exportAnswer(e);
      return {
        data,
        message: data.downloadUrl
          ? `Done: ${e.rowsWritten} rows. Download the file from data.downloadUrl before ${data.downloadUrlExpiresAt}.`
          : e.status === "failed"
            ? `The export failed: ${e.error}`
            : `Still ${e.status} (${e.rowsWritten} rows so far): call get_export with export_id ${e.id}.`,
      };
    },
  }),
  defineTool({
    name: "get_export",
    title: "Read an export",
    description: "An export's status and rows written; once completed, a fresh signed downloadUrl (valid 15 minutes). Free.",
    input: z.object({ export_id: uuid.meta({ description: "The export's id (data.id of export_list)." }) }),
    annotations: READ,
    run: async ({ auth }, input) => ({ data: await exportAnswer(await getExport(auth, input.export_id)) }),
  }),
];
