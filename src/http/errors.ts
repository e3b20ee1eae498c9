/**
 * Maps anything thrown while serving a request to the contract's `{code, message}` body and status,
 * for every door (REST and MCP answer the body; GraphQL uses `isUnavailable`).
 * Nothing a client sends produces a stack trace: unexpected errors become 500 INTERNAL_ERROR with
 * the request id, and an unreachable database or Redis becomes 503 SERVICE_UNAVAILABLE.
 */
import { DomainError, UnauthorizedError } from "../domain/shared/errors.ts";
import type { ErrorCode } from "../domain/shared/errors.ts";
import { RateLimitedError } from "../domain/keys/access.ts";
import { rateLimitHeaders } from "./request-context.ts";

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  details?: { path: string; message: string }[];
  requestId?: string;
  /** Only where a route documents it (POST /accounts: the refused handle under `data.failed`). */
  data?: unknown;
}

const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "57P01",
  "57P03",
  "53300",
  "P1001",
  "P1002",
  "P1017",
  "P2024",
  // statement_timeout (DATABASE_STATEMENT_TIMEOUT_MS): the server cancelled a statement that took too long.
  "57014",
]);
/** Refused or cut connections, and the bounded waits' timeouts (src/infra/db.ts, src/infra/redis.ts): ioredis's
 *  commandTimeout, node-postgres's query_timeout and connectionTimeoutMillis (pool and client). */
const UNAVAILABLE_MESSAGES =
  /Connection is closed|connect ECONNREFUSED|Can't reach database|Connection terminated|Timed out fetching a new connection|MaxRetriesPerRequestError|Stream isn't writeable|enableOfflineQueue|Command timed out|Query read timeout|timeout exceeded when trying to connect|canceling statement due to statement timeout/i;

/** Retry-After of every 503 SERVICE_UNAVAILABLE for a backing service (REST's header, GraphQL's `extensions.retryAfter`). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
/** The one answer of an unavailable backing service, for every door. */
export const UNAVAILABLE_MESSAGE = "A backing service (database or Redis) is unavailable; try again shortly.";

/** True when the error (or anything in its cause chain) says PostgreSQL or Redis is unreachable. */
export function isUnavailable(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; message?: unknown; name?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 6;
    e = e.cause as typeof e, depth++
  ) {
    if (typeof e.code === "string" && UNAVAILABLE_CODES.has(e.code)) return true;
    if (typeof e.message === "string" && UNAVAILABLE_MESSAGES.test(e.message)) return true;
    if (e.name === "MaxRetriesPerRequestError") return true;
  }
  return false;
}

/** body-parser errors: bad JSON, too large, bad encoding. */
function bodyParserError(err: unknown): { status: number; body: ErrorBody } | null {
  const e = err as { type?: string; status?: number; limit?: number };
  if (e?.type === "entity.too.large") {
    return { status: 413, body: { code: "PAYLOAD_TOO_LARGE", message: "Request body is larger than 1 MiB." } };
  }
  if (e?.type === "entity.parse.failed") {
    return { status: 400, body: { code: "VALIDATION_ERROR", message: "Request body is not valid JSON." } };
  }
  if (typeof e?.type === "string" && typeof e.status === "number" && e.status >= 400 && e.status < 500) {
    return { status: 400, body: { code: "VALIDATION_ERROR", message: `Request body could not be read (${e.type}).` } };
  }
  return null;
}

/**
 * A path segment that is not percent-encoded UTF-8 (`%`, `%zz`, `%ff%fe`): Express's router fails to
 * decode the route's parameters with a URIError marked 400, before any handler runs.
 */
function pathDecodingError(err: unknown): { status: number; body: ErrorBody } | null {
  if (!(err instanceof URIError) || (err as { status?: unknown }).status !== 400) return null;
  const message = "must be valid percent-encoding of UTF-8 text";
  return {
    status: 400,
    body: { code: "VALIDATION_ERROR", message: `Invalid request: a path segment ${message}.`, details: [{ path: "params", message }] },
  };
}

/**
 * The HTTP headers of a refused request, for every door that answers over HTTP: Retry-After for any
 * domain error a client may retry later (`retryAfterSeconds`: REFRESH_TOO_SOON, RATE_LIMITED), and
 * the key's RateLimit-* state when its budget is spent.
 */
export function refusalHeaders(err: DomainError): Record<string, string> {
  const headers = err instanceof RateLimitedError ? rateLimitHeaders(err.state) : {};
  if (err.retryAfterSeconds !== undefined) headers["Retry-After"] = String(err.retryAfterSeconds);
  if (err.code === "UNAUTHORIZED") headers["WWW-Authenticate"] = bearerChallenge(err);
  return headers;
}

/**
 * The challenge of every 401 (RFC 6750, 3): `Bearer realm="video-service"`, plus `error="invalid_token"`
 * when a credential was sent and refused. Clients such as MCP Inspector read it to tell "send a
 * token" from other failures (without it they fall back to OAuth discovery and hide the message).
 */
export function bearerChallenge(err: DomainError): string {
  const refused = err instanceof UnauthorizedError && err.credentialRefused;
  return refused
    ? `Bearer realm="${REALM}", error="invalid_token", error_description="The API key is not valid."`
    : `Bearer realm="${REALM}"`;
}

const REALM = "video-service";

export function toErrorResponse(
  err: unknown,
  requestId: string,
): { status: number; body: ErrorBody; headers?: Record<string, string>; unexpected: boolean } {
  if (err instanceof DomainError) {
    const body: ErrorBody = { code: err.code, message: err.message };
    if (err.details) body.details = err.details;
    if (err.data !== undefined) body.data = err.data;
    return { status: err.status, body, headers: refusalHeaders(err), unexpected: false };
  }
  const parsed = bodyParserError(err) ?? pathDecodingError(err);
  if (parsed) return { ...parsed, unexpected: false };
  if (isUnavailable(err)) {
    return {
      status: 503,
      body: { code: "SERVICE_UNAVAILABLE", message: UNAVAILABLE_MESSAGE, requestId },
      headers: { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
      unexpected: true,
    };
  }
  return {
    status: 500,
    body: { code: "INTERNAL_ERROR", message: "An unexpected error occurred; quote the request id when reporting it.", requestId },
    unexpected: true,
  };
}
