-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "AnalysisStatus" AS ENUM ('pending', 'downloading', 'transcribed', 'analyzing', 'completed', 'failed');

-- CreateEnum
CREATE TYPE "Platform" AS ENUM ('platformA', 'platformB', 'platformC');

-- CreateEnum
CREATE TYPE "CreditEntryKind" AS ENUM ('grant', 'renewal', 'charge', 'refund');

-- CreateEnum
CREATE TYPE "ReservationStatus" AS ENUM ('held', 'captured', 'released');

-- CreateEnum
CREATE TYPE "RadarStatus" AS ENUM ('pending', 'searching', 'completed', 'failed');

-- CreateEnum
CREATE TYPE "ScrapeStatus" AS ENUM ('queued', 'scraping', 'ready', 'failed');

-- CreateTable
CREATE TABLE "video_analyses" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspace_id" UUID NOT NULL,
    "video_id" UUID NOT NULL,
    "status" "AnalysisStatus" NOT NULL DEFAULT 'pending',
    "error" TEXT,
    "transcript_source" TEXT,
    "transcript" TEXT,
    "segments" JSONB,
    "hook_style" TEXT,
    "hook_phrase" TEXT,
    "ugc_fit" TEXT,
    "ugc_confidence" INTEGER,
    "cta_type" TEXT,
    "cta_destination_url" TEXT,
    "analysis_provider" TEXT,
    "reservation_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "video_analyses_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "credit_ledger" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspace_id" UUID NOT NULL,
    "kind" "CreditEntryKind" NOT NULL,
    "amount" INTEGER NOT NULL,
    "monthly_part" INTEGER NOT NULL DEFAULT 0,
    "granted_part" INTEGER NOT NULL DEFAULT 0,
    "balance_after" INTEGER NOT NULL,
    "reason" TEXT NOT NULL DEFAULT '',
    "idempotency_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "credit_ledger_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "credit_reservations" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspace_id" UUID NOT NULL,
    "amount" INTEGER NOT NULL,
    "status" "ReservationStatus" NOT NULL DEFAULT 'held',
    "reason" TEXT NOT NULL DEFAULT '',
    "idempotency_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settled_at" TIMESTAMPTZ(3),

    CONSTRAINT "credit_reservations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "folders" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspace_id" UUID NOT NULL,
    "name" VARCHAR(255) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "folders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "folder_videos" (
    "folder_id" UUID NOT NULL,
    "tracked_video_id" UUID NOT NULL,
    "added_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "folder_videos_pkey" PRIMARY KEY ("folder_id","tracked_video_id")
);

-- CreateTable
CREATE TABLE "folder_accounts" (
    "folder_id" UUID NOT NULL,
    "tracked_account_id" UUID NOT NULL,
    "added_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "folder_accounts_pkey" PRIMARY KEY ("folder_id","tracked_account_id")
);

-- CreateTable
CREATE TABLE "radar_searches" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspace_id" UUID NOT NULL,
    "query" TEXT NOT NULL,
    "platform" "Platform" NOT NULL,
    "depth" TEXT NOT NULL,
    "min_views" TEXT NOT NULL,
    "time_period" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "status" "RadarStatus" NOT NULL DEFAULT 'pending',
    "queries" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "result_count" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "radar_searches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "radar_results" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "search_id" UUID NOT NULL,
    "rank" INTEGER NOT NULL,
    "video_id" UUID,
    "platform" "Platform" NOT NULL,
    "platform_video_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "username" TEXT NOT NULL DEFAULT '',
    "view_count" BIGINT,
    "like_count" BIGINT,
    "comment_count" BIGINT,
    "share_count" BIGINT,
    "engagement_rate" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "posted_at" TIMESTAMPTZ(3),
    "thumbnail_url" TEXT NOT NULL DEFAULT '',
    "score" DOUBLE PRECISION NOT NULL,
    "matched_query" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "radar_results_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "accounts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "platform" "Platform" NOT NULL,
    "username" TEXT NOT NULL,
    "platform_account_id" TEXT,
    "display_name" TEXT NOT NULL DEFAULT '',
    "avatar_url" TEXT NOT NULL DEFAULT '',
    "follower_count" BIGINT,
    "video_count" BIGINT,
    "total_views" BIGINT,
    "data_source" TEXT,
    "scrape_status" "ScrapeStatus" NOT NULL DEFAULT 'queued',
    "scrape_error" TEXT,
    "last_scraped_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "videos" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "platform" "Platform" NOT NULL,
    "platform_video_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "hashtags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "view_count" BIGINT,
    "like_count" BIGINT,
    "comment_count" BIGINT,
    "share_count" BIGINT,
    "bookmark_count" BIGINT,
    "engagement_rate" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "posted_at" TIMESTAMPTZ(3),
    "duration_seconds" INTEGER,
    "thumbnail_url" TEXT NOT NULL DEFAULT '',
    "username" TEXT NOT NULL DEFAULT '',
    "display_name" TEXT NOT NULL DEFAULT '',
    "account_id" UUID,
    "music_name" TEXT NOT NULL DEFAULT '',
    "music_author" TEXT NOT NULL DEFAULT '',
    "music_cover_url" TEXT NOT NULL DEFAULT '',
    "language" TEXT,
    "data_source" TEXT,
    "scrape_status" "ScrapeStatus" NOT NULL DEFAULT 'queued',
    "scrape_error" TEXT,
    "scrape_attempts" INTEGER NOT NULL DEFAULT 0,
    "last_scraped_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "videos_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tracked_videos" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspace_id" UUID NOT NULL,
    "video_id" UUID NOT NULL,
    "via_account_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tracked_videos_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tracked_accounts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspace_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "video_limit" INTEGER NOT NULL DEFAULT 50,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tracked_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "video_snapshots" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "video_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "captured_at" TIMESTAMPTZ(3) NOT NULL,
    "source" TEXT NOT NULL,
    "view_count" BIGINT,
    "like_count" BIGINT,
    "comment_count" BIGINT,
    "share_count" BIGINT,
    "bookmark_count" BIGINT,

    CONSTRAINT "video_snapshots_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "account_snapshots" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "account_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "captured_at" TIMESTAMPTZ(3) NOT NULL,
    "source" TEXT NOT NULL,
    "follower_count" BIGINT,
    "total_views" BIGINT,
    "video_count" BIGINT,

    CONSTRAINT "account_snapshots_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plans" (
    "name" TEXT NOT NULL,
    "video_limit" INTEGER NOT NULL,
    "monthly_credits" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "plans_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "workspaces" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "plan_name" TEXT NOT NULL,
    "monthly_allowance" INTEGER NOT NULL,
    "monthly_used" INTEGER NOT NULL DEFAULT 0,
    "granted_credits" INTEGER NOT NULL DEFAULT 0,
    "reserved_credits" INTEGER NOT NULL DEFAULT 0,
    "cycle_day" INTEGER NOT NULL,
    "cycle_started_at" TIMESTAMPTZ(3) NOT NULL,
    "cycle_resets_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workspaces_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspace_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "slot" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "video_analyses_reservation_id_key" ON "video_analyses"("reservation_id");

-- CreateIndex
CREATE INDEX "video_analyses_workspace_id_video_id_created_at_idx" ON "video_analyses"("workspace_id", "video_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "video_analyses_status_updated_at_idx" ON "video_analyses"("status", "updated_at");

-- CreateIndex
CREATE INDEX "credit_ledger_workspace_id_created_at_idx" ON "credit_ledger"("workspace_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "credit_ledger_workspace_id_idempotency_key_key" ON "credit_ledger"("workspace_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "credit_reservations_status_created_at_idx" ON "credit_reservations"("status", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "credit_reservations_workspace_id_idempotency_key_key" ON "credit_reservations"("workspace_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "folders_workspace_id_created_at_id_idx" ON "folders"("workspace_id", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "folder_videos_tracked_video_id_idx" ON "folder_videos"("tracked_video_id");

-- CreateIndex
CREATE INDEX "folder_accounts_tracked_account_id_idx" ON "folder_accounts"("tracked_account_id");

-- CreateIndex
CREATE INDEX "radar_searches_workspace_id_created_at_id_idx" ON "radar_searches"("workspace_id", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "radar_searches_status_updated_at_idx" ON "radar_searches"("status", "updated_at");

-- CreateIndex
CREATE INDEX "radar_results_search_id_rank_idx" ON "radar_results"("search_id", "rank");

-- CreateIndex
CREATE UNIQUE INDEX "radar_results_search_id_platform_platform_video_id_key" ON "radar_results"("search_id", "platform", "platform_video_id");

-- CreateIndex
CREATE UNIQUE INDEX "accounts_platform_username_key" ON "accounts"("platform", "username");

-- CreateIndex
CREATE INDEX "videos_account_id_posted_at_idx" ON "videos"("account_id", "posted_at" DESC);

-- CreateIndex
CREATE INDEX "videos_platform_view_count_idx" ON "videos"("platform", "view_count");

-- CreateIndex
CREATE INDEX "videos_platform_posted_at_idx" ON "videos"("platform", "posted_at");

-- CreateIndex
CREATE UNIQUE INDEX "videos_platform_platform_video_id_key" ON "videos"("platform", "platform_video_id");

-- CreateIndex
CREATE INDEX "tracked_videos_workspace_id_created_at_id_idx" ON "tracked_videos"("workspace_id", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "tracked_videos_video_id_idx" ON "tracked_videos"("video_id");

-- CreateIndex
CREATE UNIQUE INDEX "tracked_videos_workspace_id_video_id_key" ON "tracked_videos"("workspace_id", "video_id");

-- CreateIndex
CREATE INDEX "tracked_accounts_workspace_id_created_at_id_idx" ON "tracked_accounts"("workspace_id", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "tracked_accounts_account_id_idx" ON "tracked_accounts"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "tracked_accounts_workspace_id_account_id_key" ON "tracked_accounts"("workspace_id", "account_id");

-- CreateIndex
CREATE UNIQUE INDEX "video_snapshots_video_id_day_key" ON "video_snapshots"("video_id", "day");

-- CreateIndex
CREATE INDEX "account_snapshots_day_idx" ON "account_snapshots"("day");

-- CreateIndex
CREATE UNIQUE INDEX "account_snapshots_account_id_day_key" ON "account_snapshots"("account_id", "day");

-- CreateIndex
CREATE INDEX "workspaces_cycle_resets_at_idx" ON "workspaces"("cycle_resets_at");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_secret_hash_key" ON "api_keys"("secret_hash");

-- CreateIndex
CREATE INDEX "api_keys_workspace_id_created_at_idx" ON "api_keys"("workspace_id", "created_at");

-- AddForeignKey
ALTER TABLE "video_analyses" ADD CONSTRAINT "video_analyses_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "video_analyses" ADD CONSTRAINT "video_analyses_video_id_fkey" FOREIGN KEY ("video_id") REFERENCES "videos"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "video_analyses" ADD CONSTRAINT "video_analyses_reservation_id_fkey" FOREIGN KEY ("reservation_id") REFERENCES "credit_reservations"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "credit_reservations" ADD CONSTRAINT "credit_reservations_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "folders" ADD CONSTRAINT "folders_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "folder_videos" ADD CONSTRAINT "folder_videos_folder_id_fkey" FOREIGN KEY ("folder_id") REFERENCES "folders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "folder_videos" ADD CONSTRAINT "folder_videos_tracked_video_id_fkey" FOREIGN KEY ("tracked_video_id") REFERENCES "tracked_videos"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "folder_accounts" ADD CONSTRAINT "folder_accounts_folder_id_fkey" FOREIGN KEY ("folder_id") REFERENCES "folders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "folder_accounts" ADD CONSTRAINT "folder_accounts_tracked_account_id_fkey" FOREIGN KEY ("tracked_account_id") REFERENCES "tracked_accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "radar_searches" ADD CONSTRAINT "radar_searches_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "radar_results" ADD CONSTRAINT "radar_results_search_id_fkey" FOREIGN KEY ("search_id") REFERENCES "radar_searches"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "radar_results" ADD CONSTRAINT "radar_results_video_id_fkey" FOREIGN KEY ("video_id") REFERENCES "videos"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "videos" ADD CONSTRAINT "videos_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tracked_videos" ADD CONSTRAINT "tracked_videos_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tracked_videos" ADD CONSTRAINT "tracked_videos_video_id_fkey" FOREIGN KEY ("video_id") REFERENCES "videos"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tracked_accounts" ADD CONSTRAINT "tracked_accounts_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tracked_accounts" ADD CONSTRAINT "tracked_accounts_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "video_snapshots" ADD CONSTRAINT "video_snapshots_video_id_fkey" FOREIGN KEY ("video_id") REFERENCES "videos"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_snapshots" ADD CONSTRAINT "account_snapshots_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_plan_name_fkey" FOREIGN KEY ("plan_name") REFERENCES "plans"("name") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------------
-- Hand-written: constraints and data Prisma's schema language cannot express.
-- (When authoring later migrations with `prisma migrate diff`, drop the statements it emits to
-- remove these: the diff does not know them.)
-- ---------------------------------------------------------------------------------------------

-- Default plans (configurable: they are rows).
INSERT INTO "plans" ("name", "video_limit", "monthly_credits") VALUES
  ('free', 100, 200),
  ('starter', 1000, 2000),
  ('pro', 5000, 10000),
  ('enterprise', 50000, 100000);

ALTER TABLE "plans"
  ADD CONSTRAINT "plan_limits_non_negative" CHECK ("video_limit" >= 0 AND "monthly_credits" >= 0);

-- Balances never go negative and reservations never exceed what is left, under any concurrency.
ALTER TABLE "workspaces"
  ADD CONSTRAINT "workspace_monthly_used_in_range" CHECK ("monthly_used" >= 0 AND "monthly_used" <= "monthly_allowance"),
  ADD CONSTRAINT "workspace_granted_non_negative" CHECK ("granted_credits" >= 0),
  ADD CONSTRAINT "workspace_reserved_non_negative" CHECK ("reserved_credits" >= 0),
  ADD CONSTRAINT "workspace_reserved_covered" CHECK ("reserved_credits" <= ("monthly_allowance" - "monthly_used") + "granted_credits"),
  ADD CONSTRAINT "workspace_cycle_day_range" CHECK ("cycle_day" BETWEEN 1 AND 28);

-- At most 5 active keys per workspace: an active key holds one of five slots.
ALTER TABLE "api_keys"
  ADD CONSTRAINT "api_key_slot_range" CHECK ("slot" BETWEEN 1 AND 5),
  ADD CONSTRAINT "api_key_active_has_slot" CHECK (("revoked_at" IS NULL) = ("slot" IS NOT NULL));
CREATE UNIQUE INDEX "api_keys_active_slot_key" ON "api_keys" ("workspace_id", "slot") WHERE "revoked_at" IS NULL;

ALTER TABLE "credit_reservations"
  ADD CONSTRAINT "reservation_amount_positive" CHECK ("amount" > 0);

ALTER TABLE "tracked_accounts"
  ADD CONSTRAINT "tracked_account_video_limit_range" CHECK ("video_limit" BETWEEN 1 AND 500);

ALTER TABLE "videos"
  ADD CONSTRAINT "video_counts_non_negative" CHECK (
    coalesce("view_count", 0) >= 0 AND coalesce("like_count", 0) >= 0 AND coalesce("comment_count", 0) >= 0
    AND coalesce("share_count", 0) >= 0 AND coalesce("bookmark_count", 0) >= 0 AND "engagement_rate" >= 0);

ALTER TABLE "folders"
  ADD CONSTRAINT "folder_name_length" CHECK (char_length("name") BETWEEN 1 AND 255);

-- At most one running analysis per workspace and video: two simultaneous analyze calls start one.
CREATE UNIQUE INDEX "video_analyses_one_running_key" ON "video_analyses" ("workspace_id", "video_id")
  WHERE "status" IN ('pending', 'downloading', 'transcribed', 'analyzing');

ALTER TABLE "video_analyses"
  ADD CONSTRAINT "analysis_ugc_confidence_range" CHECK ("ugc_confidence" IS NULL OR "ugc_confidence" BETWEEN 0 AND 100);

ALTER TABLE "radar_searches"
  ADD CONSTRAINT "radar_result_count_non_negative" CHECK ("result_count" >= 0),
  ADD CONSTRAINT "radar_query_length" CHECK (char_length("query") BETWEEN 1 AND 1000);
