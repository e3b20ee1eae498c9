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
