/**
 * An event reaches a topic's subscribers a chunk per turn of the event loop (src/infra/events.ts,
 * `channelEvents`): the Redis event target called every listener at once, and each call set off that
 * subscriber's chain of streams, so a burst of events to thousands of subscribers held the loop (and the
 * requests waiting on it) for most of a second. Each subscriber still gets every event, in order.
 */
import { afterAll, describe, expect, it } from "vitest";
import { MAX_WAITING_EVENTS, publish, subscribe, subscribed } from "../../src/infra/events.js";
import { closeRedis, redis } from "../../src/infra/redis.js";
import { config } from "../../src/config.js";

afterAll(async () => {
  await closeRedis();
});

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("events reach their subscribers in turns", () => {
  it("400 subscribers of one topic: served over several turns, each gets every event in order", async () => {
    const id = `turns-${process.pid}-${Date.now()}`;
    const streams = Array.from({ length: 400 }, () => subscribe("test-turns", id)[Symbol.asyncIterator]());
    const received: unknown[][] = streams.map(() => []);
    const pending = streams.map((it, i) =>
      (async () => {
        for (let n = 0; n < 3; n++) received[i]!.push((await it.next()).value);
      })(),
    );
    // A listener `atOnce` (revocations), added last, is not queued behind the chunks: it has the event before the first one.
    const urgent = subscribe("test-turns", id, { atOnce: true })[Symbol.asyncIterator]();
    let urgentGot = false;
    void urgent.next().then(() => (urgentGot = true));
    await nextTurn();
    await subscribed();

    await publish("test-turns", id, { n: 0 });
    // Turn by turn until every subscriber has the first event: what one turn delivered is counted.
    const firstEvent = () => received.filter((r) => r.length > 0).length;
    const perTurn: number[] = [];
    let urgentFirst = false;
    const deadline = Date.now() + 10_000;
    for (let seen = 0; seen < 400 && Date.now() < deadline; ) {
      await nextTurn();
      const now = firstEvent();
      if (now > seen && perTurn.length === 0) urgentFirst = urgentGot;
      if (now > seen) perTurn.push(now - seen);
      seen = now;
    }
    expect(perTurn.reduce((a, b) => a + b, 0)).toBe(400);
    expect(perTurn.length, `delivered per turn: ${perTurn.join(", ")}`).toBeGreaterThan(1);
    expect(Math.max(...perTurn)).toBeLessThan(400);
    expect(urgentFirst, "the atOnce listener, added last, had its event when the first chunk was served").toBe(true);
    await urgent.return?.();

    await publish("test-turns", id, { n: 1 });
    await publish("test-turns", id, { n: 2 });
    await Promise.all(pending);
    for (const r of received) expect(r).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
    await Promise.all(streams.map((it) => it.return?.()));
  });

  it("a subscriber that falls MAX_WAITING_EVENTS behind: it gets what waited, in order, then its stream ends with an error", async () => {
    const id = `behind-${process.pid}-${Date.now()}`;
    const it = subscribe("test-turns", id)[Symbol.asyncIterator]();
    const first = it.next();
    // A second subscriber that keeps up: once it has the last event, so has the slow one's queue.
    const witness = subscribe("test-turns", id)[Symbol.asyncIterator]();
    const last = MAX_WAITING_EVENTS + 1;
    const witnessed = (async () => {
      for (let r = await witness.next(); !r.done && (r.value as { n: number }).n < last; r = await witness.next());
    })();
    await subscribed();
    const channel = `${config.redisPrefix}:test-turns:${id}`;
    const pipeline = redis().pipeline();
    for (let n = 0; n <= last; n++) pipeline.publish(channel, JSON.stringify({ n }));
    await pipeline.exec();
    expect((await first).value).toEqual({ n: 0 });
    await witnessed;
    await nextTurn();
    await witness.return?.();
    // The slow subscriber's queue held MAX_WAITING_EVENTS (1 … MAX); the last event overflowed it.
    let n = 1;
    let ended: unknown = null;
    for (;;) {
      try {
        const r = await it.next();
        if (r.done) break;
        expect(r.value).toEqual({ n });
        n++;
      } catch (e) {
        ended = e;
        break;
      }
    }
    expect(n - 1).toBe(MAX_WAITING_EVENTS);
    expect(String(ended)).toMatch(/fell 10000 events behind/);
    expect((await it.next()).done).toBe(true);
  });

  it("two next() calls waiting at once get two events, in order", async () => {
    const id = `two-${process.pid}-${Date.now()}`;
    const it = subscribe("test-turns", id)[Symbol.asyncIterator]();
    const first = it.next();
    const second = it.next();
    await subscribed();
    await publish("test-turns", id, { n: 1 });
    await publish("test-turns", id, { n: 2 });
    expect([(await first).value, (await second).value]).toEqual([{ n: 1 }, { n: 2 }]);
    const third = it.next();
    await it.return?.();
    expect((await third).done).toBe(true);
  });
});
