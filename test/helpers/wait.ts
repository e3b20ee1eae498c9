/** Polling for a condition another process (or this one's background work) makes true, with a deadline. */

/**
 * Resolves with the first value `read` answers that `ok` accepts, polled every `everyMs`; fails
 * naming `what` and the last value read after `timeoutMs`.
 */
export async function waitUntil<T>(
  what: string,
  read: () => Promise<T> | T,
  ok: (v: T) => boolean,
  timeoutMs = 60_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) {
      const last = JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? String(x) : x));
      throw new Error(`timed out waiting for ${what} (last: ${last?.slice(0, 500)})`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Resolves with the first truthy value of `fn`, polled every `everyMs`; fails naming `what` after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs = 60_000,
  everyMs = 50,
): Promise<T> {
  return (await waitUntil(what, fn, Boolean, timeoutMs, everyMs)) as T;
}
