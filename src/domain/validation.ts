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
