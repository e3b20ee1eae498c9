/**
 * Events that clients may watch, carried over Redis pub/sub so whichever process makes a change
 * (an API process or a worker) reaches the subscribers on every API process.
 *
 * The channel is `<REDIS_PREFIX>:<topic>:<id>` with a JSON body. `publishEvent` works from any
 * process; `subscribeEvents` is used by GraphQL subscriptions (Yoga's pub/sub over Redis).
 */
import { createPubSub } from "graphql-yoga";
import { createRedisEventTarget } from "@graphql-yoga/redis-event-target";
import { config } from "../config.js";
import { createRedis, redis } from "../infra/redis.js";
import type { AnalysisStatus } from "../generated/prisma/client.js";

/** Topic → payload. Ids in channel names are workspace-scoped where the data is (analyses, radar). */
export interface EventPayloads {
  /** id = `${workspaceId}:${videoId}` */
  analysisStatusChanged: { analysisId: string; videoId: string; status: AnalysisStatus; error: string | null; at: string };
  /** id = videoId (videos are global; subscribers are checked to track the video) */
  videoUpdated: { videoId: string; scrapeStatus: string; at: string };
  /** id = searchId */
  radarSearchUpdated: { searchId: string; status: string; resultCount: number; error: string | null; at: string };
  /** id = workspaceId; any change of the credit balance or reservations */
  creditsUpdated: { workspaceId: string; at: string };
}
export type Topic = keyof EventPayloads;

const topicName = (topic: Topic) => `${config.redisPrefix}:${topic}`;

export async function publishEvent<T extends Topic>(topic: T, id: string, payload: EventPayloads[T]): Promise<void> {
  await redis().publish(`${topicName(topic)}:${id}`, JSON.stringify(payload));
}

type PubSub = ReturnType<typeof createPubSub<Record<string, [string, unknown]>>>;
let pubSub: PubSub | null = null;
let subscriber: ReturnType<typeof createRedis> | null = null;

function getPubSub(): PubSub {
  if (!pubSub) {
    // No ready check (INFO) on the subscriber: a SUBSCRIBE queued while connecting puts the connection
    // in subscriber mode first, the INFO is refused, and ioredis flushes the queued commands.
    subscriber = createRedis("events-subscriber", { enableReadyCheck: false });
    pubSub = createPubSub<Record<string, [string, unknown]>>({
      eventTarget: createRedisEventTarget({ publishClient: redis(), subscribeClient: subscriber }),
    });
  }
  return pubSub;
}

/**
 * Resolves once every SUBSCRIBE sent so far (by iterators already started) is active in Redis:
 * Redis answers a connection's commands in order, so a PING answered on the subscriber connection
 * comes after them. Lets a subscription read the current state only once no event can be missed.
 */
export async function eventsSubscribed(): Promise<void> {
  if (subscriber) await subscriber.ping();
}

/** An async iterable of the events on `<topic>:<id>`, ended when the consumer stops. */
export function subscribeEvents<T extends Topic>(topic: T, id: string): AsyncIterable<EventPayloads[T]> {
  return getPubSub().subscribe(topicName(topic), id) as AsyncIterable<EventPayloads[T]>;
}

export function resetEventBus(): void {
  pubSub = null;
  subscriber = null;
}
