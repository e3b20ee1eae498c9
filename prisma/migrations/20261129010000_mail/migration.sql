-- Reaching people (issue 32): the mail outbox (also the dev mailbox when no SMTP_URL is set), the
-- alert rules each person chooses, in-dashboard notifications, weekly digests, a person's time zone
-- and the marker of the workspace events the notifications consumer has read.
-- Hand-written parts: the partial indexes, the CHECKs and the composite foreign keys onto
-- workspace_members (a person who leaves a workspace loses its rules, notifications and digest).

CREATE TYPE "MailStatus" AS ENUM ('pending', 'sending', 'sent', 'logged', 'capped', 'failed');

CREATE TABLE "mails" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "dedupe_key" TEXT NOT NULL,
    "workspace_id" UUID,
    "user_id" UUID,
    "to_address" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "group_key" TEXT,
    "status" "MailStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "send_after" TIMESTAMPTZ(3) NOT NULL DEFAULT clock_timestamp(),
    "claimed_until" TIMESTAMPTZ(3),
    "subject" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT clock_timestamp(),
    "sent_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    CONSTRAINT "mails_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "mails_attempts_check" CHECK ("attempts" >= 0)
);
CREATE UNIQUE INDEX "mails_dedupe_key_key" ON "mails"("dedupe_key");
CREATE INDEX "mails_created_at_idx" ON "mails"("created_at" DESC, "id" DESC);
CREATE INDEX "mails_workspace_id_sent_at_idx" ON "mails"("workspace_id", "sent_at");
CREATE INDEX "mails_group_key_send_after_idx" ON "mails"("group_key", "send_after" DESC) WHERE "group_key" IS NOT NULL;
CREATE INDEX "mails_unsent_idx" ON "mails"("send_after") WHERE "status" IN ('pending', 'sending');
ALTER TABLE "mails" ADD CONSTRAINT "mails_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "mails" ADD CONSTRAINT "mails_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "alert_preferences" (
    "workspace_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "rule" TEXT NOT NULL,
    "in_dashboard" BOOLEAN NOT NULL,
    "by_mail" BOOLEAN NOT NULL,
    "min_views_per_hour" INTEGER,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "alert_preferences_pkey" PRIMARY KEY ("workspace_id", "user_id", "rule"),
    CONSTRAINT "alert_preferences_min_views_check" CHECK ("min_views_per_hour" IS NULL OR "min_views_per_hour" >= 0)
);
ALTER TABLE "alert_preferences" ADD CONSTRAINT "alert_preferences_member_fkey" FOREIGN KEY ("workspace_id", "user_id") REFERENCES "workspace_members"("workspace_id", "user_id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "notifications" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspace_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "rule" TEXT NOT NULL,
    "event_id" UUID,
    "title" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT clock_timestamp(),
    "read_at" TIMESTAMPTZ(3),
    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "notifications_user_id_event_id_key" ON "notifications"("user_id", "event_id");
CREATE INDEX "notifications_workspace_id_user_id_created_at_id_idx" ON "notifications"("workspace_id", "user_id", "created_at" DESC, "id" DESC);
CREATE INDEX "notifications_unread_idx" ON "notifications"("workspace_id", "user_id") WHERE "read_at" IS NULL;
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_member_fkey" FOREIGN KEY ("workspace_id", "user_id") REFERENCES "workspace_members"("workspace_id", "user_id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "workspace_events"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "digest_subscriptions" (
    "workspace_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "weekday" INTEGER NOT NULL DEFAULT 1,
    "hour" INTEGER NOT NULL DEFAULT 8,
    "last_sent_week" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "digest_subscriptions_pkey" PRIMARY KEY ("workspace_id", "user_id"),
    CONSTRAINT "digest_subscriptions_weekday_check" CHECK ("weekday" BETWEEN 0 AND 6),
    CONSTRAINT "digest_subscriptions_hour_check" CHECK ("hour" BETWEEN 0 AND 23)
);
ALTER TABLE "digest_subscriptions" ADD CONSTRAINT "digest_subscriptions_member_fkey" FOREIGN KEY ("workspace_id", "user_id") REFERENCES "workspace_members"("workspace_id", "user_id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "users" ADD COLUMN "time_zone" TEXT NOT NULL DEFAULT 'UTC';
ALTER TABLE "workspaces" ADD COLUMN "credits_alert_threshold" INTEGER;
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_credits_alert_threshold_check" CHECK ("credits_alert_threshold" IS NULL OR "credits_alert_threshold" >= 0);

-- The notifications consumer's claim (src/domain/notifications/consume.ts): set once per event.
ALTER TABLE "workspace_events" ADD COLUMN "notified_at" TIMESTAMPTZ(3);
CREATE INDEX "workspace_events_unnotified_idx" ON "workspace_events"("created_at") WHERE "notified_at" IS NULL AND "relayed_at" IS NOT NULL;
-- Events relayed before this migration were seen by no one's bell: they are not notified now.
UPDATE "workspace_events" SET "notified_at" = "relayed_at" WHERE "relayed_at" IS NOT NULL;
