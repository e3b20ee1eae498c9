/**
 * The design card's schema, built for measurement: a Pothos code-first schema
 * over the Prisma models with @pothos/plugin-prisma, answering the ladder's two queries
 * (bench/ladder/queries.mjs) with the same JSON as the service's schema (src/http/graphql/types/tracking.ts).
 *
 * Only what those queries read: `Video` and `Account` as `prismaNode`s (global ids `Video:<uuid>`,
 * the Relay plugin's encoding, the same as today's), `Video.account` as a plugin relation, and
 * `videos(first, after, last, before)`: the workspace's tracked videos in the service's order
 * (tracked_videos.created_at DESC, id: TRACKED_VIDEOS_ORDER in src/domain/tracking/views.ts; no
 * platform/q/sort filters). The list runs through the join table `TrackedVideo` with
 * `prismaConnectionHelpers` (the plugin's way to page an indirect relation) and `queryFromInfo`
 * (the Video selection the request asks for, relations included, in the same Prisma query); the
 * total is the workspace's counter, as today's (read only when `totalCount` is asked).
 *
 * Not a candidate for src/: it has no auth, limits or error masking of its own; the benchmark
 * serves it beside today's schema in the same bare server (./server.ts).
 */
import SchemaBuilder from "@pothos/core";
import RelayPlugin from "@pothos/plugin-relay";
import PrismaPlugin, { prismaConnectionHelpers, queryFromInfo } from "@pothos/plugin-prisma";
import { GraphQLDateTimeISO, GraphQLSafeInt } from "graphql-scalars";
import type { GraphQLSchema } from "graphql";
import type { PrismaClient } from "../../src/generated/prisma/client.js";
import type PrismaTypes from "./generated/pothos-types.js";
import { getDatamodel } from "./generated/pothos-types.js";

/**
 * The context ./server.ts gives every arm (today's GraphQLContext; only the workspace is read here).
 * Not imported from src/http/graphql/builder.ts: see ./tsconfig.json for why this file is type-checked apart.
 */
export interface PluginContext {
  auth: { workspaceId: string };
}

/** A new schema over `client` (the service's, or one generated with `relationJoins`). */
export function pluginSchema(client: PrismaClient): GraphQLSchema {
  const builder = new SchemaBuilder<{
    Context: PluginContext;
    PrismaTypes: PrismaTypes;
    DefaultFieldNullability: false;
    DefaultEdgesNullability: false;
    DefaultNodeNullability: false;
    Connection: { totalCount: () => Promise<number> };
    Scalars: {
      DateTime: { Input: Date; Output: Date };
      Count: { Input: number; Output: number | bigint };
    };
  }>({
    plugins: [RelayPlugin, PrismaPlugin],
    defaultFieldNullability: false,
    prisma: { client, dmmf: getDatamodel(), filterConnectionTotalCount: true },
    relay: {
      clientMutationId: "omit",
      cursorType: "String",
      edgesFieldOptions: { nullable: false },
      nodeFieldOptions: { nullable: false },
    },
  });

  // The same scalars as today's (src/http/graphql/builder.ts); Prisma answers BIGINT columns as bigint.
  builder.addScalarType("DateTime", GraphQLDateTimeISO, {});
  builder.addScalarType("Count", GraphQLSafeInt, { serialize: (v) => GraphQLSafeInt.serialize(typeof v === "bigint" ? Number(v) : v) });

  const Platform = builder.enumType("Platform", {
    values: { PLATFORM_A: { value: "platformA" }, PLATFORM_B: { value: "platformB" }, PLATFORM_C: { value: "platformC" } } as const,
  });
  const ScrapeStatus = builder.enumType("ScrapeStatus", {
    values: {
      QUEUED: { value: "queued" },
      SCRAPING: { value: "scraping" },
      READY: { value: "ready" },
      FAILED: { value: "failed" },
    } as const,
  });

  const Account = builder.prismaNode("Account", {
    id: { field: "id" },
    fields: (t) => ({
      uuid: t.exposeID("id"),
      type: t.expose("platform", { type: Platform }),
      username: t.exposeString("username"),
      displayName: t.exposeString("displayName"),
      followerCount: t.expose("followerCount", { type: "Count", nullable: true }),
    }),
  });

  const Video = builder.prismaNode("Video", {
    id: { field: "id" },
    fields: (t) => ({
      uuid: t.exposeID("id"),
      type: t.expose("platform", { type: Platform }),
      platformVideoId: t.exposeString("platformVideoId"),
      url: t.exposeString("url"),
      description: t.exposeString("description"),
      hashtags: t.exposeStringList("hashtags"),
      viewCount: t.expose("viewCount", { type: "Count", nullable: true }),
      likeCount: t.expose("likeCount", { type: "Count", nullable: true }),
      commentCount: t.expose("commentCount", { type: "Count", nullable: true }),
      shareCount: t.expose("shareCount", { type: "Count", nullable: true }),
      bookmarkCount: t.expose("bookmarkCount", { type: "Count", nullable: true }),
      engagementRate: t.exposeFloat("engagementRate"),
      postedAt: t.expose("postedAt", { type: "DateTime", nullable: true }),
      durationSeconds: t.exposeInt("durationSeconds", { nullable: true }),
      thumbnailUrl: t.exposeString("thumbnailUrl"),
      username: t.exposeString("username"),
      displayName: t.exposeString("displayName"),
      canonicalAccountId: t.exposeID("accountId", { nullable: true }),
      account: t.relation("account", { nullable: true }),
      musicName: t.exposeString("musicName"),
      musicAuthor: t.exposeString("musicAuthor"),
      musicCoverUrl: t.exposeString("musicCoverUrl"),
      language: t.exposeString("language", { nullable: true }),
      dataSource: t.exposeString("dataSource", { nullable: true }),
      scrapeStatus: t.expose("scrapeStatus", { type: ScrapeStatus }),
      scrapeError: t.exposeString("scrapeError", { nullable: true }),
      lastScrapedAt: t.expose("lastScrapedAt", { type: "DateTime", nullable: true }),
      createdAt: t.expose("createdAt", { type: "DateTime" }),
      nextRefreshAt: t.expose("nextRefreshAt", { type: "DateTime", nullable: true }),
      views24h: t.expose("views24h", { type: "Count", nullable: true }),
      outlierScore: t.exposeFloat("outlierScore", { nullable: true }),
    }),
  });

  // A page of the join table, each edge's node its video (with what the request selects of it).
  const trackedVideos = prismaConnectionHelpers(builder, "TrackedVideo", {
    cursor: "id",
    select: (nodeSelection) => ({ video: nodeSelection(true) }),
    resolveNode: (tracked) => tracked.video,
  });

  builder.globalConnectionField("totalCount", (t) => t.field({ type: "Count", resolve: (parent) => parent.totalCount() }));

  builder.queryType({
    fields: (t) => ({
      videos: t.connection(
        {
          type: Video,
          resolve: async (_root, args, ctx, info) => {
            const workspaceId = ctx.auth.workspaceId;
            // The helpers ask for the node's selection at edges.node: what this request selects of Video there.
            const query = trackedVideos.getQuery(args, ctx, (_default, path) => queryFromInfo({ context: ctx, info, path }) as never);
            const rows = await client.trackedVideo.findMany({
              ...query,
              where: { workspaceId },
              orderBy: [{ createdAt: "desc" }, { id: "asc" }],
            });
            const totalCount = async () =>
              (await client.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { trackedVideoCount: true } }))
                .trackedVideoCount;
            return { ...trackedVideos.resolve(rows, args, ctx), totalCount };
          },
        },
        { name: "VideoConnection" },
        { name: "VideoEdge" },
      ),
    }),
  });

  void Account;
  return builder.toSchema();
}
