/**
 * One arm of bench/pothos-prisma.ts, in its own process: a GraphQL server over ONE schema, served
 * the same way for every arm so that only the schema, its resolvers and their data access differ:
 * graphql-yoga + envelop's graphql-jit on node:http, no auth, no rate limit, no logging, no
 * metrics, and a context whose actor is the benchmark's workspace (a new object per request, as
 * the service's is: per-request DataLoader and Prisma-plugin caches start empty every time).
 *
 *   node --import tsx bench/pothos-prisma/server.ts <today|plugin|plugin-joins> <workspaceId>
 *
 * - today: the service's schema (src/http/graphql/schema.ts): domain records + DataLoaders.
 * - plugin: ./schema.ts (@pothos/plugin-prisma) over the service's Prisma client (src/infra/db.ts).
 * - plugin-joins: the same schema over a client generated with the `relationJoins` preview feature
 *   (./generate.ts), on a pool configured like the service's.
 *
 * `GET /__stats` answers `{ statements, errors }`: how many statements this process has sent to
 * PostgreSQL (every pg.Client#query: the service's raw SQL on the pool and Prisma's driver adapter
 * alike) and the messages of the errors its operations raised, counted (none is expected: the
 * benchmark reports any, e.g. PostgreSQL refusing a connection on a machine whose other users hold many).
 */
import http from "node:http";
import pg from "pg";
import { createYoga } from "graphql-yoga";
import { useGraphQlJit } from "@envelop/graphql-jit";
import { GraphQLError, type GraphQLSchema } from "graphql";
import type { PrismaClient } from "../../src/generated/prisma/client.js";
import type { GraphQLContext } from "../../src/http/graphql/builder.js";
import { joinsClient, type Arm } from "./generate.js";

// Counted before anything creates a client: the service's pool and Prisma's adapter both run their
// statements through pg.Client#query.
let statements = 0;
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(this: pg.Client, ...args: unknown[]) {
  statements++;
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

/** The context every arm gets: the workspace's owner, fixed (what an API key of the workspace would give). */
function contextFor(workspaceId: string): GraphQLContext {
  return {
    auth: { workspaceId, role: "owner", principal: { kind: "system", label: "bench/pothos-prisma" }, clientAddress: null },
    person: null,
    revocationSubjects: [],
    budget: null,
    clientAddress: null,
    requestId: "bench",
  };
}

/**
 * ./schema.ts by a specifier TypeScript does not follow: the plugin's global types make `prisma` a
 * required option of every SchemaBuilder in a program, today's builder included, so the plugin's
 * files are type-checked in a program of their own (./tsconfig.json), never beside src/.
 */
async function pluginSchemaModule(): Promise<{ pluginSchema: (client: PrismaClient) => GraphQLSchema }> {
  const specifier: string = "./schema.js";
  return import(specifier);
}

async function schemaOf(arm: Arm): Promise<GraphQLSchema> {
  if (arm === "today") return (await import("../../src/http/graphql/schema.js")).schema;
  const { pluginSchema } = await pluginSchemaModule();
  if (arm === "plugin") return pluginSchema((await import("../../src/infra/db.js")).prisma);
  return pluginSchema(await joinsClient(process.env.DATABASE_URL!));
}

/** Errors by message (unmasked in the answers too: every arm the same). */
const errors: Record<string, number> = {};
function recordError(error: unknown): Error {
  const original = error instanceof GraphQLError && error.originalError ? error.originalError : error;
  const message = String(original instanceof Error ? original.message : original).slice(0, 300);
  errors[message] = (errors[message] ?? 0) + 1;
  return error as Error;
}

async function main(): Promise<void> {
  const [arm, workspaceId] = process.argv.slice(2) as [Arm, string];
  const yoga = createYoga({
    schema: await schemaOf(arm),
    context: () => contextFor(workspaceId),
    maskedErrors: { maskError: recordError },
    plugins: [useGraphQlJit()],
    graphiql: false,
    landingPage: false,
    logging: false,
  });
  const server = http.createServer((req, res) => {
    if (req.url === "/__stats") {
      res.end(JSON.stringify({ statements, errors }));
      return;
    }
    void yoga(req, res);
  });
  server.listen(0, "127.0.0.1", () => console.log(`ARM ${arm} listening on port ${(server.address() as { port: number }).port}`));
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
}

await main();
