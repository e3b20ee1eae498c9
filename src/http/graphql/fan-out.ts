/**
 * Fan-out of live subscriptions: an event's answer is executed and serialised once per group of
 * subscribers who would get the same answer, and written to each of their sockets (graphql-ws) or
 * streams (SSE); the writing yields to the rest of the process between chunks.
 *
 * - A group is (event, document, operation name, variables, visibility). The event is the object the
 *   Redis event target hands to every subscriber of its channel in this process (one parse per
 *   message): each subscriber's own stream (its field's `subscribe`, with its checks, run once per
 *   subscriber as before) decides whether the event reaches it at all. Visibility is what an answer
 *   may depend on besides the event: the workspace and the role (`visibilityOf`), and the person for
 *   the documents that read person-owned data (`PERSONAL_FIELDS`). Two subscribers of one group would
 *   run the same resolvers on the same data with the same rights, so the first to take the event
 *   executes it with its context and the others take that answer.
 * - Serialised once: the answer's JSON is kept with it; graphql-ws's `onNext` (./websocket.ts) and
 *   Yoga's SSE writer (a result's `stringify`) write that text instead of stringifying it again.
 * - Yielding: each subscriber waits for its turn before its answer is written (`turn`): at most
 *   FAN_OUT_CHUNK subscribers are served per turn of the event loop (setImmediate), so requests, and
 *   the next events, are served between chunks instead of after the last of 10,000 sockets.
 * - Documents with @defer/@stream keep Yoga's own per-subscriber subscribe (incremental answers are
 *   not shared).
 *
 * The classic design is Hasura's multiplexed live queries (one query per distinct document and
 * session variables); here the executor runs once per group on an event instead of a poll.
 */
import { AsyncResource } from "node:async_hooks";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Readable } from "node:stream";
import { buildExecutionContext, execute } from "@graphql-tools/executor";
import {
  createSourceEventStream,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  getNamedType,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import { principalId } from "../../domain/actors/actor.ts";
import { countSubscriptionAnswer } from "../../infra/metrics.ts";
import { turns } from "../../infra/turns.ts";
import type { GraphQLContext } from "./builder.ts";
import { isIncremental } from "./incremental.ts";

/** Subscribers served per turn of the event loop: about 5 ms of writing at 20 µs each. */
export const FAN_OUT_CHUNK = 256;

/**
 * Fields whose answer depends on who the person is, not only on the workspace and role: their documents are shared per
 * person. test/graphql/fan-out-fields.test.ts fails when a field becomes reachable from a subscription without having
 * been reviewed for this list (test/graphql/subscription-fields.txt).
 */
export const PERSONAL_FIELDS = new Set(["Subscription.notificationsChanged", "SavedView.mine"]);

// ---------------------------------------------------------------------------------------------
// Turns: fan-out yields to the event loop every FAN_OUT_CHUNK subscribers (src/infra/turns.ts)

const writeTurn = turns(FAN_OUT_CHUNK);

/** Resolves at this subscriber's turn to be written (FAN_OUT_CHUNK per turn of the event loop). */
export const turn = (): Promise<void> => new Promise((resolve) => writeTurn(resolve));

/**
 * Live connections whose end is handled per turn of the event loop: ending one (its streams returned,
 * the leases and revocation holds given back) costs about 0.1-0.2 ms of CPU, so 10,000 clients leaving at once
 * (a load balancer's restart, a network cut) held the loop for over a second.
 */
const CLOSE_CHUNK = 64;
// One queue, in order, for every deferred end: a TCP socket's `end` must reach Node's HTTP server before its `close`
// (socketOnClose frees the parser socketOnEnd reads), and ws's the same way round.
const closeTurn = turns(CLOSE_CHUNK);
const IN_TURN = Symbol("events emitted in turns");
/** Set while a close turn's task runs: what it sets off (ws's `close` after its TCP socket's) runs then, not a turn later. */
let insideCloseTurn = false;

/**
 * The emitter's listeners of `events` (its `close` by default) run at its turn (CLOSE_CHUNK per turn), in the order
 * emitted, after the I/O already waiting: a graphql-ws socket, an SSE stream's request and response, and the TCP socket
 * under either (its `end` and `close`, where ws or Node's HTTP server answers a client's leaving, and under graphql-ws
 * its `data`, where a client's close frame arrives: ./websocket.ts). Node frees a socket
 * its peer closed at once; one only half-closed by its peer is ended by those listeners, at their turn. An event
 * emitted by a task of a close turn runs at once, inside it: a connection's chain of ends takes one turn, not three, so
 * its leases are given back as soon. Each task runs in the async context of its emit (the request's log context).
 */
export function closesInTurn(emitter: NodeJS.EventEmitter, events: readonly string[] = ["close"]): void {
  if (events.includes("error")) throw new Error("an error is handled when it happens, never in turns");
  // Once per event and emitter: a keep-alive TCP socket carries one SSE stream after another.
  const holder = emitter as NodeJS.EventEmitter & { [IN_TURN]?: readonly string[] };
  const already = holder[IN_TURN] ?? [];
  const added = events.filter((e) => !already.includes(e));
  if (added.length === 0) return;
  holder[IN_TURN] = [...already, ...added];
  const held = added.includes("data") ? heldWhileWaiting(emitter as Readable) : null;
  const emit = emitter.emit;
  emitter.emit = function (this: NodeJS.EventEmitter, event: string | symbol, ...args: unknown[]) {
    if (typeof event !== "string" || !added.includes(event) || insideCloseTurn) return emit.call(this, event, ...args);
    const isData = event === "data" && held !== null;
    const task = AsyncResource.bind(() => {
      insideCloseTurn = true;
      try {
        emit.call(this, event, ...args);
      } finally {
        insideCloseTurn = false;
        if (isData) held.served();
      }
    });
    if (isData) held.waiting();
    closeTurn(task);
    return true;
  } as typeof emitter.emit;
}

/**
 * An SSE stream's ends in turns: its request's and response's `close`, and its TCP socket's `end` and `close` (Node's
 * own handling of a client's leaving, http's socketOnClose). Called from the Accept header (src/main/server.ts) and
 * again where an answer is decided to be SSE (./json-post.ts: an Accept of any type, curl's default, gets SSE for a
 * subscription too); once per emitter and event, so twice is once.
 */
export function streamEndsInTurn(req: IncomingMessage, res: ServerResponse): void {
  closesInTurn(req);
  closesInTurn(res);
  closesInTurn(req.socket, ["end", "close"]);
}

/**
 * A stream whose `data` waits for its turn is paused meanwhile, so the bytes it reads wait in the kernel and its own
 * bounded buffer, not in the turns' queue: a client streaming frames as fast as it can would otherwise be read on
 * (Node takes a queued chunk as consumed) into the queue without a bound (a reviewer's test: 8 clients sending 60-KiB
 * frames for 4 s on a loaded process queued 570-736 MiB). Resumed when its last waiting chunk is served, unless its
 * consumer paused it meanwhile (ws, when its receiver is full): that pause is the consumer's to lift.
 */
function heldWhileWaiting(stream: Readable): { waiting: () => void; served: () => void } {
  let queued = 0;
  let pausedHere = false;
  let consumerPaused = false;
  let ours = false;
  const { pause, resume } = stream;
  stream.pause = function (this: Readable) {
    if (!ours) consumerPaused = true;
    return pause.call(this);
  };
  stream.resume = function (this: Readable) {
    if (!ours) consumerPaused = false;
    return resume.call(this);
  };
  const here = (f: () => void) => {
    ours = true;
    try {
      f();
    } finally {
      ours = false;
    }
  };
  return {
    waiting() {
      queued++;
      if (!stream.isPaused()) {
        here(() => stream.pause());
        pausedHere = true;
      }
    },
    served() {
      if (--queued > 0 || !pausedHere) return;
      pausedHere = false;
      if (!consumerPaused) here(() => stream.resume());
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Groups

const documentIds = new WeakMap<DocumentNode, string>();
let nextDocumentId = 0;

/** The document's text (the same text parsed twice is one group: graphql-ws and SSE, two parser caches), else its identity. */
function documentKey(document: DocumentNode): string {
  const text = document.loc?.source.body;
  if (text !== undefined) return text;
  let id = documentIds.get(document);
  if (id === undefined) documentIds.set(document, (id = `#${nextDocumentId++}`));
  return id;
}
const personalDocuments = new WeakMap<DocumentNode, boolean>();

/** Whether the document selects a field whose answer is the person's own (PERSONAL_FIELDS). */
function isPersonal(args: ExecutionArgs): boolean {
  let found = personalDocuments.get(args.document);
  if (found === undefined) {
    found = false;
    const info = new TypeInfo(args.schema);
    visit(
      args.document,
      visitWithTypeInfo(info, {
        Field(node) {
          const parent = info.getParentType();
          if (parent && PERSONAL_FIELDS.has(`${getNamedType(parent).name}.${node.name.value}`)) found = true;
        },
      }),
    );
    personalDocuments.set(args.document, found);
  }
  return found;
}

/** Who may see what: the workspace and role, and the person for personal documents; null when the context has no workspace. */
function visibilityOf(args: ExecutionArgs): string | null {
  const ctx = args.contextValue as GraphQLContext;
  try {
    const { workspaceId, role, principal } = ctx.auth;
    return isPersonal(args) ? `${workspaceId}:${role}:${principalId(principal)}` : `${workspaceId}:${role}`;
  } catch {
    return null; // an actor that cannot be read (./asker.ts): nothing to share
  }
}

/** The subscription's group key (without the event), or null when its answers are not shared. */
function groupOf(args: ExecutionArgs): string | null {
  const visibility = visibilityOf(args);
  if (visibility === null) return null;
  return `${documentKey(args.document)}\u0000${args.operationName ?? ""}\u0000${JSON.stringify(args.variableValues ?? {})}\u0000${visibility}`;
}

// ---------------------------------------------------------------------------------------------
// Answers: executed once per (event, group), serialised once

const answers = new WeakMap<object, Map<string, Promise<ExecutionResult>>>();
const serialised = new WeakMap<object, string>();

/** The JSON of a shared answer (made once for every subscriber of its group); undefined for an answer of its own. */
export function sharedText(result: unknown): string | undefined {
  return result !== null && typeof result === "object" ? serialised.get(result) : undefined;
}

/** Serialises a shared answer once; Yoga's SSE writer takes that text through the result's `stringify`. */
function share(result: ExecutionResult): ExecutionResult {
  // An answer with errors is rewritten per subscriber (masked, internals omitted): only clean answers are kept as text.
  if (result.errors?.length) return result;
  const text = JSON.stringify(result);
  serialised.set(result, text);
  Object.defineProperty(result, "stringify", { value: () => text, enumerable: false });
  return result;
}

function answerOnce(event: unknown, group: string | null, args: ExecutionArgs): Promise<ExecutionResult> {
  const run = async () => (await execute({ ...args, rootValue: event })) as ExecutionResult;
  if (group === null || event === null || typeof event !== "object") {
    countSubscriptionAnswer("executed");
    return run();
  }
  let byGroup = answers.get(event);
  if (!byGroup) answers.set(event, (byGroup = new Map()));
  let answer = byGroup.get(group);
  if (answer) {
    countSubscriptionAnswer("shared");
    return answer;
  }
  countSubscriptionAnswer("executed");
  byGroup.set(group, (answer = run().then(share)));
  return answer;
}

/** The subscriber's answers: its own source stream, each event answered once per group, written at its turn. */
function answersOf(source: AsyncIterable<unknown>, args: ExecutionArgs): AsyncIterableIterator<ExecutionResult> {
  const it = source[Symbol.asyncIterator]();
  const group = groupOf(args);
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      const r = await it.next();
      if (r.done) return { done: true, value: undefined };
      const value = await answerOnce(r.value, group, args);
      await turn();
      return { done: false, value };
    },
    async return() {
      await it.return?.();
      return { done: true, value: undefined };
    },
    async throw(e: unknown) {
      await it.return?.();
      throw e;
    },
  };
}

type Subscribe = (args: ExecutionArgs) => unknown;

/** graphql-js's source stream (the field's `subscribe`, per subscriber), mapped to shared answers. */
async function sharedSubscribe(args: ExecutionArgs, perSubscriber: Subscribe): Promise<unknown> {
  // Incremental documents, and refused variables (answered as Yoga's executor words the refusal), go the per-subscriber way.
  if (isIncremental(args.document) || !("schema" in buildExecutionContext(args))) return perSubscriber(args);
  const source = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in source)) return source; // refused: its errors
  return answersOf(source as AsyncIterable<unknown>, args);
}

/** The plugin: every subscription (graphql-ws and SSE) answers through `sharedSubscribe`. */
export const answerOncePerGroup: Plugin<GraphQLContext> = {
  onSubscribe({ subscribeFn, setSubscribeFn }) {
    setSubscribeFn(((args: ExecutionArgs) => sharedSubscribe(args, subscribeFn as Subscribe)) as typeof subscribeFn);
  },
};
