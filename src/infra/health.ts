/**
 * Readiness of the backing services: PostgreSQL and Redis, each answered within a bound; the outside
 * programs the configured providers run (present, version, the Debian package of each), and the
 * freshness of the one whose age matters (yt-dlp: platforms change their pages often, and a yt-dlp
 * release older than a few months often fails to read them), which also decides the default scrape
 * provider (`settleScrapeProvider`).
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { config, installHint, programFound, PROGRAMS, type ProgramKey, type Providers } from "../config.ts";
import { Prisma } from "../generated/prisma/client.ts";
import { sql } from "./db.ts";
import { redisReady } from "./redis.ts";

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
  const ageDays =
    released && !Number.isNaN(released.getTime()) ? Math.max(0, Math.floor((now.getTime() - released.getTime()) / 86_400_000)) : null;
  return {
    path: programs.ytdlp,
    version,
    releasedOn: released && ageDays !== null ? released.toISOString().slice(0, 10) : null,
    ageDays,
    stale: version === null || (ageDays !== null && ageDays > YTDLP_STALE_DAYS),
  };
}

/** Why the scrape provider is what it is, when yt-dlp was not set on purpose (README "Run it"). */
export interface ScrapeChoice {
  scrape: "ytdlp" | "simulated";
  /** null when SCRAPE_PROVIDER was set (the operator's choice needs no explanation). */
  reason: string | null;
}

/**
 * The default scrape provider, decided at start-up: with SCRAPE_PROVIDER set, as set; else yt-dlp only when
 * it is installed, runs, and its release is at most YTDLP_STALE_DAYS old (or names no day); else simulated
 * demo data, saying why and how to get a current yt-dlp. An old yt-dlp (Debian 12's is 2023.03.04) cannot
 * read today's platform pages: every scrape and analysis would fail.
 */
export function settleScrapeProvider(
  choice: "set" | "found" | "missing",
  configured: "ytdlp" | "simulated",
  ytdlp: ProgramFreshness | null,
  path: string = config.programs.ytdlp,
): ScrapeChoice {
  if (choice === "set") return { scrape: configured, reason: null };
  const fallback = 'videos and accounts are simulated demo data (dataSource "simulated")';
  const how = `${installHint("ytdlp")} and restart, or set SCRAPE_PROVIDER=ytdlp to use the one found anyway`;
  if (choice === "missing")
    return {
      scrape: "simulated",
      reason: `no yt-dlp found (${PROGRAMS.ytdlp.variable}=${path}): ${fallback}; ${installHint("ytdlp")} and restart`,
    };
  if (!ytdlp || ytdlp.version === null) return { scrape: "simulated", reason: `yt-dlp (${path}) could not be run: ${fallback}; ${how}` };
  if (ytdlp.stale) {
    return {
      scrape: "simulated",
      reason: `yt-dlp ${ytdlp.version} (${path}) is ${ytdlp.ageDays} days old, more than ${YTDLP_STALE_DAYS}: platforms change their pages often and it would fail to read them, so ${fallback}; ${how}`,
    };
  }
  return {
    scrape: "ytdlp",
    reason: `yt-dlp ${ytdlp.version} (${path}) is recent${ytdlp.ageDays === null ? "" : ` (${ytdlp.ageDays} days old)`}: videos and accounts are scraped from the platforms`,
  };
}

/** What each program is needed for, by the configured providers (a program no provider runs is absent). */
export function programsNeeded(
  providers: Providers = config.providers,
  simulatedSpeech = config.media.simulatedSpeech,
  visual = config.visual.enabled,
): Partial<Record<ProgramKey, string[]>> {
  const needs: Partial<Record<ProgramKey, string[]>> = {};
  const need = (key: ProgramKey, what: string) => (needs[key] ??= []).push(what);
  if (providers.scrape === "ytdlp") need("ytdlp", "scraping videos and accounts");
  // Simulated media are captions made from the description: no program at all (no speech is synthesised
  // for a transcript that comes from captions). yt-dlp's media: captions first, else audio for speech recognition.
  if (providers.media === "simulated" && simulatedSpeech) {
    need("espeak", "analysis of simulated videos: speaking their captions (SIMULATED_MEDIA_SPEECH)");
    need("ffmpeg", "analysis of simulated videos: converting the spoken audio (SIMULATED_MEDIA_SPEECH)");
  }
  if (providers.media === "ytdlp") {
    need("ytdlp", "analysis: downloading a video's captions or audio");
    need("ffmpeg", "analysis of videos without captions: converting their audio");
    if (providers.transcribe === "pocketsphinx") need("pocketsphinx", "analysis of videos without captions: speech recognition");
  }
  if (providers.radar.includes("ytdlp")) need("ytdlp", "radar: searching the platforms");
  // Visual analysis (VISUAL_ANALYSIS): missing, its part is left out of each analysis with the reason (never a failure).
  if (visual) {
    if (providers.media === "simulated") need("ffmpeg", "visual analysis of simulated videos: rendering their video (VISUAL_ANALYSIS)");
    need("ffmpeg", "visual analysis: keyframes and cuts (VISUAL_ANALYSIS)");
    need("tesseract", "visual analysis: on-screen text (VISUAL_ANALYSIS)");
  }
  return needs;
}

/** The face detector's model, which ships in the npm package @vladmandic/face-api (nothing is downloaded at run time). */
function faceModelPath(): string | null {
  try {
    return join(
      dirname(createRequire(import.meta.url).resolve("@vladmandic/face-api/package.json")),
      "model",
      "tiny_face_detector_model.bin",
    );
  } catch {
    return null;
  }
}

/**
 * The visual part of analyses for /readyz: on or off (VISUAL_ANALYSIS), its bounds, and the providers of each part with
 * whether they can run (the programs are in `programs`; the face model is a file of an npm package).
 */
export function visualReport(): Record<string, unknown> {
  if (!config.visual.enabled) return { enabled: false };
  const model = faceModelPath();
  return {
    enabled: true,
    maxKeyframes: config.visual.maxKeyframes,
    concurrency: config.visual.concurrency,
    providers: {
      keyframes: { provider: "ffmpeg", present: programFound(config.programs.ffmpeg) },
      text: { provider: "tesseract", present: programFound(config.programs.tesseract) },
      faces: { provider: "face-api", model, present: model !== null && existsSync(model) },
    },
  };
}

/**
 * Mail for /readyz: configured (SMTP_URL, shown without its credentials) or not, in which case
 * mails go to the log and the dev mailbox (`npm run cli -- mail list`). Not configured is not
 * "degraded": nothing is lost, and a fresh machine starts ready.
 */
export function mailReport(smtpUrl: string | null | undefined = config.mail.smtpUrl): Record<string, unknown> {
  if (!smtpUrl) {
    return {
      configured: false,
      transport: "log",
      message: "Mail is not configured (no SMTP_URL): mails are written to the log and kept in the dev mailbox (npm run cli -- mail list).",
    };
  }
  const url = new URL(smtpUrl);
  return { configured: true, transport: "smtp", server: `${url.protocol}//${url.host}`, from: config.mail.from };
}

/** A version-like token of a program's first line of `--version` output (yt-dlp's whole line: its versions are dates). */
function versionOf(key: ProgramKey, output: string): string | null {
  const line = output.split("\n")[0]!.trim();
  if (!line) return null;
  if (key === "ytdlp") return line;
  return /\d+(?:\.\d+)+[\w.+~-]*/.exec(line)?.[0] ?? line.slice(0, 80);
}

/** The program's version as it reports it; null when it cannot be run or has no version option. */
export async function readProgramVersion(key: ProgramKey, path: string): Promise<string | null> {
  const args = PROGRAMS[key].versionArgs;
  if (!args) return null;
  try {
    const { stdout, stderr } = await promisify(execFile)(path, [...args], { timeout: 10_000, encoding: "utf8" });
    return versionOf(key, stdout || stderr);
  } catch {
    return null;
  }
}

const versions: Partial<Record<ProgramKey, string | null>> = {};

/** Keeps the versions start-up read (src/main/lifecycle.ts), for /readyz. */
export function recordProgramVersion(key: ProgramKey, version: string | null): void {
  versions[key] = version;
  if (key === "ytdlp") recordYtdlpVersion(version);
}

export interface ProgramReport {
  path: string;
  /** An executable file at the path, or of that name on PATH (checked at each call). */
  present: boolean;
  /** As read at start-up; null when not read, not runnable, or the program has no version option (pocketsphinx). */
  version: string | null;
  /** The Debian package(s) that provide it. */
  debianPackage: string;
  neededFor: string[];
}

/** Every program of PROGRAMS: its report when a configured provider runs it, else null. yt-dlp adds its freshness. */
export function programsReport(
  now = new Date(),
  providers: Providers = config.providers,
): Record<ProgramKey, (ProgramReport & Partial<ProgramFreshness>) | null> {
  const needs = programsNeeded(providers);
  const out = {} as Record<ProgramKey, (ProgramReport & Partial<ProgramFreshness>) | null>;
  for (const key of Object.keys(PROGRAMS) as ProgramKey[]) {
    const neededFor = needs[key];
    if (!neededFor) {
      out[key] = null;
      continue;
    }
    const path = config.programs[key];
    const report: ProgramReport = {
      path,
      present: programFound(path),
      version: versions[key] ?? (key === "ytdlp" ? ytdlpVersion : null),
      debianPackage: PROGRAMS[key].debianPackage,
      neededFor,
    };
    out[key] =
      key === "ytdlp" ? { ...report, ...ytdlpFreshness(now, { ytdlp: path, ytdlpUsed: true, ytdlpVersion: report.version }) } : report;
  }
  return out;
}

/** Why part of the work cannot run (a program a configured provider needs is missing), each with how to install it; empty when all can. */
export function degradedReasons(report: ReturnType<typeof programsReport>): string[] {
  return (Object.entries(report) as [ProgramKey, ProgramReport | null][])
    .filter(([, r]) => r && !r.present)
    .map(
      ([key, r]) => `${PROGRAMS[key].program} (${r!.path}) is not installed: ${r!.neededFor.join("; ")} cannot run; ${installHint(key)}`,
    );
}
