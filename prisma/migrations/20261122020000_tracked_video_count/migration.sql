-- Tracking (issue 3): the number of videos each workspace tracks, kept by the database itself.
--
-- Why: the plan's tracking limit is checked on every addition (under the workspace row lock) and
-- GET /videos answers `pagination.total` on every page, and counting tracked_videos each time costs a
-- scan of the workspace's rows (100,000 on a large workspace). A statement-level trigger keeps the
-- count exact whoever inserts or deletes rows (the service, cascades from videos or workspaces,
-- SQL run by an operator).
--
-- No semicolon may appear in this file except at the end of a statement (the driver adapter
-- splits the script on every semicolon): inside the PL/pgSQL bodies below, \073 in the E'' string
-- is the statement separator.

ALTER TABLE "workspaces" ADD COLUMN "tracked_video_count" INTEGER NOT NULL DEFAULT 0;

ALTER TABLE "workspaces" ADD CONSTRAINT "workspace_tracked_video_count_non_negative" CHECK ("tracked_video_count" >= 0);

UPDATE "workspaces" w SET "tracked_video_count" = c.n
  FROM (SELECT "workspace_id", count(*)::int AS n FROM "tracked_videos" GROUP BY "workspace_id") c
  WHERE w."id" = c."workspace_id";

CREATE FUNCTION "tracked_videos_count_added"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  UPDATE "workspaces" w SET "tracked_video_count" = w."tracked_video_count" + c.n
    FROM (SELECT "workspace_id", count(*)::int AS n FROM added_rows GROUP BY "workspace_id") c
    WHERE w."id" = c."workspace_id"\073
  RETURN NULL\073
END';

CREATE FUNCTION "tracked_videos_count_removed"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  UPDATE "workspaces" w SET "tracked_video_count" = w."tracked_video_count" - c.n
    FROM (SELECT "workspace_id", count(*)::int AS n FROM removed_rows GROUP BY "workspace_id") c
    WHERE w."id" = c."workspace_id"\073
  RETURN NULL\073
END';

CREATE TRIGGER "tracked_videos_count_added" AFTER INSERT ON "tracked_videos"
  REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION "tracked_videos_count_added"();

CREATE TRIGGER "tracked_videos_count_removed" AFTER DELETE ON "tracked_videos"
  REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION "tracked_videos_count_removed"();
