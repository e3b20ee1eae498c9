/**
 * How videos and accounts are read: the record types every door shows (REST items, GraphQL
 * objects, MCP results), the SQL column lists that produce them (camelCase aliases: a row is
 * already the record, see src/infra/db.ts) and the orders of their lists.
 *
 * Videos and accounts are global (one record per platform item, scraped once for every workspace);
 * what a workspace adds is its tracking record (`trackedVideoId`/`trackedAt`, `trackedAccountId`/
 * `videoLimit`/`trackedAt`).
 */
import { Prisma } from "../../generated/prisma/client.ts";
import type { Platform } from "../shared/platform.ts";
import type { Order, SortKey, SortOrder } from "../shared/pages.ts";
import { DAY_MS, type PostedDays } from "../shared/inputs.ts";
import { wordsIn } from "../shared/search.ts";
import { accountTagsSql, videoTagsSql } from "../tags/filter.ts";

export type ScrapeStatus = "queued" | "scraping" | "ready" | "failed";

export interface VideoRecord {
  id: string;
  platform: Platform;
  platformVideoId: string;
  url: string;
  description: string;
  hashtags: string[];
  /** Counts: null before the first scrape and where the source does not give the metric. */
  viewCount: number | null;
  likeCount: number | null;
  commentCount: number | null;
  shareCount: number | null;
  bookmarkCount: number | null;
  engagementRate: number;
  postedAt: Date | null;
  durationSeconds: number | null;
  thumbnailUrl: string;
  username: string;
  displayName: string;
  /** The owning account (canonical account id), once known. */
  accountId: string | null;
  musicName: string;
  musicAuthor: string;
  musicCoverUrl: string;
  language: string | null;
  dataSource: string | null;
  scrapeStatus: ScrapeStatus;
  scrapeError: string | null;
  lastScrapedAt: Date | null;
  createdAt: Date;
  /** When the adaptive scheduler refreshes it next (null: not scheduled). */
  nextRefreshAt: Date | null;
  /** View growth over the 24 h before its last scrape (./scrape-store.ts, storeScrapedVideo). */
  views24h: number | null;
  /** Views against the median of its account's recent videos, as of its last scrape. */
  outlierScore: number | null;
}

/** A video as a workspace that tracks it sees it. */
export interface TrackedVideoRecord extends VideoRecord {
  trackedVideoId: string;
  trackedAt: Date;
}

/** Every column of a VideoRecord, from `videos v`. */
const VIDEO_COLUMNS = Prisma.raw(`v.id, v.platform::text AS platform, v.platform_video_id AS "platformVideoId", v.url,
  v.description, v.hashtags, v.view_count AS "viewCount", v.like_count AS "likeCount", v.comment_count AS "commentCount",
  v.share_count AS "shareCount", v.bookmark_count AS "bookmarkCount", v.engagement_rate AS "engagementRate",
  v.posted_at AS "postedAt", v.duration_seconds AS "durationSeconds", v.thumbnail_url AS "thumbnailUrl", v.username,
  v.display_name AS "displayName", v.account_id AS "accountId", v.music_name AS "musicName", v.music_author AS "musicAuthor",
  v.music_cover_url AS "musicCoverUrl", v.language, v.data_source AS "dataSource", v.scrape_status::text AS "scrapeStatus",
  v.scrape_error AS "scrapeError", v.last_scraped_at AS "lastScrapedAt", v.created_at AS "createdAt",
  v.next_refresh_at AS "nextRefreshAt", v.views_24h AS "views24h", v.outlier_score AS "outlierScore"`);

/** …and the tracking record, from `tracked_videos tv`. */
export const TRACKED_VIDEO_COLUMNS = Prisma.raw(`${VIDEO_COLUMNS.text}, tv.id AS "trackedVideoId", tv.created_at AS "trackedAt"`);

/** The workspace's tracked videos: newest tracked first, ties by tracking id (index tracked_videos (workspace_id, created_at DESC, id)). */
export const TRACKED_VIDEOS_ORDER: Order<TrackedVideoRecord> = [
  { sql: "tv.created_at", type: "timestamptz", desc: true, value: (v) => v.trackedAt },
  { sql: "tv.id", type: "uuid", value: (v) => v.trackedVideoId },
];

/** History resolutions (./history.ts): every point at scrape resolution, or the last point of each UTC day. */
export const HISTORY_INTERVALS = ["hour", "day"] as const;
export type HistoryInterval = (typeof HISTORY_INTERVALS)[number];

/** The sorts of GET /videos (`sort`), and their directions (`order`). */
export const VIDEO_SORTS = ["tracked_at", "posted_at", "views", "engagement", "views_24h", "outlier"] as const;
export type VideoSort = (typeof VIDEO_SORTS)[number];

/** Optional filters and order of the workspace's tracked videos (GET /videos, GraphQL `videos`). */
export interface VideoListOptions {
  platform?: Platform;
  /** Words that must each appear (case-insensitive, anywhere) in the description or the username. */
  q?: string;
  /** Tag ids: videos carrying any of them (src/domain/tags/filter.ts). */
  tag?: string | string[];
  sort?: VideoSort;
  order?: SortOrder;
}

const VIDEO_SORT_KEYS: Record<Exclude<VideoSort, "tracked_at">, SortKey<TrackedVideoRecord>> = {
  posted_at: { sql: "v.posted_at", type: "timestamptz", nullsLast: true, value: (v) => v.postedAt },
  views: { sql: "v.view_count", type: "int8", nullsLast: true, value: (v) => v.viewCount },
  engagement: { sql: "v.engagement_rate", type: "float8", value: (v) => v.engagementRate },
  views_24h: { sql: "v.views_24h", type: "int8", nullsLast: true, value: (v) => v.views24h },
  outlier: { sql: "v.outlier_score", type: "float8", nullsLast: true, value: (v) => v.outlierScore },
};

/**
 * The order of a tracked-video list: `tracked_at desc` is TRACKED_VIDEOS_ORDER (the spec's default,
 * unchanged); `tracked_at asc` is its reverse; every other sort is its key (nulls last in both
 * directions, pages.ts), ties by video id ascending. The descending orders match the indexes of
 * migration 20261124120000 (COALESCE(key, lowest) DESC, id).
 */
export function trackedVideosOrder(sort: VideoSort = "tracked_at", order: SortOrder = "desc"): Order<TrackedVideoRecord> {
  if (sort === "tracked_at") {
    return order === "desc"
      ? TRACKED_VIDEOS_ORDER
      : [
          { sql: "tv.created_at", type: "timestamptz", value: (v) => v.trackedAt },
          { sql: "tv.id", type: "uuid", value: (v) => v.trackedVideoId },
        ];
  }
  return [
    { ...VIDEO_SORT_KEYS[sort], desc: order === "desc" },
    { sql: "v.id", type: "uuid", value: (v) => v.id },
  ];
}

/**
 * `AND …` predicates of the filters over `videos v` and its tracking `tv` (Prisma.empty without any):
 * the platform, each word of `q` in lower(description || ' ' || username), the trigram-indexed
 * expression of migration 20261124120000, and the tags.
 */
export function videoFilterSql(f: VideoListOptions): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (f.platform) parts.push(Prisma.sql`v.platform = ${f.platform}::"Platform"`);
  parts.push(...wordsIn(Prisma.sql`lower(v.description || ' ' || v.username)`, f.q));
  const tags = videoTagsSql(f.tag);
  if (tags) parts.push(tags);
  return parts.length ? Prisma.sql`AND ${Prisma.join(parts, " AND ")}` : Prisma.empty;
}

/**
 * `AND …` predicates over `videos v` of a window of posting days: posted on or after 00:00 UTC of
 * start_date and before the end (24:00 UTC) of end_date; with either bound, videos whose posting
 * date is unknown are left out.
 */
export function postedDaysSql(f: PostedDays): Prisma.Sql {
  const bounds = [
    f.start_date ? Prisma.sql`AND v.posted_at >= ${f.start_date}` : Prisma.empty,
    f.end_date ? Prisma.sql`AND v.posted_at < ${new Date(f.end_date.getTime() + DAY_MS)}` : Prisma.empty,
  ];
  return Prisma.join(bounds, " ");
}

/** An account's videos: newest posted first, videos of unknown date (not scraped yet) last, ties by id. */
export const ACCOUNT_VIDEOS_ORDER: Order<TrackedVideoRecord> = [
  { sql: "v.posted_at", type: "timestamptz", desc: true, nullsLast: true, value: (v) => v.postedAt },
  { sql: "v.id", type: "uuid", value: (v) => v.id },
];

export interface AccountRecord {
  id: string;
  platform: Platform;
  /** Lower-cased handle without "@". */
  username: string;
  displayName: string;
  avatarUrl: string;
  followerCount: number | null;
  videoCount: number | null;
  totalViews: number | null;
  dataSource: string | null;
  scrapeStatus: ScrapeStatus;
  scrapeError: string | null;
  lastScrapedAt: Date | null;
  createdAt: Date;
  /** When the adaptive scheduler refreshes it next (null: not scheduled, e.g. an owner account nobody tracks). */
  nextRefreshAt: Date | null;
}

/** The workspace's tracking of an account: set when it tracks the account, else all null. */
export interface AccountTracking {
  trackedAccountId: string;
  /** The most of the account's newest videos tracked (1-500). */
  videoLimit: number;
  trackedAt: Date;
  /**
   * The workspace's rules on the videos the account brings, as stored (the document `accountRules`
   * validated, ./inputs.ts): read them through `storedRules` (./rules.ts), which gives every field.
   */
  rules: unknown;
  /** Set while the workspace has paused the account's tracking (./account-controls.ts). */
  pausedAt: Date | null;
}

/** An account as a workspace sees it (an owner account of a tracked video need not be tracked itself). */
export type AccountView = AccountRecord & ({ [K in keyof AccountTracking]: AccountTracking[K] } | { [K in keyof AccountTracking]: null });

/** An account the workspace tracks. */
export type TrackedAccountView = AccountRecord & AccountTracking;

/** An AccountView's fields and the column each is read from (`accounts a`, `tracked_accounts ta`): one list for every read of them. */
const ACCOUNT_FIELDS = [
  ["id", "a.id"],
  ["platform", "a.platform::text"],
  ["username", "a.username"],
  ["displayName", "a.display_name"],
  ["avatarUrl", "a.avatar_url"],
  ["followerCount", "a.follower_count"],
  ["videoCount", "a.video_count"],
  ["totalViews", "a.total_views"],
  ["dataSource", "a.data_source"],
  ["scrapeStatus", "a.scrape_status::text"],
  ["scrapeError", "a.scrape_error"],
  ["lastScrapedAt", "a.last_scraped_at"],
  ["createdAt", "a.created_at"],
  ["nextRefreshAt", "a.next_refresh_at"],
] as const satisfies readonly (readonly [keyof AccountRecord, string])[];
const TRACKING_FIELDS = [
  ["trackedAccountId", "ta.id"],
  ["videoLimit", "ta.video_limit"],
  ["trackedAt", "ta.created_at"],
  ["rules", "ta.rules"],
  ["pausedAt", "ta.paused_at"],
] as const satisfies readonly (readonly [keyof AccountTracking, string])[];

const columns = (fields: readonly (readonly [string, string])[], prefix = "") =>
  Prisma.raw(fields.map(([field, column]) => `${column} AS "${prefix}${field}"`).join(", "));

/** Every column of an AccountRecord, from `accounts a`. */
export const ACCOUNT_COLUMNS = columns(ACCOUNT_FIELDS);

/** The tracking record's columns, from `tracked_accounts ta` (null when LEFT JOINed and absent). */
export const TRACKING_COLUMNS = columns(TRACKING_FIELDS);

/**
 * A video's owner account as the workspace sees it, read in the same statement as the video (a
 * page's `account` relation): the AccountView's columns under `account.`, from `accounts a` and
 * `tracked_accounts ta`, or only some of the account's own columns (`ownerRead`). `readOwner` turns
 * them back into the AccountView, or into a `PartialOwner`. The visibility rule of `accountsByIds`
 * (./accounts.ts) holds by construction: the owner of a video the workspace tracks is visible to it.
 */
const OWNER_PREFIX = "account.";
const OWNER_FIELDS = [...ACCOUNT_FIELDS, ...TRACKING_FIELDS];
const ownerKey = (field: string) => `${OWNER_PREFIX}${field}`;
const OWNER_ID = ownerKey("id");

/** Which of the owner's fields a read asks for: some of the account's own (its id always comes with them), or all (`"all"`). */
export type OwnerFields = readonly (keyof AccountRecord)[] | "all";

/** An owner read in part: the fields asked for, and a brand that no AccountView carries (never cached as one). */
export const PARTIAL_OWNER = Symbol("partial owner");
export type PartialOwner = Partial<AccountRecord> & Pick<AccountRecord, "id"> & { readonly [PARTIAL_OWNER]: true };

/** The columns of an owner read, the row keys they fill, and the object made of them. */
export interface OwnerRead {
  /** `o.<columns>` from `accounts a` (and `tracked_accounts ta` when `tracking`). */
  columns: Prisma.Sql;
  tracking: boolean;
  keys: readonly string[];
  build: (row: object) => AccountView | PartialOwner;
}

/**
 * The object of a row's owner columns, as one object literal compiled from our own constant field names:
 * one hidden class and constant-key reads. Copied key by key in a loop it was 4 % of the nested list's CPU
 * (`npm run bench:profile -- gqlNested`).
 */
function compileOwner(fields: readonly (readonly [string, string])[], partial: boolean): OwnerRead["build"] {
  const body = fields.map(([field]) => `${JSON.stringify(field)}: r[${JSON.stringify(ownerKey(field))}]`).join(", ");
  return new Function("brand", `return (r) => ({ ${body}${partial ? ", [brand]: true" : ""} });`)(PARTIAL_OWNER) as OwnerRead["build"];
}

const readOf = (fields: readonly (readonly [string, string])[], partial: boolean): OwnerRead => ({
  columns: columns(fields, OWNER_PREFIX),
  tracking: !partial,
  keys: fields.map(([field]) => ownerKey(field)),
  build: compileOwner(fields, partial),
});

const FULL_OWNER = readOf(OWNER_FIELDS, false);
const ownerReads = new Map<string, OwnerRead>();
/** The read of each list of fields already asked (a GraphQL selection's list is made once per document). */
const readOfList = new WeakMap<readonly string[], OwnerRead>();

/** The read of these owner fields (made once per set of fields). */
export function ownerRead(fields: OwnerFields): OwnerRead {
  if (fields === "all") return FULL_OWNER;
  let read = readOfList.get(fields);
  if (!read) readOfList.set(fields, (read = ownerReadOf(fields)));
  return read;
}

function ownerReadOf(fields: readonly (keyof AccountRecord)[]): OwnerRead {
  const asked = ACCOUNT_FIELDS.filter(([field]) => field === "id" || fields.includes(field));
  const key = asked.map(([field]) => field).join(",");
  let read = ownerReads.get(key);
  if (!read) {
    read = readOf(asked, true);
    if (ownerReads.size < 1000) ownerReads.set(key, read);
  }
  return read;
}

const hasAll = (row: object, keys: readonly string[]) => keys.every((key) => key in row);

/**
 * The owner a row was read with: the whole AccountView when the row has every owner column, else the
 * fields asked for (a PartialOwner) when the row has theirs; null when the video has no owner; undefined
 * when the row was read without them (the caller loads the account by id). A row (a page's, or one primed
 * into a loader from it) only ever answers what its statement read. Made on each call (one small object;
 * kept on the row, the row's property store was copied to make room for it, which cost more).
 */
export function readOwner(row: object, fields: OwnerFields): AccountView | PartialOwner | null | undefined {
  if (!(OWNER_ID in row)) return undefined;
  const read = hasAll(row, FULL_OWNER.keys) ? FULL_OWNER : fields === "all" ? null : ownerRead(fields);
  if (!read || !hasAll(row, read.keys)) return undefined;
  const r = row as Record<string, unknown>;
  return r[OWNER_ID] === null ? null : read.build(row);
}

/** The workspace's tracked accounts: newest tracked first, ties by tracking id. */
export const TRACKED_ACCOUNTS_ORDER: Order<TrackedAccountView> = [
  { sql: "ta.created_at", type: "timestamptz", desc: true, value: (a) => a.trackedAt },
  { sql: "ta.id", type: "uuid", value: (a) => a.trackedAccountId },
];

/** The sorts of the tracked-account list (GraphQL `accounts`; REST GET /accounts keeps TRACKED_ACCOUNTS_ORDER). */
export const ACCOUNT_SORTS = ["tracked_at", "followers", "total_views", "video_count", "username"] as const;
export type AccountSort = (typeof ACCOUNT_SORTS)[number];

/** Optional filters and order of the workspace's tracked accounts. */
export interface AccountListOptions {
  platform?: Platform;
  /** Words that must each appear (case-insensitive, anywhere) in the username or the display name. */
  q?: string;
  /** Tag ids: accounts carrying any of them (src/domain/tags/filter.ts). */
  tag?: string | string[];
  sort?: AccountSort;
  order?: SortOrder;
}

const ACCOUNT_SORT_KEYS: Record<Exclude<AccountSort, "tracked_at">, SortKey<TrackedAccountView>> = {
  followers: { sql: "a.follower_count", type: "int8", nullsLast: true, value: (a) => a.followerCount },
  total_views: { sql: "a.total_views", type: "int8", nullsLast: true, value: (a) => a.totalViews },
  video_count: { sql: "a.video_count", type: "int8", nullsLast: true, value: (a) => a.videoCount },
  username: { sql: "a.username", type: "text", value: (a) => a.username },
};

/**
 * The order of a tracked-account list: `tracked_at desc` is TRACKED_ACCOUNTS_ORDER, `tracked_at asc`
 * its reverse; every other sort is its key (nulls last in both directions), ties by tracking id. A
 * workspace tracks few accounts (its plan bounds them), so these sorts need no index of their own.
 */
export function trackedAccountsOrder(sort: AccountSort = "tracked_at", order: SortOrder = "desc"): Order<TrackedAccountView> {
  if (sort === "tracked_at") {
    return order === "desc"
      ? TRACKED_ACCOUNTS_ORDER
      : [
          { sql: "ta.created_at", type: "timestamptz", value: (a) => a.trackedAt },
          { sql: "ta.id", type: "uuid", value: (a) => a.trackedAccountId },
        ];
  }
  return [
    { ...ACCOUNT_SORT_KEYS[sort], desc: order === "desc" },
    { sql: "ta.id", type: "uuid", value: (a) => a.trackedAccountId },
  ];
}

/** `AND …` predicates over `accounts a` and its tracking `ta` (Prisma.empty without any): the platform, each word of `q` in the username or display name, and the tags. */
export function accountFilterSql(f: AccountListOptions): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (f.platform) parts.push(Prisma.sql`a.platform = ${f.platform}::"Platform"`);
  parts.push(...wordsIn(Prisma.sql`lower(a.username || ' ' || a.display_name)`, f.q));
  const tags = accountTagsSql(f.tag);
  if (tags) parts.push(tags);
  return parts.length ? Prisma.sql`AND ${Prisma.join(parts, " AND ")}` : Prisma.empty;
}
