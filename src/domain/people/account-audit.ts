/**
 * What happens to a person's own account, in the audit log (../actors/audit.ts): sign-ins (and failed ones),
 * sign-out, signing out everywhere, ending other sessions, a password changed, a reset link made and
 * used, a name or an email changed. Recorded in one place whatever the door:
 *
 * - `recordAccountEvent` writes one event, in each workspace the person belongs to: an account is a
 *   person's, not a workspace's, so each workspace's owners see their members' account events and a
 *   read of the log stays one index range (as sign-ins always were).
 * - The authentication library's calls, `/auth` over HTTP and the service's own calls (the CLI's and
 *   the first run's reset links), are recorded by `recordLibraryCall`, which the library's `after`
 *   hook runs once a call succeeded (./authentication.ts). `RECORDED` maps each route to its action.
 *   Who acted and on whose account come from the call: its session (the library's session middleware
 *   puts it on the call's context), else what the library's database hooks noted during the call
 *   (`noteEndedSession`: the sessions it deleted), and for a reset the link's person (`noteResetFor`).
 * - GraphQL's `revokeSession` ends a session outside the library's routes (./sessions.ts) and records
 *   it with `recordAccountEvent` too.
 */
import { prisma } from "../../infra/db.ts";
import { logger } from "../../infra/logger.ts";
import { OPERATOR, type Acting } from "../actors/actor.ts";
import { recordAudit, type AuditAction } from "../actors/audit.ts";
import { membershipsOf } from "./members.ts";

export interface AccountEvent {
  /** Whose account. */
  userId: string;
  by: Acting;
  action: AuditAction;
  details?: Record<string, unknown> | null;
}

/** Records the event in each workspace of the person (none: nothing to record); the target is their email. */
export async function recordAccountEvent(event: AccountEvent): Promise<void> {
  const [user, memberships] = await Promise.all([
    prisma.user.findUnique({ where: { id: event.userId }, select: { email: true } }),
    membershipsOf(event.userId),
  ]);
  if (!user) return;
  await recordAudit({
    workspaceIds: memberships.map((m) => m.workspaceId),
    by: event.by,
    action: event.action,
    target: user.email,
    details: event.details ?? null,
  });
}

/** The library's routes whose success is recorded, and as what. */
const RECORDED: Record<string, AuditAction> = {
  "/sign-out": "user.signed_out",
  "/revoke-sessions": "user.signed_out_everywhere",
  "/revoke-session": "session.revoked",
  "/revoke-other-sessions": "session.revoked",
  "/change-password": "user.password_changed",
  // Only the service's own calls (the route is disabled over HTTP: operators make reset links).
  "/request-password-reset": "user.password_reset_requested",
  "/reset-password": "user.password_reset",
  "/update-user": "user.name_changed",
  // Disabled today (authentication.ts, disabledPaths): recorded should it be offered.
  "/change-email": "user.email_changed",
};

/** What one call of the library did, as its database hooks saw it. */
interface CallNotes {
  endedSessions: { id: string; userId: string }[];
  passwordSetFor: string | null;
  /** The reset set the person's first password (they had none: the first run's owner, a person made without one). */
  firstPassword: boolean;
}

/** Keyed by the call's context object (the library hands the same one to its hooks and its database hooks). */
const notes = new WeakMap<object, CallNotes>();

function notesOf(call: object): CallNotes {
  let n = notes.get(call);
  if (!n) notes.set(call, (n = { endedSessions: [], passwordSetFor: null, firstPassword: false }));
  return n;
}

/** The library's database hook context (null outside a call of one of its routes). */
type HookContext = { context?: object } | null | undefined;

/** A session the library deleted during a call (its session delete hook). */
export function noteEndedSession(hook: HookContext, session: { id: string; userId: string }): void {
  if (hook?.context) notesOf(hook.context).endedSessions.push({ id: session.id, userId: session.userId });
}

/** The person a reset link belongs to, read before the library consumes the link (the `before` hook of /reset-password). */
export function noteResetFor(call: object, userId: string, firstPassword: boolean): void {
  const n = notesOf(call);
  n.passwordSetFor = userId;
  n.firstPassword = firstPassword;
}

/** Whether the noted reset set the person's first password. */
export const notedFirstPassword = (call: object): boolean => notes.get(call)?.firstPassword ?? false;

/** Whose reset link the call used (null: none noted). */
export const notedResetFor = (call: object): string | null => notes.get(call)?.passwordSetFor ?? null;

/** The parts of a call of the library this reads (its `after` hook's context). */
export interface LibraryCall {
  path: string;
  body?: unknown;
  context: object & { session?: { user: { id: string; email: string; name: string }; session: { id: string } } | null };
}

const field = (body: unknown, name: string): string | undefined => {
  const v = (body as Record<string, unknown> | null | undefined)?.[name];
  return typeof v === "string" ? v : undefined;
};

/** The event a successful call is, or null (a route not recorded, a call that changed nothing recorded). */
async function eventOf(call: LibraryCall, clientAddress: string | null): Promise<AccountEvent | null> {
  const action = RECORDED[call.path];
  if (!action) return null;
  const noted = notes.get(call.context) ?? { endedSessions: [], passwordSetFor: null, firstPassword: false };
  const ended = noted.endedSessions;
  const session = call.context.session;
  const person = (id: string, email: string, sessionId: string | null): Acting => ({
    principal: { kind: "user", id, email, sessionId },
    clientAddress,
  });
  const sessionsEnded = ended.length ? { sessionsEnded: ended.length } : {};

  if (action === "user.password_reset_requested") {
    const user = await prisma.user.findUnique({ where: { email: (field(call.body, "email") ?? "").toLowerCase() }, select: { id: true } });
    // Over HTTP (the sign-in page's "Forgot your password?", which mails the link) it has a client address; in-process, the operator's CLI or the first run.
    const by: Acting = clientAddress
      ? { principal: { kind: "system", label: "password-reset request (sign-in page)" }, clientAddress }
      : OPERATOR;
    return user ? { userId: user.id, by, action } : null;
  }
  if (action === "user.password_reset") {
    const userId = noted.passwordSetFor;
    const user = userId ? await prisma.user.findUnique({ where: { id: userId }, select: { email: true } }) : null;
    // The person, through their link (no session: the reset ended them all).
    return userId && user ? { userId, by: person(userId, user.email, null), action, details: { sessionsEnded: ended.length } } : null;
  }
  if (!session) {
    // A sign-out: the session it ended says whose.
    const first = ended[0];
    const user = first ? await prisma.user.findUnique({ where: { id: first.userId }, select: { email: true } }) : null;
    return first && user ? { userId: first.userId, by: person(first.userId, user.email, first.id), action } : null;
  }
  const by = person(session.user.id, session.user.email, session.session.id);
  const userId = session.user.id;
  switch (action) {
    case "session.revoked":
      return ended.length ? { userId, by, action, details: { sessionIds: ended.map((s) => s.id) } } : null;
    case "user.password_changed":
      return { userId, by, action, details: { sessionsEnded: ended.filter((s) => s.id !== session.session.id).length } };
    case "user.name_changed": {
      const to = field(call.body, "name");
      return to !== undefined && to !== session.user.name ? { userId, by, action, details: { from: session.user.name, to } } : null;
    }
    case "user.email_changed": {
      const to = field(call.body, "newEmail");
      return to !== undefined ? { userId, by, action, details: { from: session.user.email, to } } : null;
    }
    default:
      return { userId, by, action, details: Object.keys(sessionsEnded).length ? sessionsEnded : null };
  }
}

/**
 * Records a successful call of the library (the `after` hook, ./authentication.ts): never fails the
 * call, whose work is done; a lost entry is logged as an error.
 */
export async function recordLibraryCall(call: LibraryCall, clientAddress: string | null): Promise<void> {
  try {
    const event = await eventOf(call, clientAddress);
    if (event) await recordAccountEvent(event);
  } catch (e) {
    logger.error({ err: e, path: call.path }, "could not record an account event in the audit log");
  }
}
