/** Input validation shared by REST and GraphQL: one zod schema per input, one error shape. */
import type { z } from "zod";
import { validationError, type ErrorDetail } from "./errors.js";

export function issuesToDetails(error: z.ZodError, prefix?: string): ErrorDetail[] {
  return error.issues.map((issue) => ({
    path: [prefix, ...issue.path.map(String)].filter(Boolean).join("."),
    message: issue.message,
  }));
}

/** Parses `value` with `schema` or throws 400 VALIDATION_ERROR naming every problem. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, prefix?: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = issuesToDetails(result.error, prefix);
  throw validationError(`Invalid input: ${details.map((d) => `${d.path || "(input)"}: ${d.message}`).join("; ")}`, details);
}

/**
 * PostgreSQL text cannot hold the NUL character, so a string containing it would fail in the
 * database (a 500). Every input is checked here first: the path of the first NUL found, or null.
 */
export function findNulCharacter(value: unknown, path = ""): string | null {
  if (typeof value === "string") return value.includes("\u0000") ? path || "(input)" : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNulCharacter(value[i], path ? `${path}.${i}` : String(i));
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      const found = findNulCharacter(k, path) ?? findNulCharacter(v, path ? `${path}.${k}` : k);
      if (found) return found;
    }
  }
  return null;
}

export function rejectNulCharacters(value: unknown, prefix: string): void {
  const path = findNulCharacter(value, prefix);
  if (path) {
    throw validationError(`Invalid input: ${path}: must not contain the NUL character (\\u0000).`, [
      { path, message: "must not contain the NUL character (\\u0000)" },
    ]);
  }
}
