/**
 * Engagement rate, the one definition used everywhere (stored in `videos.engagement_rate` on every
 * scrape, so listings sort and aggregate on it in SQL):
 *
 *   (likes + comments + shares + bookmarks) / views × 100, in percent units;
 *   0 when views are 0 or unknown; a count the source does not give counts as 0.
 *
 * Rounded to 4 decimals so the stored value is stable across runs. It can exceed 100 (a video can
 * have more interactions than views on some platforms' counters).
 */
export interface EngagementCounts {
  viewCount: number | bigint | null;
  likeCount: number | bigint | null;
  commentCount: number | bigint | null;
  shareCount: number | bigint | null;
  bookmarkCount: number | bigint | null;
}

export const ENGAGEMENT_RATE_DESCRIPTION =
  "Engagement rate in percent: (likeCount + commentCount + shareCount + bookmarkCount) / viewCount × 100, " +
  "0 when viewCount is 0 or unknown; a count the source does not give counts as 0. Recomputed on every scrape.";

const n = (v: number | bigint | null): number => (v === null ? 0 : Number(v));

export function engagementRate(c: EngagementCounts): number {
  const views = n(c.viewCount);
  if (views <= 0) return 0;
  const interactions = n(c.likeCount) + n(c.commentCount) + n(c.shareCount) + n(c.bookmarkCount);
  return Math.round((interactions / views) * 100 * 10_000) / 10_000;
}
