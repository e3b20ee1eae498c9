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
import { builder } from "../builder.js";
import type { Platform } from "../../../domain/shared/platform.js";

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
