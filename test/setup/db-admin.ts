/**
 * Database administration for the test harness: a migrated template per `npm test` run, and a
 * clone of it per test file. Names carry the run's process id, so concurrent runs on one machine
 * never touch each other's databases, and databases of runs that died are cleaned up later.
 */
import pg from "pg";
import { signalProcess } from "../helpers/signals.js";

/** The server's `postgres` database, as a superuser: TEST_ADMIN_DATABASE_URL, which the run's global setup sets when
 *  it chose the server (test/setup/services.ts). Read when used, after that choice. */
export const adminUrl = () => process.env.TEST_ADMIN_DATABASE_URL ?? "postgresql://root@127.0.0.1:5432/postgres";
export const DB_PREFIX = "svc_test_";

export const templateName = (runPid: number) => `${DB_PREFIX}${runPid}_template`;

export function urlFor(database: string): string {
  const u = new URL(adminUrl());
  u.pathname = `/${database}`;
  return u.toString();
}

export async function withAdmin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** CREATE DATABASE ... TEMPLATE, retried while another clone of the same template is in progress. */
export async function cloneTemplate(name: string, template: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await withAdmin((c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
      return;
    } catch (e) {
      if (attempt > 100 || !/being accessed by other users/.test((e as Error).message)) throw e;
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
    }
  }
}

export async function dropDatabase(name: string): Promise<void> {
  await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

function alive(pid: number): boolean {
  return pid === process.pid || (pid > 1 && signalProcess(pid, 0));
}

/** Drops test databases left by runs whose process is gone. */
export async function dropStaleDatabases(): Promise<void> {
  const rows = await withAdmin((c) => c.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE '${DB_PREFIX}%'`));
  for (const { datname } of rows.rows) {
    const pid = Number(datname.slice(DB_PREFIX.length).split("_")[0]);
    if (!Number.isInteger(pid) || !alive(pid)) await dropDatabase(datname);
  }
}
