-- Issue 35: campaigns and creator payouts (docs/campaigns.md).
-- No semicolon may appear in this file except at the end of a statement (the driver adapter
-- splits the script on every semicolon).

-- Creators: a person or team behind tracked accounts. An account belongs to at most one creator
-- per workspace: the primary key of creator_accounts is (workspace_id, account_id).
CREATE TABLE "creators" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "workspace_id" UUID NOT NULL,
  "name" VARCHAR(100) NOT NULL,
  "contact" VARCHAR(200) NOT NULL DEFAULT '',
  "notes" VARCHAR(2000) NOT NULL DEFAULT '',
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "creators_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "creators_workspace_id_id_key" UNIQUE ("workspace_id", "id"),
  CONSTRAINT "creators_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "creators_workspace_name_idx" ON "creators" ("workspace_id", "name", "id");

CREATE TABLE "creator_accounts" (
  "workspace_id" UUID NOT NULL,
  "account_id" UUID NOT NULL,
  "creator_id" UUID NOT NULL,
  "added_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "creator_accounts_pkey" PRIMARY KEY ("workspace_id", "account_id"),
  CONSTRAINT "creator_accounts_creator_fkey" FOREIGN KEY ("workspace_id", "creator_id") REFERENCES "creators" ("workspace_id", "id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "creator_accounts_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "creator_accounts_creator_id_idx" ON "creator_accounts" ("creator_id");

-- Campaigns: the period is two local date-times and an IANA time zone (the instants are computed in
-- SQL with AT TIME ZONE, so a zone's rules are PostgreSQL's). Money in integer minor units of
-- `currency` (ISO 4217). The payout rule for all: CPM (per 1,000 views) with optional caps per video
-- and per creator, a fixed fee per qualifying video, or both.
CREATE TABLE "campaigns" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "workspace_id" UUID NOT NULL,
  "name" VARCHAR(100) NOT NULL,
  "starts_local" TIMESTAMP(0) NOT NULL,
  "ends_local" TIMESTAMP(0) NOT NULL,
  "time_zone" TEXT NOT NULL,
  "currency" CHAR(3) NOT NULL,
  "budget_minor" BIGINT,
  "hashtag" VARCHAR(100),
  "tag_id" UUID,
  "cpm_minor" BIGINT,
  "cap_per_video_minor" BIGINT,
  "cap_per_creator_minor" BIGINT,
  "fee_per_video_minor" BIGINT,
  "status" TEXT NOT NULL DEFAULT 'active',
  "closed_at" TIMESTAMPTZ(3),
  "closed_series" JSONB,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "campaigns_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "campaigns_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "campaigns_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
  CONSTRAINT "campaign_status" CHECK ("status" IN ('active', 'closed')),
  CONSTRAINT "campaign_period" CHECK ("ends_local" > "starts_local" AND "ends_local" <= "starts_local" + interval '366 days'),
  CONSTRAINT "campaign_money" CHECK (coalesce("budget_minor", 0) >= 0 AND coalesce("cpm_minor", 0) >= 0 AND coalesce("cap_per_video_minor", 0) >= 0
    AND coalesce("cap_per_creator_minor", 0) >= 0 AND coalesce("fee_per_video_minor", 0) >= 0),
  CONSTRAINT "campaign_currency" CHECK ("currency" ~ '^[A-Z]{3}$')
);
CREATE INDEX "campaigns_workspace_idx" ON "campaigns" ("workspace_id", "created_at", "id");
CREATE INDEX "campaigns_active_idx" ON "campaigns" ("status") WHERE "status" = 'active';

-- Per-creator overrides of the rule: when a row exists, it is the creator's whole rule.
CREATE TABLE "campaign_creator_rules" (
  "campaign_id" UUID NOT NULL,
  "creator_id" UUID NOT NULL,
  "cpm_minor" BIGINT,
  "cap_per_video_minor" BIGINT,
  "cap_per_creator_minor" BIGINT,
  "fee_per_video_minor" BIGINT,
  CONSTRAINT "campaign_creator_rules_pkey" PRIMARY KEY ("campaign_id", "creator_id"),
  CONSTRAINT "campaign_creator_rules_campaign_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns" ("id") ON DELETE CASCADE,
  CONSTRAINT "campaign_creator_rules_creator_fkey" FOREIGN KEY ("creator_id") REFERENCES "creators" ("id") ON DELETE CASCADE,
  CONSTRAINT "campaign_creator_rule_money" CHECK (coalesce("cpm_minor", 0) >= 0 AND coalesce("cap_per_video_minor", 0) >= 0
    AND coalesce("cap_per_creator_minor", 0) >= 0 AND coalesce("fee_per_video_minor", 0) >= 0)
);

-- Members: creators (all their accounts) or single accounts.
CREATE TABLE "campaign_members" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "campaign_id" UUID NOT NULL,
  "creator_id" UUID,
  "account_id" UUID,
  "added_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "campaign_members_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "campaign_members_campaign_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns" ("id") ON DELETE CASCADE,
  CONSTRAINT "campaign_members_creator_fkey" FOREIGN KEY ("creator_id") REFERENCES "creators" ("id") ON DELETE CASCADE,
  CONSTRAINT "campaign_members_account_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts" ("id") ON DELETE CASCADE,
  CONSTRAINT "campaign_member_one" CHECK (("creator_id" IS NULL) <> ("account_id" IS NULL))
);
CREATE UNIQUE INDEX "campaign_members_creator_key" ON "campaign_members" ("campaign_id", "creator_id") WHERE "creator_id" IS NOT NULL;
CREATE UNIQUE INDEX "campaign_members_account_key" ON "campaign_members" ("campaign_id", "account_id") WHERE "account_id" IS NOT NULL;

-- Videos added or excluded by hand.
CREATE TABLE "campaign_videos" (
  "campaign_id" UUID NOT NULL,
  "video_id" UUID NOT NULL,
  "mode" TEXT NOT NULL,
  "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "campaign_videos_pkey" PRIMARY KEY ("campaign_id", "video_id"),
  CONSTRAINT "campaign_videos_campaign_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns" ("id") ON DELETE CASCADE,
  CONSTRAINT "campaign_videos_video_fkey" FOREIGN KEY ("video_id") REFERENCES "videos" ("id") ON DELETE CASCADE,
  CONSTRAINT "campaign_video_mode" CHECK ("mode" IN ('added', 'excluded'))
);

-- The frozen payout rows of a closed campaign: the earnings function's rows at closing, copied.
-- Later scrapes never touch them (no foreign key to videos or accounts either: a row stays when
-- its video is later untracked or deleted).
CREATE TABLE "campaign_payout_rows" (
  "campaign_id" UUID NOT NULL,
  "video_id" UUID NOT NULL,
  "account_id" UUID,
  "creator_id" UUID,
  "payee_name" TEXT NOT NULL,
  "platform" TEXT,
  "url" TEXT NOT NULL,
  "username" TEXT NOT NULL,
  "posted_at" TIMESTAMPTZ(3),
  "start_at" TIMESTAMPTZ(3),
  "start_views" BIGINT,
  "start_source" TEXT,
  "end_at" TIMESTAMPTZ(3),
  "end_views" BIGINT,
  "end_source" TEXT,
  "views_earned" BIGINT NOT NULL,
  "cpm_amount" BIGINT NOT NULL,
  "per_video_cap_cut" BIGINT NOT NULL,
  "fee_amount" BIGINT NOT NULL,
  "amount_before_creator_cap" BIGINT NOT NULL,
  "creator_cap_cut" BIGINT NOT NULL,
  "payout" BIGINT NOT NULL,
  "last_scraped_at" TIMESTAMPTZ(3),
  CONSTRAINT "campaign_payout_rows_pkey" PRIMARY KEY ("campaign_id", "video_id"),
  CONSTRAINT "campaign_payout_rows_campaign_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns" ("id") ON DELETE CASCADE
);

-- Budget thresholds already announced (campaign.budget_reached: once per campaign and threshold).
CREATE TABLE "campaign_budget_alerts" (
  "campaign_id" UUID NOT NULL,
  "percent" INTEGER NOT NULL,
  "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "campaign_budget_alerts_pkey" PRIMARY KEY ("campaign_id", "percent"),
  CONSTRAINT "campaign_budget_alerts_campaign_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns" ("id") ON DELETE CASCADE
);
