/**
 * Live subscriptions, on both of their doors (graphql-ws and SSE), as envelop plugins and helpers:
 *
 * - `limitLiveSubscriptions`: a credential holds at most GRAPHQL_MAX_SUBSCRIPTIONS_PER_KEY live
 *   subscriptions across every API process (src/domain/keys/live.ts); past it a new one is refused
 *   with SUBSCRIPTION_LIMIT_REACHED, and its place is given back when its stream ends.
 * - `endOnRevocation`: every stream ends when its key is revoked (./revocation.ts).
 * - A maximum lifetime (GRAPHQL_SUBSCRIPTION_MAX_LIFETIME_SECONDS, `lifetimeMs`): a live subscription
 *   does not outlive it, so each client comes back now and then through admission (its credential,
 *   role and limits as they are now) and a deployment's new processes get their share of the
 *   connections. An SSE stream (one subscription) ends with a last message, an error
 *   SUBSCRIPTION_EXPIRED that says so, then `complete` (`endAtLifetime`); a WebSocket, which carries
 *   many, is closed with code 4000 (./websocket.ts), after which graphql-ws clients reconnect and
 *   subscribe again by themselves.
 * - `sharedPerEvent`: one read per event for all of a workspace's subscribers in this process. Every
 *   subscriber of a topic receives the same event object (the Redis event target parses a message
 *   once per process); while a subscriber's answer to an event is built, its DataLoaders (Pothos
 *   keys them on `contextCacheSymbol`) and `readOncePerEvent` memos are those of the pair (event,
 *   workspace), so 1,000 subscriptions of one workspace cost the reads of one, not 1,000.
 */
import { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import { contextCacheSymbol } from "@pothos/core";
import { acquireLive } from "../../domain/keys/live.ts";
import { config } from "../../config.ts";
import type { GraphQLContext } from "./builder.ts";
import { interruptible } from "./interruptible.ts";
import { untilRevoked } from "./revocation.ts";

export const isAsyncIterable = <T>(value: unknown): value is AsyncIterable<T> =>
  value != null && typeof (value as AsyncIterable<T>)[Symbol.asyncIterator] === "function";

/**
 * The lifetime of one live subscription or socket: the setting, less up to a tenth at random, so
 * that the connections opened together (a deployment's start) do not all come back at once. Null: no limit.
 */
export function lifetimeMs(): number | null {
  const max = config.graphql.subscriptionMaxLifetimeMs;
  return max > 0 ? Math.round(max * (1 - Math.random() / 10)) : null;
}

/** How long past a stream's longest lifetime its client may leave it unread before it is cut (as ws waits for a close frame's answer). */
const UNREAD_GRACE_MS = 30_000;

/**
 * How long an SSE stream may wait for a client that stopped reading (./event-stream.ts, `cutAfterMs`): the longest
 * lifetime and UNREAD_GRACE_MS, so a client merely slow still gets its SUBSCRIPTION_EXPIRED message. Null: no lifetime.
 */
export function unreadStreamCutAfterMs(): number | null {
  const max = config.graphql.subscriptionMaxLifetimeMs;
  return max > 0 ? max + UNREAD_GRACE_MS : null;
}

function subscriptionExpired(): GraphQLError {
  const seconds = config.graphql.subscriptionMaxLifetimeMs / 1000;
  return new GraphQLError(
    `This subscription reached its maximum lifetime (GRAPHQL_SUBSCRIPTION_MAX_LIFETIME_SECONDS=${seconds}); subscribe again to go on receiving events.`,
    { extensions: { code: "SUBSCRIPTION_EXPIRED", maxLifetimeSeconds: seconds } },
  );
}

/** The stream, ended after `ms`: its last message is the SUBSCRIPTION_EXPIRED error, then it completes. */
function untilLifetime<T>(source: AsyncIterable<T>, ms: number, last: () => T): AsyncIterableIterator<T> {
  const events = interruptible(source);
  let state: "live" | "expired" | "told" | "ended" = "live";
  const timer = setTimeout(() => {
    if (state !== "live") return;
    // Waiting for an event: the error is that answer. Otherwise it is the next one asked for.
    if (events.interrupt({ done: false, value: last() })) state = "told";
    else state = "expired";
  }, ms);
  timer.unref();
  const end = async (): Promise<IteratorReturnResult<undefined>> => {
    if (state !== "ended") {
      state = "ended";
      clearTimeout(timer);
      void events.returnSource();
    }
    return { done: true, value: undefined };
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      if (state === "expired") {
        state = "told";
        return { done: false, value: last() };
      }
      if (state !== "live") return end();
      const r = await events.next();
      if (r.done) await end();
      return r;
    },
    return: end,
    async throw(e: unknown) {
      await end();
      throw e;
    },
  };
}

function subscriptionLimitReached(): GraphQLError {
  const max = config.graphql.maxSubscriptionsPerKey;
  return new GraphQLError(
    `This API key already holds ${max} live subscriptions (GRAPHQL_MAX_SUBSCRIPTIONS_PER_KEY), on WebSocket and SSE together; end one before starting another.`,
    { extensions: { code: "SUBSCRIPTION_LIMIT_REACHED", http: { status: 429 } } },
  );
}

/** The stream, calling `done` once when it ends (completed, returned by the client, or failed). */
function onEnd<T>(source: AsyncIterable<T>, done: () => void): AsyncIterableIterator<T> {
  const it = source[Symbol.asyncIterator]();
  let ended = false;
  const end = () => {
    if (!ended) {
      ended = true;
      done();
    }
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      try {
        const r = await it.next();
        if (r.done) end();
        return r;
      } catch (e) {
        end();
        throw e;
      }
    },
    async return(value?: unknown) {
      end();
      return (await it.return?.(value)) ?? { done: true, value: undefined };
    },
    async throw(e: unknown) {
      end();
      if (it.throw) return it.throw(e);
      throw e;
    },
  };
}

/** A place per live subscription of the credential; refused past the limit, given back when the stream ends. */
export const limitLiveSubscriptions: Plugin<GraphQLContext> = {
  async onSubscribe({ args, setResultAndStopExecution }) {
    const budget = args.contextValue.budget;
    if (!budget) return;
    const release = await acquireLive("subscription", budget);
    if (!release) {
      setResultAndStopExecution({ errors: [subscriptionLimitReached()] });
      return;
    }
    return {
      onSubscribeResult({ result, setResult }) {
        if (isAsyncIterable(result)) setResult(onEnd(result, release));
        else release(); // refused (an error result): nothing lives
      },
      onSubscribeError() {
        release();
      },
    };
  },
};

/** Every subscription stream (WebSocket or SSE) ends when its key, session or membership is withdrawn (./revocation.ts). */
export const endOnRevocation: Plugin<GraphQLContext> = {
  onSubscribe({ args }) {
    const subjects = args.contextValue.revocationSubjects;
    if (!subjects?.length) return;
    return {
      onSubscribeResult({ result, setResult }) {
        if (isAsyncIterable(result)) setResult(untilRevoked(result, subjects));
      },
    };
  },
};

/** An SSE subscription stream ends at its lifetime, telling the client so (WebSockets: ./websocket.ts closes the socket). */
export const endAtLifetime: Plugin<GraphQLContext> = {
  onSubscribe({ args }) {
    const over = args.contextValue as GraphQLContext & { res?: unknown; admitted?: unknown };
    if (!over.res || over.admitted) return; // a graphql-ws operation: its socket has the lifetime
    const ms = lifetimeMs();
    if (ms === null) return;
    return {
      onSubscribeResult({ result, setResult }) {
        if (isAsyncIterable(result)) setResult(untilLifetime(result, ms, () => ({ errors: [subscriptionExpired()] })));
      },
    };
  },
};

// ---------------------------------------------------------------------------------------------
// Fan-out: one read per event and workspace

/** What subscribers may share: those who read the same data (today, one workspace's; a role would join it here). */
const readScopeOf = (ctx: GraphQLContext) => ctx.auth.workspaceId;

/** The cache of one (event, scope): Pothos's DataLoaders key on it, and `readOncePerEvent` memoizes in it. */
interface EventScope {
  reads: Map<string, Promise<unknown>>;
}
const scopes = new WeakMap<object, Map<string, EventScope>>();

function scopeOf(event: object, scope: string): EventScope {
  let byScope = scopes.get(event);
  if (!byScope) scopes.set(event, (byScope = new Map()));
  let s = byScope.get(scope);
  if (!s) byScope.set(scope, (s = { reads: new Map() }));
  return s;
}

type WithCache = GraphQLContext & { [contextCacheSymbol]?: EventScope };

/**
 * The subscription's source stream, answering each event with the (event, workspace) cache: wrap
 * what a subscription field's `subscribe` returns. The answer to an event is built before the next
 * event is taken (graphql-js maps one event at a time), so the cache set here is the one in use.
 */
export async function sharedPerEvent<T>(
  ctx: GraphQLContext,
  source: AsyncIterable<T> | Promise<AsyncIterable<T>>,
): Promise<AsyncIterable<T>> {
  const stream = await source;
  const c = ctx as WithCache;
  return {
    [Symbol.asyncIterator]() {
      const it = stream[Symbol.asyncIterator]();
      return {
        async next() {
          const r = await it.next();
          if (!r.done && r.value !== null && typeof r.value === "object") c[contextCacheSymbol] = scopeOf(r.value, readScopeOf(ctx));
          return r;
        },
        return: async (value?: unknown) => (await it.return?.(value)) ?? { done: true as const, value: undefined },
        throw: async (e: unknown) => {
          if (it.throw) return it.throw(e);
          throw e;
        },
      };
    },
  };
}

/** `read()` once per event and workspace for a subscription's answer (`key` names what is read); outside an event, read. */
export function readOncePerEvent<T>(ctx: GraphQLContext, key: string, read: () => Promise<T>): Promise<T> {
  const scope = (ctx as WithCache)[contextCacheSymbol];
  if (!scope?.reads) return read();
  let p = scope.reads.get(key) as Promise<T> | undefined;
  if (!p) scope.reads.set(key, (p = read()));
  return p;
}
