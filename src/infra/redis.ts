/**
 * Redis connections. BullMQ needs `maxRetriesPerRequest: null` on its connections; pub/sub needs a
 * dedicated subscriber connection. Every connection made here is closed by `closeRedis()`.
 */
import { Redis, type RedisOptions } from "ioredis";
import { config } from "../config.js";
import { logger } from "./logger.js";

const opened = new Set<Redis>();

export function createRedis(purpose: string, options: RedisOptions = {}): Redis {
  const client = new Redis(config.redisUrl, {
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    connectionName: `video-service:${purpose}`,
    ...options,
  });
  client.on("error", (e) => logger.warn({ err: e.message, purpose }, "redis connection error"));
  opened.add(client);
  client.once("end", () => opened.delete(client));
  return client;
}

let shared: Redis | null = null;

/** A general-purpose connection (rate limiting, publishing events, readiness). Commands fail fast
 *  when Redis is down instead of queueing forever, so requests get 503 rather than hanging.
 *  Auto-pipelining: the commands of concurrent requests (every request's admission) leave in one
 *  write per event-loop tick instead of one each (ioredis's enableAutoPipelining). */
export function redis(): Redis {
  shared ??= createRedis("shared", { maxRetriesPerRequest: 1, enableOfflineQueue: true, enableAutoPipelining: true });
  return shared;
}

export async function closeRedis(): Promise<void> {
  await Promise.all([...opened].map((c) => c.quit().catch(() => c.disconnect())));
  opened.clear();
  shared = null;
}
