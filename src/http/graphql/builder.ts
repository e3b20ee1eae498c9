/**
 * The Pothos schema builder (code-first, over Prisma). Each area adds its types, queries,
 * mutations and subscriptions in its own file under ./types and is imported by ./schema.ts.
 */
import SchemaBuilder from "@pothos/core";
import PrismaPlugin from "@pothos/plugin-prisma";
import type PrismaTypes from "../../generated/pothos-types.js";
import { getDatamodel } from "../../generated/pothos-types.js";
import { prisma } from "../../infra/db.js";
import type { AuthContext } from "../../domain/keys/service.js";

export interface GraphQLContext {
  auth: AuthContext;
  requestId: string;
}

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  PrismaTypes: PrismaTypes;
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
  };
}>({
  plugins: [PrismaPlugin],
  defaultFieldNullability: false,
  prisma: {
    client: prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
  },
});

builder.scalarType("DateTime", {
  description: "ISO 8601 UTC timestamp with milliseconds.",
  serialize: (value) => (value instanceof Date ? value.toISOString() : String(value)),
  parseValue: (value) => {
    const d = new Date(String(value));
    if (Number.isNaN(d.getTime())) throw new TypeError("DateTime must be an ISO 8601 timestamp");
    return d;
  },
});

builder.scalarType("JSON", {
  description: "Arbitrary JSON value.",
  serialize: (value) => value,
  parseValue: (value) => value,
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
