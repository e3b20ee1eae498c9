/**
 * Who may send a GraphQL operation, checked before anything of it is read: the credential (the same
 * `admit` as REST, src/domain/keys/access.ts) and one unit of its rate-limit budget.
 *
 * Over HTTP (and SSE) it runs when Yoga is about to read the request's parameters
 * (`onRequestParse`), so an anonymous or over-budget request is refused before its body is read, its
 * document parsed or validated: a 1 MiB document of 200k fragment spreads sent without a key used to
 * cost up to 0.9 s of the event loop, and 5,000 levels of nesting answered INTERNAL_ERROR. Over
 * graphql-ws the socket authenticates once (connection_init) and each operation is counted before it
 * is parsed (./websocket.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import type { Plugin, YogaInitialContext } from "graphql-yoga";
import { admit, bearerSecret, type AuthContext } from "../../domain/keys/access.js";
import { DomainError, unauthorized } from "../../domain/shared/errors.js";
import { addLogContext } from "../../infra/logger.js";
import { authorizationHeader, rateLimitHeaders, requestIdOf } from "../request-context.js";
import { refusal } from "./refusals.js";
import type { GraphQLContext } from "./builder.js";

export interface TransportContext extends Partial<YogaInitialContext> {
  /** The Node request (HTTP) or the upgrade request (WebSocket). */
  req?: IncomingMessage;
  /** The Node response (HTTP only). */
  res?: ServerResponse;
  connectionParams?: Record<string, unknown>;
  /** A graphql-ws operation: its socket's credential, admitted and counted already (./websocket.ts). */
  admitted?: AuthContext;
}

/** The Authorization value: HTTP's header as sent (a repeated header is refused); WebSocket's connectionParams.authorization. */
export function authorizationOf(ctx: Pick<TransportContext, "req" | "request" | "connectionParams">): string | null {
  if (ctx.request) return ctx.req ? authorizationHeader(ctx.req) : ctx.request.headers.get("authorization");
  const param = ctx.connectionParams?.authorization ?? ctx.connectionParams?.Authorization;
  return typeof param === "string" ? param : null;
}

/** The HTTP requests admitted by `admitBeforeParsing`, for the context built after parsing. */
const admittedRequests = new WeakMap<object, AuthContext>();

/** Admits an HTTP (or SSE) GraphQL request before its body is read: UNAUTHORIZED or RATE_LIMITED otherwise. */
export const admitBeforeParsing: Plugin<TransportContext> = {
  async onRequestParse({ request, serverContext: server }) {
    const serverContext = server as TransportContext;
    let admitted;
    try {
      admitted = await admit(bearerSecret(authorizationOf({ request, req: serverContext.req })));
    } catch (e) {
      throw e instanceof DomainError ? refusal(e) : e; // Redis trouble: masked as SERVICE_UNAVAILABLE
    }
    if (!admitted) throw refusal(unauthorized());
    admittedRequests.set(serverContext.req ?? request, admitted.auth);
    // The answer carries the key's budget, as REST's does (Yoga writes its headers after these).
    const res = serverContext.res;
    if (res && !res.headersSent) for (const [name, value] of Object.entries(rateLimitHeaders(admitted.limit))) res.setHeader(name, value);
    addLogContext({ workspaceId: admitted.auth.workspaceId });
  },
};

/** The operation's context, from the credential admitted before parsing (HTTP) or by its socket (WebSocket). */
export function buildContext(ctx: TransportContext): GraphQLContext {
  const auth = ctx.admitted ?? (ctx.req && admittedRequests.get(ctx.req)) ?? (ctx.request && admittedRequests.get(ctx.request));
  if (!auth) throw refusal(unauthorized()); // never reached: every door admits first
  return { auth, requestId: ctx.req && !ctx.admitted ? requestIdOf(ctx.req) : randomUUID() };
}
