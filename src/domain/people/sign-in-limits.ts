/**
 * Brute force (docs/contract/decisions.md, "People, sign-in and the dashboard"): at most 10 failed
 * sign-ins per email and 50 per client address in 15 minutes (SIGN_IN_MAX_FAILURES_PER_EMAIL,
 * SIGN_IN_MAX_FAILURES_PER_ADDRESS, SIGN_IN_FAILURE_WINDOW_MINUTES); beyond, 429 RATE_LIMITED with
 * Retry-After, whatever the password.
 *
 * Lock-out without locking out: 10 failures against an email from anywhere would keep its
 * owner out for 15 minutes, right password or not. So a client address that signed in to that email
 * before (or completed a password reset for it) is remembered for SIGN_IN_KNOWN_ADDRESS_DAYS, and its
 * attempts count against a budget of their own for that (email, address) pair, the same 10 per
 * window, instead of the email's: an attacker elsewhere spends the email's budget, not the owner's.
 * The pair's budget still stops guessing from the owner's own network, and the address's 50 apply to
 * everyone. This is OWASP's "device cookie" idea keyed by the address the server sees (no cookie a
 * stolen browser profile could carry), at the granularity an address is handed out.
 *
 * Addresses are compared as networks hand them out (`addressKey`): an IPv4 address as itself (an
 * IPv4-mapped IPv6 address, `::ffff:1.2.3.4`, is its IPv4 address), an IPv6 address by its /64, the
 * smallest prefix a host gets (one machine can use its whole /64: counting each address would give it
 * 2^64 budgets).
 *
 * Counted in Redis by rate-limiter-flexible (atomic counters under REDIS_PREFIX), so every API
 * process shares them; the known pairs are Redis keys with an expiry. Each attempt takes a point
 * before the password is checked and a successful one gives it back: only failures stay counted,
 * and parallel attempts cannot slip past the limit between a check and a count. Emails and pairs are
 * hashed in key names (no address or email in Redis key names).
 */
import { createHash } from "node:crypto";
import ipaddr from "ipaddr.js";
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
  /** The same budget per email, for an address that signed in to it before. */
  knownPair: RateLimiterRedis;
  address: RateLimiterRedis;
}

const byClient = new WeakMap<RedisConnection, Limiters>();
function limiters(): Limiters {
  const client = redis();
  let found = byClient.get(client);
  if (!found) {
    const { maxFailuresPerEmail, maxFailuresPerAddress, windowSeconds } = config.people.signIn;
    const limiter = (what: string, points: number) =>
      new RateLimiterRedis({
        storeClient: client,
        keyPrefix: `${config.redisPrefix}:sign-in-failures:${what}`,
        points,
        duration: windowSeconds,
      });
    found = {
      email: limiter("email", maxFailuresPerEmail),
      knownPair: limiter("known-pair", maxFailuresPerEmail),
      address: limiter("address", maxFailuresPerAddress),
    };
    byClient.set(client, found);
  }
  return found;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const normalEmail = (email: string) => email.trim().toLowerCase();
const emailKey = (email: string) => sha256(normalEmail(email));

/**
 * The client address as sign-in limits count it: IPv4 as itself (IPv4-mapped IPv6 too), IPv6 as its
 * /64 network (`2001:db8:1:2::/64`); anything unreadable as given.
 */
export function addressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.kind() === "ipv4") return parsed.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64`;
}

/** An (email, address) pair, hashed: the known pair's Redis key and its failure budget's. */
const pairKey = (email: string, address: string) => sha256(`${normalEmail(email)}\n${addressKey(address)}`);
const knownPairKey = (email: string, address: string) => `${config.redisPrefix}:sign-in-known:${pairKey(email, address)}`;

async function isKnown(email: string, address: string | null): Promise<boolean> {
  if (!address || config.people.signIn.knownAddressSeconds === 0) return false;
  return (await redis().exists(knownPairKey(email, address))) === 1;
}

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

/** Which budget an attempt spends for its email: the pair's for a known address, else the email's. */
async function emailBudget(attempt: SignInAttempt): Promise<{ limiter: RateLimiterRedis; key: string }> {
  const l = limiters();
  if (attempt.clientAddress && (await isKnown(attempt.email, attempt.clientAddress)))
    return { limiter: l.knownPair, key: pairKey(attempt.email, attempt.clientAddress) };
  return { limiter: l.email, key: emailKey(attempt.email) };
}

/** Takes one point per address and one of the email's budget (`emailBudget`); SignInLimitedError when either is spent. */
export async function beginSignIn(attempt: SignInAttempt): Promise<void> {
  const l = limiters();
  const address = attempt.clientAddress ? addressKey(attempt.clientAddress) : null;
  if (address) {
    const wait = await take(l.address, address);
    if (wait !== null) throw new SignInLimitedError(wait);
  }
  const budget = await emailBudget(attempt);
  const wait = await take(budget.limiter, budget.key);
  if (wait !== null) {
    if (address) await l.address.reward(address).catch(() => undefined);
    throw new SignInLimitedError(wait);
  }
}

/** Remembers that this address may sign in to this email apart from the email's failures (a sign-in, a completed reset). */
export async function rememberAddress(email: string, address: string | null): Promise<void> {
  const seconds = config.people.signIn.knownAddressSeconds;
  if (!address || seconds === 0) return;
  await redis().set(knownPairKey(email, address), "1", "EX", seconds);
}

/** A successful sign-in gives its points back (only failures count) and remembers its address. */
export async function signInSucceeded(attempt: SignInAttempt): Promise<void> {
  const l = limiters();
  const budget = await emailBudget(attempt).catch(() => null);
  await Promise.all([
    budget?.limiter.reward(budget.key),
    attempt.clientAddress ? l.address.reward(addressKey(attempt.clientAddress)) : undefined,
    rememberAddress(attempt.email, attempt.clientAddress),
  ]).catch(() => undefined);
}
