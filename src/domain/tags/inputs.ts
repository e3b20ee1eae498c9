/**
 * Inputs of the tag use cases, one schema each, shared by every door (REST bodies and queries, GraphQL
 * arguments mapped onto them, MCP tool arguments), so all refuse the same things with the same
 * VALIDATION_ERROR. `tagFilter` is the one tag filter of every list of videos and accounts (and of
 * the exports, which take a list's filter schema as it is).
 */
import { z } from "zod";
import { idList, page, uuid } from "../shared/inputs.ts";
import { searchText } from "../shared/search.ts";

const MAX_TAG_NAME = 50;

/** The dashboard's palette (any #rrggbb is accepted; these are offered). The first is the default. */
export const TAG_PALETTE = ["#64748b", "#ef4444", "#f97316", "#eab308", "#22c55e", "#14b8a6", "#3b82f6", "#8b5cf6", "#ec4899"] as const;
export const DEFAULT_TAG_COLOR = TAG_PALETTE[0];

/** Tag name: trimmed, then 1 to 50 characters; unique in the workspace without regard to case (409 TAG_EXISTS). */
export const tagName = z
  .string({ message: "name must be a string" })
  .trim()
  .min(1, "name must not be empty")
  .max(MAX_TAG_NAME, `name must be at most ${MAX_TAG_NAME} characters`)
  .meta({ description: `1 to ${MAX_TAG_NAME} characters after trimming; unique in the workspace without regard to case.` });

/** A colour written #rrggbb (stored in lower case). */
export const tagColor = z
  .string({ message: "color must be a string" })
  .regex(/^#[0-9a-fA-F]{6}$/, "color must be written #rrggbb")
  .transform((c) => c.toLowerCase())
  .meta({ description: `#rrggbb (stored in lower case). Default ${DEFAULT_TAG_COLOR}. The dashboard offers ${TAG_PALETTE.join(", ")}.` });

export const createTagInput = z.strictObject({ name: tagName, color: tagColor.optional() });
export const updateTagInput = z
  .strictObject({ name: tagName.optional(), color: tagColor.optional() })
  .refine((b) => b.name !== undefined || b.color !== undefined, { message: "give name, color or both", path: ["name"] });

/** GET /tags (and GraphQL `tags`, MCP list_tags): a page, and `q`, words of the tags' names. */
export const listTagsQuery = page(50).extend({ q: searchText("the tag's name") });

/** Bulk tag and untag: 1 to 50 ids a request, like folder membership. */
export const tagVideoIdsInput = z.strictObject({ video_ids: idList("video_ids").meta({ description: "1 to 50 video UUIDs." }) });
export const tagAccountIdsInput = z.strictObject({
  account_ids: idList("account_ids").meta({ description: "1 to 50 account UUIDs (canonical account IDs)." }),
});

/** The most tags one list filter may name. */
export const MAX_FILTER_TAGS = 20;

/**
 * The tag filter of the videos and accounts lists: one tag id, or several (REST: repeat `tag`). An
 * item matches when it carries ANY of them. A tag id the workspace does not have matches nothing.
 */
export const tagFilter = z
  .union(
    [
      uuid,
      z
        .array(uuid, { message: "tag must be a UUID or a list of UUIDs" })
        .min(1, "tag must hold at least one id")
        .max(MAX_FILTER_TAGS, `tag holds at most ${MAX_FILTER_TAGS} ids`),
    ],
    {
      message: "tag must be a UUID or a list of UUIDs",
    },
  )
  .optional()
  .meta({
    description:
      `Only items carrying any of these tags (ids from GET /tags): one id, or up to ${MAX_FILTER_TAGS} (repeat the parameter). ` +
      "A tag of another workspace, or unknown, matches nothing.",
  });

/** The ids of a parsed tag filter, or none. */
export const tagIdsOf = (tag: string | string[] | undefined): string[] => (tag === undefined ? [] : typeof tag === "string" ? [tag] : tag);
