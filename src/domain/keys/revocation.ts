/**
 * Revocation reaching live connections. A request is refused on its very next call once its
 * credential is withdrawn, but a WebSocket connection or an SSE stream authenticated earlier would
 * go on receiving events. So every live connection is held under the revocation subjects of its
 * actor, and a withdrawal is announced to every process (the `accessRevoked` event over Redis):
 *
 * - `key:<id>`: an API key was revoked (./service.ts);
 * - `session:<id>`: a person's session ended (signed out, revoked from the dashboard, password
 *   reset, expired): src/domain/people/authentication.ts announces each deleted session;
 * - `member:<workspace>:<user>`: a person was removed from a workspace (src/domain/people/members.ts);
 * - `person:<user>`: what a process remembers of the person (their name, memberships, roles, a session's
 *   chosen workspace) changed: nothing ends, the processes read them again (src/domain/people/sessions.ts,
 *   which also forgets a session or membership withdrawn by the subjects above).
 *
 * Each process also re-checks the subjects of its live connections every
 * REVOCATION_CHECK_INTERVAL_MS against PostgreSQL (`revokedAmong`), so a lost event delays the end
 * of a connection by at most that interval. The doors end what they hold (src/http/graphql/revocation.ts).
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { sql } from "../../infra/db.ts";
import { currentThenEvents, publishEvent, subscribeEvents } from "../shared/events.ts";
import type { Actor } from "../actors/actor.ts";

const ALL = "all";

export const revocationSubject = {
  key: (keyId: string) => `key:${keyId}`,
  session: (sessionId: string) => `session:${sessionId}`,
  member: (workspaceId: string, userId: string) => `member:${workspaceId}:${userId}`,
  person: (userId: string) => `person:${userId}`,
};

/** Whether a subject, once withdrawn, stays withdrawn (a key or a session: their ids are never reused). */
export const withdrawnForGood = (subject: string) => subject.startsWith("key:") || subject.startsWith("session:");

/** What ends the actor's live connections: its key; or the person's session and their membership of the workspace. */
export function revocationSubjectsOf(actor: Actor): string[] {
  const p = actor.principal;
  if (p.kind === "api_key") return [revocationSubject.key(p.id)];
  if (p.kind === "user")
    return [...(p.sessionId ? [revocationSubject.session(p.sessionId)] : []), revocationSubject.member(actor.workspaceId, p.id)];
  return [];
}

/** This process's own listeners (src/domain/people/sessions.ts), told before an announcement leaves it. */
const announcedHere = new Set<(subject: string) => void>();

export function onAnnouncedHere(listener: (subject: string) => void): void {
  announcedHere.add(listener);
}

/** Tells every process that the subject is withdrawn (after the database says so), this one at once; never throws. */
export async function announceRevocation(subject: string): Promise<void> {
  for (const listener of announcedHere) listener(subject);
  await publishEvent("accessRevoked", ALL, { subject, at: new Date().toISOString() });
}

/** The revocations announced from now on, by any process. */
export function revocations(): AsyncIterable<{ subject: string }> {
  return subscribeEvents("accessRevoked", ALL);
}

/**
 * The revocations announced from now on, after a first `{ subject: "" }` once Redis has confirmed the
 * subscription: none announced after that one is missed (while the connection holds).
 */
export function confirmedRevocations(): AsyncIterable<{ subject: string }> {
  return currentThenEvents("accessRevoked", ALL, async () => ({ subject: "", at: "" }));
}

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const SUBJECT = new RegExp(`^(key|session):(${UUID})$|^member:(${UUID}):(${UUID})$`, "i");

/**
 * Which of these subjects may no longer be used: a key revoked (or gone with its workspace), a
 * session ended or past its expiry, a membership that no longer exists. One statement per kind held.
 */
export async function revokedAmong(subjects: readonly string[]): Promise<Set<string>> {
  const keys: string[] = [];
  const sessions: string[] = [];
  const members: { ws: string; user: string }[] = [];
  for (const s of subjects) {
    const m = SUBJECT.exec(s);
    if (!m) continue;
    if (m[1] === "key") keys.push(m[2]!);
    else if (m[1] === "session") sessions.push(m[2]!);
    else members.push({ ws: m[3]!, user: m[4]! });
  }
  const valid = new Set<string>();
  const [activeKeys, liveSessions, memberships] = await Promise.all([
    keys.length ? sql<{ id: string }>(Prisma.sql`SELECT id FROM api_keys WHERE id = ANY(${keys}::uuid[]) AND revoked_at IS NULL`) : [],
    sessions.length
      ? sql<{ id: string }>(Prisma.sql`SELECT id FROM sessions WHERE id = ANY(${sessions}::uuid[]) AND expires_at > now()`)
      : [],
    members.length
      ? sql<{ ws: string; user: string }>(Prisma.sql`
          SELECT m.workspace_id AS ws, m.user_id AS "user" FROM workspace_members m
            JOIN unnest(${members.map((x) => x.ws)}::uuid[], ${members.map((x) => x.user)}::uuid[]) AS h(ws, u)
              ON m.workspace_id = h.ws AND m.user_id = h.u`)
      : [],
  ]);
  for (const k of activeKeys) valid.add(revocationSubject.key(k.id));
  for (const s of liveSessions) valid.add(revocationSubject.session(s.id));
  for (const m of memberships) valid.add(revocationSubject.member(m.ws, m.user));
  return new Set(subjects.filter((s) => !valid.has(s)));
}
