/** Express middleware for every REST request: request id, authentication and the per-key rate limit. */
import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { authenticate, bearerSecret, type AuthContext } from "../../domain/keys/service.js";
import { consumeRequest, RateLimitedError, type RateLimitState } from "../../domain/keys/rate-limit.js";
import { unauthorized } from "../../domain/shared/errors.js";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echoes a well-formed incoming X-Request-Id, otherwise makes one; always sets the header. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.get("x-request-id");
  const id = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.locals.requestId = id;
  res.setHeader("X-Request-Id", id);
  next();
}

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
