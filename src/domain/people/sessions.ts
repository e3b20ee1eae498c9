/**
 * The session door's domain side: from a request's session cookie to the actor every door hands
 * the domain (./actor.ts). The library reads and refreshes the session (./authentication.ts); this
 * decides the workspace and the role:
 *
 * - the workspace the request names (`x-workspace-id`, or `workspaceId` in a WebSocket's
 *   connectionParams), which must be one of the person's: any other is 404 NOT_FOUND, never a 403
 *   that would confirm it exists;
 * - else the session's last chosen workspace (`selectWorkspace`), while the person still belongs
 *   to it; else their oldest membership; a person in no workspace gets no actor (only the
 *   person-level operations: viewer, invitations).
 *
 * Each request of a session spends one unit of the person's rate-limit budget (the API keys'
 * Redis counters, src/domain/keys/access.ts: RATE_LIMIT_PER_MINUTE per person).
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { sql } from "../../infra/db.ts";
import { notFound } from "../shared/errors.ts";
import { consumeRequest, type RateLimitState } from "../keys/access.ts";
import { budgetOf, type Actor } from "./actor.ts";
import { recordAccountEvent } from "./account-audit.ts";
import { authFor } from "./authentication.ts";
import { membershipsOf, type MembershipRecord } from "./members.ts";

export interface Person {
  id: string;
  email: string;
  name: string;
}

/** A signed-in person as one request sees them. */
export interface PersonContext {
  person: Person;
  sessionId: string;
  memberships: MembershipRecord[];
  /** The workspace this request acts on (null: the person belongs to none). */
  current: MembershipRecord | null;
}

export interface SessionAdmission extends PersonContext {
  /** The actor for `current` (null when there is none). */
  actor: Actor | null;
  /** Set-Cookie values of a refreshed session, for the response. */
  setCookies: string[];
  /** The person's budget after this request (null when not counted). */
  limit: RateLimitState | null;
}

export interface SessionRequest {
  headers: Headers;
  /** The request came over https (the Secure cookie's name is looked for). */
  https: boolean;
  /** The workspace the request names (a UUID), if any. */
  workspaceId: string | null;
  clientAddress: string | null;
  /** Spend one unit of the person's rate-limit budget (false for a WebSocket's connection_init). */
  count: boolean;
}

/** Whether the request carries a cookie at all (without one, the library is not asked). */
const hasCookie = (headers: Headers) => (headers.get("cookie") ?? "").includes("session_token=");

/**
 * The signed-in person of the request and the actor it acts as; null without a valid session.
 * NOT_FOUND when the request names a workspace the person does not belong to.
 */
export async function admitSession(req: SessionRequest): Promise<SessionAdmission | null> {
  if (!hasCookie(req.headers)) return null;
  const auth = await authFor(req.https);
  const { headers, response } = await auth.api.getSession({ headers: req.headers, returnHeaders: true });
  if (!response) return null;
  const { user, session } = response;
  const memberships = await membershipsOf(user.id);
  let current: MembershipRecord | null;
  if (req.workspaceId) {
    current = memberships.find((m) => m.workspaceId === req.workspaceId) ?? null;
    if (!current) throw notFound("Workspace");
  } else {
    const chosen = (session as { activeWorkspaceId?: string | null }).activeWorkspaceId;
    current = memberships.find((m) => m.workspaceId === chosen) ?? memberships[0] ?? null;
  }
  const person = { id: user.id, email: user.email, name: user.name };
  const principal = { kind: "user" as const, id: user.id, email: user.email, sessionId: session.id };
  const actor: Actor | null = current ? { workspaceId: current.workspaceId, role: current.role, principal, clientAddress: req.clientAddress } : null;
  const limit = req.count ? await consumeRequest(budgetOf(principal)) : null;
  return { person, sessionId: session.id, memberships, current, actor, setCookies: headers?.getSetCookie() ?? [], limit };
}

/** Remembers the workspace the session acts on when a request names none (GraphQL `selectWorkspace`). */
export async function selectWorkspace(ctx: PersonContext, workspaceId: string): Promise<MembershipRecord> {
  const chosen = ctx.memberships.find((m) => m.workspaceId === workspaceId);
  if (!chosen) throw notFound("Workspace");
  await sql(Prisma.sql`UPDATE sessions SET active_workspace_id = ${workspaceId}::uuid WHERE id = ${ctx.sessionId}::uuid RETURNING id`);
  return chosen;
}

export interface SessionRecord {
  id: string;
  createdAt: Date;
  expiresAt: Date;
  /** When the session was last refreshed by use (at most hourly). */
  lastActiveAt: Date;
  ipAddress: string | null;
  userAgent: string | null;
}

/** The person's live sessions, newest first. */
export async function listSessions(userId: string): Promise<SessionRecord[]> {
  return sql<SessionRecord>(Prisma.sql`
    SELECT id, created_at AS "createdAt", expires_at AS "expiresAt", updated_at AS "lastActiveAt", ip_address AS "ipAddress", user_agent AS "userAgent"
      FROM sessions WHERE user_id = ${userId}::uuid AND expires_at > now() ORDER BY created_at DESC, id DESC`);
}

/**
 * Ends one of the person's own sessions (through the library, which announces it: its live
 * connections close within seconds); another person's session is NOT_FOUND.
 */
export async function revokeSession(ctx: PersonContext, sessionId: string, clientAddress: string | null): Promise<string> {
  const [row] = await sql<{ token: string }>(Prisma.sql`SELECT token FROM sessions WHERE id = ${sessionId}::uuid AND user_id = ${ctx.person.id}::uuid`);
  if (!row) throw notFound("Session");
  const auth = await authFor(false);
  await (await auth.$context).internalAdapter.deleteSession(row.token);
  // Outside the library's routes: recorded as /auth's revocations are (./account-audit.ts).
  await recordAccountEvent({
    userId: ctx.person.id,
    by: { principal: { kind: "user", id: ctx.person.id, email: ctx.person.email, sessionId: ctx.sessionId }, clientAddress },
    action: "session.revoked",
    details: { sessionIds: [sessionId] },
  });
  return sessionId;
}
