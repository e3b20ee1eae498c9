/**
 * A subscription stream that something outside it can cut short (its lifetime's timer, a revocation):
 * the `next()` waiting for an event is settled at once with what the cut says.
 *
 * Not `Promise.race([it.next(), cutShort])`: each race leaves a reaction on the long-lived `cutShort` promise
 * until that promise settles, which is the subscription's end. That held about 350 bytes per event per
 * subscriber for hours (test/graphql/interruptible.test.ts measures it), and made the garbage collector's work
 * grow with every event delivered. Here only the one `next()` now waiting is remembered. (@repeaterjs/repeater,
 * already installed under Yoga, has a leak-free `Repeater.race`, but as one more async-iterator layer per subscriber
 * and event on the path every delivery takes.)
 */
export interface Interruptible<T> {
  /** The source's next result, unless `interrupt` settles it first. */
  next(): Promise<IteratorResult<T>>;
  /** Settles the `next()` now waiting with `result` (true), or does nothing when none waits (false). */
  interrupt(result: IteratorResult<T>): boolean;
  /** Ends the source (not awaited by the cut: the source may still hold the `next()` the cut settled). */
  returnSource(): Promise<unknown>;
}

export function interruptible<T>(source: AsyncIterable<T>): Interruptible<T> {
  const it = source[Symbol.asyncIterator]();
  let settle: ((result: IteratorResult<T>) => void) | undefined;
  return {
    next: () =>
      new Promise<IteratorResult<T>>((resolve, reject) => {
        settle = resolve;
        it.next().then(
          (result) => {
            if (settle === resolve) settle = undefined;
            resolve(result); // after an interrupt: a no-op, the source's late answer is dropped
          },
          (error: unknown) => {
            if (settle === resolve) settle = undefined;
            reject(error);
          },
        );
      }),
    interrupt(result) {
      const waiting = settle;
      settle = undefined;
      waiting?.(result);
      return waiting !== undefined;
    },
    returnSource: () => Promise.resolve(it.return?.()).catch(() => undefined),
  };
}
