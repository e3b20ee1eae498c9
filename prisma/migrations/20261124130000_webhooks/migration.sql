-- Signed webhooks (issue 13): the workspace events outbox, webhook endpoints and their delivery
-- log. docs/contract/decisions.md "Webhooks (second wave)", docs/webhooks.md for the design.
-- Hand-written: the two partial indexes are not in prisma/schema.

CREATE TYPE "WebhookDeliveryStatus" AS ENUM ('pending', 'delivered', 'failed');

CREATE TABLE "webhook_endpoints" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspace_id" UUID NOT NULL,
    "slot" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[] NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "secret_cipher" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "failing_since" TIMESTAMPTZ(3),
    "disabled_at" TIMESTAMPTZ(3),
    "disabled_reason" TEXT,
    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhook_endpoint_slot_range" CHECK ("slot" BETWEEN 1 AND 10)
);
CREATE UNIQUE INDEX "webhook_endpoints_workspace_id_slot_key" ON "webhook_endpoints"("workspace_id", "slot");
CREATE INDEX "webhook_endpoints_workspace_id_created_at_id_idx" ON "webhook_endpoints"("workspace_id", "created_at" DESC, "id");
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "workspace_events" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspace_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "endpoint_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT clock_timestamp(),
    "relayed_at" TIMESTAMPTZ(3),
    CONSTRAINT "workspace_events_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "workspace_events_created_at_idx" ON "workspace_events"("created_at");
CREATE INDEX "workspace_events_unrelayed_idx" ON "workspace_events"("created_at") WHERE "relayed_at" IS NULL;
ALTER TABLE "workspace_events" ADD CONSTRAINT "workspace_events_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "workspace_events" ADD CONSTRAINT "workspace_events_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "endpoint_id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "status" "WebhookDeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "response_status" INTEGER,
    "last_error" TEXT,
    "next_attempt_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT clock_timestamp(),
    "delivered_at" TIMESTAMPTZ(3),
    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "webhook_deliveries_endpoint_id_event_id_key" ON "webhook_deliveries"("endpoint_id", "event_id");
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_id_idx" ON "webhook_deliveries"("endpoint_id", "created_at" DESC, "id" DESC);
CREATE INDEX "webhook_deliveries_event_id_idx" ON "webhook_deliveries"("event_id");
CREATE INDEX "webhook_deliveries_pending_idx" ON "webhook_deliveries"("next_attempt_at") WHERE "status" = 'pending';
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "workspace_events"("id") ON DELETE CASCADE ON UPDATE CASCADE;
