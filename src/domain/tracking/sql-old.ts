/**
 * Runs a `Prisma.sql` statement through node-postgres directly. Used on the hottest paths (every
 * scrape job, every POST /videos), where Prisma's per-query overhead is a large part of the CPU
 * (bench/tracking.ts); the statement is still composed with `Prisma.sql`, so values stay
 * parameters, never spliced into the text.
 */
import type { Prisma } from "../../generated/prisma/client.js";
import { pgPool } from "../../infra/db.js";

export async function sqlRows<T>(query: Prisma.Sql): Promise<T[]> {
  // node-postgres sends a bigint as its decimal text, which the casts in the statements expect.
  return (await pgPool.query(query.text, query.values as unknown[])).rows as T[];
}
