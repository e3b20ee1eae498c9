/**
 * The tags' MCP tools: the workspace's tags, grouped, and bulk tagging (as REST /tags).
 */
import { uuid } from "../../../domain/shared/inputs.ts";
import { createTagInput, listTagsQuery, tagAccountIdsInput, tagVideoIdsInput } from "../../../domain/tags/inputs.ts";
import { createTag, listTagSummaries, tagAccounts, tagVideos, untagAccounts, untagVideos } from "../../../domain/tags/service.ts";
import { pagination } from "../../records/common.ts";
import { tagItem, tagSummaryItem } from "../../records/tags.ts";
import { ORGANISE, READ, WRITE, defineTool, type AnyTool } from "../tool.ts";

const tagId = uuid.meta({ description: "The tag's id (from list_tags or create_tag)." });

export const tagTools: AnyTool[] = [
  defineTool({
    name: "list_tags",
    title: "List tags, grouped",
    description:
      "The workspace's tags by name, each with how many tracked videos and accounts carry it and the views of those videos (the " +
      "workspace's items grouped by tag; `q`: only the tags whose name holds its words). Filter list_videos and list_accounts with `tag`. Free.",
    input: listTagsQuery,
    annotations: READ,
    run: async ({ auth }, input) => {
      const { items, total } = await listTagSummaries(auth.workspaceId, input, { q: input.q });
      return { data: items.map(tagSummaryItem), pagination: pagination(total, input.limit, input.offset) };
    },
  }),
  defineTool({
    name: "create_tag",
    title: "Create a tag",
    description:
      "Creates a tag: a name (1 to 50 characters, unique without regard to case: TAG_EXISTS) and an optional colour #rrggbb. Free.",
    input: createTagInput,
    annotations: WRITE,
    idempotent: true,
    run: async ({ auth }, input) => ({ data: tagItem(await createTag(auth.workspaceId, input)) }),
  }),
  defineTool({
    name: "tag_videos",
    title: "Tag videos",
    description:
      "Puts a tag on up to 50 tracked videos; one result per id (`Video not found` for a video the workspace does not track). Free.",
    input: tagVideoIdsInput.extend({ tag_id: tagId }),
    annotations: ORGANISE,
    run: async ({ auth }, input) => ({ data: await tagVideos(auth, input.tag_id, input.video_ids) }),
  }),
  defineTool({
    name: "untag_videos",
    title: "Untag videos",
    description: "Takes a tag off up to 50 videos; answers how many carried it. The videos stay tracked. Free.",
    input: tagVideoIdsInput.extend({ tag_id: tagId }),
    annotations: ORGANISE,
    run: async ({ auth }, input) => ({ data: await untagVideos(auth, input.tag_id, input.video_ids) }),
  }),
  defineTool({
    name: "tag_accounts",
    title: "Tag accounts",
    description: "Puts a tag on up to 50 tracked accounts; one result per id (`Account not found` when not tracked). Free.",
    input: tagAccountIdsInput.extend({ tag_id: tagId }),
    annotations: ORGANISE,
    run: async ({ auth }, input) => ({ data: await tagAccounts(auth, input.tag_id, input.account_ids) }),
  }),
  defineTool({
    name: "untag_accounts",
    title: "Untag accounts",
    description: "Takes a tag off up to 50 accounts; answers how many carried it. The accounts stay tracked. Free.",
    input: tagAccountIdsInput.extend({ tag_id: tagId }),
    annotations: ORGANISE,
    run: async ({ auth }, input) => ({ data: await untagAccounts(auth, input.tag_id, input.account_ids) }),
  }),
];
