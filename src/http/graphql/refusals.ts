/**
 * Domain errors as GraphQL errors, for every GraphQL door (HTTP, SSE, graphql-ws): the code, details
 * and `retryAfter` (REST's Retry-After) in `extensions`; a refusal before any operation runs
 * (UNAUTHORIZED, RATE_LIMITED) also carries the HTTP status and the headers of the one error mapping
 * (src/http/errors.ts: Retry-After, RateLimit-*), as REST answers it.
 */
import { GraphQLError } from "graphql";
import { DomainError } from "../../domain/shared/errors.ts";
import { refusalHeaders } from "../errors.ts";

/** A domain error's extensions: its code, details and, for an error a client may retry later, `retryAfter` (seconds). */
export function domainExtensions(e: DomainError): Record<string, unknown> {
  return {
    code: e.code,
    ...(e.details ? { details: e.details } : {}),
    ...(e.retryAfterSeconds !== undefined ? { retryAfter: e.retryAfterSeconds } : {}),
  };
}

/** A request refused before any operation runs: over HTTP its status and headers; over WebSocket an error message with the same code. */
export function refusal(e: DomainError): GraphQLError {
  return new GraphQLError(e.message, { extensions: { ...domainExtensions(e), http: { status: e.status, headers: refusalHeaders(e) } } });
}
