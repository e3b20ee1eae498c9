-- Issue 34, items 3 and 4.
--
-- Account tracking rules (src/domain/tracking/rules.ts): a workspace's rules on the videos a tracked
-- account brings (hashtags and words to include or exclude, a minimum duration, a first posting
-- day), stored as the document its zod schema validated (src/domain/tracking/inputs.ts,
-- accountRules). The default is that document without any rule. `paused_at`: the workspace paused
-- the account's tracking (no scheduled scrape on its behalf, nothing discovered for it) until it
-- resumes it. (No semicolon in these comments: the migration tool splits statements on them.)
ALTER TABLE "tracked_accounts"
  ADD COLUMN "rules" JSONB NOT NULL
    DEFAULT '{"includeHashtags": [], "excludeHashtags": [], "includeWords": [], "excludeWords": [], "minDurationSeconds": null, "postedAfter": null}'::jsonb,
  ADD COLUMN "paused_at" TIMESTAMPTZ(3);

-- The videos an account's listing brought that the workspace's rules kept out (they took no slot),
-- with the rule and the reason in words. At most the newest 200 per tracked account are kept
-- (src/domain/tracking/account-controls.ts).
CREATE TABLE "account_skipped_videos" (
  "tracked_account_id" UUID NOT NULL REFERENCES "tracked_accounts" ("id") ON DELETE CASCADE,
  "video_id" UUID NOT NULL REFERENCES "videos" ("id") ON DELETE CASCADE,
  "rule" TEXT NOT NULL,
  "reason" TEXT NOT NULL,
  "skipped_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  PRIMARY KEY ("tracked_account_id", "video_id")
);
CREATE INDEX "account_skipped_videos_recent_idx" ON "account_skipped_videos" ("tracked_account_id", "skipped_at" DESC, "video_id");
CREATE INDEX "account_skipped_videos_video_idx" ON "account_skipped_videos" ("video_id");

-- Saved views (src/domain/views/): a person's named filters, sort, columns and tags of a list,
-- private (only its owner sees it) or shared with the workspace. `content` is the document the
-- list's zod schema validated (src/domain/views/inputs.ts).
CREATE TABLE "saved_views" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY,
  "workspace_id" UUID NOT NULL REFERENCES "workspaces" ("id") ON DELETE CASCADE,
  "owner_id" UUID NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
  "list" TEXT NOT NULL CHECK ("list" IN ('videos', 'accounts')),
  "name" VARCHAR(100) NOT NULL,
  "shared" BOOLEAN NOT NULL DEFAULT false,
  "content" JSONB NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE INDEX "saved_views_workspace_list_idx" ON "saved_views" ("workspace_id", "list", "name", "id");
CREATE INDEX "saved_views_owner_idx" ON "saved_views" ("owner_id");
