/**
 * Pieces of the answers every door gives (REST items, MCP results) beside the records: one id's
 * outcome in a bulk change and the offset-page `pagination` object. The records' own pieces (ids,
 * platforms, timestamps) are src/domain/shared/records.ts. MCP answers the same shapes (src/http/mcp/tools/).
 */
import { z } from "zod";

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
