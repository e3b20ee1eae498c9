-- Idempotent requests (issue 24, docs/contract/decisions.md "Idempotent requests (third wave)"): the
-- answers of requests sent with an Idempotency-Key, in PostgreSQL so that they survive a Redis restart.
-- A row is claimed with INSERT ... ON CONFLICT before the work runs (status NULL: still running, until
-- locked_until), then holds the answer (status, body) until expires_at (24 hours). The domain's rules:
-- src/domain/shared/idempotency.ts.

CREATE TABLE "idempotent_requests" (
    "workspace_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "claim" UUID NOT NULL,
    "status" INTEGER,
    "body" TEXT,
    "locked_until" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT clock_timestamp(),
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "idempotent_requests_pkey" PRIMARY KEY ("workspace_id", "key"),
    CONSTRAINT "idempotent_requests_key_length" CHECK (char_length("key") BETWEEN 1 AND 255),
    CONSTRAINT "idempotent_requests_answer" CHECK (("status" IS NULL) = ("body" IS NULL))
);
CREATE INDEX "idempotent_requests_expires_at_idx" ON "idempotent_requests"("expires_at");
ALTER TABLE "idempotent_requests" ADD CONSTRAINT "idempotent_requests_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
