/**
 * Videos, tracked videos, accounts and metric points as every door answers them (REST GET /videos,
 * /accounts and their histories; MCP list_videos, get_video, get_video_history) and as their exports
 * write them: the zod schemas that document them in the OpenAPI document and name the export's
 * columns, and the mappers from the domain's records. Here, not in src/http, because the domain
 * writes them too (export jobs, a report's attachment: src/domain/exports/).
 */
import { z } from "zod";
import { config } from "../../config.ts";
import { ENGAGEMENT_RATE_DESCRIPTION } from "./engagement.ts";
import { canonicalAccountUrl } from "../shared/platform.ts";
import { OUTLIER_MIN_SAMPLE, OUTLIER_SAMPLE } from "./scrape-store.ts";
import type { TrackedAccountView, TrackedVideoRecord, VideoRecord } from "./views.ts";
import { ACCOUNT_RULES, storedRules } from "./rules.ts";
import type { SkippedVideo } from "./account-controls.ts";
import { iso, isoOrNull, platform, timestamp, uuid } from "../shared/records.ts";

const NEXT_REFRESH_DESCRIPTION =
  "When the service scrapes it next (adaptive cadence, see the refresh endpoint): null when it is not scheduled (nobody tracks it, or " +
  "its refreshes failed for good: scrapeStatus failed). While a scrape is queued it is the time that scrape is retried if it is lost.";

const count = (what: string) =>
  z
    .number()
    .int()
    .nullable()
    .meta({
      description: `${what}. Null before the first scrape and where the source does not give it (shareCount and bookmarkCount on platforms B and C with yt-dlp).`,
    });

const scrapeStatus = z.enum(["queued", "scraping", "ready", "failed"]).meta({
  description:
    "queued → scraping → ready; failed after the last retry (or at once when the source says the item does not exist), with the reason in scrapeError. A ready record stays ready when a later refresh fails.",
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
    description:
      'Thumbnail URL as the source gives it; "" when unknown. Simulated videos (dataSource simulated) have none: "" (the service serves no placeholder image).',
  }),
  username: z.string().meta({ description: "Author handle, lower-cased, without '@'; \"\" when unknown." }),
  displayName: z.string(),
  canonicalAccountId: uuid.nullable().meta({
    description:
      "UUID of the owning account. Every successful scrape links the video to the account of its author (created, not tracked, when " +
      "missing: GET /accounts/{id} and its history stay 404 until the workspace tracks it, and tracking it then answers `added`), so it " +
      "is a UUID after the first successful scrape; null before, and only where the source names no author.",
  }),
  musicName: z.string().meta({ description: '"" when the platform gives none (platform B).' }),
  musicAuthor: z.string(),
  musicCoverUrl: z.string(),
  durationSeconds: z.number().int().nullable(),
  scrapeStatus,
  scrapeError: z.string().nullable().meta({ description: "Why the last scrape failed; null after a successful one." }),
  lastScrapedAt: timestamp.nullable(),
  dataSource: z
    .string()
    .nullable()
    .meta({ description: "Provider of the numbers: ytdlp (live) or simulated (synthetic demo data); null before the first scrape." }),
  nextRefreshAt: timestamp.nullable().meta({ description: NEXT_REFRESH_DESCRIPTION }),
  views24h: z
    .number()
    .int()
    .nullable()
    .meta({
      description:
        "View growth over the 24 hours before lastScrapedAt, computed from the history when the scrape is stored: viewCount minus the " +
        "view count 24 h earlier, that one read from the stored points around that instant (linearly interpolated between the latest " +
        "point at or before it and the next one). A video posted less than 24 h before the scrape counts all its views. Null before the " +
        "history reaches back 24 h (e.g. the first scrape of an older video). Can be negative when a platform corrects its counter.",
    }),
  outlierScore: z
    .number()
    .nullable()
    .meta({
      description:
        `The video's views against the median views of its account's ${OUTLIER_SAMPLE} most recently posted other videos known to the ` +
        `service (with a posting date and a view count), as of lastScrapedAt: 1 is typical, ${config.spikeOutlierThreshold} or more is a ` +
        `spike (the video.spike event). Null without at least ${OUTLIER_MIN_SAMPLE} such videos, or when their median is 0. 4 decimals.`,
    }),
};

export const videoSchema = z.object(videoFields).meta({ id: "Video", description: "A video, full detail." });

export const trackedVideoSchema = z
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

export const trackedVideoItem = (v: TrackedVideoRecord) => ({
  ...videoItem(v),
  trackedVideoId: v.trackedVideoId,
  trackedAt: iso(v.trackedAt),
});

/** The rules as answered: every field present (the document PUT /accounts/{id}/rules validated). */
export const accountRulesSchema = z
  .object({
    includeHashtags: z
      .array(z.string())
      .meta({ description: "Only videos with at least one of these hashtags (lower-cased, without #); empty: no such rule." }),
    excludeHashtags: z.array(z.string()).meta({ description: "Never videos with any of these hashtags." }),
    includeWords: z
      .array(z.string())
      .meta({ description: "Only videos whose description has at least one of these words or phrases (whole words, case-insensitive)." }),
    excludeWords: z.array(z.string()).meta({ description: "Never videos whose description has any of these words or phrases." }),
    minDurationSeconds: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Only videos lasting at least this many seconds; null: no such rule." }),
    postedAfter: z
      .string()
      .nullable()
      .meta({ format: "date", description: "YYYY-MM-DD: only videos posted on or after 00:00 UTC of that day; null: no such rule." }),
  })
  .meta({
    id: "AccountRules",
    description:
      "The workspace's rules on the videos a tracked account brings. They apply where the account's listing becomes tracked videos: a " +
      "video they refuse is not tracked, takes no slot of the plan, and is listed with the reason (GET /accounts/{id}/skipped-videos). " +
      "Exclusions are checked first, then inclusions, duration and posting day; what the listing does not give (duration, posting time) " +
      "does not refuse a video. The rules choose among the newest video_limit videos of each listing; videos already tracked stay tracked.",
  });

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
    rules: accountRulesSchema,
    pausedAt: timestamp.nullable().meta({
      description:
        "Set while the workspace has paused the account's tracking (POST /accounts/{id}/pause): no scheduled scrape on its behalf, no new " +
        "video tracked through it; null while it is tracked. Its videos already tracked keep refreshing.",
    }),
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
    rules: storedRules(a.rules),
    pausedAt: isoOrNull(a.pausedAt),
  };
}

export const skippedVideoSchema = z
  .object({
    videoId: uuid.meta({ description: "The video's UUID (not tracked by the workspace)." }),
    url: z.string().meta({ description: "Canonical HTTPS link of the video." }),
    description: z.string(),
    rule: z.enum(ACCOUNT_RULES).meta({ description: "The rule that refused it (a field of AccountRules)." }),
    reason: z.string().meta({ description: "Why, in words (e.g. `Has #ad, which this account's rules exclude.`)." }),
    skippedAt: timestamp.meta({ description: "When a scrape of the account first skipped it." }),
  })
  .meta({ id: "SkippedVideo", description: "A video an account's listing brought that the workspace's rules kept out (it took no slot)." });

export const skippedVideoItem = (v: SkippedVideo) => ({
  videoId: v.videoId,
  url: v.url,
  description: v.description,
  rule: v.rule,
  reason: v.reason,
  skippedAt: iso(v.skippedAt),
});

const pointSource = z.string().meta({ description: "The provider that measured the point: ytdlp or simulated." });

export const videoPointSchema = z
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

export const accountPointSchema = z
  .object({
    capturedAt: timestamp.meta({ description: "When the point was measured (its real time, also for daily points)." }),
    followerCount: count("Followers"),
    totalViews: count("Views over the account's videos the source lists"),
    videoCount: count("Videos the account has posted"),
    source: pointSource,
  })
  .meta({ id: "AccountMetricPoint" });

export const historyEnvelope = <S extends z.ZodType>(point: S) =>
  z.object({ data: z.object({ interval: z.enum(["hour", "day"]), points: z.array(point) }) });
