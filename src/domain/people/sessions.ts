/**
 * The session door's domain side: from a request's session cookie to the actor every door hands
 * the domain (../actors/actor.ts). The library reads and refreshes the session (./authentication.ts); this
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
 *
 * A person costs what a key costs: what the library and the memberships read answered for a session
 * cookie is remembered by this process for SESSION_MEMORY_MS (`remembered`), so a signed-in person's
 * requests read nothing from PostgreSQL (a key's are admitted from Redis alone; bench/ladder, the
 * session rung). What is remembered is forgotten the moment any process announces a change through
 * the revocation channel (src/domain/keys/revocation.ts): `session:` (signed out, revoked, ended by a
 * password change or reset), `member:` (removed from a workspace), `person:` (a role, membership, name
 * or chosen workspace changed). SESSION_MEMORY_MS bounds what a lost announcement can cost (3 s by
 * default, within the contract's 5 s), and nothing is remembered while this process is not listening.
 * The library's refresh is kept as it is: a session is answered from memory only until the library
 * would refresh it (its `updateAge`: at most hourly, as the session is used) and before it expires;
 * the request after that goes to the library, which refreshes it and sets the cookie as before.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { config } from "../../config.ts";
import { sql } from "../../infra/db.ts";
import { logger } from "../../infra/logger.ts";
import { announceRevocation, confirmedRevocations, onAnnouncedHere, revocationSubject } from "../keys/revocation.ts";
import { notFound } from "../shared/errors.ts";
import { consumeRequest, type RateLimitState } from "../keys/access.ts";
import { budgetOf, type Actor } from "../actors/actor.ts";
import { recordAccountEvent } from "./account-audit.ts";
import { authFor, type Auth } from "./authentication.ts";
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
  /** The Cookie header (what a remembered session is found by). */
  cookie: string | undefined;
  /** The request's headers as the library reads them (made only when it is asked). */
  headers: () => Headers;
  /** The request came over https (the Secure cookie's name is looked for). */
  https: boolean;
  /** The workspace the request names (a UUID), if any. */
  workspaceId: string | null;
  clientAddress: string | null;
  /** Spend one unit of the person's rate-limit budget (false for a WebSocket's connection_init). */
  count: boolean;
}

/** Whether the request carries a session cookie at all (without one, the library is not asked). */
const hasCookie = (cookie: string | undefined) => cookie !== undefined && cookie.includes("session_token=");

/** What a session cookie was answered with, as this process remembers it. */
interface Remembered {
  person: Person;
  sessionId: string;
  activeWorkspaceId: string | null;
  memberships: MembershipRecord[];
  /** Until when it may be used: SESSION_MEMORY_MS after it was read, and never past the library's next refresh or the session's expiry. */
  until: number;
}

/** Keyed by the scheme and the cookie's signed value (remembered only once the library accepted that value). */
const memory = new Map<string, Remembered>();
/** More than this and the oldest is forgotten (a process does not grow with the people it served). */
const MAX_REMEMBERED = 10_000;
/** Announcements received so far: a read that began before one is not remembered (it may predate the change). */
let announcements = 0;
let listening: "no" | "starting" | "yes" = "no";

/** Forgets what a withdrawn or changed subject touches (src/domain/keys/revocation.ts): announced by another process, or by this one (at once). */
function forget(subject: string): void {
  announcements++;
  // A read already under way may predate the change: whoever asks from now on starts a fresh one.
  reading.clear();
  const [kind, a, b] = subject.split(":");
  for (const [key, r] of memory) {
    if ((kind === "session" && r.sessionId === a) || (kind === "member" && r.person.id === b) || (kind === "person" && r.person.id === a))
      memory.delete(key);
  }
}

onAnnouncedHere(forget);

/** Listens to the revocation channel, once per process; remembering starts when Redis confirms it, and stops (all forgotten) if it ends. */
function listen(): void {
  if (listening !== "no") return;
  listening = "starting";
  void (async () => {
    try {
      for await (const { subject } of confirmedRevocations()) {
        if (subject === "") listening = "yes";
        else forget(subject);
      }
    } catch (e) {
      logger.warn(
        { err: (e as Error).message },
        "revocation events stopped: signed-in people are read again on every request until they resume",
      );
    } finally {
      listening = "no";
      memory.clear();
    }
  })();
}

interface CookieRules {
  /** The session cookie's name. */
  token: string;
  /** Cookies with which the library's answer would set cookies of its own: such requests always go to it. */
  others: string[];
  expiresInMs: number;
  updateAgeMs: number;
}
const cookieRulesOf = new WeakMap<Auth, CookieRules>();

/** The library's cookie names and refresh rule for one scheme (read from the library, once). */
async function cookieRules(auth: Auth): Promise<CookieRules> {
  let rules = cookieRulesOf.get(auth);
  if (!rules) {
    const c = await auth.$context;
    rules = {
      token: c.authCookies.sessionToken.name,
      others: [c.authCookies.sessionData.name, c.authCookies.dontRememberToken.name],
      expiresInMs: c.sessionConfig.expiresIn * 1000,
      updateAgeMs: c.sessionConfig.updateAge * 1000,
    };
    cookieRulesOf.set(auth, rules);
  }
  return rules;
}

/** The value of the cookie `name` in a Cookie header (the first of that name), or null. */
function cookieValue(header: string, name: string): string | null {
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** The key a request's session cookie is remembered under; null when it must go to the library. */
function memoryKey(cookie: string, https: boolean, rules: CookieRules): string | null {
  if (config.sessionMemoryMs === 0 || rules.others.some((name) => cookie.includes(name))) return null;
  const value = cookieValue(cookie, rules.token);
  return value ? `${https ? "s" : "h"}:${value}` : null;
}

type SessionRead = { remembered: Remembered; setCookies: string[] } | null;

/**
 * Reads in flight, by memory key: the requests of one session that arrive while its read runs (a page's
 * requests at once, or every request in flight when what was remembered ends) wait for that read instead
 * of each asking the library. The refreshed cookie, if any, goes on the first one's answer, as when the
 * library answers them one after another.
 */
const reading = new Map<string, Promise<SessionRead>>();

/** What the library and the memberships answer for the request's session (null: none, or not valid). */
async function readSession(req: SessionRequest): Promise<SessionRead> {
  const auth = await authFor(req.https);
  const rules = await cookieRules(auth);
  const key = memoryKey(req.cookie ?? "", req.https, rules);
  if (key === null) return askLibrary(req, auth, rules, null);
  listen();
  const known = memory.get(key);
  if (known && Date.now() < known.until) return { remembered: known, setCookies: [] };
  if (known) memory.delete(key);
  const inFlight = reading.get(key);
  if (inFlight) {
    const read = await inFlight;
    return read && { remembered: read.remembered, setCookies: [] };
  }
  const read = askLibrary(req, auth, rules, key);
  reading.set(key, read);
  const done = () => void (reading.get(key) === read && reading.delete(key)); // not a fresher read started after a change
  read.then(done, done);
  return read;
}

/** The library's answer for the session (it refreshes a session that is due) and the person's memberships; remembered under `key`. */
async function askLibrary(req: SessionRequest, auth: Auth, rules: CookieRules, key: string | null): Promise<SessionRead> {
  const now = Date.now();
  const seen = announcements;
  const { headers, response } = await auth.api.getSession({ headers: req.headers(), returnHeaders: true });
  if (!response) return null;
  const { user, session } = response;
  const remembered: Remembered = {
    person: { id: user.id, email: user.email, name: user.name },
    sessionId: session.id,
    activeWorkspaceId: (session as { activeWorkspaceId?: string | null }).activeWorkspaceId ?? null,
    memberships: await membershipsOf(user.id),
    // The library refreshes a session once it is due (expiresAt - expiresIn + updateAge): from then on, to the library.
    until: Math.min(
      now + config.sessionMemoryMs,
      new Date(session.expiresAt).getTime() - rules.expiresInMs + rules.updateAgeMs,
      new Date(session.expiresAt).getTime(),
    ),
  };
  const setCookies = headers?.getSetCookie() ?? [];
  if (key !== null && listening === "yes" && announcements === seen && setCookies.length === 0) {
    if (memory.size >= MAX_REMEMBERED) memory.delete(memory.keys().next().value!);
    memory.set(key, remembered);
  }
  return { remembered, setCookies };
}

/**
 * The signed-in person of the request and the actor it acts as; null without a valid session.
 * NOT_FOUND when the request names a workspace the person does not belong to.
 */
export async function admitSession(req: SessionRequest): Promise<SessionAdmission | null> {
  if (!hasCookie(req.cookie)) return null;
  const read = await readSession(req);
  if (!read) return null;
  const { person, sessionId, activeWorkspaceId, memberships } = read.remembered;
  let current: MembershipRecord | null;
  if (req.workspaceId) {
    current = memberships.find((m) => m.workspaceId === req.workspaceId) ?? null;
    if (!current) throw notFound("Workspace");
  } else {
    current = memberships.find((m) => m.workspaceId === activeWorkspaceId) ?? memberships[0] ?? null;
  }
  const principal = { kind: "user" as const, id: person.id, email: person.email, sessionId };
  const actor: Actor | null = current
    ? { workspaceId: current.workspaceId, role: current.role, principal, clientAddress: req.clientAddress }
    : null;
  const limit = req.count ? await consumeRequest(budgetOf(principal)) : null;
  return { person, sessionId, memberships, current, actor, setCookies: read.setCookies, limit };
}

/** Remembers the workspace the session acts on when a request names none (GraphQL `selectWorkspace`). */
export async function selectWorkspace(ctx: PersonContext, workspaceId: string): Promise<MembershipRecord> {
  const chosen = ctx.memberships.find((m) => m.workspaceId === workspaceId);
  if (!chosen) throw notFound("Workspace");
  await sql(Prisma.sql`UPDATE sessions SET active_workspace_id = ${workspaceId}::uuid WHERE id = ${ctx.sessionId}::uuid RETURNING id`);
  await announceRevocation(revocationSubject.person(ctx.person.id)); // what every process remembers of the session
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
  const [row] = await sql<{ token: string }>(
    Prisma.sql`SELECT token FROM sessions WHERE id = ${sessionId}::uuid AND user_id = ${ctx.person.id}::uuid`,
  );
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
