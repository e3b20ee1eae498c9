/**
 * GraphQL: saved views, through src/domain/views/ (its visibility rule: a private view
 * only its owner sees, a shared one the whole workspace). The dashboard saves and applies them on the
 * videos and accounts lists.
 */
import { builder } from "../builder.ts";
import { entityId, nodeUuid, seriesConnection } from "../connections.ts";
import { parseInput } from "../../../domain/shared/inputs.ts";
import { createSavedViewInput, updateSavedViewInput, SAVED_VIEW_LISTS } from "../../../domain/views/inputs.ts";
import {
  createSavedView,
  deleteSavedView,
  listSavedViews,
  savedViewsByIds,
  updateSavedView,
  type SavedView,
} from "../../../domain/views/service.ts";
import { PlatformEnum, SortOrderEnum } from "./tracking.ts";

const SavedViewListEnum = builder.enumType("SavedViewList", {
  description: "The list a saved view applies to.",
  values: {
    VIDEOS: { value: "videos", description: "The tracked videos (`videos`)." },
    ACCOUNTS: { value: "accounts", description: "The tracked accounts (`accounts`)." },
  } as const,
});

const SavedViewRef = builder.loadableNodeRef("SavedView", {
  id: { resolve: (v: SavedView) => v.id, parse: nodeUuid },
  load: (ids: string[], ctx) => savedViewsByIds(ctx.auth, ids),
  sort: (v) => v.id,
  cacheResolved: (v) => v.id,
});

SavedViewRef.implement({
  description:
    "A named set of a list's filters, sort, columns and tags. Private (only its owner sees it) or shared with the workspace (every " +
    "member sees it; only its owner changes it).",
  fields: (t) => ({
    uuid: t.exposeID("id", { description: "The view's UUID." }),
    list: t.field({ type: SavedViewListEnum, resolve: (v) => v.list }),
    name: t.exposeString("name"),
    shared: t.exposeBoolean("shared", { description: "Shared with the workspace (false: only its owner sees it)." }),
    mine: t.boolean({
      description: "Saved by the person asking (they may change and delete it).",
      resolve: (v, _a, ctx) => ctx.auth.principal.kind === "user" && ctx.auth.principal.id === v.ownerId,
    }),
    ownerName: t.exposeString("ownerName", { description: "The name of the person who saved it." }),
    platform: t.field({
      type: PlatformEnum,
      nullable: true,
      description: "The platform filter (null: every platform).",
      resolve: (v) => v.content.filters.platform,
    }),
    q: t.string({ nullable: true, description: "The search words (null: none).", resolve: (v) => v.content.filters.q }),
    tags: t.stringList({ description: "The tags the list is filtered by.", resolve: (v) => v.content.filters.tags }),
    sort: t.string({
      description: "The list's sort, as its sort argument's value in lower case (`views`, `tracked_at`, `followers` …).",
      resolve: (v) => v.content.sort,
    }),
    order: t.field({ type: SortOrderEnum, resolve: (v) => v.content.order }),
    columns: t.stringList({
      description: "The columns shown, in order (the dashboard table's column ids).",
      resolve: (v) => v.content.columns,
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

const SavedViewContentInput = builder.inputType("SavedViewContentInput", {
  description: "What a view holds; fields left out take the list's defaults. Unknown columns or sorts of the list are VALIDATION_ERROR.",
  fields: (t) => ({
    platform: t.field({ type: PlatformEnum }),
    q: t.string(),
    tags: t.stringList(),
    sort: t.string({ description: "The list's sort argument in lower case (`views`, `tracked_at` …)." }),
    order: t.field({ type: SortOrderEnum }),
    columns: t.stringList({ description: "Column ids, in order." }),
  }),
});

type ContentArg = {
  platform?: string | null;
  q?: string | null;
  tags?: string[] | null;
  sort?: string | null;
  order?: string | null;
  columns?: string[] | null;
};
const contentOf = (c: ContentArg) => ({
  filters: { platform: c.platform ?? null, q: c.q ?? null, tags: c.tags ?? undefined },
  sort: c.sort ?? undefined,
  order: c.order ?? undefined,
  columns: c.columns ?? undefined,
});

builder.queryFields((t) => ({
  savedViews: t.connection(
    {
      type: SavedViewRef,
      description: "The saved views the person sees (their own and the workspace's shared ones; an API key sees the shared ones), by name.",
      args: { list: t.arg({ type: SavedViewListEnum, description: "Only the views of this list." }) },
      resolve: async (_r, args, ctx) =>
        seriesConnection(args, await listSavedViews(ctx.auth, args.list ?? undefined), (v) => v.sortKey, false),
    },
    { name: "SavedViewConnection" },
    { name: "SavedViewEdge" },
  ),
}));

builder.mutationFields((t) => ({
  createSavedView: t.field({
    type: SavedViewRef,
    description: `Saves a view of a list (${SAVED_VIEW_LISTS.join(", ")}) under a name, private unless shared. FORBIDDEN for an API key (a view belongs to a person).`,
    args: {
      list: t.arg({ type: SavedViewListEnum, required: true }),
      name: t.arg.string({ required: true }),
      shared: t.arg.boolean({ defaultValue: false }),
      content: t.arg({ type: SavedViewContentInput, required: true }),
    },
    resolve: (_r, args, ctx) =>
      createSavedView(
        ctx.auth,
        parseInput(createSavedViewInput, {
          list: args.list,
          name: args.name,
          shared: args.shared ?? false,
          content: contentOf(args.content),
        }),
      ),
  }),
  updateSavedView: t.field({
    type: SavedViewRef,
    description:
      "Renames, shares or unshares, or replaces the content of one's own view (FORBIDDEN for another person's; NOT_FOUND when not visible).",
    args: {
      id: t.arg.id({ required: true }),
      name: t.arg.string(),
      shared: t.arg.boolean(),
      content: t.arg({ type: SavedViewContentInput }),
    },
    resolve: (_r, args, ctx) => {
      const patch = parseInput(updateSavedViewInput, {
        name: args.name ?? undefined,
        shared: args.shared ?? undefined,
        content: args.content ? contentOf(args.content) : undefined,
      });
      return updateSavedView(ctx.auth, entityId(args.id, "SavedView", "id"), patch);
    },
  }),
  deleteSavedView: t.id({
    description: "Deletes one's own view (or, for a workspace owner, a shared view) and answers its UUID.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => (await deleteSavedView(ctx.auth, entityId(args.id, "SavedView", "id"))).id,
  }),
}));
