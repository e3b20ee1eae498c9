-- Partitioned history (issue 25, item 2): video_metric_points and account_metric_points become
-- PostgreSQL declarative partitioned tables, RANGE on captured_at, one partition per UTC month, plus
-- a DEFAULT partition so that an insert never fails. Retention drops whole partitions
-- (src/domain/tracking/history-partitions.ts) instead of deleting rows. Why monthly, and the manual
-- path for big installs: docs/scaling.md, "Partitioned history".
--
-- This migration converts the existing tables in place: the old table is renamed, the partitioned
-- one created under the old name with the same columns and keys, its partitions made for every month
-- the old rows cover (and the current and next month), the rows copied, the old table dropped. The
-- copy is one INSERT ... SELECT: fine up to tens of millions of points, and bigger installs follow
-- docs/scaling.md (batches, or the old table attached as a partition).
--
-- No semicolon may appear in this file except at the end of a statement (the driver adapter
-- splits the script on every semicolon): inside the PL/pgSQL body below, \073 in the E'' string
-- is the statement separator, and '' is a quote.

-- ---------------------------------------------------------------------------------------------
-- metric_points_partition(parent, at): makes the partition of `parent` for the UTC month of `at`
-- (named <parent>_pYYYY_MM) unless it exists, and returns its name (null when another partition
-- already covers part of that month). Used by this migration and by
-- the workers (at start and by the `history-partitions` job, src/domain/tracking/history-partitions.ts).
-- Rows of that month already in the DEFAULT partition (written while the partition was missing) move
-- into it. The partition is built as a plain table and then ATTACHed: ATTACH takes only a SHARE
-- UPDATE EXCLUSIVE lock on the parent (CREATE TABLE ... PARTITION OF takes ACCESS EXCLUSIVE, which
-- would stop every scrape and history read while it waits), and the CHECK constraint matching the
-- bounds spares ATTACH its validation scan. An advisory lock serializes concurrent callers (two
-- workers starting at once).
CREATE FUNCTION "metric_points_partition"(parent text, at timestamptz) RETURNS text LANGUAGE plpgsql AS E'
DECLARE
  month timestamp := date_trunc(''month'', at AT TIME ZONE ''UTC'')\073
  lo timestamptz := month AT TIME ZONE ''UTC''\073
  hi timestamptz := (month + interval ''1 month'') AT TIME ZONE ''UTC''\073
  part text := parent || ''_p'' || to_char(month, ''YYYY_MM'')\073
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext(''metric_points_partition:'' || parent))\073
  IF to_regclass(quote_ident(part)) IS NOT NULL THEN
    RETURN part\073
  END IF\073
  BEGIN
    EXECUTE format(''CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS)'', part, parent)\073
    EXECUTE format(''WITH moved AS (DELETE FROM %I WHERE captured_at >= $1 AND captured_at < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved'',
                   parent || ''_default'', part) USING lo, hi\073
    EXECUTE format(''ALTER TABLE %I ADD CONSTRAINT %I CHECK (captured_at >= %L AND captured_at < %L)'', part, part || ''_bounds'', lo, hi)\073
    EXECUTE format(''ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)'', parent, part, lo, hi)\073
    EXECUTE format(''ALTER TABLE %I DROP CONSTRAINT %I'', part, part || ''_bounds'')\073
  EXCEPTION WHEN invalid_object_definition THEN
    -- The month overlaps another partition (an older table attached whole, docs/scaling.md): it is
    -- covered already, and everything this block did is undone.
    RETURN NULL\073
  END\073
  RETURN part\073
END';

-- ---------------------------------------------------------------------------------------------
-- Videos. The primary key (video_id, captured_at) already holds the partition key, as PostgreSQL
-- requires of a unique key on a partitioned table: ON CONFLICT (video_id, captured_at) in the
-- scrape store (src/domain/tracking/scrape-store.ts) infers it as before. It keeps its INCLUDE
-- (index-only history reads, migration 20261124120000_metric_history_refresh), and each partition gets
-- its own copy of it. The BRIN index on captured_at served the DELETE-based pruning only: gone.
ALTER TABLE "video_metric_points" RENAME TO "video_metric_points_unpartitioned";
ALTER TABLE "video_metric_points_unpartitioned" RENAME CONSTRAINT "video_metric_points_pkey" TO "video_metric_points_unpartitioned_pkey";
DROP INDEX "video_metric_points_captured_brin";

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
) PARTITION BY RANGE ("captured_at");

CREATE TABLE "video_metric_points_default" PARTITION OF "video_metric_points" DEFAULT;

-- Every month from the oldest point to the next month (none missing in between).
SELECT "metric_points_partition"('video_metric_points', m AT TIME ZONE 'UTC')
  FROM generate_series(
         least(date_trunc('month', (SELECT min("captured_at") FROM "video_metric_points_unpartitioned") AT TIME ZONE 'UTC'), date_trunc('month', now() AT TIME ZONE 'UTC')),
         date_trunc('month', now() AT TIME ZONE 'UTC') + interval '1 month',
         interval '1 month') AS m;

INSERT INTO "video_metric_points" ("video_id", "captured_at", "source", "view_count", "like_count", "comment_count", "share_count", "bookmark_count")
SELECT "video_id", "captured_at", "source", "view_count", "like_count", "comment_count", "share_count", "bookmark_count"
  FROM "video_metric_points_unpartitioned";

DROP TABLE "video_metric_points_unpartitioned";

-- ---------------------------------------------------------------------------------------------
-- Accounts: the same.
ALTER TABLE "account_metric_points" RENAME TO "account_metric_points_unpartitioned";
ALTER TABLE "account_metric_points_unpartitioned" RENAME CONSTRAINT "account_metric_points_pkey" TO "account_metric_points_unpartitioned_pkey";
DROP INDEX "account_metric_points_captured_brin";

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
) PARTITION BY RANGE ("captured_at");

CREATE TABLE "account_metric_points_default" PARTITION OF "account_metric_points" DEFAULT;

SELECT "metric_points_partition"('account_metric_points', m AT TIME ZONE 'UTC')
  FROM generate_series(
         least(date_trunc('month', (SELECT min("captured_at") FROM "account_metric_points_unpartitioned") AT TIME ZONE 'UTC'), date_trunc('month', now() AT TIME ZONE 'UTC')),
         date_trunc('month', now() AT TIME ZONE 'UTC') + interval '1 month',
         interval '1 month') AS m;

INSERT INTO "account_metric_points" ("account_id", "captured_at", "source", "follower_count", "total_views", "video_count")
SELECT "account_id", "captured_at", "source", "follower_count", "total_views", "video_count"
  FROM "account_metric_points_unpartitioned";

DROP TABLE "account_metric_points_unpartitioned";
