/**
 * Authentication of people, by a maintained library: better-auth (email and password, sessions in
 * PostgreSQL through the project's Prisma client, its routes mounted at /auth by src/http/auth/).
 * The project's own code starts where the library's session ends (docs/architecture.md, "The
 * session door"): which workspace a session acts on and with which role (./sessions.ts, ../actors/roles.ts),
 * invitations (./invitations.ts) and the audit log (../actors/audit.ts).
 *
 * What is configured here, and why:
 * - Passwords: argon2id through @node-rs/argon2 (19 MiB, 2 passes: OWASP's baseline), at least 10
 *   characters. For an unknown email the library hashes the submitted password just the same
 *   (argon2id with the same cost as a verification), and answers the same 401: no timing or
 *   wording tells an unknown email from a wrong password.
 * - Sessions: HttpOnly, SameSite=Lax cookies (`svc.session_token`; `__Secure-` prefixed and Secure
 *   when the request came over https: one instance of the library per scheme); idle expiry 7 days
 *   (refreshed at most hourly as the session is used), absolute expiry 30 days (a trigger caps
 *   `expires_at`, migration 20261126120000_people). Every deleted session (sign-out, sign-out
 *   everywhere, revocation, password reset) is announced so its live connections end
 *   (src/domain/keys/revocation.ts).
 * - Sign-up: only for the first user of an empty service (who gets a workspace of their own, as
 *   its owner) or with a pending invitation for that email (who joins its workspace).
 * - Sign-in: the brute-force limits of ./sign-in-limits.ts, counted in Redis; each sign-in is
 *   audited in the person's workspaces, and so is every other change of the account through the
 *   library (sign-out, password changed or reset, name …: ./account-audit.ts).
 * - A password change ends the person's other sessions (`endOtherSessions`).
 * - The library's own in-memory rate limiter is off: it is per process, and the limits that matter
 *   here (sign-in) are counted in Redis for every process.
 * - Password resets: a person asks on the sign-in page (POST /auth/request-password-reset: the same
 *   answer whether the address exists or not) and gets the link by mail (./mails.ts); operators also
 *   mint links with the CLI. A changed or reset password sends the person a security notice.
 * - Routes the service does not offer are disabled (social sign-in, email verification, account
 *   deletion, email changes).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import { hash as argon2Hash, verify as argon2Verify, type Options as Argon2Options } from "@node-rs/argon2";
import type { createAuthMiddleware } from "better-auth/api";
import { config } from "../../config.ts";
import { prisma } from "../../infra/db.ts";
import { logger } from "../../infra/logger.ts";
import { DomainError, validationError } from "../shared/errors.ts";
import { parseInput } from "../shared/inputs.ts";
import { announceRevocation, revocationSubject } from "../keys/revocation.ts";
import { createWorkspace } from "../workspace/service.ts";
import type { Acting } from "../actors/actor.ts";
import {
  notedFirstPassword,
  notedResetFor,
  noteEndedSession,
  noteResetFor,
  recordAccountEvent,
  recordLibraryCall,
} from "./account-audit.ts";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, signUpInput } from "./inputs.ts";
import { acceptInvitation, checkInvitation } from "./invitations.ts";
import { addMember, membershipsOf } from "./members.ts";
import { beginSignIn, rememberAddress, signInSucceeded, type SignInAttempt } from "./sign-in-limits.ts";
import { sendPasswordNotice, sendPasswordResetMail } from "./mails.ts";

export const AUTH_BASE_PATH = "/auth";
/**
 * The header through which the HTTP door tells the library the client's address (as TRUST_PROXY
 * decides it): the door always overwrites it, so a client cannot choose its own.
 */
export const CLIENT_ADDRESS_HEADER = "x-svc-client-address";
const COOKIE_PREFIX = "svc";
const IDLE_EXPIRY_SECONDS = 7 * 24 * 3600;
const REFRESH_AT_MOST_EVERY_SECONDS = 3600;
const RESET_LINK_SECONDS = 3600;

/** argon2id, 19 MiB, 2 passes, 1 lane (OWASP Password Storage Cheat Sheet); 2 is Algorithm.Argon2id. */
const ARGON2: Argon2Options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

const hashPassword = (password: string) => argon2Hash(password, ARGON2);
const verifyPassword = ({ hash, password }: { hash: string; password: string }) => argon2Verify(hash, password).catch(() => false);

/** The status names the library's errors take, for the domain's error statuses. */
const STATUS_NAMES: Record<
  number,
  "BAD_REQUEST" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "CONFLICT" | "TOO_MANY_REQUESTS" | "SERVICE_UNAVAILABLE"
> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  429: "TOO_MANY_REQUESTS",
  503: "SERVICE_UNAVAILABLE",
};

/** A domain error inside the library's hooks, as the library's error (the door maps it back to `{code, message}`). */
function asApiError(e: unknown): unknown {
  if (!(e instanceof DomainError)) return e;
  const headers: Record<string, string> = e.retryAfterSeconds !== undefined ? { "Retry-After": String(e.retryAfterSeconds) } : {};
  return new lib.APIError(
    STATUS_NAMES[e.status] ?? "BAD_REQUEST",
    { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) },
    headers,
  );
}

const clientAddressOf = (headers: Headers | undefined) => headers?.get(CLIENT_ADDRESS_HEADER) ?? null;

/** Password-reset links minted in this call (the CLI and the first run), captured from the library's callback. */
const resetTokens = new AsyncLocalStorage<string[]>();

/** Sign-up: the first user of an empty service, or a pending invitation for that email. */
async function checkSignUp(body: Record<string, unknown>): Promise<void> {
  const input = parseInput(signUpInput, { email: body.email, name: body.name, invitationToken: body.invitationToken }, "body");
  if (input.invitationToken !== undefined) {
    await checkInvitation(input.invitationToken, input.email);
    return;
  }
  if ((await prisma.user.count({ take: 1 })) > 0) {
    throw new DomainError(
      "FORBIDDEN",
      "Sign-up needs an invitation: ask an owner of a workspace to invite you (the link carries invitationToken).",
    );
  }
}

/** After the library created the user of a sign-up: join the invitation's workspace, or (first user) a workspace of their own. */
async function afterSignUp(
  user: { id: string; email: string; name: string },
  body: Record<string, unknown>,
  clientAddress: string | null,
): Promise<void> {
  const token = typeof body.invitationToken === "string" ? body.invitationToken : null;
  if (token) {
    await acceptInvitation(user, token, clientAddress);
    return;
  }
  const by: Acting = { principal: { kind: "user", id: user.id, email: user.email, sessionId: null }, clientAddress };
  await prisma.$transaction(async (tx) => {
    const { workspace } = await createWorkspace({ name: `${user.name}'s workspace` }, tx);
    await addMember({ workspaceId: workspace.id, userId: user.id, role: "owner", by }, tx);
  });
}

/** Sign-ins are recorded in each workspace of the person (./account-audit.ts); never delays the answer. */
function auditSignIn(user: { id: string; email: string }, succeeded: boolean, clientAddress: string | null): void {
  void recordAccountEvent({
    userId: user.id,
    by: { principal: { kind: "user", id: user.id, email: user.email, sessionId: null }, clientAddress },
    action: succeeded ? "user.signed_in" : "user.sign_in_failed",
  }).catch((e: unknown) => logger.warn({ err: (e as Error).message }, "could not record a sign-in in the audit log"));
}

/** The library's context of a call (what its hooks receive). */
type Call = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

function signInAttemptOf(body: unknown, headers: Headers | undefined): SignInAttempt {
  const email = typeof (body as { email?: unknown })?.email === "string" ? (body as { email: string }).email : "";
  return { email, clientAddress: clientAddressOf(headers) };
}

/** Whose link a reset uses, read before the library consumes it (for the audit entry: ./account-audit.ts). */
async function noteResetLink(ctx: Call): Promise<void> {
  const token = (ctx.body as { token?: unknown } | undefined)?.token ?? (ctx.query as { token?: unknown } | undefined)?.token;
  if (typeof token !== "string") return;
  const link = await ctx.context.internalAdapter.findVerificationValue(`reset-password:${token}`);
  if (!link) return;
  const password = await prisma.authAccount.findFirst({
    where: { userId: link.value, providerId: "credential", password: { not: null } },
    select: { id: true },
  });
  noteResetFor(ctx.context, link.value, password === null);
}

/** The parameters through which the library redirects a browser after a call. */
const REDIRECT_PARAMS = ["callbackURL", "redirectTo", "errorCallbackURL", "newUserCallbackURL"] as const;

/**
 * Redirects go to the service only: a path of its own, or a URL of PUBLIC_URL's origin. The library would also accept
 * its trusted origins, which include the origin of the request's own Host header (for its same-origin check of
 * browsers' `Origin`): a Host header the client writes must not widen where a browser is sent.
 */
function checkRedirects(ctx: Call): void {
  const own = new URL(config.people.publicUrl).origin;
  for (const from of [ctx.body, ctx.query] as unknown[]) {
    for (const name of REDIRECT_PARAMS) {
      const value = (from as Record<string, unknown> | undefined)?.[name];
      if (value === undefined || value === null || value === "") continue;
      const path = typeof value === "string" && value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\");
      let sameOrigin = false;
      try {
        sameOrigin = typeof value === "string" && new URL(value).origin === own;
      } catch {
        // not an absolute URL
      }
      if (!path && !sameOrigin)
        throw validationError(`${name} must be a path of this service or a URL under PUBLIC_URL (${own}).`, [
          { path: name, message: "redirects go to this service only" },
        ]);
    }
  }
}

/** Before the library answers: the service's own checks (redirects, sign-up rules, sign-in limits). */
async function beforeHook(ctx: Call): Promise<void> {
  try {
    checkRedirects(ctx);
    if (ctx.path === "/sign-up/email") await checkSignUp((ctx.body ?? {}) as Record<string, unknown>);
    if (ctx.path === "/sign-in/email") await beginSignIn(signInAttemptOf(ctx.body, ctx.headers));
    if (ctx.path === "/reset-password") await noteResetLink(ctx);
  } catch (e) {
    throw asApiError(e);
  }
}

async function afterSignIn(ctx: Call): Promise<void> {
  const attempt = signInAttemptOf(ctx.body, ctx.headers);
  const returned = ctx.context.returned;
  const failed = lib.isAPIError(returned);
  if (failed && returned.statusCode === 429) return; // refused before any password was checked
  if (!failed) await signInSucceeded(attempt);
  const user =
    ctx.context.newSession?.user ??
    (failed
      ? await prisma.user
          .findUnique({ where: { email: attempt.email.trim().toLowerCase() }, select: { id: true, email: true } })
          .catch(() => null)
      : null);
  if (user) auditSignIn(user, !failed, attempt.clientAddress);
}

/**
 * A password change ends the person's other sessions unless the client said otherwise (the library
 * keeps them unless asked: a stolen session would outlive the new password). The session that changed
 * it stays signed in; the others are deleted through the library, so each is announced and its live
 * WebSockets and SSE streams close as on any revocation (the session delete hook below).
 */
async function endOtherSessions(ctx: Call): Promise<void> {
  if ((ctx.body as { revokeOtherSessions?: unknown } | undefined)?.revokeOtherSessions !== undefined) return; // the client chose
  const current = ctx.context.session;
  if (!current) return;
  const sessions = await ctx.context.internalAdapter.listSessions(current.user.id);
  const others = sessions.filter((s) => s.token !== current.session.token).map((s) => s.token);
  if (others.length) await ctx.context.internalAdapter.deleteSessions(others);
}

/**
 * A completed reset proves the person holds the link: the address that completed it may sign in
 * past the email's failures from others, as one that signed in before (./sign-in-limits.ts).
 */
async function afterReset(ctx: Call): Promise<void> {
  const userId = notedResetFor(ctx.context);
  const user = userId ? await prisma.user.findUnique({ where: { id: userId }, select: { id: true, email: true } }) : null;
  if (!user) return;
  await rememberAddress(user.email, clientAddressOf(ctx.headers)).catch((e: unknown) =>
    logger.warn({ err: (e as Error).message }, "could not remember the address of a reset"),
  );
  await securityNotice(user, notedFirstPassword(ctx.context) ? "password_set" : "password_reset");
}

/** The person's security notice; the change is committed (the library's own transaction), so a failure is only logged. */
async function securityNotice(
  user: { id: string; email: string },
  what: "password_changed" | "password_reset" | "password_set",
): Promise<void> {
  await sendPasswordNotice(user, what).catch((e: unknown) =>
    logger.warn({ err: (e as Error).message }, "could not queue a security notice"),
  );
}

/** After the library answered: what the service does on sign-in, password changes and resets, and the audit. */
async function afterHook(ctx: Call): Promise<void> {
  if (ctx.path === "/sign-in/email") return afterSignIn(ctx);
  if (lib.isAPIError(ctx.context.returned)) return;
  if (ctx.path === "/change-password") {
    await endOtherSessions(ctx);
    if (ctx.context.session) await securityNotice(ctx.context.session.user, "password_changed");
  }
  if (ctx.path === "/reset-password") await afterReset(ctx);
  // A new name: every process reads the person again (./sessions.ts remembers them).
  if (ctx.path === "/update-user" && ctx.context.session) await announceRevocation(revocationSubject.person(ctx.context.session.user.id));
  // Sign-out, password changes and resets, name changes …: one place records them (./account-audit.ts).
  await recordLibraryCall(ctx, clientAddressOf(ctx.headers));
}

function options(secret: string, secure: boolean) {
  return {
    appName: "video-service",
    baseURL: config.people.publicUrl,
    basePath: AUTH_BASE_PATH,
    secret,
    database: lib.prismaAdapter(prisma, { provider: "postgresql", transaction: true }),
    telemetry: { enabled: false },
    logger: {
      level: "warn" as const,
      log: (level: "debug" | "info" | "warn" | "error", message: string) =>
        logger[level === "debug" ? "debug" : level]({ component: "better-auth" }, message),
    },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      autoSignIn: true,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: RESET_LINK_SECONDS,
      password: { hash: hashPassword, verify: verifyPassword },
      // In-process callers (the CLI, the first run) take the token; a person who asked gets it by mail.
      sendResetPassword: async ({ user, token }: { user: { id: string; email: string }; token: string }) => {
        const captured = resetTokens.getStore();
        if (captured) captured.push(token);
        // Not awaited: the answer leaves as soon as for an address with no account (no timing tells them apart).
        else
          void sendPasswordResetMail(user, token, RESET_LINK_SECONDS).catch((e: unknown) =>
            logger.error({ err: (e as Error).message }, "could not queue a password-reset mail"),
          );
      },
    },
    user: {
      additionalFields: { firstUser: { type: "boolean" as const, required: false, defaultValue: false, input: false, returned: false } },
    },
    session: {
      expiresIn: IDLE_EXPIRY_SECONDS,
      updateAge: REFRESH_AT_MOST_EVERY_SECONDS,
      additionalFields: { activeWorkspaceId: { type: "string" as const, required: false, input: false } },
    },
    account: { modelName: "authAccount" },
    verification: { storeIdentifier: "hashed" as const },
    rateLimit: { enabled: false },
    advanced: {
      database: { generateId: "uuid" as const },
      cookiePrefix: COOKIE_PREFIX,
      useSecureCookies: secure,
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    // The service's own origin (PUBLIC_URL is trusted by the library) and the origin the request
    // was sent to: a browser's Origin equals it only on a same-origin request.
    trustedOrigins: (request?: Request) => (request ? [new URL(request.url).origin] : []),
    disabledPaths: [
      "/sign-in/social",
      "/link-social",
      "/unlink-account",
      "/delete-user",
      "/change-email",
      "/send-verification-email",
      "/verify-email",
      "/refresh-token",
      "/get-access-token",
      "/account-info",
    ],
    // A refusal (wrong password, sign-up without an invitation …) is an answer, not a fault: only
    // what failed unexpectedly is logged.
    onAPIError: {
      onError: (e: unknown) => {
        if (!lib.isAPIError(e) || e.statusCode >= 500) logger.error({ err: e }, "the authentication library failed a request");
      },
    },
    hooks: { before: lib.createAuthMiddleware(beforeHook), after: lib.createAuthMiddleware(afterHook) },
    databaseHooks: {
      user: {
        create: {
          // Sign-up without an invitation is the first user's (checkSignUp): the partial unique
          // index on users(first_user) refuses a second one that raced past the check.
          before: async (user: Record<string, unknown>, ctx: { path?: string; body?: Record<string, unknown> } | null) =>
            ctx?.path === "/sign-up/email" && typeof ctx.body?.invitationToken !== "string"
              ? { data: { ...user, firstUser: true } }
              : undefined,
          after: async (
            user: { id: string; email: string; name: string },
            ctx: { path?: string; body?: Record<string, unknown>; headers?: Headers } | null,
          ) => {
            if (ctx?.path === "/sign-up/email") await afterSignUp(user, ctx.body ?? {}, clientAddressOf(ctx.headers));
          },
        },
      },
      session: {
        delete: {
          after: async (session: { id: string; userId: string }, ctx: { context?: object } | null) => {
            noteEndedSession(ctx, session);
            await announceRevocation(revocationSubject.session(session.id));
          },
        },
      },
    },
  };
}

/**
 * The library, loaded on the first sign-in, session or password call: better-auth and its query builder are a sixth
 * of what the API loads, and processes that only serve keys (workers, most of the CLI) never need them. The hooks
 * and errors above run only once it has loaded.
 */
type Library = typeof import("better-auth") & typeof import("better-auth/api") & typeof import("better-auth/adapters/prisma");
let lib: Library;
async function loadLibrary(): Promise<void> {
  const [core, api, adapter] = await Promise.all([import("better-auth"), import("better-auth/api"), import("better-auth/adapters/prisma")]);
  lib = { ...core, ...api, ...adapter };
}

function build(secret: string, secure: boolean) {
  return lib.betterAuth(options(secret, secure));
}

export type Auth = ReturnType<typeof build>;

/** AUTH_SECRET, or the one the service generated on its first start (kept in PostgreSQL, shared by every process). */
async function authSecret(): Promise<string> {
  if (config.people.authSecret) return config.people.authSecret;
  await prisma.serviceSecret.createMany({ data: [{ name: "auth", value: randomBytes(32).toString("base64url") }], skipDuplicates: true });
  return (await prisma.serviceSecret.findUniqueOrThrow({ where: { name: "auth" } })).value;
}

let instances: Promise<{ http: Auth; https: Auth }> | null = null;

/** The library, configured for a request that came over https (Secure cookies) or not. */
export async function authFor(https: boolean): Promise<Auth> {
  instances ??= Promise.all([authSecret(), loadLibrary()]).then(([secret]) => ({ http: build(secret, false), https: build(secret, true) }));
  instances.catch(() => (instances = null)); // a database that was down at the first call is retried
  const built = await instances;
  return https ? built.https : built.http;
}

/**
 * A single-use link that sets the person's password (valid 1 hour): the dashboard page
 * `/reset-password?token=…` posts `{newPassword, token}` to POST /auth/reset-password. Null when
 * no user has that email.
 */
export async function passwordResetLink(email: string): Promise<string | null> {
  const auth = await authFor(false);
  const tokens: string[] = [];
  await resetTokens.run(tokens, () => auth.api.requestPasswordReset({ body: { email } }));
  return tokens[0] ? `${config.people.publicUrl}/reset-password?token=${encodeURIComponent(tokens[0])}` : null;
}
