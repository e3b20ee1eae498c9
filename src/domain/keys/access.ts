/**
 * Access: who a request is (its API key) and whether its key's budget allows it — one rule for
 * every door (REST requests, GraphQL operations over HTTP and WebSocket).
 *
 * - Authentication: `Authorization: Bearer <key>`; the key is `svc_sk_` + 43 URL-safe characters;
 *   only its SHA-256 is stored. PostgreSQL holds the keys; Redis holds a registry of the valid ones
 *   (hash → key id and workspace), read on every request, so the hot path costs one Redis round
 *   trip and no database statement. A key missing from the registry (new, or Redis restarted empty)
 *   is looked up in PostgreSQL and registered. Revocation removes the key from the registry and
 *   leaves a tombstone BEFORE the database row's change commits (inside its transaction; a failed
 *   commit takes it back), and a key is only ever registered when no tombstone exists (checked
 *   atomically in Redis): a revoked key is refused on its very next request, by every process, and a request racing the revocation cannot register it again.
 * - Rate limit: RATE_LIMIT_PER_MINUTE requests per key per minute (a fixed window from the key's
 *   first request, counted in Redis, so every process shares one budget).
 *
 * Both run in one Lua script (`admit`): one round trip per request instead of a key lookup and a
 * separate counter (bench/ladder: the lookup was a database statement on every request).
 *
 * Redis Cluster: a key's registry entry, its tombstone and its budget are named by the secret's hash
 * in a hash tag (`{<hash>}`), so the scripts and the withdrawal's transaction touch one slot, and
 * every script names all its keys in KEYS (docs/scaling.md). A key's budget is therefore named by its
 * secret's hash, not its id (`AuthContext.budget`); a person's by their id (`{user:<id>}`).
 */
import { createHash } from "node:crypto";
import { Prisma } from "../../generated/prisma/client.ts";
import { config } from "../../config.ts";
import { prisma, sql } from "../../infra/db.ts";
import { defineScripts } from "../../infra/redis.ts";
import { DomainError } from "../shared/errors.ts";

export interface AuthContext {
  workspaceId: string;
  keyId: string;
  /** The rate-limit budget (and live-connection caps) the key spends: its secret's hash (see above). */
  budget: string;
}

/** Where a key stands in its budget (for the RateLimit-* headers). */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the budget is whole again. */
  resetSeconds: number;
}

/** Over the budget: 429 RATE_LIMITED, retryable when the budget is whole again; the state for the RateLimit-* headers. */
export class RateLimitedError extends DomainError {
  override readonly retryAfterSeconds: number;
  readonly state: RateLimitState;
  constructor(state: RateLimitState) {
    super("RATE_LIMITED", `Rate limit of ${state.limit} requests per minute exceeded for this API key (or signed-in person).`);
    this.state = state;
    this.retryAfterSeconds = state.resetSeconds;
  }
}

export const KEY_PREFIX = "svc_sk_";
const KEY_PATTERN = /^svc_sk_[A-Za-z0-9_-]{43}$/;
/** How stale `lastUsedAt` may get before a request writes it again (saves a write per request). */
const LAST_USED_GRANULARITY_MS = 60_000;
const WINDOW_MS = 60_000;
/** Tombstones outlive any request that read a key before its revocation by far; past them PostgreSQL still says "revoked". */
const TOMBSTONE_TTL_SECONDS = 30 * 24 * 3600;

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/**
 * The secret of an `Authorization` value: exactly `Bearer <key>` (scheme case-insensitive, one or
 * more spaces); anything else (another scheme, a second token, characters around the key) is null.
 */
export function bearerSecret(header: string | null | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer +(\S+)$/i.exec(header);
  return match ? match[1]! : null;
}

/** Redis keys; the braces are hash tags (one Redis Cluster slot for the keys of one secret). */
const keyOf = {
  entry: (hash: string) => `${config.redisPrefix}:key:{${hash}}`,
  tombstone: (hash: string) => `${config.redisPrefix}:key-revoked:{${hash}}`,
  budget: (budget: string) => `${config.redisPrefix}:ratelimit:{${budget}}`,
};

/**
 * KEYS: entry, budget (the key's: its hash) · ARGV: now ms, points, window ms, last-used granularity
 * ms, count (1/0) → {0} unknown to the registry; {1, keyId, workspaceId, touch, count, pttl}.
 */
const ADMIT = `
local e = redis.call('HMGET', KEYS[1], 'id', 'ws', 'lu')
if not e[1] then return {0} end
local now = tonumber(ARGV[1])
local touch = 0
if (not e[3]) or now - tonumber(e[3]) > tonumber(ARGV[4]) then
  redis.call('HSET', KEYS[1], 'lu', ARGV[1])
  touch = 1
end
if ARGV[5] == '0' then return {1, e[1], e[2], touch, 0, 0} end
local n = redis.call('INCR', KEYS[2])
if n == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[3]) end
local ttl = redis.call('PTTL', KEYS[2])
if ttl < 0 then redis.call('PEXPIRE', KEYS[2], ARGV[3]); ttl = tonumber(ARGV[3]) end
return {1, e[1], e[2], touch, n, ttl}`;

/** KEYS: entry, tombstone · ARGV: keyId, workspaceId, now ms → 1 registered, 0 refused (revoked). */
const REGISTER = `
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'ws', ARGV[2], 'lu', ARGV[3])
return 1`;

/** KEYS: budget · ARGV: units, window ms → {count, pttl} */
const COUNT = `
local n = redis.call('INCRBY', KEYS[1], ARGV[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]); ttl = tonumber(ARGV[2]) end
return {n, ttl}`;

interface AccessCommands {
  admitKey(
    entry: string,
    budget: string,
    now: number,
    points: number,
    windowMs: number,
    granularity: number,
    count: string,
  ): Promise<(string | number)[]>;
  registerKey(entry: string, tombstone: string, keyId: string, workspaceId: string, now: number): Promise<number>;
  countRequest(budget: string, units: number, windowMs: number): Promise<[number, number]>;
}

const client = defineScripts<AccessCommands>({
  admitKey: { numberOfKeys: 2, lua: ADMIT },
  registerKey: { numberOfKeys: 2, lua: REGISTER },
  countRequest: { numberOfKeys: 1, lua: COUNT },
});

function budgetState(count: number, pttl: number): RateLimitState {
  const limit = config.rateLimitPerMinute;
  const state = { limit, remaining: Math.max(limit - count, 0), resetSeconds: Math.ceil(pttl / 1000) };
  if (count > limit) throw new RateLimitedError(state);
  return state;
}

/** Best effort and off the request's path: a lost update only makes lastUsedAt a minute stale. */
function touchLastUsed(keyId: string): void {
  void prisma.apiKey.update({ where: { id: keyId }, data: { lastUsedAt: new Date() } }).catch(() => undefined);
}

/** The key's row, for a key the registry does not hold; registers it when valid. */
async function lookUp(hash: string): Promise<AuthContext | null> {
  const [key] = await sql<{ id: string; workspaceId: string; revokedAt: Date | null }>(
    Prisma.sql`SELECT id, workspace_id AS "workspaceId", revoked_at AS "revokedAt" FROM api_keys WHERE secret_hash = ${hash}`,
    { prepare: true },
  );
  if (!key || key.revokedAt) return null;
  const registered = await client().registerKey(keyOf.entry(hash), keyOf.tombstone(hash), key.id, key.workspaceId, Date.now());
  if (!registered) return null; // revoked while we read
  touchLastUsed(key.id);
  return { workspaceId: key.workspaceId, keyId: key.id, budget: hash };
}

async function admitHash(hash: string, count: boolean): Promise<{ auth: AuthContext; limit: RateLimitState | null } | null> {
  const r = await client().admitKey(
    keyOf.entry(hash),
    keyOf.budget(hash),
    Date.now(),
    config.rateLimitPerMinute,
    WINDOW_MS,
    LAST_USED_GRANULARITY_MS,
    count ? "1" : "0",
  );
  if (Number(r[0]) === 0) {
    const auth = await lookUp(hash);
    if (!auth) return null;
    return { auth, limit: count ? await consumeRequest(auth.budget) : null };
  }
  const auth = { keyId: String(r[1]), workspaceId: String(r[2]), budget: hash };
  if (Number(r[3]) === 1) touchLastUsed(auth.keyId);
  return { auth, limit: count ? budgetState(Number(r[4]), Number(r[5])) : null };
}

/**
 * Authenticates the secret and counts one request against its key's budget, in one round trip.
 * Null for a malformed, unknown or revoked key; RateLimitedError past the budget.
 */
export async function admit(secret: string | null | undefined): Promise<{ auth: AuthContext; limit: RateLimitState } | null> {
  if (!secret || !KEY_PATTERN.test(secret)) return null;
  const admitted = await admitHash(hashSecret(secret), true);
  return admitted && { auth: admitted.auth, limit: admitted.limit! };
}

/** Authenticates the secret without counting a request (a WebSocket's connection_init). */
export async function authenticate(secret: string | null | undefined): Promise<AuthContext | null> {
  if (!secret || !KEY_PATTERN.test(secret)) return null;
  return (await admitHash(hashSecret(secret), false))?.auth ?? null;
}

/**
 * Counts requests against a budget: a key's (its secret's hash), or a person's (`budgetOf`, src/domain/actors/actor.ts):
 * one WebSocket operation, a signed-in person's request, or the calls of an MCP batch after the
 * first; RateLimitedError past it.
 */
export async function consumeRequest(budget: string, units = 1): Promise<RateLimitState> {
  const [count, pttl] = await client().countRequest(keyOf.budget(budget), units, WINDOW_MS);
  return budgetState(Number(count), Number(pttl));
}

/**
 * Takes a key out of the registry and leaves its tombstone, before its row's revocation commits: from then on
 * no process admits it and none can register it again. Fails (503) when Redis is unreachable, so a
 * revocation is never recorded without taking effect.
 */
export async function withdrawKey(secretHash: string): Promise<void> {
  await client().multi().set(keyOf.tombstone(secretHash), "1", "EX", TOMBSTONE_TTL_SECONDS).del(keyOf.entry(secretHash)).exec();
}

/**
 * Takes back a withdrawal whose revocation did not commit (src/domain/keys/service.ts, revokeKey): the
 * tombstone goes, and the key is registered again from PostgreSQL on its next request.
 */
export async function restoreKey(secretHash: string): Promise<void> {
  await client().del(keyOf.tombstone(secretHash));
}
