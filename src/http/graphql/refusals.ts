/**
 * Domain errors as GraphQL errors, for every GraphQL door (HTTP, SSE, graphql-ws): the code, details
 * and `retryAfter` (REST's Retry-After) in `extensions`; a refusal before any operation runs
 * (UNAUTHORIZED, RATE_LIMITED) also carries the HTTP status and the headers of the one error mapping
 * (src/http/errors.ts: Retry-After, RateLimit-*), as REST answers it. And the status of a request
 * refused before execution under the GraphQL-over-HTTP media type (`requestErrorsAre4xx`).
 */
import { GraphQLError, type ExecutionResult } from "graphql";
import type { Plugin } from "graphql-yoga";
import { DomainError, ERROR_STATUS, type ErrorCode } from "../../domain/shared/errors.ts";
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

/**
 * GraphQL over HTTP (the specification's `application/graphql-response+json`): a request refused
 * before it executes, whose answer holds no `data` (its variables refused by graphql-js or by the
 * service's string rule, a limit, a parse or validation error), is answered 4xx: its errors' own
 * status (VALIDATION_ERROR 400 …), 400 for graphql-js's own. Yoga gives its parse and validation
 * errors that status already; this covers the rest. Marked as the specification's (`spec`), so a
 * client that asked for `application/json` keeps its 200, as that media type's rules say. An answer
 * with `data` (an error while executing) stays 200 under both.
 */
export const requestErrorsAre4xx: Plugin = {
  onExecutionResult({ result }) {
    const r = result as ExecutionResult;
    if (!r || Array.isArray(r) || "data" in r || !r.errors?.length) return;
    for (const error of r.errors) {
      const extensions = error.extensions as Record<string, unknown> & { http?: { status?: number; spec?: boolean } };
      if (extensions.http?.status) continue;
      const status = ERROR_STATUS[extensions.code as ErrorCode] ?? (extensions.code === undefined ? 400 : undefined);
      if (status !== undefined && status >= 400 && status < 500) extensions.http = { ...extensions.http, status, spec: true };
    }
  },
};
