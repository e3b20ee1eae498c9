/**
 * Tags as every door answers them (REST /tags, MCP list_tags and the tagging tools): the zod schemas
 * of the OpenAPI document and the mappers from the domain's records.
 */
import { z } from "zod";
import type { TagRecord, TagSummary } from "../../domain/tags/service.ts";
import { int, iso, timestamp } from "../../domain/shared/records.ts";

export const tagSchema = z
  .object({
    id: z.string(),
    name: z.string().meta({ description: "Unique in the workspace without regard to case." }),
    color: z.string().meta({ description: "#rrggbb, lower case." }),
    createdAt: timestamp,
  })
  .meta({ id: "Tag" });

export const tagSummarySchema = tagSchema
  .extend({
    videoCount: int().meta({ description: "Tracked videos carrying the tag." }),
    accountCount: int().meta({ description: "Tracked accounts carrying the tag." }),
    totalViews: int().meta({ description: "Sum of the latest view counts of the tag's videos (a video not scraped yet counts 0)." }),
  })
  .meta({ id: "TagSummary" });

export const tagItem = (t: TagRecord) => ({ id: t.id, name: t.name, color: t.color, createdAt: iso(t.createdAt) });
export const tagSummaryItem = (t: TagSummary) => ({
  ...tagItem(t),
  videoCount: t.videoCount,
  accountCount: t.accountCount,
  totalViews: t.totalViews,
});
