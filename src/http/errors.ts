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
import { unavailableDependency } from "../infra/logger.ts";

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  details?: { path: string; message: string }[];
  requestId?: string;
  /** Only where a route documents it (POST /accounts: the refused handle under `data.failed`). */
  data?: unknown;
}

/** Retry-After of every 503 SERVICE_UNAVAILABLE for a backing service (REST's header, GraphQL's `extensions.retryAfter`). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
/** The one answer of an unavailable backing service, for every door. */
export const UNAVAILABLE_MESSAGE = "A backing service (database or Redis) is unavailable; try again shortly.";

/** True when the error (or anything in its cause chain) says PostgreSQL or Redis is unreachable or stalled
 *  (the list: src/infra/logger.ts, `unavailableDependency`). */
export function isUnavailable(err: unknown): boolean {
  return unavailableDependency(err) !== null;
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
