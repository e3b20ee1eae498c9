/**
 * Brute force (docs/contract/decisions.md, "People, sign-in and the dashboard"): at most 10 failed
 * sign-ins per email and 50 per client address in 15 minutes (SIGN_IN_MAX_FAILURES_PER_EMAIL,
 * SIGN_IN_MAX_FAILURES_PER_ADDRESS, SIGN_IN_FAILURE_WINDOW_MINUTES); beyond, 429 RATE_LIMITED with
 * Retry-After, whatever the password.
 *
 * Counted in Redis by rate-limiter-flexible (atomic counters under REDIS_PREFIX), so every API
 * process shares them. Each attempt takes a point before the password is checked and a successful
 * one gives it back: only failures stay counted, and parallel attempts cannot slip past the limit
 * between a check and a count. The email is hashed in the key (no address in Redis key names).
 */
import { createHash } from "node:crypto";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { config } from "../../config.ts";
import { redis, type RedisConnection } from "../../infra/redis.ts";
import { DomainError } from "../shared/errors.ts";

export class SignInLimitedError extends DomainError {
  override readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super("RATE_LIMITED", `Too many failed sign-ins; try again in ${retryAfterSeconds} seconds.`);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

interface Limiters {
  email: RateLimiterRedis;
  address: RateLimiterRedis;
}

const byClient = new WeakMap<RedisConnection, Limiters>();
function limiters(): Limiters {
  const client = redis();
  let found = byClient.get(client);
  if (!found) {
    const { maxFailuresPerEmail, maxFailuresPerAddress, windowSeconds } = config.people.signIn;
    const limiter = (what: string, points: number) =>
      new RateLimiterRedis({ storeClient: client, keyPrefix: `${config.redisPrefix}:sign-in-failures:${what}`, points, duration: windowSeconds });
    found = { email: limiter("email", maxFailuresPerEmail), address: limiter("address", maxFailuresPerAddress) };
    byClient.set(client, found);
  }
  return found;
}

const emailKey = (email: string) => createHash("sha256").update(email.trim().toLowerCase()).digest("hex");

export interface SignInAttempt {
  email: string;
  clientAddress: string | null;
}

async function take(limiter: RateLimiterRedis, key: string): Promise<number | null> {
  try {
    await limiter.consume(key);
    return null;
  } catch (e) {
    if (e instanceof RateLimiterRes) return Math.max(1, Math.ceil(e.msBeforeNext / 1000));
    throw e; // Redis trouble: 503, never an unlimited sign-in
  }
}

/** Takes one point per email and per address; SignInLimitedError when either is spent. */
export async function beginSignIn(attempt: SignInAttempt): Promise<void> {
  const l = limiters();
  if (attempt.clientAddress) {
    const wait = await take(l.address, attempt.clientAddress);
    if (wait !== null) throw new SignInLimitedError(wait);
  }
  const wait = await take(l.email, emailKey(attempt.email));
  if (wait !== null) {
    if (attempt.clientAddress) await l.address.reward(attempt.clientAddress).catch(() => undefined);
    throw new SignInLimitedError(wait);
  }
}

/** A successful sign-in gives its points back: only failures count. */
export async function signInSucceeded(attempt: SignInAttempt): Promise<void> {
  const l = limiters();
  await Promise.all([
    l.email.reward(emailKey(attempt.email)),
    attempt.clientAddress ? l.address.reward(attempt.clientAddress) : undefined,
  ]).catch(() => undefined);
}
