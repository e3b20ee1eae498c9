/**
 * Idempotent requests (docs/contract/decisions.md, "Idempotent requests (third wave)"; the IETF draft
 * "The Idempotency-Key HTTP Header Field"): a request sent again with the same `Idempotency-Key`
 * does its work once. The one implementation every door uses: REST's middleware
 * (src/http/rest/idempotency.ts), GraphQL mutations over HTTP (src/http/graphql/idempotency.ts) and the
 * MCP tools that spend credits or create (`idempotencyKey`, src/http/mcp/server.ts).
 *
 * - The header: 1 to 255 printable ASCII characters, else 400 VALIDATION_ERROR (`idempotencyKeyOf`).
 * - Scope: the workspace. A key names one request (method, path and a SHA-256 of its canonical
 *   JSON payload); the same key with another request: 422 IDEMPOTENCY_KEY_REUSED.
 * - The answers live in PostgreSQL (`idempotent_requests`), so a Redis restart loses none. A request
 *   claims its key with one INSERT ... ON CONFLICT statement before its work runs:
 *   of 50 parallel requests with one key exactly one claims it; the others read the row and get
 *   409 IDEMPOTENCY_KEY_IN_USE (with Retry-After) while it runs, or its answer once stored.
 * - An answer of 5xx is not stored (the row is deleted: the retry runs again); 4xx answers are.
 * - A claim whose process died is taken over after its lease (`IDEMPOTENCY_LEASE_MS`).
 * - Answers are kept 24 hours (`IDEMPOTENCY_TTL_HOURS`): an expired row is taken over by the next
 *   request with its key (delete-on-read) and the maintenance queue deletes the others hourly
 *   (`pruneIdempotentRequests`, src/jobs/registry.ts).
 */
import { createHash, randomUUID } from "node:crypto";
import stableStringify from "safe-stable-stringify";
import { Prisma, sql, sqlExec } from "../../infra/db.ts";
import { DomainError, validationError } from "./errors.ts";

export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
export const IDEMPOTENT_REPLAYED_HEADER = "Idempotent-Replayed";
/** How long an answer is replayed (the contract: at least 24 hours). */
export const IDEMPOTENCY_TTL_HOURS = 24;
/** How long a claim holds its key while its request runs; past it, a process that died lets the retry run. */
export const IDEMPOTENCY_LEASE_MS = 60_000;
/** What a request that finds its key in use is told to wait (Retry-After, seconds). */
export const IDEMPOTENCY_RETRY_AFTER_SECONDS = 1;
/** The maintenance job that deletes expired answers. */
export const PRUNE_IDEMPOTENT_REQUESTS = "prune-idempotent-requests";

/** 1 to 255 printable ASCII characters (U+0020 to U+007E). */
const KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;
const KEY_RULE = "must be 1 to 255 printable ASCII characters";

/**
 * The `Idempotency-Key` header's value, or null without one: 400 VALIDATION_ERROR (`details` naming
 * the header, or `where`) for an empty, too long or non-printable key, or the header sent twice.
 */
export function idempotencyKeyOf(value: unknown, where = "headers.idempotency-key"): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string" || !KEY_PATTERN.test(value)) {
    throw validationError(`Invalid ${IDEMPOTENCY_KEY_HEADER}: it ${KEY_RULE}.`, [{ path: where, message: KEY_RULE }]);
  }
  return value;
}

/** One request, as its idempotency key names it. */
export interface IdempotentRequest {
  workspaceId: string;
  key: string;
  /** The HTTP method (or the MCP door's `TOOL`). */
  method: string;
  /** The path (or the tool's name). */
  path: string;
  /** What must be the same for a replay (JSON: the query and body, the GraphQL parameters, the tool's arguments). */
  payload: unknown;
}

/** The answer stored and replayed: status and the JSON text of the body, byte for byte. */
export interface IdempotentAnswer {
  status: number;
  body: string;
}

/** This request holds the key: run the work, then `settleIdempotentRequest`. */
export interface IdempotencyClaim {
  kind: "claimed";
  workspaceId: string;
  key: string;
  claim: string;
}

export type IdempotencyOutcome = IdempotencyClaim | ({ kind: "replay" } & IdempotentAnswer);

export const idempotencyKeyReused = () =>
  new DomainError(
    "IDEMPOTENCY_KEY_REUSED",
    `This ${IDEMPOTENCY_KEY_HEADER} was already used for another request (another method, path or body); use a new key for a new request.`,
  );

class IdempotencyKeyInUse extends DomainError {
  override readonly retryAfterSeconds = IDEMPOTENCY_RETRY_AFTER_SECONDS;
  constructor() {
    super("IDEMPOTENCY_KEY_IN_USE", `A request with this ${IDEMPOTENCY_KEY_HEADER} is still running; retry in ${IDEMPOTENCY_RETRY_AFTER_SECONDS} second(s) for its answer.`);
  }
}

/** The SHA-256 of the payload's canonical JSON (keys sorted): equal payloads, equal fingerprints. */
function fingerprintOf(payload: unknown): string {
  return createHash("sha256").update(stableStringify(payload ?? null) ?? "null").digest("hex");
}

interface HeldRow {
  method: string;
  path: string;
  fingerprint: string;
  status: number | null;
  body: string | null;
}

/**
 * Claims the request's key, or answers what the key already holds: the stored answer (`replay`),
 * 422 IDEMPOTENCY_KEY_REUSED (another request) or 409 IDEMPOTENCY_KEY_IN_USE (still running).
 */
export async function claimIdempotentRequest(request: IdempotentRequest): Promise<IdempotencyOutcome> {
  const { workspaceId, key, method, path } = request;
  const fingerprint = fingerprintOf(request.payload);
  // A row deleted between the two statements (a 5xx released it, or the prune) is claimed again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const claim = randomUUID();
    // One statement decides: a new key is inserted; a held key is taken over only when its answer
    // expired or its claim's lease ran out (the process died); otherwise nothing is written.
    const won = await sql<{ claim: string }>(Prisma.sql`
      INSERT INTO idempotent_requests AS r (workspace_id, key, method, path, fingerprint, claim, locked_until, expires_at)
      VALUES (${workspaceId}::uuid, ${key}, ${method}, ${path}, ${fingerprint}, ${claim}::uuid,
              clock_timestamp() + ${IDEMPOTENCY_LEASE_MS} * interval '1 millisecond',
              clock_timestamp() + ${IDEMPOTENCY_TTL_HOURS} * interval '1 hour')
      ON CONFLICT (workspace_id, key) DO UPDATE SET
        method = EXCLUDED.method, path = EXCLUDED.path, fingerprint = EXCLUDED.fingerprint, claim = EXCLUDED.claim,
        status = NULL, body = NULL, locked_until = EXCLUDED.locked_until, created_at = clock_timestamp(), expires_at = EXCLUDED.expires_at
      WHERE r.expires_at <= clock_timestamp() OR (r.status IS NULL AND r.locked_until <= clock_timestamp())
      RETURNING r.claim::text AS claim`);
    if (won.length > 0) return { kind: "claimed", workspaceId, key, claim };
    // A second statement (a new snapshot) reads the row that won.
    const [held] = await sql<HeldRow>(Prisma.sql`
      SELECT method, path, fingerprint, status, body FROM idempotent_requests
      WHERE workspace_id = ${workspaceId}::uuid AND key = ${key}`);
    if (!held) continue;
    if (held.method !== method || held.path !== path || held.fingerprint !== fingerprint) throw idempotencyKeyReused();
    if (held.status === null || held.body === null) throw new IdempotencyKeyInUse();
    return { kind: "replay", status: held.status, body: held.body };
  }
  throw new IdempotencyKeyInUse();
}

/** Stores the claimed request's answer for replay, or, for a 5xx, lets the key go so that the retry runs again. */
export async function settleIdempotentRequest(claimed: IdempotencyClaim, answer: IdempotentAnswer): Promise<void> {
  if (answer.status >= 500) return releaseIdempotentRequest(claimed);
  await sqlExec(Prisma.sql`
    UPDATE idempotent_requests SET status = ${answer.status}, body = ${answer.body}
    WHERE workspace_id = ${claimed.workspaceId}::uuid AND key = ${claimed.key} AND claim = ${claimed.claim}::uuid`);
}

/** Lets the key go without an answer (the work failed with 5xx, or never answered). */
export async function releaseIdempotentRequest(claimed: IdempotencyClaim): Promise<void> {
  await sqlExec(Prisma.sql`
    DELETE FROM idempotent_requests
    WHERE workspace_id = ${claimed.workspaceId}::uuid AND key = ${claimed.key} AND claim = ${claimed.claim}::uuid AND status IS NULL`);
}

/**
 * Runs `work` once for its key: the claimed request runs it and stores its answer; a retry gets
 * the stored answer (`replayed: true`). The doors that hold no HTTP response (the MCP tools) use it.
 */
export async function runIdempotently(request: IdempotentRequest, work: () => Promise<IdempotentAnswer>): Promise<IdempotentAnswer & { replayed: boolean }> {
  const outcome = await claimIdempotentRequest(request);
  if (outcome.kind === "replay") return { status: outcome.status, body: outcome.body, replayed: true };
  let answer: IdempotentAnswer;
  try {
    answer = await work();
  } catch (e) {
    await releaseIdempotentRequest(outcome).catch(() => undefined);
    throw e;
  }
  await settleIdempotentRequest(outcome, answer);
  return { ...answer, replayed: false };
}

/** Deletes answers past their 24 hours, in batches (the maintenance queue's hourly job). */
export async function pruneIdempotentRequests(): Promise<{ removed: number }> {
  let removed = 0;
  for (;;) {
    const n = await sqlExec(Prisma.sql`
      DELETE FROM idempotent_requests WHERE (workspace_id, key) IN (
        SELECT workspace_id, key FROM idempotent_requests WHERE expires_at <= clock_timestamp() ORDER BY expires_at LIMIT 5000)`);
    removed += n;
    if (n < 5000) return { removed };
  }
}
