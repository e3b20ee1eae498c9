/**
 * Test helpers for people: a browser-like client that keeps the session cookie (what the dashboard
 * does), signs up and in through the real /auth routes, and sends GraphQL and REST with the cookie.
 */
import WebSocket from "ws";
import { request, type HttpResult } from "./api.js";

export interface PersonClient {
  cookies: Map<string, string>;
  /** The Set-Cookie values of the last answer. */
  lastSetCookies: string[];
  auth(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResult>;
  signUp(body: { email: string; password: string; name: string; invitationToken?: string }): Promise<HttpResult>;
  signIn(email: string, password: string): Promise<HttpResult>;
  signOut(): Promise<HttpResult>;
  /** GraphQL with the cookie (and `x-requested-with`, as the dashboard sends); `workspace` becomes x-workspace-id. */
  gql(
    query: string,
    variables?: Record<string, unknown>,
    opts?: { workspace?: string; headers?: Record<string, string> },
  ): Promise<HttpResult>;
  /** Any request with the cookie (no CSRF header unless given). */
  send(method: string, path: string, opts?: { body?: unknown; headers?: Record<string, string> }): Promise<HttpResult>;
  cookieHeader(): string;
}

export function personClient(baseUrl: string): PersonClient {
  const cookies = new Map<string, string>();
  const client: PersonClient = {
    cookies,
    lastSetCookies: [],
    cookieHeader: () => [...cookies].map(([k, v]) => `${k}=${v}`).join("; "),
    async send(method, path, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (cookies.size) headers.cookie = client.cookieHeader();
      const res = await request(baseUrl, method, path, { body: opts.body, headers });
      client.lastSetCookies = res.headers.getSetCookie();
      for (const line of client.lastSetCookies) {
        const [pair, ...attributes] = line.split(";");
        const eq = pair!.indexOf("=");
        const name = pair!.slice(0, eq).trim();
        const value = pair!.slice(eq + 1).trim();
        const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === "";
        if (expired) cookies.delete(name);
        else cookies.set(name, value);
      }
      return res;
    },
    // The library refuses a cookie-carrying POST without the service's Origin (as a browser sends it).
    auth: (method, path, body, headers) => client.send(method, `/auth${path}`, { body, headers: { origin: baseUrl, ...(headers ?? {}) } }),
    signUp: (body) => client.auth("POST", "/sign-up/email", body),
    signIn: (email, password) => client.auth("POST", "/sign-in/email", { email, password }),
    signOut: () => client.auth("POST", "/sign-out", {}),
    gql: (query, variables, opts = {}) =>
      client.send("POST", "/graphql", {
        body: { query, variables },
        headers: {
          "x-requested-with": "dashboard",
          ...(opts.workspace ? { "x-workspace-id": opts.workspace } : {}),
          ...(opts.headers ?? {}),
        },
      }),
  };
  return client;
}

export const PASSWORD = "correct horse battery";

/** A person with a password, a member of `workspaceId` with `role` (through the domain, as the CLI does). */
export async function newPerson(
  email: string,
  workspaceId?: string,
  role: "owner" | "member" = "member",
  password = PASSWORD,
): Promise<{ userId: string }> {
  const { createUser } = await import("../../src/domain/people/users.js");
  const { setMembership } = await import("../../src/domain/people/members.js");
  const { OPERATOR } = await import("../../src/domain/actors/actor.js");
  const user = await createUser({ email, name: email.split("@")[0]!, password });
  if (workspaceId) await setMembership({ workspaceId, userId: user.id, role, by: OPERATOR });
  return { userId: user.id };
}

/** A signed-in client for that person. */
export async function signedIn(baseUrl: string, email: string, password = PASSWORD): Promise<PersonClient> {
  const c = personClient(baseUrl);
  const res = await c.signIn(email, password);
  if (res.status !== 200) throw new Error(`sign-in of ${email} failed: ${res.status} ${res.text}`);
  return c;
}

/** `ws` with the session cookie and the page's Origin, as a browser opens it (for graphql-ws's webSocketImpl). */
export function cookieSocket(cookie: string, origin: string) {
  return class extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: { cookie, origin } });
    }
  };
}

/**
 * Takes people out of a workspace in PostgreSQL (all its members, or one) and announces it as the
 * service's own removal does (src/domain/people/members.ts), so that every API process forgets what it
 * remembered of their memberships (src/domain/people/sessions.ts) at once, not SESSION_MEMORY_MS later.
 */
export async function removeMemberships(workspaceId: string, userId?: string): Promise<void> {
  const { prisma } = await import("../../src/infra/db.js");
  const { announceRevocation, revocationSubject } = await import("../../src/domain/keys/revocation.js");
  const where = { workspaceId, ...(userId ? { userId } : {}) };
  const removed = await prisma.workspaceMember.findMany({ where, select: { userId: true } });
  await prisma.workspaceMember.deleteMany({ where });
  for (const m of removed) await announceRevocation(revocationSubject.member(workspaceId, m.userId));
}
