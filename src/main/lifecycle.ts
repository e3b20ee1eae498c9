/** Process lifecycle shared by the entry points: migrations, graceful shutdown. */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { closeDb } from "../infra/db.js";
import { closeRedis } from "../infra/redis.js";
import { logger } from "../infra/logger.js";
import { closeQueues } from "../infra/queues.js";
import { config } from "../config.js";
import { YTDLP_STALE_DAYS, ytdlpFreshness } from "../infra/health.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Creates the database named in DATABASE_URL when the server does not have it yet (Prisma's
 * offline migrate engine does not), connecting to the server's `postgres` database to do so.
 */
export async function ensureDatabase(url = config.databaseUrl): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ""));
  if (!name) return;
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (exists.rowCount === 0) {
      await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
      logger.info({ database: name }, "database created");
    }
  } finally {
    await client.end();
  }
}

/** Applies pending migrations with the Prisma CLI (offline WASM engine; see prisma.config.ts). */
export async function applyMigrations(): Promise<void> {
  await ensureDatabase();
  logger.info("applying database migrations");
  execFileSync(`${ROOT}/node_modules/.bin/prisma`, ["migrate", "deploy"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: config.databaseUrl },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/** Closes everything on SIGINT/SIGTERM: stop taking work, finish what runs, then disconnect. */
export function onShutdown(...closers: (() => Promise<void>)[]): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    for (const close of closers) await close().catch((e) => logger.error({ err: e }, "error while closing"));
    await closeQueues().catch(() => undefined);
    await closeRedis().catch(() => undefined);
    await closeDb().catch(() => undefined);
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

/**
 * Logs the version of yt-dlp when a provider uses it, and warns when it is older than
 * YTDLP_STALE_DAYS or cannot be run (README: "yt-dlp freshness" says how to install a current one).
 */
export function logProgramVersions(now = new Date()): void {
  const ytdlp = ytdlpFreshness(now);
  if (!ytdlp) return;
  if (ytdlp.version === null) {
    logger.warn({ ytdlp }, `yt-dlp (${ytdlp.path}) could not be run: scrapes through it will fail`);
  } else if (ytdlp.stale) {
    logger.warn({ ytdlp }, `yt-dlp ${ytdlp.version} is ${ytdlp.ageDays} days old (more than ${YTDLP_STALE_DAYS}): platforms change often; install a current release (see the README)`);
  } else {
    logger.info({ ytdlp }, `yt-dlp ${ytdlp.version}`);
  }
}
