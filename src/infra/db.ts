/**
 * The process's PrismaClient (Rust-free client over node-postgres) and its pg pool, created once.
 * Raw SQL that Prisma cannot express well (aggregates, full-text search) uses `prisma.$queryRaw`.
 */
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../generated/prisma/client.js";
import { config } from "../config.js";

export type Db = PrismaClient;
/** The client inside `prisma.$transaction(async (tx) => ...)`. */
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

function createPrisma(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 20, idleTimeoutMillis: 30_000 });
  pool.on("error", () => undefined); // idle-client errors surface on the next query instead
  // Credit operations serialise on the workspace row lock; give queued transactions time to wait.
  const client = new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: { maxWait: 10_000, timeout: 20_000 } });
  return { pool, client };
}

const created = createPrisma(config.databaseUrl);

export const prisma: Db = created.client;
/** The pool under `prisma`, for the few places that need plain node-postgres (benchmarks, LISTEN). */
export const pgPool = created.pool;

export async function closeDb(): Promise<void> {
  await prisma.$disconnect();
  await pgPool.end().catch(() => undefined);
}
