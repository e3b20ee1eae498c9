/** Process lifecycle shared by the entry points: migrations, graceful shutdown. */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import closeWithGrace from "close-with-grace";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { closeDb } from "../infra/db.js";
import { closeRedis } from "../infra/redis.js";
import { logger } from "../infra/logger.js";
import { closeQueues } from "../infra/queues.js";
import { config } from "../config.js";
import { recordYtdlpVersion, YTDLP_STALE_DAYS, ytdlpFreshness } from "../infra/health.js";
import { stopTracing } from "./tracing.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Creates the database named in DATABASE_URL when the server does not have it yet (Prisma's
 * offline migrate engine does not), connecting to the server's `postgres` database to do so.
 */
async function ensureDatabase(url = config.databaseUrl): Promise<void> {
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

/** What a role stops on shutdown, each given the drain's timeout (the API, the workers). */
export type Closer = (timeoutMs: number) => Promise<void>;

/** Past the drain's timeout, how long the closing of the connections may still take before
 *  close-with-grace ends the process anyway (exit 1). */
const SHUTDOWN_BACKSTOP_MS = 5000;

/**
 * The shutdown sequence (docs/operations.md), through close-with-grace: on SIGTERM or SIGINT every
 * closer runs at once with SHUTDOWN_TIMEOUT_MS (the API stops accepting, answers 503 on /readyz and
 * lets requests in flight finish; the workers take no new job and let running ones finish or hand
 * them back), then the queues, Redis and the database are disconnected, the spans still buffered are
 * exported (when tracing, ./tracing.ts) and the process exits 0.
 * A second signal, a closing that hangs past the backstop, or an uncaught error exit 1.
 */
export function onShutdown(...closers: Closer[]): void {
  const timeoutMs = config.shutdownTimeoutMs;
  closeWithGrace(
    {
      delay: timeoutMs + SHUTDOWN_BACKSTOP_MS,
      logger: { error: (m: unknown, ...rest: unknown[]) => logger.error({ detail: rest.length ? rest : undefined }, String(m instanceof Error ? m.message : m)) },
    },
    async ({ signal, err }) => {
      if (err) logger.error({ err }, "shutting down after an uncaught error");
      logger.info({ signal, timeoutMs }, "shutting down");
      await Promise.all(closers.map((close) => close(timeoutMs).catch((e: unknown) => logger.error({ err: e }, "error while closing"))));
      await closeQueues().catch(() => undefined);
      await closeRedis().catch(() => undefined);
      await closeDb().catch(() => undefined);
      logger.info("shut down");
      await stopTracing().catch(() => undefined); // the spans still buffered, the shutdown's included

    },
  );
}

/** `yt-dlp --version` (its first line) when the scrape or media provider runs it; null when none does, or when it cannot be run. */
export async function readYtdlpVersion(programs: { ytdlp: string; ytdlpUsed: boolean } = config.programs): Promise<string | null> {
  if (!programs.ytdlpUsed) return null;
  try {
    const { stdout } = await promisify(execFile)(programs.ytdlp, ["--version"], { timeout: 10_000, encoding: "utf8" });
    return stdout.split("\n")[0]!.trim() || null;
  } catch {
    return null;
  }
}

/**
 * At start-up: reads yt-dlp's version when a provider uses it (kept for /readyz), logs it, and warns
 * when it is older than YTDLP_STALE_DAYS or cannot be run (README: "yt-dlp freshness" says how to
 * install a current one).
 */
export async function checkProgramVersions(now = new Date()): Promise<void> {
  recordYtdlpVersion(await readYtdlpVersion());
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
