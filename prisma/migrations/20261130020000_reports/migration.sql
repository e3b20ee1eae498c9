-- Issue 33, items 2 and 3: shareable folder reports and scheduled reports (src/domain/reports/).
--
-- A folder's read-only share link. Only the SHA-256 of its token is kept (the token is answered once,
-- or, for a schedule's own link, derived again from the service's reports secret). Revoked or past
-- its expiry it answers like an unknown token. (No semicolon in these comments: the migration tool
-- splits statements on them.)
CREATE TABLE "folder_share_links" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY,
  "workspace_id" UUID NOT NULL REFERENCES "workspaces" ("id") ON DELETE CASCADE,
  "folder_id" UUID NOT NULL REFERENCES "folders" ("id") ON DELETE CASCADE,
  "token_hash" BYTEA NOT NULL,
  "created_by_id" UUID,
  "created_by_label" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  "revoked_at" TIMESTAMPTZ(3),
  "last_viewed_at" TIMESTAMPTZ(3),
  "for_schedule" BOOLEAN NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX "folder_share_links_token_hash_key" ON "folder_share_links" ("token_hash");
CREATE INDEX "folder_share_links_folder_idx" ON "folder_share_links" ("workspace_id", "folder_id", "created_at" DESC);

-- A folder's scheduled report: weekly (a local weekday) or monthly (a local day of the month, 1 to 28),
-- at a local hour of an IANA time zone, to at most 20 addresses, with or without the folder's videos as
-- CSV. `share_link_id`: the schedule's own share link, made when first needed and kept valid.
CREATE TABLE "report_schedules" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY,
  "workspace_id" UUID NOT NULL REFERENCES "workspaces" ("id") ON DELETE CASCADE,
  "folder_id" UUID NOT NULL REFERENCES "folders" ("id") ON DELETE CASCADE,
  "frequency" TEXT NOT NULL CHECK ("frequency" IN ('weekly', 'monthly')),
  "weekday" SMALLINT NOT NULL DEFAULT 1 CHECK ("weekday" BETWEEN 0 AND 6),
  "day_of_month" SMALLINT NOT NULL DEFAULT 1 CHECK ("day_of_month" BETWEEN 1 AND 28),
  "hour" SMALLINT NOT NULL CHECK ("hour" BETWEEN 0 AND 23),
  "time_zone" TEXT NOT NULL,
  "recipients" TEXT[] NOT NULL CHECK (cardinality("recipients") BETWEEN 1 AND 20),
  "attach_csv" BOOLEAN NOT NULL DEFAULT false,
  "enabled" BOOLEAN NOT NULL DEFAULT true,
  "share_link_id" UUID REFERENCES "folder_share_links" ("id") ON DELETE SET NULL,
  "created_by_id" UUID,
  "created_by_label" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE INDEX "report_schedules_folder_idx" ON "report_schedules" ("workspace_id", "folder_id", "created_at");
CREATE INDEX "report_schedules_enabled_idx" ON "report_schedules" ("enabled") WHERE "enabled";

-- A produced report: one per schedule and period (the unique key), so a retried or doubled sweep never
-- produces, nor mails, a period twice. The period's numbers are kept as they were computed.
CREATE TABLE "folder_reports" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY,
  "workspace_id" UUID NOT NULL REFERENCES "workspaces" ("id") ON DELETE CASCADE,
  "schedule_id" UUID NOT NULL REFERENCES "report_schedules" ("id") ON DELETE CASCADE,
  "folder_id" UUID NOT NULL REFERENCES "folders" ("id") ON DELETE CASCADE,
  "period" TEXT NOT NULL,
  "period_start" DATE NOT NULL,
  "period_end" DATE NOT NULL,
  "views_gained" BIGINT NOT NULL,
  "new_videos" INTEGER NOT NULL,
  "total_videos" INTEGER NOT NULL,
  "total_views" BIGINT NOT NULL,
  "top_videos" JSONB NOT NULL,
  "recipients" INTEGER NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX "folder_reports_schedule_period_key" ON "folder_reports" ("schedule_id", "period");
CREATE INDEX "folder_reports_folder_idx" ON "folder_reports" ("workspace_id", "folder_id", "created_at" DESC);
