/**
 * Zod building blocks of REST requests: id parameters, numbers and booleans in query strings (query
 * values arrive as strings and are coerced here) and the error body. The records answered are in
 * src/http/records/.
 */
import { z } from "zod";
import { uuid } from "../../domain/shared/records.ts";

export const idParams = z.object({ id: uuid });

/**
 * A domain number schema read from a query string: a non-empty string becomes a number first, so
 * the domain's own bounds and messages decide (REST adds only this coercion).
 */
const fromQuery = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() !== "" ? Number(v) : v), schema);

/** Booleans in query strings: true/false/1/0 only ("false" must not become true). */
const fromQueryBoolean = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => (v === "true" || v === "1" ? true : v === "false" || v === "0" ? false : v), schema);

/** The schema under `.default()`/`.optional()`/`.meta()` wrappers, to see what a field holds. */
function baseType(schema: z.ZodType): string {
  let s = schema as unknown as { _zod: { def: { type: string; innerType?: unknown } } };
  while (s._zod.def.innerType && ["default", "optional", "nullable", "prefault"].includes(s._zod.def.type))
    s = s._zod.def.innerType as typeof s;
  return s._zod.def.type;
}

/**
 * A domain query schema (src/domain/<area>/inputs.ts) read from a query string: number and boolean
 * fields are coerced from their text first, so the domain's own bounds and messages decide. This is
 * all REST adds to a domain input (besides OpenAPI metadata).
 */
export function queryParams<T extends z.ZodRawShape>(schema: z.ZodObject<T>) {
  const shape = Object.fromEntries(
    Object.entries(schema.shape).map(([name, field]) => {
      const type = baseType(field as z.ZodType);
      return [name, type === "number" ? fromQuery(field as z.ZodType) : type === "boolean" ? fromQueryBoolean(field as z.ZodType) : field];
    }),
  ) as { [K in keyof T]: z.ZodType<z.output<T[K]>, z.input<T[K]>> };
  return z.object(shape);
}

export const errorSchema = z
  .object({
    code: z.string().meta({ example: "NOT_FOUND" }),
    message: z.string(),
    details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    requestId: z.string().optional(),
    data: z
      .unknown()
      .optional()
      .meta({ description: "Only where a route documents it (POST /accounts: the refused handle under `failed`)." }),
  })
  .meta({ id: "Error", description: "Every error: `{code, message}`; validation errors add `details`, internal errors a `requestId`." });

/** A body that is a JSON object with exactly these fields (unknown fields are refused). */
export const body = <T extends z.ZodRawShape>(shape: T) => z.strictObject(shape);
