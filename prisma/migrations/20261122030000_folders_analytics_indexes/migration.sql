-- Indexes for folder listings, folder aggregates, top videos and growth (issue 4).
-- Hand-written: Prisma's schema language cannot express INCLUDE columns, partial indexes or
-- DESC ... NULLS LAST, so these indexes are not declared in prisma/schema (see the comment on the
-- Folder model). `prisma migrate diff` therefore lists DROP statements for them: expected.
-- No semicolon may appear in this file except at the end of a statement (the driver adapter
-- splits the script on every semicolon).

-- Growth: every tracked account's daily snapshots read in (account, day) order with the three
-- metrics, as an index-only scan (no heap visits once the table is vacuumed).
CREATE INDEX "account_snapshots_account_day_metrics_idx"
  ON "account_snapshots" ("account_id", "day") INCLUDE ("follower_count", "total_views", "video_count");

-- Top videos: the ranking order itself (engagement rate, then views, then id) over scraped videos,
-- so a workspace that tracks many videos reads the first rows of the index and stops.
CREATE INDEX "videos_top_engagement_idx"
  ON "videos" ("engagement_rate" DESC, "view_count" DESC, "id")
  WHERE "view_count" IS NOT NULL;

-- Folder listings: a folder's accounts and directly added videos in the order they were added.
CREATE INDEX "folder_accounts_folder_added_idx" ON "folder_accounts" ("folder_id", "added_at" DESC, "tracked_account_id");
