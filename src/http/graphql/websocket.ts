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
 * - a revoked key's sockets are closed with 4403 (./revocation.ts).
 */
import type { Server } from "node:http";
import { GraphQLError } from "graphql";
import { WebSocketServer } from "ws";
import { useServer } from "graphql-ws/use/ws";
import type { Context } from "graphql-ws";
import { authenticate, bearerSecret, consumeRequest, credentialOf, RateLimitedError, type AuthContext } from "../../domain/keys/access.js";
import { acquireLive } from "../../domain/keys/live.js";
import { config } from "../../config.js";
import { BODY_LIMIT_BYTES } from "../request-context.js";
import { authorizationOf } from "./admission.js";
import { refusal } from "./refusals.js";
import { DomainError } from "../../domain/shared/errors.js";
import { trustedParams } from "./persisted.js";
import { holdForKey } from "./revocation.js";
import { maskError, type GraphQLServer } from "./yoga.js";

/** The WebSocket close code of a connection whose API key was revoked. */
export const CLOSE_KEY_REVOKED = 4403;
/** The close code of a socket past its credential's socket limit (or over its rate limit at connection_init). */
export const CLOSE_TOO_MANY = 4429;

/** The credential each authenticated socket acts with. */
const socketAuth = new WeakMap<Context, AuthContext>();

const asErrors = (e: unknown): GraphQLError[] => [e instanceof GraphQLError ? e : e instanceof DomainError ? refusal(e) : (maskError(e) as GraphQLError)];

/** graphql-ws on the HTTP server, running operations through Yoga's envelop (so its plugins apply). */
export function attachWebSocket(server: Server, yoga: GraphQLServer) {
  const wss = new WebSocketServer({ server, path: yoga.graphqlEndpoint, maxPayload: BODY_LIMIT_BYTES });
  const disposable = useServer(
    {
      connectionInitWaitTimeout: config.graphql.wsAuthTimeoutMs,
      execute: (args: any) => args.rootValue.execute(args),
      subscribe: (args: any) => args.rootValue.subscribe(args),
      // connection_init: refuse the socket at once when the key is missing, unknown or revoked, over
      // its budget, or holding its limit of sockets.
      onConnect: async (ctx) => {
        const auth = await authenticate(bearerSecret(authorizationOf({ connectionParams: ctx.connectionParams })));
        if (!auth) return false;
        const socket = ctx.extra.socket;
        try {
          await consumeRequest(credentialOf(auth));
        } catch (e) {
          if (!(e instanceof RateLimitedError)) throw e;
          socket.close(CLOSE_TOO_MANY, "Rate limit exceeded for this API key");
          return false;
        }
        const release = await acquireLive("socket", credentialOf(auth));
        if (!release) {
          socket.close(CLOSE_TOO_MANY, `Too many WebSocket connections for this API key (GRAPHQL_MAX_SOCKETS_PER_KEY=${config.graphql.maxSocketsPerKey})`);
          return false;
        }
        socket.once("close", release);
        if (socket.readyState !== socket.OPEN) release(); // closed while we checked
        // A revoked key's connections are closed with 4403 within REVOCATION_CHECK_INTERVAL_MS (./revocation.ts).
        const unhold = holdForKey(auth.keyId, () => socket.close(CLOSE_KEY_REVOKED, "API key revoked"));
        socket.once("close", unhold);
        socketAuth.set(ctx, auth);
        return true;
      },
      onSubscribe: async (ctx, _id, payload) => {
        const auth = socketAuth.get(ctx)!;
        let params;
        try {
          // One unit of the budget per operation, before its document is read.
          await consumeRequest(credentialOf(auth));
          params = await trustedParams({ ...payload, operationName: payload.operationName ?? undefined, variables: payload.variables ?? undefined, extensions: payload.extensions ?? undefined, query: payload.query ?? "" });
        } catch (e) {
          return asErrors(e);
        }
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params,
          connectionParams: ctx.connectionParams,
          admitted: auth,
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
