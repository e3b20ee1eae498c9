/** Database administration shared by the benchmarks: each creates, migrates and drops its own database. */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export const ADMIN_URL = process.env.BENCH_ADMIN_DATABASE_URL ?? "postgresql://root@127.0.0.1:5432/postgres";

/** The admin URL pointed at another database on the same server. */
export function urlFor(database: string): string {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Runs one statement (CREATE/DROP DATABASE…) on the server's admin database. */
export async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Deletes every Redis key under a benchmark's REDIS_PREFIX. */
export async function dropRedisKeys(prefix: string): Promise<void> {
  const { Redis } = await import("ioredis");
  const r = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
  try {
    let cursor = "0";
    do {
      const [next, keys] = await r.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
      cursor = next;
      if (keys.length) await r.del(...keys);
    } while (cursor !== "0");
  } finally {
    r.disconnect();
  }
}

/** Drops (if an earlier run left it), creates and migrates a benchmark's own database with the real `prisma migrate deploy`; its URL. */
export async function createMigratedDatabase(name: string): Promise<string> {
  await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin(`CREATE DATABASE "${name}"`);
  const url = urlFor(name);
  execFileSync("npx", ["prisma", "migrate", "deploy"], { cwd: ROOT, env: { ...process.env, DATABASE_URL: url }, stdio: "ignore" });
  return url;
}

/**
 * The settings of the service processes a benchmark starts (API, workers, floors): its own database and
 * Redis prefix, simulated scrapes, no demo seed, production mode, no response validation, a rate limit too
 * high to refuse (the key lookup and the Redis limiter still run), a free port on loopback; then `extra`.
 */
export function benchServiceEnv(databaseUrl: string, redisPrefix: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    REDIS_PREFIX: redisPrefix,
    SCRAPE_PROVIDER: "simulated",
    VALIDATE_RESPONSES: "false",
    RATE_LIMIT_PER_MINUTE: "1000000000",
    SEED_DEMO: "false",
    LOG_LEVEL: "warn",
    PORT: "0",
    HOST: "127.0.0.1",
    NODE_ENV: "production",
    ...extra,
  };
}

/** Closes the service's own connections a benchmark opened in its process (queues, Redis, the Prisma client and pool). */
export async function closeServiceConnections(): Promise<void> {
  const { closeQueues } = await import("../../src/infra/queues.js");
  const { closeRedis } = await import("../../src/infra/redis.js");
  const { closeDb } = await import("../../src/infra/db.js");
  await closeQueues().catch(() => undefined);
  await closeRedis().catch(() => undefined);
  await closeDb().catch(() => undefined);
}

/** A plan with room for any seed (`bench`) and a workspace on it, whose API key is `secret`. */
export async function benchReader(db: pg.Client): Promise<{ workspace: { id: string }; secret: string }> {
  const { createWorkspace } = await import("../../src/domain/workspace/service.js");
  await db.query(`INSERT INTO plans (name, video_limit, monthly_credits) VALUES ('bench', 10000000, 0)`);
  return createWorkspace({ name: "bench reader", plan: "bench" });
}

/** The end of a benchmark that started children: its connections closed, its Redis keys and database dropped. */
export async function endBench(db: pg.Client, redisPrefix: string, database: string): Promise<void> {
  await new Promise((r) => setTimeout(r, 500));
  await db.end().catch(() => undefined);
  await closeServiceConnections();
  await dropRedisKeys(redisPrefix).catch(() => undefined);
  await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(() => undefined);
}
