-- Idempotent requests (issue 29): a replay answers the first answer's relevant headers too
-- (Content-Type, Location, Retry-After), kept beside its status and body (src/domain/shared/idempotency.ts).
ALTER TABLE "idempotent_requests" ADD COLUMN "headers" JSONB;
