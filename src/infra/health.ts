/**
 * Readiness of the backing services: PostgreSQL and Redis, each answered within a bound; and the
 * freshness of the outside programs whose age matters (yt-dlp: platforms change their pages often,
 * and a yt-dlp release older than a few months often fails to read them).
 */
import { config } from "../config.js";
import { Prisma } from "../generated/prisma/client.js";
import { sql } from "./db.js";
import { redisReady } from "./redis.js";

const CHECK_TIMEOUT_MS = 2000;

let draining = false;

/** From a shutdown's start on, the process is draining: /readyz and every new request answer 503. */
export function startDraining(): void {
  draining = true;
}

export const isDraining = (): boolean => draining;

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error("timed out")), ms).unref())]);
}

async function check(fn: () => Promise<unknown>): Promise<string> {
  try {
    await withTimeout(fn(), CHECK_TIMEOUT_MS);
    return "ok";
  } catch (e) {
    return `unavailable: ${(e as Error).message}`;
  }
}

/** "ok", or "unavailable: <why>", for each backing service. */
export async function checkBackends(): Promise<{ database: string; redis: string }> {
  const [database, redisState] = await Promise.all([check(() => sql(Prisma.sql`SELECT 1`)), check(redisReady)]);
  return { database, redis: redisState };
}

/** A yt-dlp release older than this is reported stale (logged as a warning at start, shown by /readyz). */
export const YTDLP_STALE_DAYS = 90;

export interface ProgramFreshness {
  path: string;
  /** `yt-dlp --version`, null when the program could not be run. */
  version: string | null;
  /** The release day its version names (yt-dlp versions are dates: 2025.01.26), when it does. */
  releasedOn: string | null;
  ageDays: number | null;
  /** Older than YTDLP_STALE_DAYS, or not runnable. */
  stale: boolean;
}

let ytdlpVersion: string | null = null;

/** Keeps yt-dlp's version as start-up read it (src/main/lifecycle.ts), for /readyz. */
export function recordYtdlpVersion(version: string | null): void {
  ytdlpVersion = version;
}

/** yt-dlp's version and age, when a configured provider uses it (null otherwise). */
export function ytdlpFreshness(
  now = new Date(),
  programs: { ytdlp: string; ytdlpUsed: boolean; ytdlpVersion: string | null } = { ...config.programs, ytdlpVersion },
): ProgramFreshness | null {
  if (!programs.ytdlpUsed) return null;
  const version = programs.ytdlpVersion;
  const m = version ? /^(\d{4})\.(\d{2})\.(\d{2})/.exec(version) : null;
  const released = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  const ageDays = released && !Number.isNaN(released.getTime()) ? Math.max(0, Math.floor((now.getTime() - released.getTime()) / 86_400_000)) : null;
  return {
    path: programs.ytdlp,
    version,
    releasedOn: released && ageDays !== null ? released.toISOString().slice(0, 10) : null,
    ageDays,
    stale: version === null || (ageDays !== null && ageDays > YTDLP_STALE_DAYS),
  };
}
