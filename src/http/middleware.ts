/**
 * Express middleware shared by the Express doors (REST under /api/v1 and MCP at /mcp): the API key
 * and the per-key rate limit, and the JSON-body rule. GraphQL admits its operations with the same
 * domain rule in ./graphql/yoga.ts.
 */
import type { NextFunction, Request, Response } from "express";
import { admit, bearerSecret, type AuthContext } from "../domain/keys/access.js";
import { DomainError, unauthorized } from "../domain/shared/errors.js";
import { authorizationHeader, rateLimitHeaders, UNSUPPORTED_MEDIA_TYPE_MESSAGE, unsupportedBodyMediaType } from "./request-context.js";
import { addLogContext } from "../infra/logger.js";

export function authOf(res: Response): AuthContext {
  return res.locals.auth as AuthContext;
}

/**
 * The API key and the per-key rate limit (src/domain/keys/access.ts, one rule for every door), with
 * the RateLimit-* headers; 401 without a valid key, 429 past the budget (its headers, Retry-After
 * included, come from the error mapping: ./errors.ts), 503 when Redis is unreachable.
 */
export async function admitRequest(req: Request, res: Response, next: NextFunction): Promise<void> {
  const admitted = await admit(bearerSecret(authorizationHeader(req)));
  if (!admitted) throw unauthorized();
  res.locals.auth = admitted.auth;
  addLogContext({ workspaceId: admitted.auth.workspaceId });
  for (const [name, value] of Object.entries(rateLimitHeaders(admitted.limit))) res.setHeader(name, value);
  next();
}

/**
 * 415 UNSUPPORTED_MEDIA_TYPE for a body that is not declared JSON (the rule of every door:
 * src/http/request-context.ts), before the body is read, so nothing is applied.
 */
export function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
  if (unsupportedBodyMediaType(req.method, (name) => req.get(name))) return next(new DomainError("UNSUPPORTED_MEDIA_TYPE", UNSUPPORTED_MEDIA_TYPE_MESSAGE));
  // JSON is UTF-8 (RFC 8259) whatever charset the type names, as GraphQL reads it: the parser is
  // not told otherwise (it would refuse e.g. `charset=latin1`).
  if (req.headers["content-type"]) req.headers["content-type"] = "application/json";
  next();
}
