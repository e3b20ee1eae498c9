/**
 * Where `npm test` finds PostgreSQL and Redis, as `npm start` does (src/main/local-services.ts; CONTRACT, fifth wave,
 * "local services"): a set address wins (TEST_ADMIN_DATABASE_URL, else DATABASE_URL's server; REDIS_URL); else the
 * default addresses when their servers let us in; else this checkout's own servers, started for the run (or found
 * running) and stopped after it unless something else still uses them. Chosen once per run, by the global setup;
 * each test file's process gets the choice through vitest's provide/inject.
 */
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from "../../src/default-addresses.js";
import { prepareLocalServices, type LocalServices } from "../../src/main/local-services.js";

/** The same server's `postgres` database, where the harness creates and drops the test databases. */
export function adminDatabase(url: string): string {
  const u = new URL(url);
  u.pathname = "/postgres";
  return u.toString();
}

/** Chooses, and sets TEST_ADMIN_DATABASE_URL and REDIS_URL in `env` to the choice. */
export async function chooseTestServices(env: NodeJS.ProcessEnv = process.env): Promise<LocalServices> {
  const services = await prepareLocalServices({
    env,
    who: "npm test",
    postgresSet: env.TEST_ADMIN_DATABASE_URL || (env.DATABASE_URL ? adminDatabase(env.DATABASE_URL) : undefined),
    redisSet: env.REDIS_URL,
    defaults: { postgres: adminDatabase(DEFAULT_DATABASE_URL), redis: DEFAULT_REDIS_URL },
  });
  env.TEST_ADMIN_DATABASE_URL = services.postgres.url;
  env.REDIS_URL = services.redis.url;
  return services;
}
