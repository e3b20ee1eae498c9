/**
 * Pieces of the records every door answers with (REST items, MCP results): ids, platforms,
 * timestamps and the offset-page `pagination` object. REST documents them in its OpenAPI document;
 * MCP answers the same shapes (src/http/mcp/tools.ts).
 */
import { z } from "zod";
import { PLATFORMS } from "../../domain/shared/platform.ts";
import { uuid as sharedUuid } from "../../domain/shared/inputs.ts";

export const uuid = sharedUuid.meta({ format: "uuid", example: "3f1c1e0e-8d3b-4c35-9a4f-0d7f2b7c9a11" });

export const platform = z.enum(PLATFORMS).meta({
  description:
    "platformA: short-form video platform; platformB: video platform with long videos and shorts; platformC: photo and reel sharing platform.",
});

/** An integer (counts, totals). */
export const int = () => z.number().int();

/** Timestamp output: ISO 8601 UTC with milliseconds. */
export const timestamp = z.string().meta({ format: "date-time", example: "2026-11-22T10:15:00.000Z" });
export const iso = (d: Date) => d.toISOString();
export const isoOrNull = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** One id's outcome in a bulk change (domain/shared/inputs.ts, BulkItemResult). */
export const bulkItemResult = z
  .object({
    id: z.string(),
    success: z.boolean(),
    error: z.string().optional().meta({ description: "Present when success is false, e.g. `Video not found`." }),
  })
  .meta({ id: "BulkItemResult" });

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
