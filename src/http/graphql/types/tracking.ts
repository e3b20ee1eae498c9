/**
 * GraphQL: tracked videos and accounts, through the same tracking services as REST.
 *
 * The object types are Prisma-backed (`builder.prismaObject`) and exported, so other areas (folders,
 * analytics, radar) reference the same `Video`, `Account` and `TrackedAccount` types and get the
 * Prisma plugin's query planning (nested relations are loaded with the parent query, not N+1).
 *
 * Counts (views, likes, followers …) are BIGINT in the database and can exceed 2^31, the range of
 * GraphQL's Int, so they are exposed as Float (exact up to 2^53). They are null before the first
 * scrape and where the source does not give that metric.
 */
import type { GraphQLResolveInfo } from "graphql";
import { queryFromInfo } from "@pothos/plugin-prisma";
import { z } from "zod";
import { builder } from "../builder.js";
import type { Video } from "../../../generated/prisma/client.js";
import type { Platform } from "../../../domain/shared/platform.js";
import { parseInput } from "../../../domain/shared/inputs.js";
import { prisma } from "../../../infra/db.js";
import { subscribeEvents } from "../../../domain/shared/events.js";
import { dateParam } from "../../rest/schemas.js";
import { ACCEPTED_ACCOUNT_LINKS, ACCEPTED_VIDEO_LINKS } from "../../../domain/tracking/urls.js";
import {
  getTrackedVideo,
  listTrackedVideos,
  MAX_BULK_IDS,
  trackVideo,
  untrackVideos,
  type BulkItemResult,
  type TrackVideoResult as TrackVideoResultData,
} from "../../../domain/tracking/videos.js";
import {
  DEFAULT_ACCOUNT_VIDEO_LIMIT,
  getTrackedAccount,
  listAccountVideos,
  listTrackedAccounts,
  MAX_ACCOUNT_VIDEO_LIMIT,
  trackAccount,
  untrackAccount,
  type AccountQuery,
  type TrackAccountResult as TrackAccountResultData,
  type TrackedAccountView,
} from "../../../domain/tracking/accounts.js";

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

const COUNT_NOTE = "Null before the first scrape and where the source does not give this metric. Float because counts can exceed 2^31.";

/** BIGINT → JS number (exact up to 2^53, far beyond any real count). */
export const countOf = (v: bigint | null): number | null => (v === null ? null : Number(v));

export const VideoRef = builder.prismaObject("Video", {
  description:
    "A video, global to the service (one record per platform video, shared by every workspace that tracks it). " +
    "engagementRate = (likes + comments + shares + bookmarks) / views × 100, 0 when views are 0 (missing counts count as 0).",
  fields: (t) => ({
    id: t.exposeID("id"),
    type: t.field({ type: PlatformEnum, description: "The video's platform.", select: { platform: true }, resolve: (v) => v.platform }),
    platformVideoId: t.exposeString("platformVideoId"),
    url: t.exposeString("url", { description: "Canonical URL rebuilt from the parsed ids." }),
    description: t.exposeString("description"),
    hashtags: t.exposeStringList("hashtags"),
    viewCount: t.float({ nullable: true, description: COUNT_NOTE, select: { viewCount: true }, resolve: (v) => countOf(v.viewCount) }),
    likeCount: t.float({ nullable: true, description: COUNT_NOTE, select: { likeCount: true }, resolve: (v) => countOf(v.likeCount) }),
    commentCount: t.float({ nullable: true, description: COUNT_NOTE, select: { commentCount: true }, resolve: (v) => countOf(v.commentCount) }),
    shareCount: t.float({ nullable: true, description: COUNT_NOTE, select: { shareCount: true }, resolve: (v) => countOf(v.shareCount) }),
    bookmarkCount: t.float({ nullable: true, description: COUNT_NOTE, select: { bookmarkCount: true }, resolve: (v) => countOf(v.bookmarkCount) }),
    engagementRate: t.exposeFloat("engagementRate", { description: "Percent units." }),
    postedAt: t.expose("postedAt", { type: "DateTime", nullable: true }),
    durationSeconds: t.exposeInt("durationSeconds", { nullable: true }),
    thumbnailUrl: t.exposeString("thumbnailUrl"),
    username: t.exposeString("username"),
    displayName: t.exposeString("displayName"),
    canonicalAccountId: t.exposeID("accountId", { nullable: true, description: "UUID of the owning account, when known." }),
    account: t.relation("account", { nullable: true }),
    musicName: t.exposeString("musicName"),
    musicAuthor: t.exposeString("musicAuthor"),
    musicCoverUrl: t.exposeString("musicCoverUrl"),
    language: t.exposeString("language", { nullable: true }),
    dataSource: t.exposeString("dataSource", { nullable: true, description: "Provider of the current numbers (ytdlp or simulated); null before the first scrape." }),
    scrapeStatus: t.expose("scrapeStatus", { type: ScrapeStatusEnum }),
    scrapeError: t.exposeString("scrapeError", { nullable: true, description: "Why the last scrape failed (when scrapeStatus is FAILED)." }),
    lastScrapedAt: t.expose("lastScrapedAt", { type: "DateTime", nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

export const AccountRef = builder.prismaObject("Account", {
  description: "A creator account, global to the service (one record per platform and username).",
  fields: (t) => ({
    id: t.exposeID("id", { description: "The canonical account ID." }),
    type: t.field({ type: PlatformEnum, select: { platform: true }, resolve: (a) => a.platform }),
    username: t.exposeString("username", { description: "Lower-cased handle without '@'." }),
    displayName: t.exposeString("displayName"),
    avatarUrl: t.exposeString("avatarUrl"),
    followerCount: t.float({ nullable: true, description: COUNT_NOTE, select: { followerCount: true }, resolve: (a) => countOf(a.followerCount) }),
    videoCount: t.float({ nullable: true, description: COUNT_NOTE, select: { videoCount: true }, resolve: (a) => countOf(a.videoCount) }),
    totalViews: t.float({ nullable: true, description: COUNT_NOTE, select: { totalViews: true }, resolve: (a) => countOf(a.totalViews) }),
    dataSource: t.exposeString("dataSource", { nullable: true }),
    scrapeStatus: t.expose("scrapeStatus", { type: ScrapeStatusEnum }),
    scrapeError: t.exposeString("scrapeError", { nullable: true }),
    lastScrapedAt: t.expose("lastScrapedAt", { type: "DateTime", nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    videos: t.relation("videos", {
      description: "The account's videos tracked by the caller's workspace, newest posted first (videos of unknown date last).",
      args: {
        limit: t.arg.int({ defaultValue: 20, description: "1 to 100." }),
        offset: t.arg.int({ defaultValue: 0 }),
      },
      query: (args, ctx) => ({
        where: { tracked: { some: { workspaceId: ctx.auth.workspaceId } } },
        orderBy: [{ postedAt: { sort: "desc", nulls: "last" } }, { id: "asc" }],
        take: Math.min(Math.max(args.limit ?? 20, 1), 100),
        skip: Math.max(args.offset ?? 0, 0),
      }),
    }),
  }),
});

export const TrackedAccountRef = builder.prismaObject("TrackedAccount", {
  description: "A workspace's tracking of an account.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "The tracking record (trackedAccountId)." }),
    videoLimit: t.exposeInt("videoLimit", { description: "Max number of the account's videos tracked (1-500)." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the workspace started tracking the account." }),
    account: t.relation("account"),
  }),
});

// ---------------------------------------------------------------------------------------------
// Queries, mutations and the subscription: the same services as REST (src/domain/tracking).
// ---------------------------------------------------------------------------------------------

const pageArgs = z.object({
  limit: z.number().int().min(1, "limit must be an integer from 1 to 100").max(100, "limit must be an integer from 1 to 100"),
  offset: z.number().int().min(0, "offset must be a non-negative integer").max(1_000_000_000, "offset is too large"),
});
const idArg = z.guid({ message: "must be a UUID" });
const idsArg = z.array(idArg).max(MAX_BULK_IDS, `ids must hold at most ${MAX_BULK_IDS} ids`);
const videoLimitArg = z.number().int().min(1, "videoLimit must be an integer from 1 to 500").max(MAX_ACCOUNT_VIDEO_LIMIT, "videoLimit must be an integer from 1 to 500");

interface PageOf<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

/** A page object type: items plus the REST pagination fields (hasMore = offset + limit < total). */
function pageType<T>(name: string, description: string, itemRef: typeof VideoRef | typeof TrackedAccountRef) {
  return builder.objectRef<PageOf<T>>(name).implement({
    description,
    fields: (t) => ({
      items: t.field({ type: [itemRef], resolve: (p) => p.items as never }),
      total: t.exposeInt("total"),
      limit: t.exposeInt("limit"),
      offset: t.exposeInt("offset"),
      hasMore: t.boolean({ description: "True if more results exist beyond this page.", resolve: (p) => p.offset + p.limit < p.total }),
    }),
  });
}

const VideoPage = pageType<Video>("VideoPage", "A page of videos.", VideoRef);
const TrackedAccountPage = pageType<unknown>("TrackedAccountPage", "A page of tracked accounts, newest tracked first.", TrackedAccountRef);

const TrackVideoResult = builder.objectRef<TrackVideoResultData>("TrackVideoResult").implement({
  fields: (t) => ({
    trackedVideoId: t.exposeID("trackedVideoId", { description: "The workspace's tracking record." }),
    videoId: t.exposeID("videoId"),
    isNew: t.exposeBoolean("isNew", { description: "True when the video was new to the service (created and queued by this call)." }),
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

const BulkItemResultRef = builder.objectRef<BulkItemResult>("UntrackVideoResult").implement({
  fields: (t) => ({
    id: t.exposeString("id"),
    success: t.exposeBoolean("success"),
    error: t.exposeString("error", { nullable: true }),
  }),
});

/** GraphQL dates are YYYY-MM-DD strings, checked like the REST query parameters. */
const dateArg = (name: string) => dateParam.optional().describe(name);

/** The Prisma query planned for the list items (nested relations load with the page). */
const itemsQuery = (ctx: object, info: GraphQLResolveInfo, typeName: string) =>
  queryFromInfo({ context: ctx, info, typeName, path: ["items"] }) as { include?: never; select?: never };

builder.queryFields((t) => ({
  videos: t.field({
    type: VideoPage,
    description: "The workspace's tracked videos, newest tracked first (ties by tracking id).",
    args: { limit: t.arg.int({ defaultValue: 20 }), offset: t.arg.int({ defaultValue: 0 }) },
    resolve: async (_r, args, ctx, info) => {
      const page = parseInput(pageArgs, args);
      const result = await listTrackedVideos(ctx.auth.workspaceId, page, itemsQuery(ctx, info, "Video"));
      return { ...result, ...page };
    },
  }),
  video: t.prismaField({
    type: "Video",
    description: "One tracked video (NOT_FOUND unless the workspace tracks it).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) => getTrackedVideo(ctx.auth.workspaceId, parseInput(idArg, String(args.id), "id"), query),
  }),
  accounts: t.field({
    type: TrackedAccountPage,
    description: "The workspace's tracked accounts, newest tracked first.",
    args: { limit: t.arg.int({ defaultValue: 20 }), offset: t.arg.int({ defaultValue: 0 }) },
    resolve: async (_r, args, ctx, info) => {
      const page = parseInput(pageArgs, args);
      const accountQuery = queryFromInfo({ context: ctx, info, typeName: "Account", path: ["items", "account"] }) as AccountQuery;
      const result = await listTrackedAccounts(ctx.auth.workspaceId, page, accountQuery);
      return { ...result, items: result.items.map(trackedAccountRow), ...page };
    },
  }),
  account: t.prismaField({
    type: "Account",
    description: "One tracked account with its videos (NOT_FOUND unless the workspace tracks it).",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _r, args, ctx) => getTrackedAccount(ctx.auth.workspaceId, parseInput(idArg, String(args.id), "id"), query),
  }),
  accountVideos: t.field({
    type: VideoPage,
    description:
      "The account's videos the workspace tracks, newest posted first. startDate and endDate (YYYY-MM-DD) are inclusive UTC days; " +
      "with either, videos whose posting date is unknown are left out.",
    args: {
      accountId: t.arg.id({ required: true }),
      limit: t.arg.int({ defaultValue: 20 }),
      offset: t.arg.int({ defaultValue: 0 }),
      startDate: t.arg.string(),
      endDate: t.arg.string(),
    },
    resolve: async (_r, args, ctx, info) => {
      const page = parseInput(pageArgs, { limit: args.limit, offset: args.offset });
      const startDate = parseInput(dateArg("startDate"), args.startDate ?? undefined, "startDate");
      const endDate = parseInput(dateArg("endDate"), args.endDate ?? undefined, "endDate");
      const accountId = parseInput(idArg, String(args.accountId), "accountId");
      const result = await listAccountVideos(ctx.auth.workspaceId, accountId, { ...page, startDate, endDate }, itemsQuery(ctx, info, "Video"));
      return { ...result, ...page };
    },
  }),
}));

/** A TrackedAccount row (what the TrackedAccount type resolves from) from the service's view. */
function trackedAccountRow(a: TrackedAccountView) {
  const { trackedAccountId, videoLimit, trackedAt, ...account } = a;
  return { id: trackedAccountId, videoLimit, createdAt: trackedAt, accountId: account.id, account };
}

builder.mutationFields((t) => ({
  trackVideo: t.field({
    type: TrackVideoResult,
    description:
      "Starts tracking a video by URL (INVALID_URL, ALREADY_TRACKED, VIDEO_LIMIT_REACHED). " + `Accepted links: ${ACCEPTED_VIDEO_LINKS}.`,
    args: { url: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => trackVideo(ctx.auth.workspaceId, args.url),
  }),
  trackAccount: t.field({
    type: TrackAccountResult,
    description:
      "Starts tracking an account by URL (INVALID_URL); its newest videos, up to min(videoLimit, additions remaining), are tracked when it is scraped. " +
      `Accepted links: ${ACCEPTED_ACCOUNT_LINKS}.`,
    args: { url: t.arg.string({ required: true }), videoLimit: t.arg.int({ defaultValue: DEFAULT_ACCOUNT_VIDEO_LIMIT, description: "1 to 500." }) },
    resolve: (_r, args, ctx) =>
      trackAccount(ctx.auth.workspaceId, args.url, parseInput(videoLimitArg, args.videoLimit ?? DEFAULT_ACCOUNT_VIDEO_LIMIT, "videoLimit")),
  }),
  untrackVideos: t.field({
    type: [BulkItemResultRef],
    description: "Untracks up to 50 videos; one result per id in the order given (unknown ids and repeated ids fail per item).",
    args: { ids: t.arg.idList({ required: true }) },
    resolve: (_r, args, ctx) => untrackVideos(ctx.auth.workspaceId, parseInput(idsArg, args.ids.map(String), "ids")),
  }),
  untrackAccount: t.id({
    description: "Untracks an account (its videos stay tracked); returns its id.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => (await untrackAccount(ctx.auth.workspaceId, parseInput(idArg, String(args.id), "id"))).id,
  }),
}));

builder.subscriptionFields((t) => ({
  videoUpdated: t.field({
    type: VideoRef,
    description: "The video each time a scrape changes it (state or metrics), from whichever process scraped it. NOT_FOUND unless the workspace tracks the video.",
    args: { videoId: t.arg.id({ required: true }) },
    subscribe: async (_r, args, ctx) => {
      const videoId = parseInput(idArg, String(args.videoId), "videoId");
      await getTrackedVideo(ctx.auth.workspaceId, videoId);
      return subscribeEvents("videoUpdated", videoId);
    },
    resolve: (event) => prisma.video.findUniqueOrThrow({ where: { id: (event as { videoId: string }).videoId } }),
  }),
}));
