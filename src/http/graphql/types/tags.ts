/**
 * GraphQL: tags, through the same tag services as REST. `Tag` is a node; its counts (the "group by
 * tag": videos, accounts, views) and the tags of every video and account of a response are one
 * statement each (DataLoaders). Filtering by tag is the `tagIds` argument of `videos` and `accounts`
 * (./tracking.ts), the same domain filter as REST's `tag`.
 */
import { createContextCache } from "@pothos/core";
import DataLoader from "dataloader";
import { builder, type GraphQLContext } from "../builder.ts";
import { entityId, nodeUuid, pagedConnection } from "../connections.ts";
import { AccountRef, BulkItemResultRef, VideoRef } from "./tracking.ts";
import { parseInput } from "../../../domain/shared/inputs.ts";
import {
  createTag,
  deleteTag,
  listTags,
  requireTag,
  tagAccounts,
  tagCounts,
  tagsByIds,
  TAGS_ORDER,
  tagsOfAccounts,
  tagsOfVideos,
  tagVideos,
  untagAccounts,
  untagVideos,
  updateTag,
  type TagCounts,
  type TagRecord,
} from "../../../domain/tags/service.ts";
import {
  createTagInput,
  listTagsQuery,
  TAG_PALETTE,
  tagAccountIdsInput,
  tagVideoIdsInput,
  updateTagInput,
} from "../../../domain/tags/inputs.ts";

const countsLoader = createContextCache(
  (ctx: GraphQLContext) =>
    new DataLoader<string, TagCounts>(async (ids) => {
      const counts = await tagCounts(ctx.auth.workspaceId, ids);
      return ids.map((id) => counts.get(id) ?? { videoCount: 0, accountCount: 0, totalViews: 0 });
    }),
);

const videoTagsLoader = createContextCache(
  (ctx: GraphQLContext) =>
    new DataLoader<string, TagRecord[]>(async (ids) => {
      const byId = await tagsOfVideos(ctx.auth.workspaceId, ids);
      return ids.map((id) => byId.get(id) ?? []);
    }),
);

const accountTagsLoader = createContextCache(
  (ctx: GraphQLContext) =>
    new DataLoader<string, TagRecord[]>(async (ids) => {
      const byId = await tagsOfAccounts(ctx.auth.workspaceId, ids);
      return ids.map((id) => byId.get(id) ?? []);
    }),
);

export const TagRef = builder.loadableNodeRef("Tag", {
  id: { resolve: (t: TagRecord) => t.id, parse: nodeUuid },
  load: (ids: string[], ctx) => tagsByIds(ctx.auth.workspaceId, ids),
  sort: (t) => t.id,
  cacheResolved: (t) => t.id,
});

TagRef.implement({
  description:
    "A workspace's own label for tracked videos and accounts (many per item). Its counts group the workspace's items by tag; an item " +
    "with several tags counts under each.",
  fields: (t) => ({
    uuid: t.exposeID("id", { description: "The tag's UUID, as REST writes it." }),
    name: t.exposeString("name", { description: "Unique in the workspace without regard to case." }),
    color: t.exposeString("color", { description: "#rrggbb, lower case." }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    videoCount: t.field({
      type: "Count",
      description: "Tracked videos carrying the tag.",
      resolve: async (tag, _a, ctx) => (await countsLoader(ctx).load(tag.id)).videoCount,
    }),
    accountCount: t.field({
      type: "Count",
      description: "Tracked accounts carrying the tag.",
      resolve: async (tag, _a, ctx) => (await countsLoader(ctx).load(tag.id)).accountCount,
    }),
    totalViews: t.field({
      type: "Count",
      description: "Sum of the latest view counts of the tag's videos (not scraped yet: 0).",
      resolve: async (tag, _a, ctx) => (await countsLoader(ctx).load(tag.id)).totalViews,
    }),
  }),
});

builder.objectField(VideoRef, "tags", (t) =>
  t.field({
    type: [TagRef],
    description: "The workspace's tags on this video, by name.",
    resolve: (v, _a, ctx) => videoTagsLoader(ctx).load(v.id),
  }),
);
builder.objectField(AccountRef, "tags", (t) =>
  t.field({
    type: [TagRef],
    description: "The workspace's tags on this account (only a tracked account carries tags), by name.",
    resolve: (a, _a, ctx) => accountTagsLoader(ctx).load(a.id),
  }),
);

builder.queryFields((t) => ({
  tags: t.connection(
    {
      type: TagRef,
      description:
        "The workspace's tags by name, each with what it groups (videoCount, accountCount, totalViews); with q, those whose name holds " +
        "its words (totalCount counts them).",
      args: { q: t.arg.string({ description: listTagsQuery.shape.q.description }) },
      resolve: (_r, args, ctx) => {
        const { q } = parseInput(listTagsQuery.pick({ q: true }), { q: args.q ?? undefined });
        return pagedConnection(args, TAGS_ORDER, (window) => listTags(ctx.auth.workspaceId, window, { q }));
      },
    },
    { name: "TagConnection" },
    { name: "TagEdge" },
  ),
  tag: t.field({
    type: TagRef,
    description: "One tag of the workspace, by its global ID or UUID (NOT_FOUND otherwise).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => requireTag(ctx.auth.workspaceId, entityId(args.id, "Tag", "id")),
  }),
  tagPalette: t.stringList({
    description: "The colours the dashboard offers for tags (any #rrggbb is accepted).",
    resolve: () => [...TAG_PALETTE],
  }),
}));

const tagIdOf = (id: string | number) => entityId(id, "Tag", "tagId");

builder.mutationFields((t) => ({
  createTag: t.field({
    type: TagRef,
    description:
      "Creates a tag: a name (trimmed, 1 to 50 characters, unique without regard to case: TAG_EXISTS) and an optional colour #rrggbb.",
    args: { name: t.arg.string({ required: true }), color: t.arg.string() },
    resolve: (_r, args, ctx) =>
      createTag(ctx.auth.workspaceId, parseInput(createTagInput, { name: args.name, color: args.color ?? undefined })),
  }),
  updateTag: t.field({
    type: TagRef,
    description: "Renames and/or recolours a tag; answers what this call wrote.",
    args: { id: t.arg.id({ required: true }), name: t.arg.string(), color: t.arg.string() },
    resolve: (_r, args, ctx) =>
      updateTag(
        ctx.auth.workspaceId,
        entityId(args.id, "Tag", "id"),
        parseInput(updateTagInput, { name: args.name ?? undefined, color: args.color ?? undefined }),
      ),
  }),
  deleteTag: t.id({
    description:
      "Deletes the tag and answers its UUID; the items it was on stay tracked. While an active campaign filters by this tag, owners only (FORBIDDEN for a member: it changes what the campaign pays).",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => (await deleteTag(ctx.auth, entityId(args.id, "Tag", "id"))).id,
  }),
  tagVideos: t.field({
    type: [BulkItemResultRef],
    description:
      "Puts the tag on tracked videos (1 to 50 ids); per-id results, `Video not found` for videos the workspace does not track. While an active campaign filters by this tag, owners only (FORBIDDEN for a member: it changes what the campaign pays).",
    args: { tagId: t.arg.id({ required: true }), videoIds: t.arg.idList({ required: true }) },
    resolve: (_r, args, ctx) =>
      tagVideos(
        ctx.auth,
        tagIdOf(args.tagId),
        parseInput(tagVideoIdsInput, { video_ids: args.videoIds.map((id, i) => entityId(id, "Video", `videoIds.${i}`)) }).video_ids,
      ),
  }),
  untagVideos: t.int({
    description:
      "Takes the tag off videos (1 to 50 ids); answers how many carried it. While an active campaign filters by this tag, owners only (FORBIDDEN for a member: it changes what the campaign pays).",
    args: { tagId: t.arg.id({ required: true }), videoIds: t.arg.idList({ required: true }) },
    resolve: async (_r, args, ctx) =>
      (
        await untagVideos(
          ctx.auth,
          tagIdOf(args.tagId),
          parseInput(tagVideoIdsInput, { video_ids: args.videoIds.map((id, i) => entityId(id, "Video", `videoIds.${i}`)) }).video_ids,
        )
      ).removed,
  }),
  tagAccounts: t.field({
    type: [BulkItemResultRef],
    description: "Puts the tag on tracked accounts (1 to 50 ids); per-id results, `Account not found` when not tracked.",
    args: { tagId: t.arg.id({ required: true }), accountIds: t.arg.idList({ required: true }) },
    resolve: (_r, args, ctx) =>
      tagAccounts(
        ctx.auth,
        tagIdOf(args.tagId),
        parseInput(tagAccountIdsInput, { account_ids: args.accountIds.map((id, i) => entityId(id, "Account", `accountIds.${i}`)) })
          .account_ids,
      ),
  }),
  untagAccounts: t.int({
    description: "Takes the tag off accounts (1 to 50 ids); answers how many carried it.",
    args: { tagId: t.arg.id({ required: true }), accountIds: t.arg.idList({ required: true }) },
    resolve: async (_r, args, ctx) =>
      (
        await untagAccounts(
          ctx.auth,
          tagIdOf(args.tagId),
          parseInput(tagAccountIdsInput, { account_ids: args.accountIds.map((id, i) => entityId(id, "Account", `accountIds.${i}`)) })
            .account_ids,
        )
      ).removed,
  }),
}));
