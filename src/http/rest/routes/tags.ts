/**
 * /tags: the workspace's labels for tracked videos and accounts, what each groups (counts and views:
 * the "group by tag" of REST), and bulk tagging. Filtering by tag is the `tag` parameter of
 * GET /videos and GET /accounts (src/domain/tags/inputs.ts `tagFilter`).
 */
import { z } from "zod";
import {
  createTag,
  deleteTag,
  getTagSummary,
  listTagSummaries,
  tagAccounts,
  tagVideos,
  untagAccounts,
  untagVideos,
  updateTag,
} from "../../../domain/tags/service.ts";
import { createTagInput, listTagsQuery, tagAccountIdsInput, tagVideoIdsInput, updateTagInput } from "../../../domain/tags/inputs.ts";
import { defineRoute } from "../route.ts";
import { idParams, queryParams } from "../schemas.ts";
import { int } from "../../../domain/shared/records.ts";
import { bulkItemResult, pagination, paginationSchema } from "../../records/common.ts";
import { tagItem, tagSchema, tagSummaryItem, tagSummarySchema } from "../../records/tags.ts";

const TAGS = ["Tags"];
const bulkAnswer = { 200: { description: "One result per id, in request order.", schema: z.object({ data: z.array(bulkItemResult) }) } };
const removedAnswer = {
  200: { description: "How many items carried the tag and no longer do.", schema: z.object({ data: z.object({ removed: int() }) }) },
};

export const tagRoutes = [
  defineRoute({
    method: "post",
    path: "/tags",
    operationId: "createTag",
    summary: "Create a tag",
    description:
      "A name (trimmed, 1 to 50 characters, unique in the workspace without regard to case: 409 TAG_EXISTS) and an optional colour #rrggbb.",
    tags: TAGS,
    body: createTagInput,
    errors: ["TAG_EXISTS"],
    responses: { 201: { description: "The new tag.", schema: z.object({ data: tagSchema, message: z.string() }) } },
    async handler({ auth, body }) {
      return { status: 201, body: { data: tagItem(await createTag(auth.workspaceId, body)), message: "Tag created." } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/tags",
    operationId: "listTags",
    summary: "List tags, grouped: what each tag holds",
    description:
      "The workspace's tags by name (ties by id), each with the tracked videos and accounts carrying it and the views of those videos: " +
      "the videos and accounts grouped by tag (an item with several tags counts under each); with q, only the tags whose name holds its " +
      "words. List a tag's items with GET /videos?tag= and GET /accounts?tag=.",
    tags: TAGS,
    query: queryParams(listTagsQuery),
    responses: {
      200: { description: "A page of tags.", schema: z.object({ data: z.array(tagSummarySchema), pagination: paginationSchema }) },
    },
    async handler({ auth, query }) {
      const { items, total } = await listTagSummaries(auth.workspaceId, query, { q: query.q });
      return { body: { data: items.map(tagSummaryItem), pagination: pagination(total, query.limit, query.offset) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/tags/{id}",
    operationId: "getTag",
    summary: "Get one tag with its counts",
    tags: TAGS,
    params: idParams,
    errors: ["NOT_FOUND"],
    responses: { 200: { description: "The tag.", schema: z.object({ data: tagSummarySchema }) } },
    async handler({ auth, params }) {
      return { body: { data: tagSummaryItem(await getTagSummary(auth.workspaceId, params.id)) } };
    },
  }),
  defineRoute({
    method: "patch",
    path: "/tags/{id}",
    operationId: "updateTag",
    summary: "Rename or recolour a tag",
    description: "Give name, color or both. A name another tag has (without regard to case) is 409 TAG_EXISTS.",
    tags: TAGS,
    params: idParams,
    body: updateTagInput,
    errors: ["NOT_FOUND", "TAG_EXISTS"],
    responses: { 200: { description: "The tag as this request wrote it.", schema: z.object({ data: tagSchema, message: z.string() }) } },
    async handler({ auth, params, body }) {
      return { body: { data: tagItem(await updateTag(auth.workspaceId, params.id, body)), message: "Tag updated." } };
    },
  }),
  defineRoute({
    method: "delete",
    path: "/tags/{id}",
    operationId: "deleteTag",
    summary: "Delete a tag",
    description:
      "The tag leaves every item it was on; the items stay tracked. An active campaign filtering by this tag then counts every " +
      "video of its members (its filter goes): owners only while one does (403 FORBIDDEN for a member; docs/campaigns.md).",
    tags: TAGS,
    params: idParams,
    errors: ["NOT_FOUND", "FORBIDDEN"],
    responses: {
      200: { description: "The tag is deleted.", schema: z.object({ data: z.object({ id: z.string() }), message: z.string() }) },
    },
    async handler({ auth, params }) {
      return {
        body: { data: await deleteTag(auth, params.id), message: "Tag deleted. Its videos and accounts stay tracked." },
      };
    },
  }),
  defineRoute({
    method: "post",
    path: "/tags/{id}/videos",
    operationId: "tagVideos",
    summary: "Tag tracked videos (bulk)",
    description:
      "1 to 50 video ids, each on its own: `success` when the video carries the tag afterwards (already tagged included); " +
      "`Video not found` when the workspace does not track it. The HTTP status stays 200. An active campaign filtering by this tag pays by it: then this is owners only (403 FORBIDDEN for a member; docs/campaigns.md).",
    tags: TAGS,
    params: idParams,
    body: tagVideoIdsInput,
    errors: ["NOT_FOUND", "FORBIDDEN"],
    responses: bulkAnswer,
    async handler({ auth, params, body }) {
      return { body: { data: await tagVideos(auth, params.id, body.video_ids) } };
    },
  }),
  defineRoute({
    method: "delete",
    path: "/tags/{id}/videos",
    operationId: "untagVideos",
    summary: "Untag videos (bulk)",
    description:
      "1 to 50 video ids; ids not carrying the tag are ignored. The videos stay tracked. An active campaign filtering by this tag pays by it: then this is owners only (403 FORBIDDEN for a member; docs/campaigns.md).",
    tags: TAGS,
    params: idParams,
    body: tagVideoIdsInput,
    errors: ["NOT_FOUND", "FORBIDDEN"],
    responses: removedAnswer,
    async handler({ auth, params, body }) {
      return { body: { data: await untagVideos(auth, params.id, body.video_ids) } };
    },
  }),
  defineRoute({
    method: "post",
    path: "/tags/{id}/accounts",
    operationId: "tagAccounts",
    summary: "Tag tracked accounts (bulk)",
    description:
      "1 to 50 canonical account ids, each on its own: `success` when the account carries the tag afterwards; `Account not found` " +
      "when the workspace does not track it. The HTTP status stays 200.",
    tags: TAGS,
    params: idParams,
    body: tagAccountIdsInput,
    errors: ["NOT_FOUND"],
    responses: bulkAnswer,
    async handler({ auth, params, body }) {
      return { body: { data: await tagAccounts(auth, params.id, body.account_ids) } };
    },
  }),
  defineRoute({
    method: "delete",
    path: "/tags/{id}/accounts",
    operationId: "untagAccounts",
    summary: "Untag accounts (bulk)",
    description: "1 to 50 canonical account ids; ids not carrying the tag are ignored. The accounts stay tracked.",
    tags: TAGS,
    params: idParams,
    body: tagAccountIdsInput,
    errors: ["NOT_FOUND"],
    responses: removedAnswer,
    async handler({ auth, params, body }) {
      return { body: { data: await untagAccounts(auth, params.id, body.account_ids) } };
    },
  }),
];
