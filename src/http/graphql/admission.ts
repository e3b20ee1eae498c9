/**
 * Who may send a GraphQL operation, checked before anything of it is read: "who is asking" (an API
 * key or a person's session, src/http/who-is-asking.ts, through ./asker.ts) and one unit of its
 * rate-limit budget.
 *
 * Over HTTP (and SSE) it runs when Yoga is about to read the request's parameters
 * (`onRequestParse`), or, for the JSON POSTs ./json-post.ts reads itself, before that path reads the
 * body (`admitHttpRequest`), so an anonymous or over-budget request is refused before its body is read, its
 * document parsed or validated: a 1 MiB document of 200k fragment spreads sent without a key used to
 * cost up to 0.9 s of the event loop, and 5,000 levels of nesting answered INTERNAL_ERROR. Over
 * graphql-ws the socket authenticates once (connection_init) and each operation is admitted before it
 * is parsed (./websocket.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Plugin, YogaInitialContext } from "graphql-yoga";
import { unauthorized } from "../../domain/shared/errors.ts";
import { requestIdOf } from "../request-context.ts";
import type { GraphQLContext } from "./builder.ts";
import { askerContext } from "./asker.ts";
import { refusal } from "./refusals.ts";

export interface TransportContext extends Partial<YogaInitialContext> {
  /** The Node request (HTTP) or the upgrade request (WebSocket). */
  req?: IncomingMessage;
  /** The Node response (HTTP only). */
  res?: ServerResponse;
  connectionParams?: Record<string, unknown>;
  /** A graphql-ws operation: its context, admitted and counted already (./websocket.ts). */
  admitted?: GraphQLContext;
}

/** The HTTP requests admitted by `admitBeforeParsing`: their context, for Yoga's context factory after parsing. */
const admittedRequests = new WeakMap<object, GraphQLContext>();

/** The refusals of requests admitted by ./json-post.ts that Yoga answers: thrown again by `admitBeforeParsing`, not asked twice. */
const refusedRequests = new WeakMap<object, unknown>();

/**
 * Admits an HTTP request for ./json-post.ts (before it reads the body): true when admitted; false
 * when refused, the refusal kept for Yoga to answer (`admitBeforeParsing`). Either way the
 * credential is asked, and its budget spent, once.
 */
export async function admitHttpRequest(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  try {
    admittedRequests.set(req, await askerContext({ req, res, requestId: requestIdOf(req) }));
    return true;
  } catch (e) {
    refusedRequests.set(req, e);
    return false;
  }
}

/** Admits an HTTP (or SSE) GraphQL request before its body is read: UNAUTHORIZED, FORBIDDEN, NOT_FOUND or RATE_LIMITED otherwise. */
export const admitBeforeParsing: Plugin<TransportContext> = {
  async onRequestParse({ serverContext: server }) {
    const { req, res } = server as TransportContext;
    if (!req) throw new Error("GraphQL is served from node:http (src/main/server.ts): the Node request is missing");
    if (admittedRequests.has(req)) return; // admitted by ./json-post.ts, which handed the request over
    if (refusedRequests.has(req)) throw refusedRequests.get(req);
    admittedRequests.set(req, await askerContext({ req, res, requestId: requestIdOf(req) }));
  },
};

/** The operation's context, admitted before parsing (HTTP) or by its socket's operation (WebSocket). */
export function buildContext(ctx: TransportContext): GraphQLContext {
  const context = ctx.admitted ?? (ctx.req && admittedRequests.get(ctx.req));
  if (!context) throw refusal(unauthorized()); // never reached: every door admits first
  return context;
}
