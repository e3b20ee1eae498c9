/** Process lifecycle shared by the entry points: migrations, graceful shutdown. */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import closeWithGrace from "close-with-grace";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { closeDb } from "../infra/db.ts";
import { closeRedis } from "../infra/redis.ts";
import { logger } from "../infra/logger.ts";
import { closeQueues } from "../infra/queues.ts";
import { closeFaceDetector } from "../providers/vision/face-api.ts";
import { config, installHint, programFound, PROGRAMS, type ProgramKey } from "../config.ts";
import {
  programsNeeded,
  readProgramVersion,
  recordProgramVersion,
  settleScrapeProvider,
  YTDLP_STALE_DAYS,
  ytdlpFreshness,
} from "../infra/health.ts";
import type { LocalServices } from "./local-services.ts";
import { stopTracing } from "./tracing.ts";

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

let services: LocalServices | null = null;

/** Says where PostgreSQL and Redis come from (./local-services.ts), and has the shutdown stop this checkout's own
 *  servers once the process no longer uses them. */
export function announceServices(chosen: LocalServices): void {
  for (const c of [chosen.postgres, chosen.redis]) logger.info({ source: c.source }, c.line);
  services = chosen;
}

/** Stops this checkout's servers this process used (unless another client still uses them), saying what it did. */
async function releaseServices(): Promise<void> {
  for (const line of (await services?.release()) ?? []) logger.info(line);
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
 * them back), then the queues, Redis and the database are disconnected (and this checkout's own PostgreSQL and
 * Redis stopped, when this process was their last user: ./local-services.ts), the spans still buffered are
 * exported (when tracing, ./tracing.ts) and the process exits 0.
 * A second signal, a closing that hangs past the backstop, or an uncaught error exit 1.
 */
export function onShutdown(...closers: Closer[]): void {
  const timeoutMs = config.shutdownTimeoutMs;
  closeWithGrace(
    {
      delay: timeoutMs + SHUTDOWN_BACKSTOP_MS,
      logger: {
        error: (m: unknown, ...rest: unknown[]) =>
          logger.error({ detail: rest.length ? rest : undefined }, String(m instanceof Error ? m.message : m)),
      },
    },
    async ({ signal, err }) => {
      if (err) logger.error({ err }, "shutting down after an uncaught error");
      logger.info({ signal, timeoutMs }, "shutting down");
      await Promise.all(closers.map((close) => close(timeoutMs).catch((e: unknown) => logger.error({ err: e }, "error while closing"))));
      await closeFaceDetector().catch(() => undefined); // its thread, if a detection started it
      await closeQueues().catch(() => undefined);
      await closeRedis().catch(() => undefined);
      await closeDb().catch(() => undefined);
      await releaseServices().catch((e: unknown) => logger.error({ err: e }, "could not stop this checkout's PostgreSQL or Redis"));
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
 * At start-up, before any provider is built: reads yt-dlp's version when a provider would use it (kept for /readyz)
 * and settles the scrape provider (src/infra/health.ts, `settleScrapeProvider`: without SCRAPE_PROVIDER, a missing,
 * broken or stale yt-dlp means simulated data, with a warning saying why and how to install a current one; MEDIA_PROVIDER
 * follows unless set). Then every program the configured providers run is looked for: each missing one is logged with
 * the Debian package that provides it; each present one's version is read for /readyz.
 */
export async function checkProgramVersions(now = new Date()): Promise<void> {
  recordProgramVersion("ytdlp", await readYtdlpVersion());
  const choice = config.providerChoice;
  const ytdlp = ytdlpFreshness(now); // as the configuration would use it (tentatively, when found without SCRAPE_PROVIDER)
  const settled = settleScrapeProvider(choice.scrape, config.providers.scrape, ytdlp);
  applyScrapeChoice(settled);
  if (choice.scrape !== "set") {
    const line = `scrape provider: ${settled.scrape}, because ${settled.reason}`;
    if (settled.scrape === "simulated") logger.warn({ providers: config.providers, ytdlp }, line);
    else logger.info({ providers: config.providers, ytdlp }, line);
  } else if (ytdlp?.version === null) {
    logger.warn({ ytdlp }, `yt-dlp (${ytdlp.path}) could not be run: scrapes through it will fail`);
  } else if (ytdlp?.stale) {
    logger.warn(
      { ytdlp },
      `yt-dlp ${ytdlp.version} is ${ytdlp.ageDays} days old (more than ${YTDLP_STALE_DAYS}): platforms change often; install a current release (see the README)`,
    );
  } else if (ytdlp) {
    logger.info({ ytdlp }, `yt-dlp ${ytdlp.version}`);
  }
  const needs = programsNeeded();
  for (const key of Object.keys(needs) as ProgramKey[]) {
    if (key === "ytdlp") continue; // read and reported above
    const path = config.programs[key];
    if (!programFound(path)) {
      logger.warn(
        { program: PROGRAMS[key].program, path, debianPackage: PROGRAMS[key].debianPackage, neededFor: needs[key] },
        `${PROGRAMS[key].program} (${path}) is not installed: ${needs[key]!.join("; ")} cannot run; ${installHint(key)}`,
      );
    } else {
      recordProgramVersion(key, await readProgramVersion(key, path));
    }
  }
  if (needs.ytdlp && !programFound(config.programs.ytdlp)) {
    logger.warn(
      { program: "yt-dlp", path: config.programs.ytdlp },
      `yt-dlp (${config.programs.ytdlp}) is not installed: ${needs.ytdlp.join("; ")} cannot run; ${installHint("ytdlp")}`,
    );
  }
}

/** The settled scrape provider into the configuration: MEDIA_PROVIDER follows it unless set; yt-dlp's use follows both. */
function applyScrapeChoice(settled: { scrape: "ytdlp" | "simulated"; reason: string | null }): void {
  config.providers.scrape = settled.scrape;
  if (!config.providerChoice.mediaSet) config.providers.media = settled.scrape;
  config.programs.ytdlpUsed = config.providers.scrape === "ytdlp" || config.providers.media === "ytdlp";
  config.providerChoice.reason = settled.reason;
}
