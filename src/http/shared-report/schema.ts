/**
 * The narrow GraphQL schema of the shared report page: one query,
 * `sharedFolderReport(token, period)`, and only the types it answers. Built with graphql-js alone,
 * apart from the dashboard's schema (src/http/graphql/): no Node interface, no global ids, no
 * mutation, no subscription, nothing a token could reach beyond its folder's report. Videos and
 * accounts carry their rank, never an id.
 */
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
} from "graphql";
import { sharedFolderReport, type SharedFolderReport } from "../../domain/reports/content.ts";
import { notFound } from "../../domain/shared/errors.ts";
import { parseInput } from "../../domain/shared/inputs.ts";
import { sharedReportPeriod } from "../../domain/reports/inputs.ts";

const nn = <T extends import("graphql").GraphQLType>(t: T) => new GraphQLNonNull(t);
/** Counts above 2^31 (views) travel as JSON numbers: Float keeps them exact up to 2^53. */
const Count = GraphQLFloat;

const Period = new GraphQLEnumType({
  name: "SharedReportPeriod",
  description: "The growth chart's window, today included.",
  values: { D7: { value: "7d" }, D30: { value: "30d" }, D90: { value: "90d" } },
});

const Cards = new GraphQLObjectType({
  name: "SharedReportCards",
  description: "The folder's totals now (a metric not scraped yet counts 0).",
  fields: {
    totalVideos: { type: nn(GraphQLInt) },
    totalAccounts: { type: nn(GraphQLInt) },
    totalViews: { type: nn(Count) },
    totalLikes: { type: nn(Count) },
    totalComments: { type: nn(Count) },
    totalShares: { type: nn(Count) },
    avgEngagementRate: { type: nn(GraphQLFloat), description: "Mean engagement rate (percent) of the scraped videos." },
  },
});

const GrowthDay = new GraphQLObjectType({
  name: "SharedReportGrowthDay",
  description: "The folder's accounts' totals on one UTC day.",
  fields: {
    date: { type: nn(GraphQLString), description: "YYYY-MM-DD." },
    totalFollowers: { type: nn(Count) },
    totalViews: { type: nn(Count) },
    totalVideos: { type: nn(Count) },
  },
});

const TopVideo = new GraphQLObjectType({
  name: "SharedReportVideo",
  description: "One of the folder's top videos by views.",
  fields: {
    rank: { type: nn(GraphQLInt) },
    username: { type: nn(GraphQLString) },
    description: { type: nn(GraphQLString) },
    views: { type: nn(Count) },
  },
});

const TopAccount = new GraphQLObjectType({
  name: "SharedReportAccount",
  description: "One of the folder's accounts with the most followers.",
  fields: {
    rank: { type: nn(GraphQLInt) },
    platform: { type: nn(GraphQLString) },
    username: { type: nn(GraphQLString) },
    displayName: { type: nn(GraphQLString) },
    followers: { type: Count },
    totalViews: { type: Count },
  },
});

const Report = new GraphQLObjectType<SharedFolderReport>({
  name: "SharedFolderReport",
  description: "A folder's read-only report, as its share link shows it.",
  fields: {
    folderName: { type: nn(GraphQLString) },
    period: { type: nn(Period) },
    generatedAt: { type: nn(GraphQLString), description: "ISO 8601.", resolve: (r) => r.generatedAt.toISOString() },
    expiresAt: {
      type: nn(GraphQLString),
      description: "When the link stops working (ISO 8601).",
      resolve: (r) => r.expiresAt.toISOString(),
    },
    cards: { type: nn(Cards) },
    growth: { type: nn(new GraphQLList(nn(GrowthDay))), description: "Oldest day first." },
    topVideos: { type: nn(new GraphQLList(nn(TopVideo))) },
    topAccounts: { type: nn(new GraphQLList(nn(TopAccount))) },
    simulated: {
      type: nn(GraphQLBoolean),
      description: "True when some of its numbers come from the simulated provider (synthetic demo data), not from the platforms.",
    },
  },
});

export const sharedReportSchema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: "Query",
    fields: {
      sharedFolderReport: {
        type: nn(Report),
        description: "The report a share link opens. An unknown, revoked or expired token: NOT_FOUND (HTTP 404), the same answer for each.",
        args: { token: { type: nn(GraphQLString) }, period: { type: Period, defaultValue: "30d" } },
        // An explicit `period: null` reaches here as null (GraphQL applies the default only to an absent argument): the
        // domain's schema gives it the default too, so the window is always one of the three.
        resolve: async (_root, args: { token: string; period: "7d" | "30d" | "90d" | null }) => {
          const report = await sharedFolderReport(args.token, parseInput(sharedReportPeriod, args.period ?? undefined, "period"));
          if (!report) throw notFound("Report link");
          return report;
        },
      },
    },
  }),
});
