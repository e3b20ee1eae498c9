/**
 * A subscription that starts just after its credential was withdrawn (src/http/graphql/revocation.ts,
 * untilRevoked): the dashboard's sign-out races its own live subscriptions, so a stream may be set up
 * for a session this process already knows ended. It must end at once and return its source, not
 * fail: before, `holdFor` called back before the stream's release function existed, and the
 * rejection went unhandled (seen in CI from test/web/dashboard.test.ts's sign-out).
 */
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { stopAll } from "../helpers/api.js";
import { waitUntil } from "../helpers/wait.js";
import { announceRevocation, revocationSubject } from "../../src/domain/keys/revocation.js";
import { untilRevoked } from "../../src/http/graphql/revocation.js";

afterAll(() => stopAll());

/** A source that never yields and records whether it was returned (closed). */
function endlessSource() {
  const state = { returned: false };
  const source: AsyncIterable<number> = {
    [Symbol.asyncIterator]: () => ({
      next: () => new Promise<IteratorResult<number>>(() => undefined),
      return: async () => {
        state.returned = true;
        return { done: true, value: undefined };
      },
    }),
  };
  return { source, state };
}

describe("a stream for a credential already known withdrawn", () => {
  it("ends at once, returns its source, and leaves no unhandled rejection", async () => {
    const subject = revocationSubject.session(randomUUID());
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on("unhandledRejection", onRejection);
    try {
      // A first stream makes this process listen; the announcement ends it and is remembered.
      const first = endlessSource();
      const firstStream = untilRevoked(first.source, [subject]);
      let firstEnded: IteratorResult<number> | null = null;
      void firstStream.next().then((r) => (firstEnded = r));
      // Announced until heard (the subscription to the announcements is being set up meanwhile).
      await waitUntil(
        "the first stream to end",
        async () => firstEnded ?? (await announceRevocation(subject), null),
        (r) => r !== null,
        10_000,
        100,
      );
      expect(firstEnded).toEqual({ done: true, value: undefined });
      expect(first.state.returned).toBe(true);

      // The race: a second stream for the same subject, set up after the withdrawal is known.
      const second = endlessSource();
      const secondStream = untilRevoked(second.source, [subject]);
      await waitUntil(
        "the second source to be returned",
        () => second.state.returned,
        (v) => v,
        2_000,
      );
      expect(await secondStream.next()).toEqual({ done: true, value: undefined });
      await new Promise((r) => setTimeout(r, 50));
      expect(rejections).toEqual([]);
    } finally {
      process.off("unhandledRejection", onRejection);
    }
  });
});
