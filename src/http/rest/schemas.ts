/**
 * Zod building blocks shared by REST routes: ids, pagination, dates, booleans in query strings,
 * envelopes and the error body. Query values arrive as strings and are coerced here.
 */
import { z } from "zod";
import { PLATFORMS } from "../../domain/shared/platform.js";
import { uuid as sharedUuid } from "../../domain/shared/inputs.js";

export const uuid = sharedUuid.meta({ format: "uuid", example: "3f1c1e0e-8d3b-4c35-9a4f-0d7f2b7c9a11" });
export const idParams = z.object({ id: uuid });

export const platform = z.enum(PLATFORMS).meta({
  description: "platformA: short-form video platform; platformB: video platform with long videos and shorts; platformC: photo and reel sharing platform.",
});

/** Timestamp output: ISO 8601 UTC with milliseconds. */
export const timestamp = z.string().meta({ format: "date-time", example: "2026-11-22T10:15:00.000Z" });
export const iso = (d: Date) => d.toISOString();
export const isoOrNull = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/**
 * A domain number schema read from a query string: a non-empty string becomes a number first, so
 * the domain's own bounds and messages decide (REST adds only this coercion).
 */
export const fromQuery = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() !== "" ? Number(v) : v), schema);

/** Booleans in query strings: true/false/1/0 only ("false" must not become true). */
const fromQueryBoolean = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => (v === "true" || v === "1" ? true : v === "false" || v === "0" ? false : v), schema);

/** The schema under `.default()`/`.optional()`/`.meta()` wrappers, to see what a field holds. */
function baseType(schema: z.ZodType): string {
  let s = schema as unknown as { _zod: { def: { type: string; innerType?: unknown } } };
  while (s._zod.def.innerType && ["default", "optional", "nullable", "prefault"].includes(s._zod.def.type)) s = s._zod.def.innerType as typeof s;
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


export const paginationSchema = z
  .object({
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
    has_more: z.boolean().meta({ description: "True if more results exist beyond this page." }),
  })
  .meta({ id: "Pagination" });

export function pagination(total: number, limit: number, offset: number) {
  return { total, limit, offset, has_more: offset + limit < total };
}

export const errorSchema = z
  .object({
    code: z.string().meta({ example: "NOT_FOUND" }),
    message: z.string(),
    details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    requestId: z.string().optional(),
    data: z.unknown().optional().meta({ description: "Only where a route documents it (POST /accounts: the refused handle under `failed`)." }),
  })
  .meta({ id: "Error", description: "Every error: `{code, message}`; validation errors add `details`, internal errors a `requestId`." });

/** A body that is a JSON object with exactly these fields (unknown fields are refused). */
export const body = <T extends z.ZodRawShape>(shape: T) => z.strictObject(shape);
