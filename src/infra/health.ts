/** Readiness of the backing services: PostgreSQL and Redis, each answered within a bound. */
import { Prisma } from "../generated/prisma/client.js";
import { sql } from "./db.js";
import { redis } from "./redis.js";

const CHECK_TIMEOUT_MS = 2000;

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error("timed out")), ms).unref())]);
}

async function check(fn: () => Promise<unknown>): Promise<string> {
  try {
    await withTimeout(fn(), CHECK_TIMEOUT_MS);
    return "ok";
  } catch (e) {
    return `unavailable: ${(e as Error).message}`;
  }
}

/** "ok", or "unavailable: <why>", for each backing service. */
export async function checkBackends(): Promise<{ database: string; redis: string }> {
  const [database, redisState] = await Promise.all([check(() => sql(Prisma.sql`SELECT 1`)), check(() => redis().ping())]);
  return { database, redis: redisState };
}
