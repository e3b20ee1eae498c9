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

interface Script {
  numberOfKeys: number;
  lua: string;
}
/** The Lua commands modules declared (`defineScripts`), defined on the shared connection when it is made. */
const scripts = new Map<string, Script>();

/**
 * Declares Lua commands (name → keys and script) and answers the shared connection typed with them.
 * Call it when the owning module is loaded: the commands are defined on the connection when it is
 * made, before any command is sent. Defining them on first use instead raced ioredis's
 * auto-pipelining: a pipeline made in the same tick before `defineCommand` lacks the command, and a
 * fresh API process serving many connections at once failed with "pipeline[functionName] is not a
 * function".
 */
export function defineScripts<Commands>(definitions: Record<keyof Commands & string, Script>): () => Redis & Commands {
  for (const [name, script] of Object.entries<Script>(definitions)) {
    scripts.set(name, script);
    shared?.defineCommand(name, script);
  }
  return () => redis() as Redis & Commands;
}

/** A general-purpose connection (rate limiting, publishing events, readiness). Commands fail fast
 *  when Redis is down instead of queueing forever, so requests get 503 rather than hanging.
 *  Auto-pipelining: the commands of concurrent requests (every request's admission) leave in one
 *  write per event-loop tick instead of one each (ioredis's enableAutoPipelining). */
export function redis(): Redis {
  if (!shared) {
    shared = createRedis("shared", { maxRetriesPerRequest: 1, enableOfflineQueue: true, enableAutoPipelining: true });
    for (const [name, script] of scripts) shared.defineCommand(name, script);
  }
  return shared;
}

export async function closeRedis(): Promise<void> {
  await Promise.all([...opened].map((c) => c.quit().catch(() => c.disconnect())));
  opened.clear();
  shared = null;
}
