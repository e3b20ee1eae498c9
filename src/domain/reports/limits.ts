/**
 * The shared page's rate limit: requests per client address per minute to the
 * narrow entry (src/http/shared-report/), counted in Redis for every API process together
 * (rate-limiter-flexible, like the sign-in limits). Past it: 429 RATE_LIMITED with Retry-After.
 * IPv6 addresses count by their /64 network (src/domain/people/sign-in-limits.ts `addressKey`).
 */
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { config } from "../../config.ts";
import { redis, type RedisConnection } from "../../infra/redis.ts";
import { addressKey } from "../people/sign-in-limits.ts";
import { DomainError } from "../shared/errors.ts";

/** Requests per client address per minute (a page load is one; changing the period is one more). */
export const SHARED_REPORT_REQUESTS_PER_MINUTE = 30;

export class SharedReportLimitedError extends DomainError {
  override readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super("RATE_LIMITED", `Too many requests for shared reports from this address: retry in ${retryAfterSeconds} seconds.`);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

const byClient = new WeakMap<RedisConnection, RateLimiterRedis>();
function limiter(): RateLimiterRedis {
  const client = redis();
  let found = byClient.get(client);
  if (!found) {
    found = new RateLimiterRedis({
      storeClient: client,
      keyPrefix: `${config.redisPrefix}:shared-report`,
      points: SHARED_REPORT_REQUESTS_PER_MINUTE,
      duration: 60,
    });
    byClient.set(client, found);
  }
  return found;
}

/** Takes one request of the address's budget; SharedReportLimitedError when it is spent. */
export async function takeSharedReportRequest(clientAddress: string | null): Promise<void> {
  try {
    await limiter().consume(addressKey(clientAddress ?? "unknown"));
  } catch (e) {
    if (e instanceof RateLimiterRes) throw new SharedReportLimitedError(Math.max(1, Math.ceil(e.msBeforeNext / 1000)));
    throw e;
  }
}
