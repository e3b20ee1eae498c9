/**
 * Express middleware shared by the Express doors (REST under /api/v1 and MCP at /mcp): the API key
 * and the per-key rate limit, and the JSON-body rule. GraphQL admits its operations with the same
 * domain rule in ./graphql/yoga.ts.
 */
import type { NextFunction, Request, Response } from "express";
import { admit, bearerSecret, RateLimitedError, type AuthContext, type RateLimitState } from "../domain/keys/access.js";
import { DomainError, unauthorized } from "../domain/shared/errors.js";
import { authorizationHeader, rateLimitHeaders, UNSUPPORTED_MEDIA_TYPE_MESSAGE, unsupportedBodyMediaType } from "./request-context.js";
import { addLogContext } from "../infra/logger.js";

export function authOf(res: Response): AuthContext {
  return res.locals.auth as AuthContext;
}

function setRateHeaders(res: Response, r: RateLimitState): void {
  for (const [name, value] of Object.entries(rateLimitHeaders(r))) res.setHeader(name, value);
}

/**
 * The API key and the per-key rate limit (src/domain/keys/access.ts, one rule for every door), with
 * the RateLimit-* headers; 401 without a valid key, 429 past the budget.
 */
export async function admitRequest(req: Request, res: Response, next: NextFunction): Promise<void> {
  let admitted;
  try {
    admitted = await admit(bearerSecret(authorizationHeader(req)));
  } catch (e) {
    if (e instanceof RateLimitedError) {
      setRateHeaders(res, e.state);
      res.setHeader("Retry-After", String(e.state.resetSeconds));
    }
    throw e; // Redis trouble: the error handler answers 503
  }
  if (!admitted) throw unauthorized();
  res.locals.auth = admitted.auth;
  addLogContext({ workspaceId: admitted.auth.workspaceId });
  setRateHeaders(res, admitted.limit);
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
