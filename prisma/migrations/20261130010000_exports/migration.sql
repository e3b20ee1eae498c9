-- Export jobs (issue 33, src/domain/exports/, docs/exports.md): one row per export a workspace started
-- through GraphQL, MCP, the dashboard or REST's POST /exports. The file lives under EXPORT_DIR while the
-- row says `completed`, and both are deleted by the sweep once `expires_at` has passed (EXPORT_RETENTION_HOURS).
-- `filter` is the list's filter as it was given (checked with the list's own schema when started and again
-- by the job). At most EXPORT_MAX_CONCURRENT rows of a workspace are queued or running (checked under a
-- per-workspace transaction lock when one is started).
CREATE TABLE "exports" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY,
  "workspace_id" UUID NOT NULL REFERENCES "workspaces" ("id") ON DELETE CASCADE,
  "kind" TEXT NOT NULL,
  "format" TEXT NOT NULL CHECK ("format" IN ('csv', 'xlsx')),
  "bom" BOOLEAN NOT NULL DEFAULT false,
  "filter" JSONB NOT NULL DEFAULT '{}',
  "status" TEXT NOT NULL DEFAULT 'queued' CHECK ("status" IN ('queued', 'running', 'completed', 'failed', 'expired')),
  "rows_written" INTEGER NOT NULL DEFAULT 0,
  "total_rows" INTEGER,
  "bytes" BIGINT,
  "error" TEXT,
  "file_name" TEXT,
  "created_by" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "started_at" TIMESTAMPTZ(3),
  "finished_at" TIMESTAMPTZ(3),
  "expires_at" TIMESTAMPTZ(3)
);
CREATE INDEX "exports_workspace_created_idx" ON "exports" ("workspace_id", "created_at" DESC, "id" DESC);
CREATE INDEX "exports_active_idx" ON "exports" ("workspace_id") WHERE "status" IN ('queued', 'running');
CREATE INDEX "exports_expires_idx" ON "exports" ("expires_at") WHERE "status" IN ('completed', 'failed');
