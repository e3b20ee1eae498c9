/**
 * Live connections end when their credential is withdrawn (docs/contract/decisions.md: hostile input, auth and limits;
 * people: signing out, a revoked session, a removed member): every WebSocket connection held for a
 * withdrawn subject is closed with code 4403, and every subscription stream (WebSocket or SSE) ends;
 * no event is delivered once this process knows of the withdrawal.
 *
 * A connection is held under the revocation subjects of its actor (src/domain/keys/revocation.ts:
 * its API key; or the person's session and their membership of the workspace). This process learns
 * of a withdrawal from the `accessRevoked` event (published by whichever process made it) and,
 * should that event be lost, from a re-check of the subjects it holds every
 * REVOCATION_CHECK_INTERVAL_MS. Both run only while something is held.
 */
import { config } from "../../config.ts";
import { revocations, revokedAmong, withdrawnForGood } from "../../domain/keys/revocation.ts";
import { logger } from "../../infra/logger.ts";
import { interruptible } from "./interruptible.ts";

type OnRevoked = () => void;

const held = new Map<string, Set<OnRevoked>>();
/**
 * Keys and sessions known withdrawn (their ids are never reused); bounded so a long-lived process
 * does not grow. Memberships are not remembered (a person removed may be added again), nor `person:`
 * announcements (nothing is held under them).
 */
const revoked = new Set<string>();
const MAX_REMEMBERED = 10_000;

let timer: NodeJS.Timeout | null = null;
let listening = false;

const isRevoked = (subjects: readonly string[]) => subjects.some((s) => revoked.has(s));

/** Ends everything held for the subject, now and from now on. */
function subjectRevoked(subject: string): void {
  if (withdrawnForGood(subject)) {
    if (revoked.size >= MAX_REMEMBERED) revoked.delete(revoked.values().next().value!);
    revoked.add(subject);
  }
  const callbacks = held.get(subject);
  held.delete(subject);
  for (const cb of callbacks ?? []) {
    try {
      cb();
    } catch (e) {
      logger.warn({ err: (e as Error).message, subject }, "could not end a connection of a withdrawn credential");
    }
  }
  if (held.size === 0) stop();
}

async function listen(): Promise<void> {
  listening = true;
  try {
    for await (const event of revocations()) subjectRevoked(event.subject);
  } catch (e) {
    logger.warn({ err: (e as Error).message }, "revocation events stopped; the periodic check goes on");
  } finally {
    listening = false;
  }
}

async function recheck(): Promise<void> {
  try {
    for (const subject of await revokedAmong([...held.keys()])) subjectRevoked(subject);
  } catch (e) {
    logger.warn({ err: (e as Error).message }, "could not re-check the credentials of live connections");
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
 * Holds something live (a WebSocket, a subscription stream) under its subjects: `onRevoked` runs
 * once when any of them is withdrawn while held (at once if one already is known withdrawn).
 * Returns the release function.
 */
export function holdFor(subjects: readonly string[], onRevoked: OnRevoked): () => void {
  if (isRevoked(subjects)) {
    onRevoked();
    return () => undefined;
  }
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    release();
    onRevoked();
  };
  for (const subject of subjects) {
    let set = held.get(subject);
    if (!set) held.set(subject, (set = new Set()));
    set.add(once);
  }
  if (subjects.length) start();
  function release(): void {
    for (const subject of subjects) {
      const current = held.get(subject);
      if (!current?.delete(once)) continue;
      if (current.size === 0) held.delete(subject);
    }
    if (held.size === 0) stop();
  }
  return release;
}

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/**
 * The subscription's stream, ended as soon as one of its subjects is withdrawn: a pending wait for
 * the next event is cut short, and an event that arrives after the withdrawal is never delivered.
 */
export function untilRevoked<T>(source: AsyncIterable<T>, subjects: readonly string[]): AsyncIterableIterator<T> {
  const events = interruptible(source);
  let ended = false;
  // Assigned below: holdFor may call `end` before it returns (a subject already known withdrawn),
  // and then there is nothing held to release yet.
  let release: () => void = () => undefined;
  const end = async (): Promise<IteratorReturnResult<undefined>> => {
    if (!ended) {
      ended = true;
      release();
      events.interrupt(DONE);
      await events.returnSource();
    }
    return DONE;
  };
  release = holdFor(subjects, () => void end());
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      if (ended || isRevoked(subjects)) return end();
      const r = await events.next();
      if (r.done || ended || isRevoked(subjects)) return end();
      return r;
    },
    return: end,
    async throw(e: unknown) {
      await end();
      throw e;
    },
  };
}
