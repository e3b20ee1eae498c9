/**
 * "Who is asking", one step for every door (REST, MCP, GraphQL over HTTP, SSE and WebSocket): an
 * integration's API key (`Authorization: Bearer`, unchanged) or a person's session cookie, turned
 * into the actor the domain reads (src/domain/actors/actor.ts). docs/architecture.md, "The session
 * door".
 *
 * - A request with an Authorization header is a key's, whatever cookies it carries.
 * - A cookie-authenticated request that changes state must carry a header a cross-site form cannot
 *   send (`x-workspace-id` or `x-requested-with`), else 403 FORBIDDEN (CSRF). A WebSocket with a
 *   cookie must come from the service's own origin (cross-site WebSocket hijacking).
 * - The workspace a session acts on: the `x-workspace-id` header (its UUID or its Workspace global
 *   ID); for a read (GET, HEAD) without it, the `workspace` query parameter (what a link or an
 *   `<img>` can carry, e.g. a keyframe's thumbnailUrl: another tab may have chosen another workspace);
 *   else the session's last chosen one (src/domain/people/sessions.ts). Membership is checked either way.
 */
import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import proxyaddr from "proxy-addr";
import { fromNodeHeaders } from "better-auth/node";
import { config } from "../config.ts";
import { admit, authenticate, bearerSecret, type RateLimitState } from "../domain/keys/access.ts";
import { budgetOf, keyActor, type Actor } from "../domain/actors/actor.ts";
import { admitSession, type PersonContext } from "../domain/people/sessions.ts";
import { DomainError, unauthorized, validationError } from "../domain/shared/errors.ts";
import { uuid } from "../domain/shared/inputs.ts";
import { decodeGlobalID } from "@pothos/plugin-relay";
import { authorizationHeader } from "./request-context.ts";

export interface Asker {
  /** Null for a signed-in person who belongs to no workspace (only person-level operations work). */
  actor: Actor | null;
  /** The signed-in person (null for an API key). */
  person: PersonContext | null;
  /** The budget after this request, for the RateLimit-* headers (null when not counted). */
  limit: RateLimitState | null;
  /** A refreshed session's cookie, for the response. */
  setCookies: string[];
  /** The client's address (what the audit log records). */
  clientAddress: string | null;
  /** The rate-limit budget and live-connection caps it spends (`budgetOf`: the key's, or the person's across their sessions). */
  budget: string;
}

/** TRUST_PROXY as proxy-addr (Express's `trust proxy`) reads it. */
const trust: (address: string, hop: number) => boolean = (() => {
  const t = config.people.trustProxy;
  if (t === true) return () => true;
  if (t === false) return () => false;
  if (typeof t === "number") return (_a: string, hop: number) => hop < t;
  return proxyaddr.compile(t);
})();

/** The client's address: the socket's peer, or the forwarded one when TRUST_PROXY trusts the hops in between. */
export function clientAddress(req: IncomingMessage): string | null {
  if (!req.socket?.remoteAddress) return null;
  return proxyaddr(req, trust);
}

/** Whether the request came over https: a TLS socket, or X-Forwarded-Proto from a trusted proxy. */
export function cameOverHttps(req: IncomingMessage): boolean {
  if ((req.socket as TLSSocket | undefined)?.encrypted) return true;
  const forwarded = req.headers["x-forwarded-proto"];
  const proto = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim().toLowerCase();
  return proto === "https" && !!req.socket?.remoteAddress && trust(req.socket.remoteAddress, 0);
}

/** The workspace a request names (`x-workspace-id`: a UUID or a Workspace global ID); VALIDATION_ERROR for anything else. */
export function namedWorkspace(value: unknown): string | null {
  if (value === undefined || value === null || value === "") return null;
  const text = String(value);
  if (uuid.safeParse(text).success) return text;
  let id: string | null = null;
  try {
    const decoded = decodeGlobalID(text);
    if (decoded.typename === "Workspace" && uuid.safeParse(decoded.id).success) id = decoded.id;
  } catch {
    id = null;
  }
  if (!id)
    throw validationError("Invalid input: x-workspace-id: must be a Workspace ID (its global id or its uuid).", [
      { path: "x-workspace-id", message: "must be a Workspace ID" },
    ]);
  return id;
}

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The CSRF rule of docs/contract/decisions.md: a cookie-authenticated write carries a non-simple header. */
export function refuseCrossSiteWrite(req: IncomingMessage): void {
  if (!STATE_CHANGING.has((req.method ?? "GET").toUpperCase())) return;
  if (req.headers["x-workspace-id"] !== undefined || req.headers["x-requested-with"] !== undefined) return;
  throw new DomainError(
    "FORBIDDEN",
    "A request signed in with a session cookie that changes something must carry an `x-requested-with` (or `x-workspace-id`) header, " +
      "which a cross-site form cannot send. Integrations use `Authorization: Bearer <API key>` instead.",
  );
}

/** The origin of the service as this request reached it, and PUBLIC_URL's. */
function ownOrigins(req: IncomingMessage): string[] {
  return [`${cameOverHttps(req) ? "https" : "http"}://${req.headers.host ?? ""}`, new URL(config.people.publicUrl).origin];
}

export interface AskOptions {
  /** Spend one unit of the budget (false for a WebSocket's connection_init, whose operations each count). */
  count: boolean;
  /** A WebSocket's connectionParams: its `authorization`, and the workspace (`workspaceId` or `x-workspace-id`). */
  connectionParams?: Record<string, unknown>;
}

/**
 * Who asks: the key of the Authorization header (401 when it is not a valid key), else the session
 * of the cookie. Null when the request carries neither (the door answers 401, or serves what needs
 * no sign-in). Over HTTP, `req` is the request; over WebSocket, the upgrade request with the
 * connection's `connectionParams`.
 */
export async function whoIsAsking(req: IncomingMessage, options: AskOptions): Promise<Asker | null> {
  const params = options.connectionParams;
  const authorization = params ? paramString(params, "authorization", "Authorization") : authorizationHeader(req);
  const address = clientAddress(req);
  if (authorization !== null) {
    const secret = bearerSecret(authorization);
    if (options.count) {
      const admitted = await admit(secret);
      if (!admitted) throw unauthorized(undefined, true);
      const actor = keyActor(admitted.auth, address);
      return { actor, person: null, limit: admitted.limit, setCookies: [], clientAddress: address, budget: budgetOf(actor.principal) };
    }
    const auth = await authenticate(secret);
    if (!auth) throw unauthorized(undefined, true);
    const actor = keyActor(auth, address);
    return { actor, person: null, limit: null, setCookies: [], clientAddress: address, budget: budgetOf(actor.principal) };
  }
  const workspace = params ? paramString(params, "workspaceId", "x-workspace-id") : (req.headers["x-workspace-id"] ?? workspaceOfRead(req));
  const session = await admitSession({
    cookie: req.headers.cookie,
    headers: () => fromNodeHeaders(req.headers),
    https: cameOverHttps(req),
    workspaceId: namedWorkspace(workspace),
    clientAddress: address,
    count: options.count,
  });
  if (!session) return null;
  if (params) {
    const origin = req.headers.origin;
    if (origin && !ownOrigins(req).includes(origin))
      throw new DomainError("FORBIDDEN", "A WebSocket signed in with a session cookie must come from the service's own pages.");
  } else {
    refuseCrossSiteWrite(req);
  }
  const { actor, setCookies, limit, ...person } = session;
  const budget = budgetOf({ kind: "user", id: person.person.id, email: person.person.email, sessionId: person.sessionId });
  return { actor, person, limit, setCookies, clientAddress: address, budget };
}

/** A read's `workspace` query parameter (GET and HEAD only: a write names its workspace by header, the CSRF rule's). */
function workspaceOfRead(req: IncomingMessage): string | undefined {
  const method = (req.method ?? "GET").toUpperCase();
  if ((method !== "GET" && method !== "HEAD") || !req.url?.includes("workspace=")) return undefined;
  return new URL(req.url, "http://localhost").searchParams.get("workspace") ?? undefined;
}

function paramString(params: Record<string, unknown>, ...names: string[]): string | null {
  for (const name of names) if (typeof params[name] === "string") return params[name] as string;
  return null;
}
