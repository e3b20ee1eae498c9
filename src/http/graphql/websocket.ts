/**
 * GraphQL over WebSocket (graphql-ws) on the HTTP server, with the bounds HTTP has:
 *
 * - frames of at most 1 MiB (BODY_LIMIT_BYTES, HTTP's body limit), `connection_init` included: 30
 *   sockets sending one 95 MiB frame each took the process from 1 to 4 GiB;
 * - a socket authenticates within GRAPHQL_WS_AUTH_TIMEOUT_MS (graphql-ws closes it with 4408
 *   otherwise); `connection_init` is admitted by the same rule as HTTP and costs one unit of the
 *   key's budget; a credential holds at most GRAPHQL_MAX_SOCKETS_PER_KEY sockets across every API
 *   process (closed with 4429 past it);
 * - each operation costs one unit before its document is read, then runs the HTTP pipeline: the
 *   trusted-documents rule (./persisted.ts, the same Yoga hook), Yoga's envelop parse and validate
 *   (tokens, depth, cost, aliases, introspection: ./limits.ts), the execution bounds, the
 *   subscription cap (./subscriptions.ts);
 * - a revoked key's sockets are closed with 4403 (./revocation.ts);
 * - a socket lives at most GRAPHQL_SUBSCRIPTION_MAX_LIFETIME_SECONDS (less up to a tenth: ./subscriptions.ts,
 *   `lifetimeMs`), then is closed with 4000 and a reason saying so: graphql-ws clients reconnect (a
 *   code it does not hold fatal) and subscribe again, through admission as they are now.
 */
import type { Server } from "node:http";
import { GraphQLError } from "graphql";
import { WebSocketServer, type WebSocket } from "ws";
import { useServer } from "graphql-ws/use/ws";
import { randomUUID } from "node:crypto";
import { RateLimitedError } from "../../domain/keys/access.ts";
import { acquireLive } from "../../domain/keys/live.ts";
import { config } from "../../config.ts";
import { BODY_LIMIT_BYTES } from "../request-context.ts";
import { whoIsAsking } from "../who-is-asking.ts";
import { askerContext, subjectsOf } from "./asker.ts";
import { refusal } from "./refusals.ts";
import { DomainError } from "../../domain/shared/errors.ts";
import { trustedParams } from "./persisted.ts";
import { holdFor } from "./revocation.ts";
import { lifetimeMs } from "./subscriptions.ts";
import { closesInTurn, sharedText } from "./fan-out.ts";
import { maskError, type GraphQLServer } from "./yoga.ts";

/** The WebSocket close code of a connection whose API key was revoked. */
export const CLOSE_KEY_REVOKED = 4403;
/** The close code of a socket past its credential's socket limit (or over its rate limit at connection_init). */
export const CLOSE_TOO_MANY = 4429;
/** The close code of a socket that reached its maximum lifetime: reconnect. */
export const CLOSE_LIFETIME_REACHED = 4000;

/** Closes the socket when its lifetime is reached (./subscriptions.ts, `lifetimeMs`). */
function closeAtLifetime(socket: WebSocket): void {
  const ms = lifetimeMs();
  if (ms === null) return;
  const seconds = config.graphql.subscriptionMaxLifetimeMs / 1000;
  const timer = setTimeout(
    () => socket.close(CLOSE_LIFETIME_REACHED, `Lifetime reached (GRAPHQL_SUBSCRIPTION_MAX_LIFETIME_SECONDS=${seconds}): reconnect`),
    ms,
  );
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
}

const asErrors = (e: unknown): GraphQLError[] => [
  e instanceof GraphQLError ? e : e instanceof DomainError ? refusal(e) : (maskError(e) as GraphQLError),
];

// ---------------------------------------------------------------------------------------------
// Shared answers (./fan-out.ts): graphql-ws stringifies each `next` message itself, so the answer made
// once for a group is handed over as an empty payload, and the socket's send puts the group's text in
// its place: per subscriber only the envelope `{"id":…,"type":"next","payload":…}` is written.

/** The shared answers waiting to be written on a socket, by subscription id (graphql-ws sends one `next` at a time per id). */
const sharedAnswers = new WeakMap<WebSocket, Map<string, string>>();

const NEXT_START = '{"id":';
const EMPTY_NEXT_END = ',"type":"next","payload":{}}';

/** The `next` message with its subscription's waiting shared answer in place of the empty payload; any other message as it is. */
function withSharedAnswer(message: string, waiting: Map<string, string>): string {
  if (!message.endsWith(EMPTY_NEXT_END) || !message.startsWith(NEXT_START)) return message;
  const idJson = message.slice(NEXT_START.length, -EMPTY_NEXT_END.length);
  const id = JSON.parse(idJson) as string;
  const text = waiting.get(id);
  if (text === undefined) return message;
  waiting.delete(id);
  return `${NEXT_START}${idJson},"type":"next","payload":${text}}`;
}

/** The socket writes shared answers in place of the empty payloads graphql-ws stringified for them. */
function writesSharedAnswers(socket: WebSocket): void {
  const waiting = new Map<string, string>();
  sharedAnswers.set(socket, waiting);
  const send = socket.send.bind(socket) as (data: unknown, cb?: (err?: Error) => void) => void;
  socket.send = ((data: unknown, cb?: (err?: Error) => void) =>
    send(typeof data === "string" && waiting.size > 0 ? withSharedAnswer(data, waiting) : data, cb)) as WebSocket["send"];
}

/** graphql-ws on the HTTP server, running operations through Yoga's envelop (so its plugins apply). */
export function attachWebSocket(server: Server, yoga: GraphQLServer) {
  const wss = new WebSocketServer({ server, path: yoga.graphqlEndpoint, maxPayload: BODY_LIMIT_BYTES });
  // Before graphql-ws's own listener: the socket is ready for shared answers before its first message, and ends in its turn.
  wss.on("connection", (socket, request) => {
    writesSharedAnswers(socket);
    closesInTurn(socket);
    // ws's own handling of a client's leaving is served in the same turns, in the order the TCP socket emitted it:
    // - its `end` and `close` (each ends streams already ended, and builds an error nobody reads for it): for 10,000
    //   clients leaving at once some 170 ms of work in one poll of the sockets, before any turn could run
    //   (bench/RESULTS.md, "Subscribers: the TCP socket's end and close in turns");
    // - its `data`: a graphql-ws client leaves with a close frame, which ws parses and answers (a close frame written,
    //   the socket ended, a timer set) as the data arrives: 10,000 of them came in a few polls, the rest of the
    //   close stall (bench/RESULTS.md, "Subscribers: close frames in turns"). Every frame waits for its turn, the
    //   same turn of the loop when the process is not behind, with its socket paused meanwhile (nothing more is read
    //   from it until then); a storm of them (clients subscribing again together after a restart) is served a chunk
    //   per turn too.
    closesInTurn(request.socket, ["data", "end", "close"]);
  });
  const disposable = useServer(
    {
      connectionInitWaitTimeout: config.graphql.wsAuthTimeoutMs,
      execute: (args: any) => args.rootValue.execute(args),
      subscribe: (args: any) => args.rootValue.subscribe(args),
      // An answer shared by a group of subscribers (./fan-out.ts) is written as the JSON made once for all of them.
      onNext: (ctx, id, _payload, _args, result) => {
        const text = sharedText(result);
        const waiting = sharedAnswers.get(ctx.extra.socket);
        if (text === undefined || !waiting) return undefined;
        waiting.set(id, text);
        return {}; // written as `"payload":{}`, which the socket's send replaces with the text (writesSharedAnswers)
      },
      // connection_init: refuse the socket at once when the key is missing, unknown or revoked, over
      // its budget, or holding its limit of sockets.
      onConnect: async (ctx) => {
        const socket = ctx.extra.socket;
        let asker;
        try {
          // The same "who is asking" as every door (a key, or a session from the service's own pages),
          // and one unit of its budget.
          asker = await whoIsAsking(ctx.extra.request, { count: true, connectionParams: ctx.connectionParams ?? {} });
        } catch (e) {
          if (e instanceof RateLimitedError) {
            socket.close(CLOSE_TOO_MANY, "Rate limit exceeded");
            return false;
          }
          if (e instanceof DomainError) return false; // refused: graphql-ws closes with 4403
          throw e;
        }
        if (!asker) return false;
        const release = await acquireLive("socket", asker.budget);
        if (!release) {
          socket.close(
            CLOSE_TOO_MANY,
            `Too many WebSocket connections for this credential (GRAPHQL_MAX_SOCKETS_PER_KEY=${config.graphql.maxSocketsPerKey})`,
          );
          return false;
        }
        socket.once("close", release);
        if (socket.readyState !== socket.OPEN) release(); // closed while we checked
        // A withdrawn key, session or membership closes the socket with 4403 within REVOCATION_CHECK_INTERVAL_MS (./revocation.ts).
        const unhold = holdFor(subjectsOf(asker), () => socket.close(CLOSE_KEY_REVOKED, "Credential revoked"));
        socket.once("close", unhold);
        closeAtLifetime(socket);
        return true;
      },
      onSubscribe: async (ctx, _id, payload) => {
        let params;
        let admitted;
        try {
          // Each operation is admitted again (the session may have ended since) and costs one unit of
          // the budget, before its document is read.
          admitted = await askerContext({ req: ctx.extra.request, connectionParams: ctx.connectionParams ?? {}, requestId: randomUUID() });
          params = await trustedParams({
            ...payload,
            operationName: payload.operationName ?? undefined,
            variables: payload.variables ?? undefined,
            extensions: payload.extensions ?? undefined,
            query: payload.query ?? "",
          });
        } catch (e) {
          return asErrors(e);
        }
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params,
          connectionParams: ctx.connectionParams,
          admitted,
        });
        let document;
        try {
          document = parse(params.query);
        } catch (e) {
          return asErrors(e);
        }
        const errors = validate(schema, document);
        if (errors.length > 0) return errors;
        let contextValue;
        try {
          contextValue = await contextFactory();
        } catch (e) {
          return asErrors(e);
        }
        return {
          schema,
          operationName: params.operationName,
          document,
          variableValues: params.variables,
          contextValue,
          rootValue: { execute, subscribe },
        };
      },
    },
    wss,
  );
  return {
    close: async () => {
      await disposable.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
