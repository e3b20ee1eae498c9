/**
 * Live connections end when their key is revoked (CONTRACT: hostile input, auth and limits): every
 * WebSocket connection authenticated with the key is closed with code 4403, and every subscription
 * stream (WebSocket or SSE) ends; no event is delivered once this process knows of the revocation.
 *
 * This process learns of a revocation from the `apiKeyRevoked` event (published by whichever process
 * revoked the key: src/domain/keys/revocation.ts) and, should that event be lost, from a re-check of
 * the keys it holds every REVOCATION_CHECK_INTERVAL_MS. Both run only while something is held.
 */
import { config } from "../../config.js";
import { revocations, revokedAmong } from "../../domain/keys/revocation.js";
import { logger } from "../../infra/logger.js";

type OnRevoked = () => void;

const held = new Map<string, Set<OnRevoked>>();
/** Keys known revoked (ids are never reused); bounded so a long-lived process does not grow. */
const revoked = new Set<string>();
const MAX_REMEMBERED = 10_000;

let timer: NodeJS.Timeout | null = null;
let listening = false;

function isRevoked(keyId: string): boolean {
  return revoked.has(keyId);
}

/** Ends everything held for the key, now and from now on. */
function keyRevoked(keyId: string): void {
  if (revoked.size >= MAX_REMEMBERED) revoked.delete(revoked.values().next().value!);
  revoked.add(keyId);
  const callbacks = held.get(keyId);
  held.delete(keyId);
  for (const cb of callbacks ?? []) {
    try {
      cb();
    } catch (e) {
      logger.warn({ err: (e as Error).message, keyId }, "could not end a connection of a revoked key");
    }
  }
  if (held.size === 0) stop();
}

async function listen(): Promise<void> {
  listening = true;
  try {
    for await (const event of revocations()) keyRevoked(event.keyId);
  } catch (e) {
    logger.warn({ err: (e as Error).message }, "revocation events stopped; the periodic check goes on");
  } finally {
    listening = false;
  }
}

async function recheck(): Promise<void> {
  try {
    for (const keyId of await revokedAmong([...held.keys()])) keyRevoked(keyId);
  } catch (e) {
    logger.warn({ err: (e as Error).message }, "could not re-check the keys of live connections");
  }
}

function start(): void {
  if (!listening) void listen();
  if (!timer) {
    timer = setInterval(() => void recheck(), config.revocationCheckIntervalMs);
    timer.unref();
  }
}

function stop(): void {
  if (timer) clearInterval(timer);
  timer = null;
}

/**
 * Holds something live for the key (a WebSocket, a subscription stream): `onRevoked` runs once if the
 * key is revoked while held (at once if it already is known revoked). Returns the release function.
 */
export function holdForKey(keyId: string, onRevoked: OnRevoked): () => void {
  if (revoked.has(keyId)) {
    onRevoked();
    return () => undefined;
  }
  let set = held.get(keyId);
  if (!set) held.set(keyId, (set = new Set()));
  set.add(onRevoked);
  start();
  return () => {
    const current = held.get(keyId);
    if (!current?.delete(onRevoked)) return;
    if (current.size === 0) held.delete(keyId);
    if (held.size === 0) stop();
  };
}

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/**
 * The subscription's stream, ended as soon as its key is revoked: a pending wait for the next event
 * is cut short, and an event that arrives after the revocation is never delivered.
 */
export function untilRevoked<T>(source: AsyncIterable<T>, keyId: string): AsyncIterableIterator<T> {
  const it = source[Symbol.asyncIterator]();
  let ended = false;
  let cut: (r: IteratorReturnResult<undefined>) => void = () => undefined;
  const cutShort = new Promise<IteratorReturnResult<undefined>>((resolve) => (cut = resolve));
  const end = async (): Promise<IteratorReturnResult<undefined>> => {
    if (!ended) {
      ended = true;
      release();
      cut(DONE);
      await it.return?.().catch(() => undefined);
    }
    return DONE;
  };
  const release = holdForKey(keyId, () => void end());
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      if (ended || isRevoked(keyId)) return end();
      const r = await Promise.race([it.next(), cutShort]);
      if (r.done || ended || isRevoked(keyId)) return end();
      return r;
    },
    return: end,
    async throw(e: unknown) {
      await end();
      throw e;
    },
  };
}
