/**
 * The per-key rate limit: RATE_LIMIT_PER_MINUTE requests per API key per minute, counted in Redis
 * so every API process shares one budget. One rule for every door (REST requests, GraphQL
 * operations over HTTP and WebSocket): each calls `consumeRequest` once per request or operation.
 */
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { config } from "../../config.js";
import { redis } from "../../infra/redis.js";
import { DomainError } from "../shared/errors.js";

/** Where a key stands in its budget (for the RateLimit-* headers). */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the budget is whole again. */
  resetSeconds: number;
}

/** Over the budget: 429 RATE_LIMITED, with the numbers for Retry-After and the RateLimit-* headers. */
export class RateLimitedError extends DomainError {
  constructor(readonly state: RateLimitState) {
    super("RATE_LIMITED", `Rate limit of ${state.limit} requests per minute exceeded for this API key.`);
  }
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

const stateOf = (r: RateLimiterRes): RateLimitState => ({
  limit: config.rateLimitPerMinute,
  remaining: Math.max(r.remainingPoints, 0),
  resetSeconds: Math.ceil(r.msBeforeNext / 1000),
});

/**
 * Counts one request of the key. Throws RateLimitedError past the budget; a Redis failure is thrown
 * as it is (the doors answer it 503 SERVICE_UNAVAILABLE).
 */
export async function consumeRequest(keyId: string): Promise<RateLimitState> {
  try {
    return stateOf(await rateLimiter().consume(keyId));
  } catch (e) {
    if (e instanceof RateLimiterRes) throw new RateLimitedError(stateOf(e));
    throw e;
  }
}
