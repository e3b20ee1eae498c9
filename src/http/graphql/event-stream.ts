/**
 * SSE answers (a subscription, or any operation asked with `Accept: text/event-stream`) written to the
 * Node response by ./json-post.ts's path, with Yoga's own SSE result processor making every byte.
 *
 * Why: Yoga's processor enqueues into a web ReadableStream (whatwg-node's: a Node Readable under it,
 * piped into the response), each event as two `TextEncoder.encode` copies, and the stream is pulled
 * one event at a time through that pipe. At 10,000 live SSE subscribers that transport was the
 * difference between SSE and graphql-ws on the same events (bench/RESULTS.md, "Subscribers").
 *
 * How: the processor is called with a fetch API of our own (`capturing`): its Response records the
 * status and headers it answers, its ReadableStream hands us the underlying source (Yoga's `start`,
 * `pull` and `cancel`: the first ping, the 12-s pings, each event's framing and serialisation, the
 * closing `complete`), and its TextEncoder passes strings through. This module is that stream's
 * reader: it pulls an event, writes what the pull enqueued in one `res.write`, waits for `drain` when
 * the socket is behind (as whatwg-node's pump does), and cancels the source (the subscription's
 * iterator returned: its place, its revocation hold, its listeners given back) when the client leaves.
 * The bytes are Yoga's by construction; test/graphql/event-stream.test.ts compares them with Yoga's own path.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { logger } from "../../infra/logger.ts";

/** What Yoga's SSE processor enqueues into (a ReadableStream controller, as far as it uses one). */
interface Controller {
  enqueue(chunk: string): void;
  close(): void;
  error(e: unknown): void;
  readonly desiredSize: number | null;
}

/** The underlying source Yoga's SSE processor gives its ReadableStream. */
interface Source {
  start(controller: Controller): unknown;
  pull(controller: Controller): unknown;
  cancel(reason?: unknown): unknown;
}

/** What the processor answered: its status, headers and stream source. */
export interface EventStreamAnswer {
  source: Source;
  init: { status: number; statusText?: string; headers: Record<string, string> };
}

/** A fetch API under which Yoga's SSE processor answers an `EventStreamAnswer` (see above). */
export const capturing = {
  TextEncoder: class {
    encode(text: string): string {
      return text;
    }
  },
  ReadableStream: class {
    readonly source: Source;
    constructor(source: Source) {
      this.source = source;
    }
  },
  Response: class implements EventStreamAnswer {
    readonly source: Source;
    readonly init: EventStreamAnswer["init"];
    constructor(body: { source: Source }, init: EventStreamAnswer["init"]) {
      this.source = body.source;
      this.init = init;
    }
  },
};

/**
 * Resolves true when the response can take more (`drain`) or is gone (`close`); false when `cutAt` (a time, ms since
 * the epoch) comes first: a client that stopped reading.
 */
function writable(res: ServerResponse, cutAt: number | null): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (drained: boolean) => {
      res.off("drain", onDrain);
      res.off("close", onDrain);
      if (timer) clearTimeout(timer);
      resolve(drained);
    };
    const onDrain = () => done(true);
    const timer = cutAt === null ? undefined : setTimeout(() => done(false), Math.max(0, cutAt - Date.now())).unref();
    res.once("drain", onDrain);
    res.once("close", onDrain);
  });
}

/** Returns the subscription's iterator (through the source's cancel) once; a failure there is logged, never thrown. */
function canceller(source: Source): { cancel: () => Promise<void>; completed: () => void } {
  let done = false;
  return {
    cancel: async () => {
      if (done) return;
      done = true;
      try {
        await source.cancel();
      } catch (err) {
        logger.warn({ err }, "ending an SSE stream's subscription");
      }
    },
    // The source completed by itself: its iterator is done, nothing to return (a client leaving after that changes nothing).
    completed: () => {
      done = true;
    },
  };
}

export interface EventStreamOptions {
  /**
   * How long after its start a stream may still wait for its client to read (null: as long as the client stays
   * connected). A stream's lifetime ends it at its next pull (./subscriptions.ts); while the socket is behind, no pull
   * comes, so a client that stops reading would keep its subscription past it.
   */
  cutAfterMs: number | null;
}

/**
 * Writes the stream to `res` until the source completes, fails or the client leaves, or the client stops reading
 * past `options.cutAfterMs`. A failure of the
 * operation's stream (an iterator or a serialisation that throws) ends the connection without `complete`, as a
 * stream that broke, after what was already written is sent: the client's reconnection (EventSource's,
 * graphql-sse's) takes it from there. Whatever happens, the subscription's iterator is returned once unless it
 * completed by itself.
 */
export async function writeEventStream(
  answer: EventStreamAnswer,
  req: IncomingMessage,
  res: ServerResponse,
  options: EventStreamOptions = { cutAfterMs: null },
): Promise<void> {
  const { source, init } = answer;
  const cutAt = options.cutAfterMs === null ? null : Date.now() + options.cutAfterMs;
  const { cancel, completed } = canceller(source);
  // `close` may reach its listener turns later (closesInTurn, ./fan-out.ts): a destroyed response is gone already.
  let left = false;
  const gone = () => left || res.destroyed;
  // Set by the source through the controller (an object: TypeScript would narrow a local across the awaits).
  const end: { state: "open" | "closed" | "failed"; failure?: unknown } = { state: "open" };
  const state = () => end.state;
  // What the source enqueued since the last write: an event's two chunks go out in one write.
  let pending = "";
  const flush = () => {
    if (end.state !== "open") return; // written with the response's end, or dropped with a failure
    if (pending && !gone()) res.write(pending);
    pending = "";
  };
  const controller: Controller = {
    enqueue(chunk) {
      pending += chunk;
      // Written once a message is whole (a ping, or an event's `data:` line): never half an event whose serialisation threw.
      if (chunk.endsWith("\n\n")) queueMicrotask(flush);
    },
    close() {
      end.state = "closed";
    },
    error(e) {
      end.state = "failed";
      end.failure = e;
    },
    // Yoga pings only when this is above 0 and stops them when it is null.
    get desiredSize() {
      return gone() || end.state !== "open" ? null : res.writableNeedDrain ? 0 : 1;
    },
  };
  try {
    if (!gone()) {
      res.once("close", () => {
        left = true;
        void cancel();
      });
      // As whatwg-node's server before a streamed body: no idle timeout, no Nagle delay, TCP keep-alive.
      req.socket.setTimeout(0);
      req.socket.setNoDelay(true);
      req.socket.setKeepAlive(true);
      if (init.statusText === undefined) res.writeHead(init.status, init.headers);
      else res.writeHead(init.status, init.statusText, init.headers);
    }
    await source.start(controller);
    while (state() === "open" && !gone()) {
      await source.pull(controller);
      if (gone()) break;
      if (state() === "closed") {
        completed();
        res.end(pending); // the last event and `complete`
        return;
      }
      flush();
      if (res.writableNeedDrain && !(await writable(res, cutAt))) {
        if (gone()) break; // it left (its `close` may come turns later)
        // Its lifetime is acted on at the next pull, which a client that does not read never lets come.
        logger.info("an SSE client stopped reading past its stream's longest lifetime: its connection is cut");
        res.destroy();
        break;
      }
    }
  } catch (e) {
    // Yoga's pull rejects (instead of calling `error`) when serialising an answer throws; or writeHead refused a header.
    end.state = "failed";
    end.failure = e;
  }
  if (state() === "failed") {
    logger.warn({ err: end.failure }, "an SSE stream's operation failed: its connection is ended without `complete`");
    // What was written goes out first (a response's writes wait for the next tick; destroy would drop them).
    if (res.headersSent && !gone()) res.write("", () => res.destroy());
    else res.destroy();
  }
  await cancel(); // the client left, or the stream failed: its subscription ends here (once)
}
