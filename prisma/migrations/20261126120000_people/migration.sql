-- People (issue 19): users, sessions, sign-in accounts and single-use values of better-auth (the
-- authentication library), workspace memberships with their role, invitations, the audit log and
-- the service's own generated secrets. docs/contract/decisions.md "People, sign-in and the dashboard".
-- Written from `prisma migrate diff --from-empty` of prisma/schema/people.prisma, then the
-- hand-written part at the end (partial unique index, CHECKs, the absolute-expiry trigger).
--
-- No semicolon may appear in this file except at the end of a statement (the driver adapter
-- splits the script on every semicolon): inside the PL/pgSQL body below, \073 in the E'' string
-- is the statement separator.

CREATE TYPE "WorkspaceRole" AS ENUM ('owner', 'member');

CREATE TYPE "AuditActorKind" AS ENUM ('user', 'api_key', 'system');

CREATE TABLE "users" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "email_verified" BOOLEAN NOT NULL DEFAULT false,
    "image" TEXT,
    "first_user" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "sessions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "token" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "ip_address" TEXT,
    "user_agent" TEXT,
    "active_workspace_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "auth_accounts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "account_id" TEXT NOT NULL,
    "provider_id" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "access_token" TEXT,
    "refresh_token" TEXT,
    "id_token" TEXT,
    "access_token_expires_at" TIMESTAMPTZ(3),
    "refresh_token_expires_at" TIMESTAMPTZ(3),
    "scope" TEXT,
    "password" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "auth_accounts_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "verifications" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "identifier" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "verifications_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "workspace_members" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspace_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "role" "WorkspaceRole" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workspace_members_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "workspace_invitations" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspace_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "role" "WorkspaceRole" NOT NULL,
    "token_hash" TEXT NOT NULL,
    "invited_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "accepted_at" TIMESTAMPTZ(3),
    "accepted_by_user_id" UUID,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "workspace_invitations_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "audit_log" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspace_id" UUID,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT clock_timestamp(),
    "action" TEXT NOT NULL,
    "actor_kind" "AuditActorKind" NOT NULL,
    "actor_id" UUID,
    "actor_label" TEXT NOT NULL,
    "target" TEXT,
    "ip_address" TEXT,
    "details" JSONB,

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "service_secrets" (
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "service_secrets_pkey" PRIMARY KEY ("name")
);

CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

CREATE UNIQUE INDEX "sessions_token_key" ON "sessions"("token");

CREATE INDEX "sessions_user_id_idx" ON "sessions"("user_id");

CREATE INDEX "auth_accounts_user_id_idx" ON "auth_accounts"("user_id");

CREATE INDEX "verifications_identifier_idx" ON "verifications"("identifier");

CREATE INDEX "workspace_members_user_id_idx" ON "workspace_members"("user_id");

CREATE INDEX "workspace_members_workspace_id_created_at_id_idx" ON "workspace_members"("workspace_id", "created_at", "id");

CREATE UNIQUE INDEX "workspace_members_workspace_id_user_id_key" ON "workspace_members"("workspace_id", "user_id");

CREATE UNIQUE INDEX "workspace_invitations_token_hash_key" ON "workspace_invitations"("token_hash");

CREATE INDEX "workspace_invitations_workspace_id_created_at_id_idx" ON "workspace_invitations"("workspace_id", "created_at" DESC, "id");

CREATE INDEX "audit_log_workspace_id_at_id_idx" ON "audit_log"("workspace_id", "at" DESC, "id" DESC);

ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "sessions" ADD CONSTRAINT "sessions_active_workspace_id_fkey" FOREIGN KEY ("active_workspace_id") REFERENCES "workspaces"("id") ON DELETE SET NULL ON UPDATE CASCADE;

ALTER TABLE "auth_accounts" ADD CONSTRAINT "auth_accounts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "workspace_members" ADD CONSTRAINT "workspace_members_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "workspace_members" ADD CONSTRAINT "workspace_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "workspace_invitations" ADD CONSTRAINT "workspace_invitations_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written.

-- At most one user signed up as the first user of an empty service (without an invitation): two
-- sign-ups racing on an empty service cannot both succeed.
CREATE UNIQUE INDEX "users_one_first_user_key" ON "users" ("first_user") WHERE "first_user";

-- Emails are compared lower-case everywhere (the library lower-cases users' emails).
ALTER TABLE "users" ADD CONSTRAINT "user_email_lower_case" CHECK ("email" = lower("email"));
ALTER TABLE "workspace_invitations" ADD CONSTRAINT "invitation_email_lower_case" CHECK ("email" = lower("email"));

-- Absolute session expiry (docs/contract/decisions.md: idle 7 days, absolute 30 days): the library
-- slides `expires_at` forward as a session is used (idle expiry), and this trigger caps it at 30
-- days after the session was created, whichever code path writes it.
CREATE FUNCTION "sessions_cap_expiry"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  NEW."expires_at" := LEAST(NEW."expires_at", NEW."created_at" + interval ''30 days'')\073
  RETURN NEW\073
END';

CREATE TRIGGER "sessions_cap_expiry" BEFORE INSERT OR UPDATE ON "sessions"
  FOR EACH ROW EXECUTE FUNCTION "sessions_cap_expiry"();
