/**
 * Configuration: read from the environment and validated once, at start. Every other module reads
 * `config`, never `process.env`. Variable names are part of the contract (docs/contract/decisions.md, Running it).
 */
import { execFileSync } from "node:child_process";
import { z } from "zod";

const bool = z
  .enum(["true", "false", "1", "0", ""])
  .transform((v) => v === "true" || v === "1");

const csv = <T extends string>(values: readonly [T, ...T[]]) =>
  z
    .string()
    .transform((s) => s.split(",").map((p) => p.trim()).filter(Boolean))
    .pipe(z.array(z.enum(values)).min(1));

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z.url().default("postgresql://root@127.0.0.1:5432/video_service"),
  REDIS_URL: z.url().default("redis://127.0.0.1:6379"),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default("0.0.0.0"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Where the JSON logs go. `npm run cli -- mcp` forces stderr: its stdout carries only MCP messages. */
  LOG_DESTINATION: z.enum(["stdout", "stderr"]).default("stdout"),

  /** Prefix of BullMQ keys and pub/sub channels, so several deployments (or test files) share a Redis. */
  REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9_-]+$/).default("svc"),

  SCRAPE_PROVIDER: z.enum(["ytdlp", "simulated"]).optional(),
  MEDIA_PROVIDER: z.enum(["ytdlp", "simulated"]).optional(),
  TRANSCRIBE_PROVIDER: z.enum(["pocketsphinx", "openai"]).default("pocketsphinx"),
  ANALYSIS_PROVIDER: z.enum(["heuristic", "openai"]).default("heuristic"),
  RADAR_PROVIDERS: csv(["catalog", "ytdlp"] as const).default(["catalog"]),

  OPENAI_BASE_URL: z.url().optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_MODEL: z.string().default("gpt-4o-mini"),
  OPENAI_TRANSCRIBE_MODEL: z.string().default("whisper-1"),
  OPENAI_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),

  YTDLP_PATH: z.string().default("yt-dlp"),
  YTDLP_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  YTDLP_CONCURRENCY: z.coerce.number().int().positive().default(4),
  FFMPEG_PATH: z.string().default("ffmpeg"),
  POCKETSPHINX_PATH: z.string().default("pocketsphinx_continuous"),
  ESPEAK_PATH: z.string().default("espeak-ng"),
  MEDIA_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  /** Largest media file the analysis downloads, in bytes (default 200 MiB). */
  MEDIA_MAX_BYTES: z.coerce.number().int().positive().default(200 * 1024 * 1024),
  /** Longest audio the analysis transcribes, in seconds. */
  MEDIA_MAX_SECONDS: z.coerce.number().int().positive().default(600),

  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),

  /** How often every tracked video and account is scraped again. */
  REFRESH_INTERVAL_MINUTES: z.coerce.number().positive().default(60),
  /** An analysis not finished after this long is failed by the sweeper and its credits released. */
  ANALYSIS_DEADLINE_SECONDS: z.coerce.number().int().positive().default(900),
  /** BullMQ lock of a running analysis job and how often workers look for jobs whose lock expired
   *  (a killed worker's job is retried by another within about lock + interval). */
  ANALYSIS_LOCK_MS: z.coerce.number().int().min(500).default(30_000),
  ANALYSIS_STALLED_INTERVAL_MS: z.coerce.number().int().min(200).default(15_000),
  /** How often the sweeper fails analyses stuck past the deadline and re-queues orphaned ones. */
  ANALYSIS_SWEEP_INTERVAL_MS: z.coerce.number().int().min(200).default(60_000),
  /** Attempts of an analysis job and the first retry's delay (doubling after each failed attempt). */
  ANALYSIS_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  ANALYSIS_RETRY_DELAY_MS: z.coerce.number().int().min(10).default(2000),
  SCRAPE_CONCURRENCY: z.coerce.number().int().positive().default(16),
  ANALYSIS_CONCURRENCY: z.coerce.number().int().positive().default(4),
  RADAR_CONCURRENCY: z.coerce.number().int().positive().default(4),

  /** GraphQL limits: a query deeper or costlier than these is refused with a GraphQL error. */
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().positive().default(12),
  GRAPHQL_MAX_COST: z.coerce.number().int().positive().default(50000),
  /** Trusted documents: a JSON file of operation id → document (src/http/graphql/persisted.ts). */
  GRAPHQL_PERSISTED_OPERATIONS: z.string().min(1).optional(),
  /** Accept only the operations of that file. */
  GRAPHQL_PERSISTED_ONLY: bool.default(false),

  /** Validate every REST response against its documented schema (on in tests; costs time). */
  VALIDATE_RESPONSES: bool.optional(),
  /** Create a demo workspace and print its key when the database has none (`npm start`). */
  SEED_DEMO: bool.default(true),
});

function programExists(path: string): boolean {
  try {
    execFileSync(path, ["--version"], { stdio: "ignore", timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  if (e.GRAPHQL_PERSISTED_ONLY && !e.GRAPHQL_PERSISTED_OPERATIONS) {
    throw new Error("Invalid configuration:\n  GRAPHQL_PERSISTED_ONLY: needs GRAPHQL_PERSISTED_OPERATIONS (the file of trusted operations)");
  }
  // The scrape provider defaults to yt-dlp when the program is installed, else to simulated data.
  const scrapeProvider = e.SCRAPE_PROVIDER ?? (programExists(e.YTDLP_PATH) ? "ytdlp" : "simulated");
  return {
    env: e.NODE_ENV,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    logDestination: e.LOG_DESTINATION,
    redisPrefix: e.REDIS_PREFIX,
    providers: {
      scrape: scrapeProvider,
      media: e.MEDIA_PROVIDER ?? scrapeProvider,
      transcribe: e.TRANSCRIBE_PROVIDER,
      analysis: e.ANALYSIS_PROVIDER,
      radar: e.RADAR_PROVIDERS,
    },
    openai: {
      baseUrl: e.OPENAI_BASE_URL,
      apiKey: e.OPENAI_API_KEY,
      model: e.OPENAI_MODEL,
      transcribeModel: e.OPENAI_TRANSCRIBE_MODEL,
      timeoutMs: e.OPENAI_TIMEOUT_MS,
    },
    programs: {
      ytdlp: e.YTDLP_PATH,
      ytdlpTimeoutMs: e.YTDLP_TIMEOUT_MS,
      ytdlpConcurrency: e.YTDLP_CONCURRENCY,
      ffmpeg: e.FFMPEG_PATH,
      pocketsphinx: e.POCKETSPHINX_PATH,
      espeak: e.ESPEAK_PATH,
    },
    media: { timeoutMs: e.MEDIA_TIMEOUT_MS, maxBytes: e.MEDIA_MAX_BYTES, maxSeconds: e.MEDIA_MAX_SECONDS },
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    refreshIntervalMs: Math.round(e.REFRESH_INTERVAL_MINUTES * 60_000),
    analysisDeadlineMs: e.ANALYSIS_DEADLINE_SECONDS * 1000,
    analysisJobs: {
      lockMs: e.ANALYSIS_LOCK_MS,
      stalledIntervalMs: e.ANALYSIS_STALLED_INTERVAL_MS,
      sweepIntervalMs: e.ANALYSIS_SWEEP_INTERVAL_MS,
      attempts: e.ANALYSIS_ATTEMPTS,
      retryDelayMs: e.ANALYSIS_RETRY_DELAY_MS,
    },
    concurrency: { scrape: e.SCRAPE_CONCURRENCY, analysis: e.ANALYSIS_CONCURRENCY, radar: e.RADAR_CONCURRENCY },
    graphql: {
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxCost: e.GRAPHQL_MAX_COST,
      persistedOperationsFile: e.GRAPHQL_PERSISTED_OPERATIONS,
      persistedOnly: e.GRAPHQL_PERSISTED_ONLY,
    },
    validateResponses: e.VALIDATE_RESPONSES ?? e.NODE_ENV === "test",
    seedDemo: e.SEED_DEMO,
  };
}

/** The process-wide configuration, validated on first import. */
export const config = loadConfig();
