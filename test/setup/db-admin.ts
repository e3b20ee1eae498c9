/** Database administration for the test harness: template creation and per-file clones. */
import pg from "pg";

export const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? "postgresql://root@127.0.0.1:5432/postgres";
export const TEMPLATE_DB = "svc_test_template";

export function urlFor(database: string): string {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function withAdmin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** CREATE DATABASE ... TEMPLATE, retried while another clone of the same template is in progress. */
export async function cloneTemplate(name: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await withAdmin((c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${TEMPLATE_DB}"`));
      return;
    } catch (e) {
      if (attempt > 50 || !/being accessed by other users/.test((e as Error).message)) throw e;
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
    }
  }
}

export async function dropDatabase(name: string): Promise<void> {
  await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
