/**
 * Live connections per credential: how many graphql-ws sockets and live subscriptions (WebSocket and
 * SSE) one credential may hold at once, counted across every API process (GRAPHQL_MAX_SOCKETS_PER_KEY,
 * GRAPHQL_MAX_SUBSCRIPTIONS_PER_KEY). Without it, one key held 1,500 idle sockets and 1,000
 * subscriptions whose every event was read once per subscriber.
 *
 * Each live thing is a lease: a member of a Redis sorted set per credential and kind, scored by when
 * it expires. A process renews its leases every LEASE_RENEW_MS while it holds them and removes each
 * when it ends, so a process that dies without ending its connections frees its leases within
 * LEASE_TTL_MS: a crash never locks a credential out. Redis's clock (TIME) scores them, so API
 * processes with skewed clocks agree.
 */
import { randomUUID } from "node:crypto";
import { config } from "../../config.ts";
import { defineScripts } from "../../infra/redis.ts";
import { logger } from "../../infra/logger.ts";

export type LiveKind = "socket" | "subscription";

const LEASE_TTL_MS = 60_000;
const LEASE_RENEW_MS = 20_000;

/** KEYS: the set · ARGV: member, max, ttl ms → 1 leased, 0 at the limit. */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

/** KEYS: the set · ARGV: ttl ms, members… → renews those still present. */
const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`;

interface LiveCommands {
  acquireLease(set: string, member: string, max: number, ttlMs: number): Promise<number>;
  renewLeases(set: string, ttlMs: number, ...members: string[]): Promise<number>;
}

const client = defineScripts<LiveCommands>({
  acquireLease: { numberOfKeys: 1, lua: ACQUIRE },
  renewLeases: { numberOfKeys: 1, lua: RENEW },
});

const setOf = (kind: LiveKind, credential: string) => `${config.redisPrefix}:live:${kind}:${credential}`;

/** The leases this process holds: set → members. */
const held = new Map<string, Set<string>>();
let timer: NodeJS.Timeout | null = null;

function renewAll(): void {
  for (const [set, members] of held) {
    if (members.size)
      void client()
        .renewLeases(set, LEASE_TTL_MS, ...members)
        .catch((e: Error) => logger.warn({ err: e.message }, "could not renew live-connection leases"));
  }
}

function hold(set: string, member: string): void {
  let members = held.get(set);
  if (!members) held.set(set, (members = new Set()));
  members.add(member);
  if (!timer) {
    timer = setInterval(renewAll, LEASE_RENEW_MS);
    timer.unref();
  }
}

function unhold(set: string, member: string): boolean {
  const members = held.get(set);
  if (!members?.delete(member)) return false;
  if (members.size === 0) held.delete(set);
  if (held.size === 0 && timer) {
    clearInterval(timer);
    timer = null;
  }
  return true;
}

export const LIVE_LIMITS: Record<LiveKind, () => number> = {
  socket: () => config.graphql.maxSocketsPerKey,
  subscription: () => config.graphql.maxSubscriptionsPerKey,
};

/**
 * Takes one of the credential's `kind` places, or null when it holds its limit already. The
 * returned function gives the place back (once; later calls do nothing).
 */
export function acquireLive(kind: LiveKind, credential: string): Promise<(() => void) | null> {
  return acquirePlace(setOf(kind, credential), LIVE_LIMITS[kind]());
}

/**
 * Takes one of `max` places of the Redis set `set` (all processes), leased and renewed while held
 * (a process that dies frees its places within LEASE_TTL_MS), or null when all are taken. The
 * returned function gives the place back (once). Also the per-endpoint bound of webhook deliveries
 * in flight (src/domain/webhooks/delivery.ts).
 */
export async function acquirePlace(set: string, max: number): Promise<(() => void) | null> {
  const member = randomUUID();
  const ok = await client().acquireLease(set, member, max, LEASE_TTL_MS);
  if (!ok) return null;
  hold(set, member);
  return () => {
    if (unhold(set, member)) giveBack(set, member);
  };
}

/** Leases ended and not yet removed, by set: removed together, one ZREM per set (10,000 connections closing at once). */
const ending = new Map<string, string[]>();

function giveBack(set: string, member: string): void {
  const members = ending.get(set);
  if (members) members.push(member);
  else ending.set(set, [member]);
  if (ending.size === 1 && !members) setImmediate(removeEnded);
}

function removeEnded(): void {
  for (const [set, members] of ending)
    void client()
      .zrem(set, ...members)
      .catch(() => undefined); // else they expire
  ending.clear();
}
