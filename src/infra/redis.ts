/**
 * Redis connections: to one server (REDIS_URL), or to a Redis Cluster (REDIS_CLUSTER_NODES or a
 * `redis+cluster://` URL; docs/scaling.md). Every user of Redis takes its connection from here and
 * works on either: on a cluster, keys one script or transaction touches together share a hash tag
 * (`{…}`, one slot), every Lua script declares every key it touches, and pub/sub is Redis's classic
 * pub/sub, which a cluster carries to every node.
 *
 * BullMQ needs `maxRetriesPerRequest: null` on its connections; pub/sub needs a dedicated subscriber
 * connection. Every connection made here is closed by `closeRedis()`.
 */
import { Cluster, Redis } from "ioredis";
import { config } from "../config.ts";
import { dependencyAvailable, dependencyFailed, probeDependency } from "./logger.ts";

/** One server's connection or a cluster's: the same commands (ioredis routes each to its key's node). */
export type RedisConnection = Redis | Cluster;

/** The connection settings callers choose; the rest follow REDIS_URL / REDIS_CLUSTER_NODES. */
export interface ConnectionOptions {
  /** null (BullMQ's requirement, the default): a command waits for the connection to come back. */
  maxRetriesPerRequest?: number | null;
  enableOfflineQueue?: boolean;
  enableAutoPipelining?: boolean;
  enableReadyCheck?: boolean;
  /** A command not answered within this fails ("Command timed out"): for connections that serve requests,
   *  never for BullMQ's blocking ones (a worker's BZPOPMIN waits on purpose). Unset: no bound. */
  commandTimeout?: number;
}

/** REDIS_COMMAND_TIMEOUT_MS as ioredis's option (absent when 0). */
export const requestPathTimeout = (): { commandTimeout?: number } =>
  config.timeouts.redisCommandMs ? { commandTimeout: config.timeouts.redisCommandMs } : {};

/** Whether this deployment's Redis is a cluster (keys that go together need a hash tag then). */
export const isCluster = (): boolean => config.redis.cluster;

const opened = new Set<RedisConnection>();

export function createRedis(purpose: string, options: ConnectionOptions = {}): RedisConnection {
  const { maxRetriesPerRequest = null, commandTimeout, ...behaviour } = options;
  const perNode = { maxRetriesPerRequest, connectionName: `video-service:${purpose}`, ...(commandTimeout ? { commandTimeout } : {}) };
  const target = config.redis;
  const client: RedisConnection = target.cluster
    ? new Cluster(target.nodes, {
        enableReadyCheck: true,
        ...behaviour,
        redisOptions: {
          ...perNode,
          ...(target.username ? { username: target.username } : {}),
          ...(target.password ? { password: target.password } : {}),
          ...(target.tls ? { tls: {} } : {}),
        },
      })
    : new Redis(target.url, { enableReadyCheck: true, ...perNode, ...behaviour });
  // An outage is logged once when it starts, counted while it lasts, and once when it ends (./logger.ts).
  client.on("error", (e: Error) => dependencyFailed("redis", e, { purpose }));
  client.on("ready", () => dependencyAvailable("redis"));
  opened.add(client);
  client.once("end", () => opened.delete(client));
  return client;
}

let shared: RedisConnection | null = null;

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
 *
 * A script must name every key it reads or writes among its `numberOfKeys` KEYS (never build one
 * inside the script), and those keys must share a hash tag: a cluster runs the script on the node
 * of its first key's slot and refuses keys of other slots (CROSSSLOT).
 */
export function defineScripts<Commands>(definitions: Record<keyof Commands & string, Script>): () => RedisConnection & Commands {
  for (const [name, script] of Object.entries<Script>(definitions)) {
    scripts.set(name, script);
    shared?.defineCommand(name, script);
  }
  return () => redis() as RedisConnection & Commands;
}

/** A general-purpose connection (rate limiting, publishing events, readiness). Commands fail fast
 *  when Redis is down instead of queueing forever, and when it stalls (REDIS_COMMAND_TIMEOUT_MS), so
 *  requests get 503 rather than hanging.
 *  Auto-pipelining: the commands of concurrent requests (every request's admission) leave in one
 *  write per event-loop tick instead of one each (ioredis's enableAutoPipelining; on a cluster, one
 *  write per node). */
export function redis(): RedisConnection {
  if (!shared) {
    shared = createRedis("shared", {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: true,
      enableAutoPipelining: true,
      ...requestPathTimeout(),
    });
    for (const [name, script] of scripts) shared.defineCommand(name, script);
  }
  return shared;
}

/**
 * Whether Redis serves commands: PING on one server; on a cluster, a node's CLUSTER INFO must say
 * `cluster_state:ok` (a node answers PING even while the cluster refuses commands because a slot
 * has no primary).
 */
export async function redisReady(): Promise<void> {
  const client = redis();
  if (!(client instanceof Cluster)) {
    await client.ping();
    return;
  }
  const info = await client.cluster("INFO");
  const state = /cluster_state:(\w+)/.exec(String(info))?.[1];
  if (state !== "ok") throw new Error(`cluster_state:${state ?? "unknown"}`);
}

probeDependency("redis", redisReady);

export async function closeRedis(): Promise<void> {
  await Promise.all([...opened].map((c) => c.quit().catch(() => c.disconnect())));
  opened.clear();
  shared = null;
}
