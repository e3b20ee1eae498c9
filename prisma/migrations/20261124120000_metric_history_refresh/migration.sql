-- Tracking as a time series (issue 12): metric history at scrape resolution, adaptive refresh,
-- owner accounts, views24h and outlier scores. docs/contract/decisions.md, "Metric history and
-- refresh (second wave)". Hand-written (see the README's "Known gaps"): expression, partial, BRIN
-- and trigram indexes are not in prisma/schema, so `prisma migrate diff` lists DROPs for them.
--
-- No semicolon may appear in this file except at the end of a statement (the driver adapter
-- splits the script on every semicolon): inside the PL/pgSQL bodies below, \073 in the E'' string
-- is the statement separator, and '' is a quote.

-- q= on GET /videos: substring search of descriptions and usernames through a trigram index.
-- pg_trgm is a trusted extension (PostgreSQL 13+): a database owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- ---------------------------------------------------------------------------------------------
-- Plans may refresh faster: the cadence of an item is multiplied by the smallest factor among the
-- plans of the workspaces tracking it (src/domain/tracking/cadence.ts).
ALTER TABLE "plans" ADD COLUMN "refresh_factor" DOUBLE PRECISION NOT NULL DEFAULT 1;
ALTER TABLE "plans" ADD CONSTRAINT "plan_refresh_factor_range" CHECK ("refresh_factor" > 0 AND "refresh_factor" <= 1);
UPDATE "plans" SET "refresh_factor" = 0.5 WHERE "name" = 'pro';
UPDATE "plans" SET "refresh_factor" = 0.25 WHERE "name" = 'enterprise';

-- ---------------------------------------------------------------------------------------------
-- Adaptive refresh state (videos and accounts are global: one schedule for every workspace).
--   next_refresh_at       when the scheduler takes the item next (null: not scheduled, i.e. nobody
--                         tracks it, or its refreshes failed for good)
--   refresh_failures      consecutive refreshes that failed (after their job's last attempt)
--   refresh_requested_at  the last POST .../refresh (REFRESH_TOO_SOON spacing)
ALTER TABLE "videos"
  ADD COLUMN "next_refresh_at" TIMESTAMPTZ(3),
  ADD COLUMN "refresh_failures" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "refresh_requested_at" TIMESTAMPTZ(3),
  ADD COLUMN "views_24h" BIGINT,
  ADD COLUMN "outlier_score" DOUBLE PRECISION;

ALTER TABLE "accounts"
  ADD COLUMN "next_refresh_at" TIMESTAMPTZ(3),
  ADD COLUMN "refresh_failures" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "refresh_requested_at" TIMESTAMPTZ(3);

-- The scheduler reads what is due through these (ORDER BY next_refresh_at LIMIT n FOR UPDATE
-- SKIP LOCKED): never a scan of every item.
CREATE INDEX "videos_next_refresh_idx" ON "videos" ("next_refresh_at") WHERE "next_refresh_at" IS NOT NULL;
CREATE INDEX "accounts_next_refresh_idx" ON "accounts" ("next_refresh_at") WHERE "next_refresh_at" IS NOT NULL;

-- ---------------------------------------------------------------------------------------------
-- History at scrape resolution: one row per scrape, keyed by item and capture time (a statement
-- run twice appends nothing twice). The per-day tables (video_snapshots, account_snapshots) stay
-- the daily roll-up (the last point of each UTC day, written by the same statement), so growth and
-- its triggers keep reading account_snapshots. Points older than HISTORY_FULL_RESOLUTION_DAYS are
-- deleted by the prune-history job. No surrogate id: the key is the row's identity and its index
-- serves every read (one item, a time range). The key INCLUDEs the metrics: points arrive in time
-- order, so one item's points lie on as many heap pages as it has points, while in the index they
-- are side by side, and a history read is an index-only scan of a few pages (the price: the index
-- holds the metrics a second time).
CREATE TABLE "video_metric_points" (
  "video_id" UUID NOT NULL,
  "captured_at" TIMESTAMPTZ(3) NOT NULL,
  "source" TEXT NOT NULL,
  "view_count" BIGINT,
  "like_count" BIGINT,
  "comment_count" BIGINT,
  "share_count" BIGINT,
  "bookmark_count" BIGINT,
  CONSTRAINT "video_metric_points_pkey" PRIMARY KEY ("video_id", "captured_at")
    INCLUDE ("source", "view_count", "like_count", "comment_count", "share_count", "bookmark_count"),
  CONSTRAINT "video_metric_points_video_id_fkey" FOREIGN KEY ("video_id") REFERENCES "videos"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "account_metric_points" (
  "account_id" UUID NOT NULL,
  "captured_at" TIMESTAMPTZ(3) NOT NULL,
  "source" TEXT NOT NULL,
  "follower_count" BIGINT,
  "total_views" BIGINT,
  "video_count" BIGINT,
  CONSTRAINT "account_metric_points_pkey" PRIMARY KEY ("account_id", "captured_at")
    INCLUDE ("source", "follower_count", "total_views", "video_count"),
  CONSTRAINT "account_metric_points_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- A year of daily points is one range of this index, which now holds the metrics too (INCLUDE): the
-- read touches a few index pages instead of a heap page per day (rows arrive day after day, spread
-- over the table). It replaces the init migration's plain unique index under the same name (ON
-- CONFLICT (video_id, day) infers it as before), built before the old one goes so that writers
-- always find one.
CREATE UNIQUE INDEX "video_snapshots_video_day_covering" ON "video_snapshots" ("video_id", "day")
  INCLUDE ("captured_at", "source", "view_count", "like_count", "comment_count", "share_count", "bookmark_count");
DROP INDEX "video_snapshots_video_id_day_key";
ALTER INDEX "video_snapshots_video_day_covering" RENAME TO "video_snapshots_video_id_day_key";

-- Pruning finds old points by time: rows arrive in time order, so a BRIN index (a few pages for
-- millions of rows) locates them without a btree on every row.
CREATE INDEX "video_metric_points_captured_brin" ON "video_metric_points" USING BRIN ("captured_at");
CREATE INDEX "account_metric_points_captured_brin" ON "account_metric_points" USING BRIN ("captured_at");

-- ---------------------------------------------------------------------------------------------
-- GET /videos sorts (src/domain/tracking/views.ts, trackedVideosOrder). A sort key that may be null
-- is ordered as COALESCE(key, lowest) DESC (nulls last, the keyset rule of
-- src/domain/shared/pages.ts), so these indexes hold exactly that expression, then the id
-- tie-break: the default descending order of each sort reads them in order. They serve a
-- workspace that tracks many videos: PostgreSQL walks the index and keeps the rows the workspace
-- tracks (tracked_videos (workspace_id, video_id) unique index) until the page is full. A
-- workspace with few videos is answered from its tracked rows (tracked_videos (workspace_id, ...))
-- and a top-N sort of them. Ascending orders always take that second path.
CREATE INDEX "videos_sort_views_idx" ON "videos" ((COALESCE("view_count", (-9223372036854775808)::int8)) DESC, "id");
CREATE INDEX "videos_sort_posted_idx" ON "videos" ((COALESCE("posted_at", '-infinity'::timestamptz)) DESC, "id");
CREATE INDEX "videos_sort_engagement_idx" ON "videos" ("engagement_rate" DESC, "id");
CREATE INDEX "videos_sort_views_24h_idx" ON "videos" ((COALESCE("views_24h", (-9223372036854775808)::int8)) DESC, "id");
CREATE INDEX "videos_sort_outlier_idx" ON "videos" ((COALESCE("outlier_score", '-Infinity'::float8)) DESC, "id");

-- q= on GET /videos: every word must appear in lower(description || ' ' || username).
CREATE INDEX "videos_search_text_trgm_idx" ON "videos" USING GIN ((lower("description" || ' ' || "username")) gin_trgm_ops);

-- ---------------------------------------------------------------------------------------------
-- Only tracked items are refreshed. Kept by statement-level triggers whoever tracks or untracks
-- (the service, cascades from workspaces, SQL run by an operator):
--   the last tracking of an item removed: the item leaves the schedule (next_refresh_at null)
--   an item tracked while unscheduled: a scraped one is due at once unless scraped in the last hour
--     (a workspace tracking a dormant video gets fresh numbers), a never-scraped one 10 minutes
--     later (a safety net only: tracking it enqueues its first scrape, which sets the real schedule)
CREATE FUNCTION "tracked_videos_schedule_added"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  UPDATE videos v SET next_refresh_at = CASE WHEN v.last_scraped_at IS NULL THEN now() + interval ''10 minutes''
                                             ELSE greatest(now(), v.last_scraped_at + interval ''1 hour'') END
   WHERE v.id IN (SELECT DISTINCT video_id FROM added_rows) AND v.next_refresh_at IS NULL\073
  RETURN NULL\073
END';

CREATE FUNCTION "tracked_videos_schedule_removed"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  UPDATE videos v SET next_refresh_at = NULL
   WHERE v.id IN (SELECT DISTINCT video_id FROM removed_rows) AND v.next_refresh_at IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM tracked_videos tv WHERE tv.video_id = v.id)\073
  RETURN NULL\073
END';

CREATE FUNCTION "tracked_accounts_schedule_added"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  UPDATE accounts a SET next_refresh_at = CASE WHEN a.last_scraped_at IS NULL THEN now() + interval ''10 minutes''
                                               ELSE greatest(now(), a.last_scraped_at + interval ''1 hour'') END
   WHERE a.id IN (SELECT DISTINCT account_id FROM added_rows) AND a.next_refresh_at IS NULL\073
  RETURN NULL\073
END';

CREATE FUNCTION "tracked_accounts_schedule_removed"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  UPDATE accounts a SET next_refresh_at = NULL
   WHERE a.id IN (SELECT DISTINCT account_id FROM removed_rows) AND a.next_refresh_at IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM tracked_accounts ta WHERE ta.account_id = a.id)\073
  RETURN NULL\073
END';

CREATE TRIGGER "tracked_videos_schedule_added" AFTER INSERT ON "tracked_videos"
  REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION "tracked_videos_schedule_added"();

CREATE TRIGGER "tracked_videos_schedule_removed" AFTER DELETE ON "tracked_videos"
  REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION "tracked_videos_schedule_removed"();

CREATE TRIGGER "tracked_accounts_schedule_added" AFTER INSERT ON "tracked_accounts"
  REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION "tracked_accounts_schedule_added"();

CREATE TRIGGER "tracked_accounts_schedule_removed" AFTER DELETE ON "tracked_accounts"
  REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION "tracked_accounts_schedule_removed"();

-- ---------------------------------------------------------------------------------------------
-- Backfill.

-- Owner accounts: every video whose author handle is known links to its account, created (not
-- tracked) when missing. Handles of the wrong form for their platform are left alone (the same
-- rules as src/domain/shared/platform.ts, isPlatformUsername), as is platform A's placeholder "_".
INSERT INTO "accounts" ("platform", "username")
SELECT DISTINCT v."platform", v."username"
  FROM "videos" v
 WHERE v."account_id" IS NULL AND v."username" <> ''
   AND CASE v."platform"
         WHEN 'platformA' THEN v."username" ~ '^[a-z0-9_.]{1,24}$' AND v."username" <> '_'
         WHEN 'platformB' THEN v."username" ~ '^[a-z0-9._-]{3,30}$'
         ELSE v."username" ~ '^[a-z0-9._]{1,30}$' AND v."username" !~ '^\.|\.$|\.\.'
              AND v."username" NOT IN ('about', 'accounts', 'api', 'ar', 'blog', 'challenge', 'create', 'developer', 'developers',
                'direct', 'directory', 'emails', 'explore', 'graphql', 'help', 'jobs', 'legal', 'lite', 'live', 'locations', 'login',
                'nametag', 'oauth', 'p', 'press', 'privacy', 'reel', 'reels', 'session', 'signup', 'static', 'stories', 'terms', 'tv',
                'web', 'your_activity')
       END
ON CONFLICT ("platform", "username") DO NOTHING;

UPDATE "videos" v SET "account_id" = a."id"
  FROM "accounts" a
 WHERE v."account_id" IS NULL AND a."platform" = v."platform" AND a."username" = v."username" AND v."username" <> '';

-- Full-resolution points for the window that already has daily rows (the last point of each day),
-- so the hourly view has no gap: rows whose capture falls on their own day (the old daily fill
-- copied earlier numbers into days without a scrape: those are not points).
INSERT INTO "video_metric_points" ("video_id", "captured_at", "source", "view_count", "like_count", "comment_count", "share_count", "bookmark_count")
SELECT "video_id", "captured_at", "source", "view_count", "like_count", "comment_count", "share_count", "bookmark_count"
  FROM "video_snapshots"
 WHERE "day" >= current_date - 30 AND ("captured_at" AT TIME ZONE 'UTC')::date = "day"
ON CONFLICT DO NOTHING;

INSERT INTO "account_metric_points" ("account_id", "captured_at", "source", "follower_count", "total_views", "video_count")
SELECT "account_id", "captured_at", "source", "follower_count", "total_views", "video_count"
  FROM "account_snapshots"
 WHERE "day" >= current_date - 30 AND ("captured_at" AT TIME ZONE 'UTC')::date = "day"
ON CONFLICT DO NOTHING;

-- Every tracked item that has not failed enters the schedule within the next hour, spread by a
-- phase drawn from its id (as the flat hourly refresh this replaces would have taken it).
UPDATE "videos" v SET "next_refresh_at" = now() + (('x' || substr(md5(v."id"::text), 1, 8))::bit(32)::bigint / 4294967296.0) * interval '1 hour'
 WHERE v."scrape_status" <> 'failed' AND EXISTS (SELECT 1 FROM "tracked_videos" tv WHERE tv."video_id" = v."id");

UPDATE "accounts" a SET "next_refresh_at" = now() + (('x' || substr(md5(a."id"::text), 1, 8))::bit(32)::bigint / 4294967296.0) * interval '1 hour'
 WHERE a."scrape_status" <> 'failed' AND EXISTS (SELECT 1 FROM "tracked_accounts" ta WHERE ta."account_id" = a."id");
