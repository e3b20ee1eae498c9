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
 * - An answer that could not be stored (the database went away) is not sent: the door sends 503
 *   SERVICE_UNAVAILABLE instead (`storeOrRefuse`, `AnswerNotStored`), so no client ever received an answer that
 *   a retry with its key would not get; a release the database refused is retried until it succeeds.
 * - An answer of 5xx is not stored (the row is deleted: the retry runs again), nor one of 400 (the
 *   request was refused as invalid before any work: VALIDATION_ERROR, INVALID_URL), so the client can
 *   fix the body and retry with the same key, as Stripe does; other 4xx answers are stored.
 * - A replay answers the first answer's status, body and the headers that describe it
 *   (`REPLAYED_HEADERS`: Content-Type, Location, Retry-After), stored with it.
 * - A claim holds its key for a lease (IDEMPOTENCY_LEASE_MS) that its request extends while it runs
 *   (every third of the lease, up to `MAX_HOLD_MS`), so a request that runs longer than the lease is
 *   never run a second time beside it; a claim whose process died stops being extended and is taken
 *   over once its lease ran out. A claim taken over anyway (its process stalled past the lease) can
 *   no longer store its answer: every write is fenced by the claim's id.
 * - Answers are kept 24 hours (`IDEMPOTENCY_TTL_HOURS`): an expired row is taken over by the next
 *   request with its key (delete-on-read) and the maintenance queue deletes the others hourly
 *   (`pruneIdempotentRequests`, src/jobs/registry.ts).
 */
import { createHash, randomUUID } from "node:crypto";
import stableStringify from "safe-stable-stringify";
import { config } from "../../config.ts";
import { Prisma, sql, sqlExec } from "../../infra/db.ts";
import { logger } from "../../infra/logger.ts";
import { DomainError, validationError } from "./errors.ts";

export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
export const IDEMPOTENT_REPLAYED_HEADER = "Idempotent-Replayed";
/** How long an answer is replayed (the contract: at least 24 hours). */
export const IDEMPOTENCY_TTL_HOURS = 24;
/** The longest a request extends its claim (a request still running after this is presumed stuck: its key may be taken over). */
export const MAX_HOLD_MS = 15 * 60_000;
/** The headers of an answer a replay repeats, by lower-case name (RateLimit-* and X-Request-Id are the replay's own). */
export const REPLAYED_HEADERS = ["content-type", "location", "retry-after"] as const;
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
  /**
   * Who asks (../actors/actor.ts `principalId`): part of what must be the same, so a key's answer is replayed only
   * to whoever earned it. Without it a member who learned an owner's key could replay, say, `createApiKey`'s answer
   * (its secret shown once), since GraphQL's replay comes before the resolvers' role checks.
   */
  asker: string;
}

/** The answer stored and replayed: status, the JSON text of the body, byte for byte, and the headers that describe it. */
export interface IdempotentAnswer {
  status: number;
  body: string;
  /** Of `REPLAYED_HEADERS`, by lower-case name (none for the doors that have no HTTP answer of their own). */
  headers?: Record<string, string>;
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
    super(
      "IDEMPOTENCY_KEY_IN_USE",
      `A request with this ${IDEMPOTENCY_KEY_HEADER} is still running; retry in ${IDEMPOTENCY_RETRY_AFTER_SECONDS} second(s) for its answer.`,
    );
  }
}

/** The SHA-256 of the payload's canonical JSON (keys sorted): equal payloads, equal fingerprints. */
function fingerprintOf(payload: unknown): string {
  return createHash("sha256")
    .update(stableStringify(payload ?? null) ?? "null")
    .digest("hex");
}

interface HeldRow {
  method: string;
  path: string;
  fingerprint: string;
  status: number | null;
  body: string | null;
  headers: Record<string, string> | null;
}

/** The timers extending the claims this process holds, by claim. */
const holding = new Map<string, NodeJS.Timeout>();

/**
 * Extends the claim's lease every third of it while its request runs (`letGo` stops it), up to
 * MAX_HOLD_MS; stops by itself when the claim is no longer this one's (settled, released, taken over).
 */
function hold(claimed: IdempotencyClaim): void {
  const leaseMs = config.idempotency.leaseMs;
  const until = Date.now() + MAX_HOLD_MS;
  const timer = setInterval(
    () => {
      if (Date.now() > until) return letGo(claimed);
      sqlExec(Prisma.sql`
      UPDATE idempotent_requests SET locked_until = clock_timestamp() + ${leaseMs} * interval '1 millisecond'
      WHERE workspace_id = ${claimed.workspaceId}::uuid AND key = ${claimed.key} AND claim = ${claimed.claim}::uuid AND status IS NULL`)
        .then((n) => {
          if (n === 0 && holding.has(claimed.claim)) {
            letGo(claimed);
            logger.warn(
              { key: claimed.key },
              "an Idempotency-Key claim was taken over while its request ran (its process stalled past the lease)",
            );
          }
        })
        .catch((e: unknown) => logger.warn({ err: (e as Error).message }, "could not extend an Idempotency-Key claim"));
    },
    Math.max(100, Math.floor(leaseMs / 3)),
  );
  timer.unref();
  holding.set(claimed.claim, timer);
}

function letGo(claimed: IdempotencyClaim): void {
  clearInterval(holding.get(claimed.claim));
  holding.delete(claimed.claim);
}

/**
 * Claims the request's key, or answers what the key already holds: the stored answer (`replay`),
 * 422 IDEMPOTENCY_KEY_REUSED (another request) or 409 IDEMPOTENCY_KEY_IN_USE (still running).
 */
export async function claimIdempotentRequest(request: IdempotentRequest): Promise<IdempotencyOutcome> {
  const { workspaceId, key, method, path } = request;
  const fingerprint = fingerprintOf({ asker: request.asker, payload: request.payload });
  // A row deleted between the two statements (a 5xx released it, or the prune) is claimed again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const claim = randomUUID();
    const leaseMs = config.idempotency.leaseMs;
    // One statement decides: a new key is inserted; a held key is taken over only when its answer
    // expired or its claim's lease ran out (the process died); otherwise nothing is written.
    const won = await sql<{ claim: string }>(Prisma.sql`
      INSERT INTO idempotent_requests AS r (workspace_id, key, method, path, fingerprint, claim, locked_until, expires_at)
      VALUES (${workspaceId}::uuid, ${key}, ${method}, ${path}, ${fingerprint}, ${claim}::uuid,
              clock_timestamp() + ${leaseMs} * interval '1 millisecond',
              clock_timestamp() + ${IDEMPOTENCY_TTL_HOURS} * interval '1 hour')
      ON CONFLICT (workspace_id, key) DO UPDATE SET
        method = EXCLUDED.method, path = EXCLUDED.path, fingerprint = EXCLUDED.fingerprint, claim = EXCLUDED.claim,
        status = NULL, body = NULL, headers = NULL, locked_until = EXCLUDED.locked_until, created_at = clock_timestamp(), expires_at = EXCLUDED.expires_at
      WHERE r.expires_at <= clock_timestamp() OR (r.status IS NULL AND r.locked_until <= clock_timestamp())
      RETURNING r.claim::text AS claim`);
    if (won.length > 0) {
      const claimed: IdempotencyClaim = { kind: "claimed", workspaceId, key, claim };
      hold(claimed);
      return claimed;
    }
    // A second statement (a new snapshot) reads the row that won.
    const [held] = await sql<HeldRow>(Prisma.sql`
      SELECT method, path, fingerprint, status, body, headers FROM idempotent_requests
      WHERE workspace_id = ${workspaceId}::uuid AND key = ${key}`);
    if (!held) continue;
    if (held.method !== method || held.path !== path || held.fingerprint !== fingerprint) throw idempotencyKeyReused();
    if (held.status === null || held.body === null) throw new IdempotencyKeyInUse();
    return { kind: "replay", status: held.status, body: held.body, ...(held.headers ? { headers: held.headers } : {}) };
  }
  throw new IdempotencyKeyInUse();
}

/** Whether an answer is kept for replay: not a 5xx (the retry runs again), not a 400 (refused as invalid before any work: the client fixes it). */
export const keptForReplay = (status: number) => status < 500 && status !== 400;

/**
 * Stores the claimed request's answer for replay, or, for one not kept (`keptForReplay`), lets the key go so that
 * the retry runs again. Throws when the answer could not be stored (the database is away): the caller must then
 * not send that answer (`storeOrRefuse`), since a retry would run the work again and could answer otherwise.
 */
export async function settleIdempotentRequest(claimed: IdempotencyClaim, answer: IdempotentAnswer): Promise<void> {
  if (!keptForReplay(answer.status)) return releaseIdempotentRequest(claimed);
  letGo(claimed);
  const headers = answer.headers && Object.keys(answer.headers).length ? JSON.stringify(answer.headers) : null;
  await sqlExec(Prisma.sql`
    UPDATE idempotent_requests SET status = ${answer.status}, body = ${answer.body}, headers = ${headers}::jsonb
    WHERE workspace_id = ${claimed.workspaceId}::uuid AND key = ${claimed.key} AND claim = ${claimed.claim}::uuid`);
}

/** How often a release that failed (the database was away) is tried again, until it succeeds or the claim's lease ends. */
export const RELEASE_RETRY_MS = 500;

/**
 * Lets the key go without an answer (the work failed with 5xx, was refused as invalid, never answered, or its
 * answer could not be stored). Never throws: a release the database refused (a blip) is tried again every
 * RELEASE_RETRY_MS in the background until it succeeds or the claim's lease ran out (then the next request
 * takes the key over anyway), so the retry after the blip runs at once instead of hearing
 * IDEMPOTENCY_KEY_IN_USE until the lease ends. Resolves after the first attempt.
 */
export async function releaseIdempotentRequest(claimed: IdempotencyClaim): Promise<void> {
  letGo(claimed);
  const until = Date.now() + config.idempotency.leaseMs;
  const attempt = () =>
    sqlExec(Prisma.sql`
    DELETE FROM idempotent_requests
    WHERE workspace_id = ${claimed.workspaceId}::uuid AND key = ${claimed.key} AND claim = ${claimed.claim}::uuid AND status IS NULL`).then(
      () => true,
      () => false,
    );
  if (await attempt()) return;
  logger.warn({ key: claimed.key }, "could not let an Idempotency-Key go (database unavailable); retrying in the background");
  const retry = async () => {
    if (await attempt()) return logger.info({ key: claimed.key }, "Idempotency-Key let go after the database came back");
    if (Date.now() + RELEASE_RETRY_MS < until) setTimeout(retry, RELEASE_RETRY_MS).unref();
  };
  setTimeout(retry, RELEASE_RETRY_MS).unref();
}

/** The answer sent instead of one that could not be stored (503, not kept: the retry runs again). */
export class AnswerNotStored extends DomainError {
  override readonly retryAfterSeconds = 5;
  constructor() {
    super("SERVICE_UNAVAILABLE", "The answer to this request could not be stored for its Idempotency-Key; retry it with the same key.");
  }
}

/**
 * Stores the answer (or lets the key go for one not kept); when it could not be stored, lets the key go and
 * answers false: the door then sends AnswerNotStored (503) instead, so an answer a client received is always
 * the one a retry with the same key gets (README: a 5xx is not kept, the retry runs again).
 */
export async function storeOrRefuse(claimed: IdempotencyClaim, answer: IdempotentAnswer): Promise<boolean> {
  try {
    await settleIdempotentRequest(claimed, answer);
    return true;
  } catch (err) {
    logger.warn({ err: (err as Error).message, key: claimed.key }, "idempotent answer not stored; answering 503 and letting the key go");
    await releaseIdempotentRequest(claimed);
    return !keptForReplay(answer.status);
  }
}

/**
 * Runs `work` once for its key: the claimed request runs it and stores its answer; a retry gets
 * the stored answer (`replayed: true`). The doors that hold no HTTP response (the MCP tools) use it.
 */
export async function runIdempotently(
  request: IdempotentRequest,
  work: () => Promise<IdempotentAnswer>,
): Promise<IdempotentAnswer & { replayed: boolean }> {
  const outcome = await claimIdempotentRequest(request);
  if (outcome.kind === "replay") return { status: outcome.status, body: outcome.body, headers: outcome.headers, replayed: true };
  let answer: IdempotentAnswer;
  try {
    answer = await work();
  } catch (e) {
    await releaseIdempotentRequest(outcome);
    throw e;
  }
  if (!(await storeOrRefuse(outcome, answer))) throw new AnswerNotStored();
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
