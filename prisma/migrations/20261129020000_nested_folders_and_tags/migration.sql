-- Issue 34, items 1 and 2: nested folders and tags.
-- No semicolon may appear in this file except at the end of a statement (the driver adapter
-- splits the script on every semicolon).

-- Nested folders: a folder may have a parent in the same workspace. The composite foreign key
-- (workspace_id, parent_id) -> folders (workspace_id, id) makes a parent of another workspace
-- impossible in the database itself. Deleting a parent deletes its sub-folders (ON DELETE CASCADE):
-- the domain moves them up first when asked to keep them (src/domain/folders/tree.ts).
-- Depth (at most 5 levels) and cycles are checked by the domain under a per-workspace lock.
ALTER TABLE "folders" ADD COLUMN "parent_id" UUID;
ALTER TABLE "folders" ADD CONSTRAINT "folders_workspace_id_id_key" UNIQUE ("workspace_id", "id");
ALTER TABLE "folders" ADD CONSTRAINT "folders_parent_fkey" FOREIGN KEY ("workspace_id", "parent_id")
  REFERENCES "folders" ("workspace_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "folders" ADD CONSTRAINT "folder_not_own_parent" CHECK ("parent_id" IS NULL OR "parent_id" <> "id");
CREATE INDEX "folders_parent_id_idx" ON "folders" ("parent_id");

-- Tags: a workspace's own labels, unique by name without regard to case (a hand-written
-- expression index: Prisma's schema language cannot express lower(name)).
CREATE TABLE "tags" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "workspace_id" UUID NOT NULL,
  "name" VARCHAR(50) NOT NULL,
  "color" VARCHAR(7) NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "tags_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "tags_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "tag_name_length" CHECK (char_length("name") BETWEEN 1 AND 50),
  CONSTRAINT "tag_color_hex" CHECK ("color" ~ '^#[0-9a-f]{6}$')
);
CREATE UNIQUE INDEX "tags_workspace_lower_name_key" ON "tags" ("workspace_id", lower("name"));

-- Tags on tracked videos and tracked accounts: like folder memberships they point at the tracking
-- records, so untracking removes the tag and a tag never keeps anything tracked.
CREATE TABLE "video_tags" (
  "tag_id" UUID NOT NULL,
  "tracked_video_id" UUID NOT NULL,
  "added_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "video_tags_pkey" PRIMARY KEY ("tag_id", "tracked_video_id"),
  CONSTRAINT "video_tags_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "video_tags_tracked_video_id_fkey" FOREIGN KEY ("tracked_video_id") REFERENCES "tracked_videos" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "video_tags_tracked_video_id_idx" ON "video_tags" ("tracked_video_id");

CREATE TABLE "account_tags" (
  "tag_id" UUID NOT NULL,
  "tracked_account_id" UUID NOT NULL,
  "added_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "account_tags_pkey" PRIMARY KEY ("tag_id", "tracked_account_id"),
  CONSTRAINT "account_tags_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "account_tags_tracked_account_id_fkey" FOREIGN KEY ("tracked_account_id") REFERENCES "tracked_accounts" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "account_tags_tracked_account_id_idx" ON "account_tags" ("tracked_account_id");
