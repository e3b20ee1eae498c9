/**
 * The test run's Redis keys: each test file works under its own prefix, `tr_<run id>_<file pid>_<hex>` (the run id:
 * the run's pid and random hex, so that runs of other checkouts sharing the Redis, even in other pid namespaces,
 * never match it)
 * (test/setup/per-file.ts), and removes its keys when it ends; at the end of `npm test` the global teardown
 * (test/setup/global.ts) fails the run if keys of the run's prefixes remain, and removes them. Only keys of
 * this run are touched: other runs (other checkouts) may share the Redis.
 */
import { Redis } from "ioredis";

/** Read when used: the run's global setup sets REDIS_URL when it chose the server (test/setup/services.ts). */
const redisUrl = () => process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

export const runKeyPrefix = (runId: string) => `tr_${runId}_`;

/** The patterns of a prefix's keys: plain, and BullMQ's hash-tagged form on a cluster (`{<prefix>:bull:<queue>}`). */
const patterns = (prefix: string) => [`${prefix}*`, `{${prefix}*`];

async function scanAll(r: Redis, pattern: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await r.scan(cursor, "MATCH", pattern, "COUNT", 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== "0");
  return keys;
}

/** Every key under the prefix (both forms). */
export async function keysUnder(prefix: string): Promise<string[]> {
  const r = new Redis(redisUrl(), { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await r.connect();
    return (await Promise.all(patterns(prefix).map((p) => scanAll(r, p)))).flat();
  } finally {
    r.disconnect();
  }
}

/** Removes every key under the prefix; answers how many there were. */
export async function dropKeysUnder(prefix: string): Promise<number> {
  const keys = await keysUnder(prefix);
  if (keys.length === 0) return 0;
  const r = new Redis(redisUrl(), { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await r.connect();
    for (let i = 0; i < keys.length; i += 500) await r.unlink(...keys.slice(i, i + 500));
  } finally {
    r.disconnect();
  }
  return keys.length;
}
