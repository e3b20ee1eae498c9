/**
 * People made by operators (CLI `user create`, `member add`) and by the first run (the demo
 * workspace's owner): through the authentication library's own adapter and password hashing
 * (./authentication.ts), never by writing its tables by hand.
 */
import { prisma } from "../../infra/db.ts";
import { DomainError, notFound } from "../shared/errors.ts";
import { parseInput } from "../shared/inputs.ts";
import { OPERATOR } from "../actors/actor.ts";
import { authFor, passwordResetLink } from "./authentication.ts";
import { emailInput, passwordInput, personName } from "./inputs.ts";
import { setMembership } from "./members.ts";

export interface UserRecord {
  id: string;
  email: string;
  name: string;
}

/** Creates a person (with a password, or none yet: they set it through a reset link). EMAIL_TAKEN when the email has an account. */
export async function createUser(args: { email: string; name?: string; password?: string }): Promise<UserRecord> {
  const email = parseInput(emailInput, args.email, "email");
  const name = parseInput(personName, args.name ?? email.split("@")[0]!, "name");
  const password = args.password === undefined ? undefined : parseInput(passwordInput, args.password, "password");
  const ctx = await (await authFor(false)).$context;
  if (await prisma.user.findUnique({ where: { email }, select: { id: true } }))
    throw new DomainError("EMAIL_TAKEN", `A user with the email ${email} exists already.`);
  const user = await ctx.internalAdapter.createUser({ email, name, emailVerified: false }, { method: "admin" });
  if (password !== undefined) {
    await ctx.internalAdapter.linkAccount({
      userId: user.id,
      providerId: "credential",
      accountId: user.id,
      password: await ctx.password.hash(password),
    });
  }
  return { id: user.id, email: user.email, name: user.name };
}

export async function userByEmail(email: string): Promise<UserRecord> {
  const user = await prisma.user.findUnique({
    where: { email: parseInput(emailInput, email, "email") },
    select: { id: true, email: true, name: true },
  });
  if (!user) throw notFound("User");
  return user;
}

/** A single-use link (1 hour) that sets the person's password: CLI `user reset-password`. */
export async function resetPasswordLink(email: string): Promise<string> {
  const user = await userByEmail(email);
  const link = await passwordResetLink(user.email);
  if (!link) throw notFound("User");
  return link;
}

export const DEMO_OWNER_EMAIL = "demo@example.com";

/**
 * The first run (`npm start` on an empty database): the demo workspace's owner, with no password
 * yet, and the one-time link that sets it (the dashboard's `/reset-password?token=…`).
 */
export async function createDemoOwner(workspaceId: string): Promise<{ email: string; setPasswordUrl: string }> {
  const user = await createUser({ email: DEMO_OWNER_EMAIL, name: "Demo owner" });
  await setMembership({ workspaceId, userId: user.id, role: "owner", by: OPERATOR });
  return { email: user.email, setPasswordUrl: await resetPasswordLink(user.email) };
}
