/** Express middleware for every REST request: request id, authentication and per-key rate limits. */
import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { config } from "../../config.js";
import { authenticate, bearerSecret, type AuthContext } from "../../domain/keys/service.js";
import { DomainError, unauthorized } from "../../domain/shared/errors.js";
import { redis } from "../../infra/redis.js";

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

let limiter: RateLimiterRedis | null = null;
function rateLimiter(): RateLimiterRedis {
  limiter ??= new RateLimiterRedis({
    storeClient: redis(),
    keyPrefix: `${config.redisPrefix}:ratelimit`,
    points: config.rateLimitPerMinute,
    duration: 60,
  });
  return limiter;
}

function setRateHeaders(res: Response, r: RateLimiterRes): void {
  res.setHeader("RateLimit-Limit", String(config.rateLimitPerMinute));
  res.setHeader("RateLimit-Remaining", String(Math.max(r.remainingPoints, 0)));
  res.setHeader("RateLimit-Reset", String(Math.ceil(r.msBeforeNext / 1000)));
}

/** Per-key limit of RATE_LIMIT_PER_MINUTE requests, counted in Redis across all API processes. */
export async function rateLimit(_req: Request, res: Response, next: NextFunction): Promise<void> {
  const { keyId } = authOf(res);
  try {
    setRateHeaders(res, await rateLimiter().consume(keyId));
  } catch (e) {
    if (!(e instanceof RateLimiterRes)) throw e; // Redis trouble: the error handler answers 503
    setRateHeaders(res, e);
    res.setHeader("Retry-After", String(Math.ceil(e.msBeforeNext / 1000)));
    throw new DomainError("RATE_LIMITED", `Rate limit of ${config.rateLimitPerMinute} requests per minute exceeded for this API key.`);
  }
  next();
}
