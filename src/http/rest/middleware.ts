/** Express middleware for every REST request: authentication and the per-key rate limit. */
import type { NextFunction, Request, Response } from "express";
import { admit, bearerSecret, RateLimitedError, type AuthContext, type RateLimitState } from "../../domain/keys/access.js";
import { unauthorized } from "../../domain/shared/errors.js";
import { addLogContext } from "../../infra/logger.js";

export function authOf(res: Response): AuthContext {
  return res.locals.auth as AuthContext;
}

function setRateHeaders(res: Response, r: RateLimitState): void {
  res.setHeader("RateLimit-Limit", String(r.limit));
  res.setHeader("RateLimit-Remaining", String(r.remaining));
  res.setHeader("RateLimit-Reset", String(r.resetSeconds));
}

/**
 * The API key and the per-key rate limit (src/domain/keys/access.ts, one rule for every door), with
 * the RateLimit-* headers; 401 without a valid key, 429 past the budget.
 */
export async function admitRequest(req: Request, res: Response, next: NextFunction): Promise<void> {
  let admitted;
  try {
    admitted = await admit(bearerSecret(req.get("authorization")));
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
