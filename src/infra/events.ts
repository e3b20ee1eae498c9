/**
 * Cross-process events over Redis pub/sub: whichever process makes a change (an API process or a
 * worker) publishes on `<REDIS_PREFIX>:<topic>:<id>` with a JSON body, and every API process's
 * subscribers (GraphQL subscriptions) receive it, through one Redis subscriber connection per process
 * (Yoga's Redis event target: one SUBSCRIBE per channel, each message parsed once for all its
 * listeners). The topics and their payloads are the domain's (src/domain/shared/events.ts); this module
 * only carries them.
 */
import { createRedisEventTarget } from "@graphql-yoga/redis-event-target";
import { config } from "../config.ts";
import { createRedis, redis, type RedisConnection } from "./redis.ts";
import { logger } from "./logger.ts";
import { turns } from "./turns.ts";

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

/**
 * A topic's listeners are reached a chunk per turn of the event loop. The Redis event target calls
 * every listener of a channel at once, per message: a workspace's thousands of subscribers, and each
 * call sets off that subscriber's whole chain of streams up to its answer. Behind a burst (one socket
 * read can carry a hundred messages) that held the loop for most of a second, with requests waiting.
 * Each delivery is scheduled instead, DISPATCH_CHUNK per turn, in order: a subscriber still sees its
 * events in the order Redis delivered them.
 */
const DISPATCH_CHUNK = 128;
const dispatchTurn = turns(DISPATCH_CHUNK);

/**
 * Events a subscriber has not taken yet, at most: past it the subscriber's stream ends with an error
 * (its client must subscribe again) rather than the process holding an ever longer queue for it.
 */
export const MAX_WAITING_EVENTS = 10_000;

type EventTargetOf = ReturnType<typeof createRedisEventTarget>;
let target: EventTargetOf | null = null;

function eventTarget(): EventTargetOf {
  if (!target) {
    // No ready check (INFO) on one server's subscriber: a SUBSCRIBE queued while connecting puts the
    // connection in subscriber mode first, the INFO is refused, and ioredis flushes the queued
    // commands. (On a cluster, ioredis subscribes on a connection of its own to one node, and the
    // cluster carries every PUBLISH to every node.)
    const subscriber = createRedis("events-subscriber", { enableReadyCheck: false });
    target = createRedisEventTarget({ publishClient: settled(redis()), subscribeClient: settled(subscriber) });
  }
  return target;
}

/**
 * The events of one channel as an async iterator: listening from the first `next()` (so `subscribed`
 * covers the iterators already started), until `return()`. Events that arrive while the consumer is
 * busy wait in order. Hand-written rather than Yoga's `createPubSub` (a Repeater per subscriber): a
 * delivery through it cost about 7 µs against 0.2 µs here, measured with 10,000 subscribers, which at
 * a live API's fan-out is several per cent of its CPU.
 */
function channelEvents(channel: string, atOnce: boolean): AsyncIterableIterator<unknown> {
  let waiting: unknown[] = [];
  let head = 0; // the next event to take: a queue without shifting an array of up to MAX_WAITING_EVENTS
  const takers: ((r: IteratorResult<unknown>) => void)[] = []; // `next()` calls waiting for an event, in order
  let failed: Error | null = null;
  let state: "idle" | "listening" | "ended" = "idle";
  const deliver = (value: unknown) => {
    if (state !== "listening") return;
    const take = takers.shift();
    if (take) take({ done: false, value });
    else if (waiting.length - head < MAX_WAITING_EVENTS) waiting.push(value);
    else {
      failed = new Error(`This subscription fell ${MAX_WAITING_EVENTS} events behind: it ends here; subscribe again.`);
      end();
    }
  };
  const listener = atOnce
    ? (event: CustomEvent) => deliver(event.detail)
    : (event: CustomEvent) => dispatchTurn(() => deliver(event.detail));
  const end = () => {
    if (state === "listening") eventTarget().removeEventListener(channel, listener);
    state = "ended";
    for (const take of takers.splice(0)) take({ done: true, value: undefined });
  };
  const iterator: AsyncIterableIterator<unknown> = {
    [Symbol.asyncIterator]: () => iterator,
    next() {
      if (state === "idle") {
        state = "listening";
        eventTarget().addEventListener(channel, listener);
      }
      if (head < waiting.length) {
        const value = waiting[head];
        waiting[head++] = undefined; // taken: not held until the queue empties
        if (head === waiting.length) {
          waiting = [];
          head = 0;
        }
        return Promise.resolve({ done: false, value });
      }
      if (failed) {
        const e = failed;
        failed = null;
        return Promise.reject(e);
      }
      if (state === "ended") return Promise.resolve({ done: true, value: undefined });
      return new Promise((resolve) => takers.push(resolve));
    },
    return() {
      waiting = [];
      head = 0;
      end();
      return Promise.resolve({ done: true, value: undefined });
    },
    throw(e: unknown) {
      waiting = [];
      head = 0;
      end();
      return Promise.reject(e);
    },
  };
  return iterator;
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

/**
 * An async iterable of the events on `<topic>:<id>`, ended when the consumer stops. `atOnce`: delivered in the Redis
 * message's own turn, not queued behind the fan-out's chunks (for the few listeners that must not wait: revocations).
 */
export function subscribe(topic: string, id: string, options: { atOnce?: boolean } = {}): AsyncIterable<unknown> {
  return channelEvents(`${topicName(topic)}:${id}`, options.atOnce ?? false);
}
