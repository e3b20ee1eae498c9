/** Express middleware for every REST request: authentication and the per-key rate limit. */
import type { NextFunction, Request, Response } from "express";
import { RateLimitedError, type RateLimitState } from "../../domain/keys/access.js";
import type { Actor } from "../../domain/people/actor.js";
import { DomainError, notFound, unauthorized } from "../../domain/shared/errors.js";
import { rateLimitHeaders, UNSUPPORTED_MEDIA_TYPE_MESSAGE, unsupportedBodyMediaType } from "../request-context.js";
import { addLogContext } from "../../infra/logger.js";
import { whoIsAsking } from "../auth/request.js";

export function authOf(res: Response): Actor {
  return res.locals.auth as Actor;
}

function setRateHeaders(res: Response, r: RateLimitState): void {
  for (const [name, value] of Object.entries(rateLimitHeaders(r))) res.setHeader(name, value);
}

/**
 * Who asks (an API key, or a person's session cookie: src/http/auth/request.ts, one step for every
 * door) and its rate limit, with the RateLimit-* headers; 401 without a valid key or session, 429
 * past the budget, 404 for a person who belongs to no workspace (or names one they are not in).
 */
export async function admitRequest(req: Request, res: Response, next: NextFunction): Promise<void> {
  let asker;
  try {
    asker = await whoIsAsking(req, { count: true });
  } catch (e) {
    if (e instanceof RateLimitedError) {
      setRateHeaders(res, e.state);
      res.setHeader("Retry-After", String(e.state.resetSeconds));
    }
    throw e; // Redis trouble: the error handler answers 503
  }
  if (!asker) throw unauthorized();
  for (const cookie of asker.setCookies) res.append("Set-Cookie", cookie);
  if (asker.limit) setRateHeaders(res, asker.limit);
  if (!asker.actor) throw notFound("Workspace (you are not a member of any workspace)");
  res.locals.auth = asker.actor;
  addLogContext({ workspaceId: asker.actor.workspaceId });
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
