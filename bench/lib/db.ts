/** Database administration shared by the benchmarks: each creates, migrates and drops its own database. */
import pg from "pg";

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
