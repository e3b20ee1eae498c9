/**
 * Cross-process events over Redis pub/sub: whichever process makes a change (an API process or a
 * worker) publishes on `<REDIS_PREFIX>:<topic>:<id>` with a JSON body, and every API process's
 * subscribers (GraphQL subscriptions, through Yoga's pub/sub over Redis) receive it. The topics and
 * their payloads are the domain's (src/domain/shared/events.ts); this module only carries them.
 */
import { createPubSub } from "graphql-yoga";
import { createRedisEventTarget } from "@graphql-yoga/redis-event-target";
import { config } from "../config.ts";
import { createRedis, redis, type RedisConnection } from "./redis.ts";
import { logger } from "./logger.ts";

const topicName = (topic: string) => `${config.redisPrefix}:${topic}`;

export async function publish(topic: string, id: string, payload: unknown): Promise<void> {
  await redis().publish(`${topicName(topic)}:${id}`, JSON.stringify(payload));
}

/** SUBSCRIBE commands sent and not yet answered (see `subscribed`). */
const pendingSubscribes = new Set<Promise<unknown>>();

/**
 * The connection as the event target uses it, with its SUBSCRIBE, UNSUBSCRIBE and PUBLISH failures
 * logged rather than left unhandled: @graphql-yoga/redis-event-target sends them without awaiting,
 * so a stream that ends while the connection closes (shutdown) would otherwise be an unhandled
 * rejection ("Connection is closed"). A lost UNSUBSCRIBE costs nothing once the connection is gone.
 * Each SUBSCRIBE is kept until Redis answers it, for `subscribed`.
 */
function settled<C extends RedisConnection>(client: C): C {
  const fireAndForget = new Set<PropertyKey>(["subscribe", "unsubscribe", "publish"]);
  return new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (!fireAndForget.has(property) || typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const sent = (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        sent.catch((e: Error) => logger.debug({ err: e.message, command: String(property) }, "event connection command failed"));
        if (property === "subscribe") {
          // Refused, it rejects `subscribed` (a stream whose SUBSCRIBE failed would never get an event).
          const answered = sent.then(() => undefined);
          answered.catch(() => undefined); // read by `subscribed`'s callers
          pendingSubscribes.add(answered);
          void answered.finally(() => pendingSubscribes.delete(answered)).catch(() => undefined);
        }
        return sent;
      };
    },
  });
}

type PubSub = ReturnType<typeof createPubSub<Record<string, [string, unknown]>>>;
let pubSub: PubSub | null = null;

function getPubSub(): PubSub {
  if (!pubSub) {
    // No ready check (INFO) on one server's subscriber: a SUBSCRIBE queued while connecting puts the
    // connection in subscriber mode first, the INFO is refused, and ioredis flushes the queued
    // commands. (On a cluster, ioredis subscribes on a connection of its own to one node, and the
    // cluster carries every PUBLISH to every node.)
    const subscriber = createRedis("events-subscriber", { enableReadyCheck: false });
    pubSub = createPubSub<Record<string, [string, unknown]>>({
      eventTarget: createRedisEventTarget({ publishClient: settled(redis()), subscribeClient: settled(subscriber) }),
    });
  }
  return pubSub;
}

/**
 * Resolves once every SUBSCRIBE sent so far (by iterators already started) is active in Redis: each
 * resolves when Redis has answered it (on one server or a cluster's subscriber node alike). Lets a
 * subscription read the current state only once no event can be missed. Rejects when Redis refused one
 * (NOPERM, a connection given up): the stream would wait for events that never come.
 */
export async function subscribed(): Promise<void> {
  await Promise.all([...pendingSubscribes]);
}

/** An async iterable of the events on `<topic>:<id>`, ended when the consumer stops. */
export function subscribe(topic: string, id: string): AsyncIterable<unknown> {
  return getPubSub().subscribe(topicName(topic), id);
}
