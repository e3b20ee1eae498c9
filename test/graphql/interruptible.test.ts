/**
 * A live subscription's stream that can be cut short (its lifetime, a revocation: src/http/graphql/interruptible.ts)
 * keeps nothing per event delivered. The earlier `Promise.race([it.next(), cutShort])` left a reaction on the
 * long-lived `cutShort` promise per event (about 350 bytes each, held until the subscription ended): at one
 * event a second, 1.2 MiB more per subscriber and hour.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { interruptible } from "../../src/http/graphql/interruptible.js";
import { untilRevoked } from "../../src/http/graphql/revocation.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

async function* numbers(n: number) {
  for (let i = 0; i < n; i++) yield i;
}

/** Heap bytes still held after draining `stream` of `n` events, per event (after full collections). */
async function retainedPerEvent(n: number, wrap: (source: AsyncIterable<number>) => AsyncIterable<number>): Promise<number> {
  gc();
  const before = process.memoryUsage().heapUsed;
  const stream = wrap(numbers(n));
  let seen = 0;
  const it = stream[Symbol.asyncIterator]();
  // Not `for await`: that would call return() at the end; the wrapper must hold nothing while still live.
  for (let r = await it.next(); !r.done && seen < n - 1; r = await it.next()) seen++;
  gc();
  const held = process.memoryUsage().heapUsed - before;
  await it.return?.();
  expect(seen).toBe(n - 1);
  return held / n;
}

describe("a stream that can be cut short", () => {
  it("holds no memory per event while it lives (revocation's wrapper, the lifetime's parts)", async () => {
    const n = 200_000;
    expect(await retainedPerEvent(n, (s) => untilRevoked(s, [`key:test-${process.pid}`]))).toBeLessThan(16);
    expect(
      await retainedPerEvent(n, (s) => {
        const events = interruptible(s);
        return { [Symbol.asyncIterator]: () => ({ next: () => events.next(), return: async () => ({ done: true, value: undefined }) }) };
      }),
    ).toBeLessThan(16);
  });

  it("an interrupt settles the next() that waits, and the source's late answer is dropped", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    async function* late() {
      await gate;
      yield "late";
      yield "second";
    }
    const events = interruptible(late());
    const waiting = events.next();
    expect(events.interrupt({ done: true, value: undefined })).toBe(true);
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(events.interrupt({ done: true, value: undefined })).toBe(false); // nothing waits now
    release();
    expect(await events.next()).toEqual({ done: false, value: "second" }); // "late" went to the settled next()
  });

  it("a source's error reaches the next() that waits", async () => {
    async function* failing() {
      yield 1;
      throw new Error("source broke");
    }
    const events = interruptible(failing());
    expect(await events.next()).toEqual({ done: false, value: 1 });
    await expect(events.next()).rejects.toThrow("source broke");
  });
});
