/**
 * The GraphQL context of an operation, from "who is asking" (src/http/who-is-asking.ts): an API key
 * or a person's session cookie, over HTTP, SSE and WebSocket alike.
 *
 * - UNAUTHORIZED (401) without a credential, except for the invitation accept page: a request that
 *   carries only `x-invitation-token` (a token that opens an invitation) may read
 *   `invitation(token)` and nothing else.
 * - A signed-in person who belongs to no workspace gets a context whose `auth` answers NOT_FOUND
 *   when read: `viewer` and the invitation operations work, workspace fields do not.
 * - A person naming a workspace they are not in (`x-workspace-id`) is refused whole: 404 NOT_FOUND.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { revocationSubject, revocationSubjectsOf } from "../../domain/keys/revocation.ts";
import type { Actor } from "../../domain/actors/actor.ts";
import { previewInvitation } from "../../domain/people/invitations.ts";
import { DomainError, notFound, unauthorized } from "../../domain/shared/errors.ts";
import { addLogContext } from "../../infra/logger.ts";
import { rateLimitHeaders } from "../request-context.ts";
import { refusal } from "./refusals.ts";
import { whoIsAsking, type Asker } from "../who-is-asking.ts";
import type { GraphQLContext } from "./builder.ts";

/**
 * An actor that cannot be read: every workspace-scoped resolver reading `ctx.auth` gets the error
 * (a person in no workspace: NOT_FOUND; the anonymous accept page: UNAUTHORIZED), while fields that
 * need no workspace answer.
 */
function unreadableActor(error: () => Error): Actor {
  return new Proxy({} as Actor, {
    get(_target, property) {
      if (property === "then" || typeof property === "symbol") return undefined;
      throw error();
    },
  });
}

/** What ends the asker's live subscriptions: the key, or the session (and membership of the workspace). */
export function subjectsOf(asker: Asker): string[] {
  if (asker.actor) return revocationSubjectsOf(asker.actor);
  return asker.person ? [revocationSubject.session(asker.person.sessionId)] : [];
}

export interface AskerTransport {
  /** The Node request (HTTP) or the WebSocket's upgrade request. */
  req: IncomingMessage;
  /** The Node response (HTTP only): RateLimit-* headers and a refreshed session's cookie go on it. */
  res?: ServerResponse;
  /** A WebSocket's connectionParams. */
  connectionParams?: Record<string, unknown>;
  requestId: string;
}

/** The operation's context; throws the refusal (401, 403, 404, 429) as a GraphQL error. */
export async function askerContext(t: AskerTransport): Promise<GraphQLContext> {
  let asker: Asker | null;
  try {
    asker = await whoIsAsking(t.req, { count: true, connectionParams: t.connectionParams });
  } catch (e) {
    throw e instanceof DomainError ? refusal(e) : e; // Redis trouble: masked as SERVICE_UNAVAILABLE
  }
  if (!asker) return anonymousContext(t);
  if (t.res && !t.res.headersSent) {
    // Over HTTP the answer carries the budget, as REST's does (Yoga writes its headers after these).
    if (asker.limit) for (const [name, value] of Object.entries(rateLimitHeaders(asker.limit))) t.res.setHeader(name, value);
    for (const cookie of asker.setCookies) t.res.appendHeader("Set-Cookie", cookie);
  }
  if (asker.actor) addLogContext({ workspaceId: asker.actor.workspaceId });
  return {
    auth: asker.actor ?? unreadableActor(() => notFound("Workspace (you are not a member of any workspace; accept an invitation first)")),
    person: asker.person,
    revocationSubjects: subjectsOf(asker),
    budget: asker.budget,
    clientAddress: asker.clientAddress,
    requestId: t.requestId,
  };
}

/** The accept page before sign-in: a request that carries a token opening an invitation, and nothing else. */
async function anonymousContext(t: AskerTransport): Promise<GraphQLContext> {
  const header = t.req.headers["x-invitation-token"];
  const token = typeof header === "string" ? header : null;
  if (!token || t.connectionParams || !(await previewInvitation(token))) throw refusal(unauthorized());
  return {
    auth: unreadableActor(() => unauthorized()),
    person: null,
    revocationSubjects: [],
    budget: null,
    clientAddress: null,
    requestId: t.requestId,
  };
}
