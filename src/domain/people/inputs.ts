/** Inputs of the people use cases, shared by every door (REST, GraphQL, the /auth routes' hooks, the CLI). */
import { z } from "zod";
import { page } from "../shared/inputs.ts";

/** Passwords: at least 10 characters (docs/contract/decisions.md), at most 128 (argon2 hashes whatever it gets; this bounds the work). */
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 128;

export const emailInput = z
  .string({ message: "email must be a string" })
  .trim()
  .max(254, "email must be at most 254 characters")
  .pipe(z.email({ message: "must be an email address" }))
  .transform((e) => e.toLowerCase());

export const passwordInput = z
  .string({ message: "password must be a string" })
  .min(MIN_PASSWORD_LENGTH, `password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `password must be at most ${MAX_PASSWORD_LENGTH} characters`);

export const personName = z
  .string({ message: "name must be a string" })
  .trim()
  .min(1, "name must not be empty")
  .max(200, "name must be at most 200 characters");

export const workspaceRole = z.enum(["owner", "member"], { message: "role must be owner or member" });

export const createInvitationInput = z.strictObject({ email: emailInput, role: workspaceRole });

/** The body of POST /auth/sign-up/email (the library reads it too; this checks what it does not). */
export const signUpInput = z.object({
  email: emailInput,
  name: personName,
  invitationToken: z.string().max(200).optional(),
});

export const auditLogQuery = page(20);
