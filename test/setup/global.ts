/**
 * Runs once per `npm test`: builds a template database with every migration applied (through the
 * real `prisma migrate deploy`, as `npm start` does) and removes databases left by earlier runs.
 */
import { execFileSync } from "node:child_process";
import { TEMPLATE_DB, dropDatabase, urlFor, withAdmin } from "./db-admin.js";

export default async function setup() {
  const stale = await withAdmin((c) =>
    c.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'svc_test_%'`),
  );
  for (const { datname } of stale.rows) await dropDatabase(datname);
  await withAdmin((c) => c.query(`CREATE DATABASE "${TEMPLATE_DB}"`));
  execFileSync("npx", ["prisma", "migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL: urlFor(TEMPLATE_DB) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return async () => {
    await dropDatabase(TEMPLATE_DB);
  };
}
