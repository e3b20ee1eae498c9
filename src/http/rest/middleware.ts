/** Express middleware for every REST request: authentication and the per-key rate limit. */
import type { NextFunction, Request, Response } from "express";
import { authenticate, bearerSecret, type AuthContext } from "../../domain/keys/service.js";
import { consumeRequest, RateLimitedError, type RateLimitState } from "../../domain/keys/rate-limit.js";
import { unauthorized } from "../../domain/shared/errors.js";

export function authOf(res: Response): AuthContext {
  return res.locals.auth as AuthContext;
}

export async function requireApiKey(req: Request, res: Response, next: NextFunction): Promise<void> {
  const auth = await authenticate(bearerSecret(req.get("authorization")));
  if (!auth) throw unauthorized();
  res.locals.auth = auth;
  next();
}

function setRateHeaders(res: Response, r: RateLimitState): void {
  res.setHeader("RateLimit-Limit", String(r.limit));
  res.setHeader("RateLimit-Remaining", String(r.remaining));
  res.setHeader("RateLimit-Reset", String(r.resetSeconds));
}

/** The per-key rate limit (src/domain/keys/rate-limit.ts), with its headers. */
export async function rateLimit(_req: Request, res: Response, next: NextFunction): Promise<void> {
  try {
    setRateHeaders(res, await consumeRequest(authOf(res).keyId));
  } catch (e) {
    if (e instanceof RateLimitedError) {
      setRateHeaders(res, e.state);
      res.setHeader("Retry-After", String(e.state.resetSeconds));
    }
    throw e; // Redis trouble: the error handler answers 503
  }
  next();
}
