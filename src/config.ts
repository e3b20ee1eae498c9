/**
 * Configuration: read from the environment and validated once, at start. Every other module reads
 * `config`, never `process.env`. Variable names are part of the contract (docs/contract/decisions.md, Running it).
 */
import { accessSync, constants } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from "./default-addresses.ts";

const bool = z.enum(["true", "false", "1", "0", ""]).transform((v) => v === "true" || v === "1");

const csv = <T extends string>(values: readonly [T, ...T[]]) =>
  z
    .string()
    .transform((s) =>
      s
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(values)).min(1));

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z.url().default(DEFAULT_DATABASE_URL),
  /** One Redis (`redis://`, `rediss://` for TLS), or a Redis Cluster: `redis+cluster://[user:password@]host:port,host:port`
   *  (`rediss+cluster://` for TLS). */
  REDIS_URL: z
    .string()
    .default(DEFAULT_REDIS_URL)
    .transform((s, ctx) => {
      const target = parseRedisUrl(s);
      if (typeof target === "string") {
        ctx.addIssue({ code: "custom", message: target });
        return z.NEVER;
      }
      return target;
    }),
  /** Redis Cluster's seed nodes, `host:port,host:port` (any of its nodes; the rest are discovered). Set, it wins over REDIS_URL. */
  REDIS_CLUSTER_NODES: z
    .string()
    .default("")
    .transform((s, ctx) => {
      if (!s.trim()) return null;
      const nodes = parseRedisNodes(s);
      if (typeof nodes === "string") {
        ctx.addIssue({ code: "custom", message: nodes });
        return z.NEVER;
      }
      return nodes;
    }),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default("0.0.0.0"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Where the JSON logs go. `npm run cli -- mcp` forces stderr: its stdout carries only MCP messages. */
  LOG_DESTINATION: z.enum(["stdout", "stderr"]).default("stdout"),
  /** `pretty` (readable lines, pino-pretty) or `json` (one JSON object a line, for collectors). Unset:
   *  pretty when the log's destination is a terminal (TTY), JSON otherwise (src/infra/logger.ts). */
  LOG_FORMAT: z.enum(["pretty", "json"]).optional(),
  /** Request, workspace and job ids on every log line, and a request's id carried into the jobs it
   *  queues (AsyncLocalStorage, src/infra/logger.ts). Off: only the access log and the job start/end
   *  lines name them, and a job no longer knows its request (saves the promise hook's CPU on Node 20). */
  LOG_CONTEXT: bool.default(true),

  /** Prefix of BullMQ keys and pub/sub channels, so several deployments (or test files) share a Redis. */
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default("svc"),

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
  /** The outbound budget of yt-dlp calls per platform per minute, for every worker process
   *  together (counted in Redis); 0 is no budget. `…_BY_PLATFORM` overrides it per platform
   *  (`platformC=20,platformB=120`). A call past the budget waits for the next minute, up to
   *  YTDLP_BUDGET_MAX_WAIT_MS, then fails retryable (the job is retried with backoff). */
  YTDLP_CALLS_PER_MINUTE: z.coerce.number().int().min(0).default(60),
  YTDLP_CALLS_PER_MINUTE_BY_PLATFORM: z
    .string()
    .default("")
    .transform((s, ctx) => {
      const out: Partial<Record<"platformA" | "platformB" | "platformC", number>> = {};
      for (const part of s
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean)) {
        const m = /^(platformA|platformB|platformC)=(\d+)$/.exec(part);
        if (!m) {
          ctx.addIssue({
            code: "custom",
            message: `"${part}" is not platform=calls (platformA, platformB or platformC; calls a whole number)`,
          });
          return z.NEVER;
        }
        out[m[1] as "platformA"] = Number(m[2]);
      }
      return out;
    }),
  YTDLP_BUDGET_MAX_WAIT_MS: z.coerce.number().int().min(0).default(300_000),
  FFMPEG_PATH: z.string().default("ffmpeg"),
  POCKETSPHINX_PATH: z.string().default("pocketsphinx_continuous"),
  ESPEAK_PATH: z.string().default("espeak-ng"),
  /** Simulated media also speak their captions with espeak-ng (and ffmpeg), so the analysis runs real programs on real audio. */
  SIMULATED_MEDIA_SPEECH: bool.default(false),
  MEDIA_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  /** Largest media file the analysis downloads, in bytes (default 200 MiB). */
  MEDIA_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(200 * 1024 * 1024),
  /** Longest audio the analysis transcribes, in seconds. */
  MEDIA_MAX_SECONDS: z.coerce.number().int().positive().default(600),

  /** Visual analysis: the media step also fetches a small video rendition, and the analysis looks at its
   *  keyframes (ffmpeg), reads their on-screen text (PaddleOCR's models in the npm package, tesseract for the scripts they
   *  do not know) and looks for a face (face-api, model in the npm package). */
  VISUAL_ANALYSIS: bool.default(true),
  /** Keyframes per analysis: the first frame, scene changes, evenly spaced frames, at most this many; and at most as many text moments (text read where part of the frame changed without a cut). */
  VISUAL_MAX_KEYFRAMES: z.coerce.number().int().min(1).max(32).default(12),
  /** Visual parts of analyses running at once in one worker process (CPU-bound: OCR and face detection). */
  VISUAL_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /** On-screen text read with less confidence than this (0-1) is kept and marked, but never used for a judgement. */
  VISUAL_TEXT_CONFIDENCE_FLOOR: z.coerce.number().min(0).max(1).default(0.8),
  /** A recognised transcript with less confidence than this (0-1) is kept and marked, but never used for a judgement. */
  SPEECH_CONFIDENCE_FLOOR: z.coerce.number().min(0).max(1).default(0.5),
  TESSERACT_PATH: z.string().default("tesseract"),
  /** Whether the OpenAI-compatible analyser sends keyframes as images: `auto` when the model's name is a known vision
   *  model (gpt-4o, gpt-4.1, gpt-5, o-series, llava, …), `true`/`false` to decide; without images it gets the OCR text. */
  OPENAI_VISION: z.enum(["auto", "true", "false"]).default("auto"),

  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  /** How often live subscriptions' keys are re-checked against revocation (a fallback to the revocation event). */
  REVOCATION_CHECK_INTERVAL_MS: z.coerce.number().int().min(100).max(4000).default(2000),
  /** How long a process may admit a signed-in person's requests from memory (session, person, memberships;
   *  src/domain/people/sessions.ts) before reading them again; 0 turns the memory off. Every change is also announced
   *  to every process, so this is only the bound when an announcement is lost: keep it under the contract's 5 s. */
  SESSION_MEMORY_MS: z.coerce.number().int().min(0).max(60_000).default(3000),
  /** How long a claimed Idempotency-Key is held past its last sign of life (its request extends it while it runs). */
  IDEMPOTENCY_LEASE_MS: z.coerce.number().int().min(300).default(60_000),

  /** How often every worker process checks that its queues' job schedulers exist and re-creates a missing one (a Redis
   *  that lost its data: FLUSHALL, a restart without persistence); also checked when its Redis connection comes back. */
  SCHEDULER_CHECK_INTERVAL_MS: z.coerce.number().int().min(200).default(30_000),
  /** While PostgreSQL or Redis is unavailable, how often a process logs how many failures it saw (the outage's start
   *  and end are logged once each; src/infra/logger.ts). */
  OUTAGE_LOG_INTERVAL_MS: z.coerce.number().int().min(100).default(30_000),
  /** Bounded waits (docs/operations.md "What survives what"): a request-path Redis command not answered within
   *  REDIS_COMMAND_TIMEOUT_MS fails (BullMQ's blocking connections have none); a PostgreSQL connection not made within
   *  DATABASE_CONNECT_TIMEOUT_MS, or a statement not done within DATABASE_STATEMENT_TIMEOUT_MS (the server cancels it,
   *  and the client gives up DATABASE_QUERY_TIMEOUT_MS later), fails. Each failure answers 503 SERVICE_UNAVAILABLE with
   *  Retry-After, well within HTTP_REQUEST_TIMEOUT_MS; a job fails retryably. 0 turns one off. */
  REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(0).default(2000),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(0).default(3000),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(5000),
  DATABASE_QUERY_TIMEOUT_MS: z.coerce.number().int().min(0).default(6000),

  /** On SIGTERM/SIGINT: how long requests in flight and running jobs get to finish before the
   *  remaining connections are closed and the remaining jobs handed back (docs/operations.md). */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),

  /** Adaptive refresh (src/domain/tracking/cadence.ts): `age=interval` tiers, youngest first, the
   *  last one `*`; ages and intervals in m, h or d. An item younger than a tier's age is refreshed at
   *  its interval (a video's age is since it was posted, an account's since its newest video). */
  REFRESH_CADENCE: z
    .string()
    .default("2d=1h,7d=4h,30d=1d,*=7d")
    .transform((s, ctx) => {
      const tiers = parseCadence(s);
      if (typeof tiers === "string") {
        ctx.addIssue({ code: "custom", message: tiers });
        return z.NEVER;
      }
      return tiers;
    }),
  /** Views per hour (since the previous scrape) at or above which an item is "accelerating" and
   *  takes the fastest tier whatever its age. */
  REFRESH_HOT_VIEWS_PER_HOUR: z.coerce.number().positive().default(1000),
  /** …or views gained per day as a share of its views so far at or above this (0.25 = a quarter). */
  REFRESH_HOT_DAILY_GROWTH: z.coerce.number().positive().default(0.25),
  /** POST /videos/{id}/refresh and /accounts/{id}/refresh: the least time between a refresh request
   *  and the item's last scrape or last refresh request (429 REFRESH_TOO_SOON within it). */
  REFRESH_MIN_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(300),
  /** How often the scheduler looks for due items, how many it takes per statement and per run, and
   *  how long a taken item waits for its scrape before it is due again (a lost job is retried). */
  REFRESH_SCHEDULER_EVERY_SECONDS: z.coerce.number().int().min(1).default(60),
  REFRESH_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(1000),
  REFRESH_MAX_PER_RUN: z.coerce.number().int().min(1).default(100_000),
  REFRESH_LEASE_MINUTES: z.coerce.number().positive().default(60),
  /** A refresh that fails after its job's last attempt is retried after REFRESH_BACKOFF_MINUTES,
   *  doubling at each consecutive failure up to REFRESH_BACKOFF_MAX_HOURS; after REFRESH_MAX_FAILURES
   *  consecutive failures the item is `failed` with the reason and leaves the schedule. */
  REFRESH_BACKOFF_MINUTES: z.coerce.number().positive().default(30),
  REFRESH_BACKOFF_MAX_HOURS: z.coerce.number().positive().default(24),
  REFRESH_MAX_FAILURES: z.coerce.number().int().min(1).default(6),
  /** Days of history kept at scrape resolution; older days keep their last point (the daily roll-up). */
  HISTORY_FULL_RESOLUTION_DAYS: z.coerce.number().int().min(2).max(3650).default(30),
  /** A video's outlier score crossing this (from below) emits `video.spike` to the workspaces tracking it. */
  SPIKE_OUTLIER_THRESHOLD: z.coerce.number().positive().default(3),
  /** An analysis not finished after this long is failed by the sweeper and its credits released. */
  ANALYSIS_DEADLINE_SECONDS: z.coerce.number().int().positive().default(900),
  /** BullMQ lock of a running analysis job and how often workers look for jobs whose lock expired
   *  (a killed worker's job is retried by another within about lock + interval). */
  ANALYSIS_LOCK_MS: z.coerce.number().int().min(500).default(30_000),
  ANALYSIS_STALLED_INTERVAL_MS: z.coerce.number().int().min(200).default(15_000),
  /** The same for scrape jobs: a killed worker's scrape is retried by another within about lock + interval. */
  SCRAPE_LOCK_MS: z.coerce.number().int().min(500).default(10_000),
  SCRAPE_STALLED_INTERVAL_MS: z.coerce.number().int().min(200).default(5_000),
  /** How often the sweeper fails analyses stuck past the deadline and re-queues orphaned ones. */
  ANALYSIS_SWEEP_INTERVAL_MS: z.coerce.number().int().min(200).default(60_000),
  /** Attempts of an analysis job and the first retry's delay (doubling after each failed attempt). */
  ANALYSIS_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  ANALYSIS_RETRY_DELAY_MS: z.coerce.number().int().min(10).default(2000),
  /** BullMQ lock of a running radar search and how often workers look for searches whose lock expired
   *  (a killed worker's search is picked up by another within about lock + interval); the first retry's
   *  delay of a search whose providers failed retryably (doubling after each failed attempt). */
  RADAR_LOCK_MS: z.coerce.number().int().min(500).default(15_000),
  RADAR_STALLED_INTERVAL_MS: z.coerce.number().int().min(200).default(15_000),
  RADAR_RETRY_DELAY_MS: z.coerce.number().int().min(10).default(2000),
  SCRAPE_CONCURRENCY: z.coerce.number().int().positive().default(16),
  /** Exports (docs/exports.md): where export jobs write their files (default: `video-service-exports` under the OS temp dir),
   *  how long a file is kept, how many exports a workspace may have queued or running, rows per keyset read, and how
   *  often a job records its progress (rows). */
  EXPORT_DIR: z.string().min(1).optional(),
  EXPORT_RETENTION_HOURS: z.coerce.number().positive().default(24),
  EXPORT_MAX_CONCURRENT: z.coerce.number().int().min(1).default(2),
  EXPORT_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(1000),
  EXPORT_PROGRESS_EVERY: z.coerce.number().int().min(1).default(5000),
  /** How long a signed download link of a finished export is valid. */
  EXPORT_URL_TTL_MINUTES: z.coerce.number().positive().default(15),
  ANALYSIS_CONCURRENCY: z.coerce.number().int().positive().default(4),
  RADAR_CONCURRENCY: z.coerce.number().int().positive().default(4),

  /** GraphQL limits: a query deeper or costlier than these is refused with a GraphQL error. */
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().positive().default(12),
  GRAPHQL_MAX_COST: z.coerce.number().int().positive().default(50000),
  /** Trusted documents: a JSON file of operation id → document (src/http/graphql/persisted.ts). */
  GRAPHQL_PERSISTED_OPERATIONS: z.string().min(1).optional(),
  /** Accept only the operations of that file. */
  GRAPHQL_PERSISTED_ONLY: bool.default(false),
  /** More bounds of one GraphQL operation (src/http/graphql/limits.ts): tokens of the document, aliases,
   *  directives, and the values its answer could hold (each list counted at its page size). */
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(100).default(10_000),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(30),
  GRAPHQL_MAX_DIRECTIVES: z.coerce.number().int().min(0).default(50),
  GRAPHQL_MAX_RESPONSE_VALUES: z.coerce.number().int().min(100).default(100_000),
  /** Live connections per credential (an API key), counted across every API process (Redis): open
   *  graphql-ws sockets, and live subscriptions (WebSocket and SSE together). */
  GRAPHQL_MAX_SOCKETS_PER_KEY: z.coerce.number().int().min(1).default(50),
  GRAPHQL_MAX_SUBSCRIPTIONS_PER_KEY: z.coerce.number().int().min(1).default(200),
  /** JSON POSTs and query-string GETs to /graphql read and answered on node:http, through Yoga's own plugins and
   *  hooks but without its fetch-API request path (src/http/graphql/json-post.ts), SSE answers included (written by
   *  src/http/graphql/event-stream.ts, the bytes Yoga's SSE processor makes); false sends every request through Yoga's. */
  GRAPHQL_DIRECT_POST: bool.default(true),
  /** A WebSocket that has not authenticated (connection_init with a valid key) within this is closed (4408). */
  GRAPHQL_WS_AUTH_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3000),
  /** The longest a live subscription lives (a WebSocket, an SSE stream): then the client is told and reconnects. 0: no limit. */
  GRAPHQL_SUBSCRIPTION_MAX_LIFETIME_SECONDS: z.coerce.number().int().min(0).default(3600),

  /** Slow clients (src/main/server.ts): the request's headers, and the whole request (body included),
   *  must arrive within these, or the connection is closed (408). */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),

  /** Webhooks (docs/webhooks.md). The key that encrypts the endpoints' signing secrets at rest (any
   *  string of 32+ characters, e.g. `openssl rand -base64 32`); unset: creating webhooks is refused
   *  (503 WEBHOOKS_NOT_CONFIGURED) and existing endpoints' deliveries fail until it is set again. */
  WEBHOOK_SECRET_KEY: z.string().min(32, "must be at least 32 characters (e.g. openssl rand -base64 32)").optional(),
  /** The key WEBHOOK_SECRET_KEY replaces, while rotating it: secrets encrypted with either decrypt; new ones use the current key. */
  WEBHOOK_SECRET_KEY_PREVIOUS: z.string().min(32, "must be at least 32 characters").optional(),
  /** Allow http:// targets and loopback/private/link-local addresses (tests, closed networks). */
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  /** Delays before each retry of a failed delivery (count + 1 attempts in all), in ms, s, m, h or d. */
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default("5s,5m,30m,2h,5h,10h")
    .transform((s, ctx) => {
      const delays = parseDelays(s);
      if (typeof delays === "string") {
        ctx.addIssue({ code: "custom", message: delays });
        return z.NEVER;
      }
      return delays;
    }),
  /** How long one delivery attempt may take (connect, answer and body) before it counts as failed. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** An endpoint whose every delivery attempt failed for this long is disabled (with the reason). */
  WEBHOOK_DISABLE_AFTER_HOURS: z.coerce.number().positive().default(72),
  /** Deliveries in flight per worker process. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().positive().default(32),
  /** Deliveries in flight to one endpoint, across every worker process: one slow endpoint cannot take every slot. */
  WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: z.coerce.number().int().positive().default(4),
  /** How often the sweep relays unrelayed events and re-enqueues deliveries whose job was lost. */
  WEBHOOK_SWEEP_INTERVAL_MS: z.coerce.number().int().min(200).default(5000),
  /** BullMQ lock of a delivery job and the stalled-job check (a killed worker's delivery is retried
   *  by another within about lock + interval). */
  WEBHOOK_LOCK_MS: z.coerce.number().int().min(500).default(30_000),
  WEBHOOK_STALLED_INTERVAL_MS: z.coerce.number().int().min(200).default(15_000),
  /** Events and their delivery log are kept this many days. */
  WEBHOOK_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  /** `credits.low` fires when total_remaining falls below this percentage of the monthly allowance. */
  CREDITS_LOW_PERCENT: z.coerce.number().min(0).max(100).default(10),

  /** Validate every REST response against its documented schema (on in tests; costs time). */
  VALIDATE_RESPONSES: bool.optional(),
  /** Create a demo workspace and print its key when the database has none (`npm start`). */
  SEED_DEMO: bool.default(true),

  /** Operations (src/infra/metrics.ts, src/http/admin/): Prometheus instrumentation and GET /metrics
   *  (off: neither, so its cost can be measured); the bearer token /metrics asks for (unset: open);
   *  Bull Board's password at /admin/queues (unset: no board, 404); GraphiQL at GET /graphql. */
  METRICS: bool.default(true),
  METRICS_TOKEN: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  ADMIN_TOKEN: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  GRAPHIQL: bool.default(true),

  /** People (src/domain/people/): the service's public address, which the links it prints and
   *  answers (invitations, password set/reset) start with; default http://localhost:<PORT>. */
  PUBLIC_URL: z.url().optional(),
  /** Mail (src/domain/mail/, docs/contract/decisions.md "Fourth wave"): the SMTP server, as a URL
   *  (`smtp://` or `smtps://`; user and password in it; `smtp://` upgrades with STARTTLS when the
   *  server offers it). Unset: mails are written to the log and kept in the dev mailbox
   *  (`npm run cli -- mail list`), and /readyz says mail is not configured. */
  SMTP_URL: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /^smtps?:\/\/[^\s]+$/i.test(v), "must be an smtp:// or smtps:// URL"),
  /** The From of every mail (an address, or `Name <address>`); default `Video service <no-reply@<PUBLIC_URL's host>>`. */
  MAIL_FROM: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  /** A workspace's mails per hour (alerts, digests, invitations, notices); beyond it they are not sent (`capped`). */
  MAIL_MAX_PER_WORKSPACE_PER_HOUR: z.coerce.number().int().min(1).default(100),
  /** Password-reset mails per address per hour (whoever asks: the request needs no sign-in). */
  MAIL_MAX_RESETS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).default(3),
  /** Invitation mails per address per 24 hours, from every workspace together; beyond it an invitation is refused (429). */
  MAIL_MAX_INVITATIONS_PER_ADDRESS_PER_DAY: z.coerce.number().int().min(1).default(3),
  /** Scheduled-report mails per address per 24 hours, from every schedule together; beyond it that address is skipped. */
  MAIL_MAX_REPORTS_PER_ADDRESS_PER_DAY: z.coerce.number().int().min(1).default(10),
  /** Signs the session cookies (32+ characters, e.g. `openssl rand -base64 32`); unset, the service
   *  generates one on first start and keeps it in PostgreSQL, so every process shares it. */
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters (e.g. openssl rand -base64 32)").optional(),
  /** Behind a reverse proxy: which hops to trust for the client address (X-Forwarded-For) and the
   *  scheme (X-Forwarded-Proto), as Express's `trust proxy` reads it: `true`, a hop count, or a list
   *  of addresses/subnets. Unset: the socket's peer is the client (nothing forwarded is believed). */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "" || v === "false") return false;
      if (v === "true") return true;
      if (/^\d+$/.test(v)) return Number(v);
      const list = v
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean);
      if (list.some((p) => !/^[0-9a-fA-F:.]+(\/\d{1,3})?$|^(loopback|linklocal|uniquelocal)$/.test(p))) {
        ctx.addIssue({
          code: "custom",
          message: "must be true, false, a hop count, or a comma list of addresses, subnets, loopback, linklocal, uniquelocal",
        });
        return z.NEVER;
      }
      return list;
    }),
  /** Failed sign-ins allowed per email and per client address in the window, before 429 RATE_LIMITED. */
  SIGN_IN_MAX_FAILURES_PER_EMAIL: z.coerce.number().int().min(1).default(10),
  SIGN_IN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(50),
  SIGN_IN_FAILURE_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15),
  /** How long an (email, client address) pair that signed in is remembered: its failures then count apart from the email's. */
  SIGN_IN_KNOWN_ADDRESS_DAYS: z.coerce.number().int().min(0).default(30),

  /** The dashboard's build (web/, built by `npm ci` into web/dist), served at `/` (src/http/dashboard.ts). */
  DASHBOARD_DIR: z
    .string()
    .optional()
    .transform((v) => v || undefined),
});

/** Where Redis is: one server (its URL), or a Redis Cluster (seed nodes; credentials and TLS for every node). */
export type RedisTarget =
  | { cluster: false; url: string }
  | { cluster: true; nodes: { host: string; port: number }[]; username?: string; password?: string; tls: boolean };

/** `host:port,host:port` (an IPv6 host in brackets: `[::1]:7000`) → nodes, or the reason it is not such a list. */
export function parseRedisNodes(text: string): { host: string; port: number }[] | string {
  const nodes: { host: string; port: number }[] = [];
  for (const part of text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(part);
    const port = m ? Number(m[3]) : NaN;
    if (!m || port < 1 || port > 65535) return `"${part}" is not host:port`;
    nodes.push({ host: (m[1] ?? m[2])!, port });
  }
  return nodes.length ? nodes : "at least one host:port is needed";
}

/** REDIS_URL: `redis://…`/`rediss://…` (one server) or `redis+cluster://…`/`rediss+cluster://…` (a cluster's seed nodes). */
export function parseRedisUrl(text: string): RedisTarget | string {
  const cluster = /^(rediss?)\+cluster:\/\/(?:([^@/]*)@)?([^/?#]+)\/?$/.exec(text);
  if (cluster) {
    const nodes = parseRedisNodes(cluster[3]!);
    if (typeof nodes === "string") return `${nodes} (redis+cluster://[user:password@]host:port,host:port)`;
    const [user, password] = (cluster[2] ?? "").split(/:(.*)/s, 2).map((v) => (v ? decodeURIComponent(v) : undefined));
    return { cluster: true, nodes, tls: cluster[1] === "rediss", ...(user ? { username: user } : {}), ...(password ? { password } : {}) };
  }
  if (!/^rediss?:\/\//.test(text) || !URL.canParse(text)) return "must be a redis://, rediss://, redis+cluster:// or rediss+cluster:// URL";
  return { cluster: false, url: text };
}

/** A refresh tier: items younger than `maxAgeMs` (Infinity for the last) are refreshed every `intervalMs`. */
export interface CadenceTier {
  maxAgeMs: number;
  intervalMs: number;
}

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `2d=1h,7d=4h,30d=1d,*=7d` → tiers, or the reason it is not a cadence. */
export function parseCadence(text: string): CadenceTier[] | string {
  const duration = (d: string) => {
    const m = /^(\d+(?:\.\d+)?)([mhd])$/.exec(d.trim());
    return m ? Number(m[1]) * UNIT_MS[m[2]!]! : NaN;
  };
  const tiers: CadenceTier[] = [];
  const parts = text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  for (const [i, part] of parts.entries()) {
    const [age, interval, extra] = part.split("=");
    const last = i === parts.length - 1;
    const maxAgeMs = age?.trim() === "*" ? Infinity : duration(age ?? "");
    const intervalMs = duration(interval ?? "");
    if (extra !== undefined || Number.isNaN(maxAgeMs) || !(intervalMs > 0)) return `"${part}" is not age=interval (e.g. 2d=1h)`;
    if ((maxAgeMs === Infinity) !== last) return "the last tier, and only it, is *=interval";
    if (tiers.length && maxAgeMs <= tiers[tiers.length - 1]!.maxAgeMs) return "tiers must be in increasing age";
    tiers.push({ maxAgeMs, intervalMs });
  }
  return tiers.length ? tiers : "at least one tier (*=interval) is needed";
}

const DELAY_UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `5s,5m,30m` → [5000, 300000, 1800000], or the reason it is not a list of delays. */
function parseDelays(text: string): number[] | string {
  const delays: number[] = [];
  for (const part of text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(part);
    if (!m) return `"${part}" is not a delay (e.g. 5s, 5m, 2h)`;
    delays.push(Math.round(Number(m[1]) * DELAY_UNIT_MS[m[2]!]!));
  }
  return delays.length ? delays : "at least one delay is needed";
}

/**
 * Whether `program` is an executable file: the path itself when it names a directory, else found on
 * PATH. Nothing is run (importing this module runs no program); src/main/lifecycle.ts reads
 * versions at start-up.
 */
/**
 * Traces (docs/operations.md, "Traces"): on when the standard OpenTelemetry variables name a trace
 * exporter: `OTEL_TRACES_EXPORTER` not starting with `none`, or else an OTLP endpoint
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`); off with `OTEL_SDK_DISABLED=true`.
 * Off, no part of the SDK is loaded (src/main/tracing.ts).
 */
/**
 * What a trace holds besides jobs (docs/operations.md, "Traces"), by the names of OpenTelemetry's standard
 * OTEL_NODE_ENABLED_INSTRUMENTATIONS: by default `http` (a server span per request, src/http/request-context.ts,
 * and client spans of outgoing requests), `pg` (statements) and `pino` (the trace id on log lines); `express`,
 * `graphql` and `ioredis` when named (src/main/telemetry.ts says what each costs). An unknown name stops the start.
 */
export const TRACE_INSTRUMENTATIONS = ["http", "pg", "pino", "express", "graphql", "ioredis"] as const;
export type TraceInstrumentation = (typeof TRACE_INSTRUMENTATIONS)[number];
const DEFAULT_TRACE_INSTRUMENTATIONS: TraceInstrumentation[] = ["http", "pg", "pino"];

export function enabledInstrumentations(value: string | undefined): TraceInstrumentation[] {
  const names = (value ?? "")
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean);
  if (names.length === 0) return DEFAULT_TRACE_INSTRUMENTATIONS;
  const unknown = names.filter((n) => !(TRACE_INSTRUMENTATIONS as readonly string[]).includes(n));
  if (unknown.length)
    throw new Error(`OTEL_NODE_ENABLED_INSTRUMENTATIONS: unknown ${unknown.join(", ")} (known: ${TRACE_INSTRUMENTATIONS.join(", ")})`);
  return [...new Set(names)] as TraceInstrumentation[];
}

export function tracingWanted(env: NodeJS.ProcessEnv): boolean {
  if ((env.OTEL_SDK_DISABLED ?? "").trim().toLowerCase() === "true") return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (exporters.length) return exporters[0] !== "none"; // as the SDK reads it: "none" first turns traces off
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

export function programFound(program: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const candidates = program.includes("/")
    ? [program]
    : (env.PATH ?? process.env.PATH ?? "")
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, program));
  return candidates.some((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  if (e.GRAPHQL_PERSISTED_ONLY && !e.GRAPHQL_PERSISTED_OPERATIONS) {
    throw new Error(
      "Invalid configuration:\n  GRAPHQL_PERSISTED_ONLY: needs GRAPHQL_PERSISTED_OPERATIONS (the file of trusted operations)",
    );
  }
  // The scrape provider defaults to yt-dlp when the program is installed (found, not run), else to
  // simulated data. Its version is read at start-up when it scrapes or downloads (src/main/lifecycle.ts:
  // logged, shown by /readyz); the radar's yt-dlp search alone does not read it (a search fails loudly on its own).
  // Found without SCRAPE_PROVIDER, yt-dlp is chosen only tentatively (`scrapeChoice: "found"`): start-up keeps it when
  // its release is recent enough to read the platforms' pages, else falls back to simulated data and says why
  // (src/main/lifecycle.ts, `settleProviders`; README "Run it").
  const ytdlpFound = programFound(e.YTDLP_PATH, env);
  const scrapeProvider = e.SCRAPE_PROVIDER ?? (ytdlpFound ? "ytdlp" : "simulated");
  return {
    env: e.NODE_ENV,
    databaseUrl: e.DATABASE_URL,
    /** REDIS_CLUSTER_NODES (when set) or REDIS_URL: src/infra/redis.ts connects accordingly. */
    redis: e.REDIS_CLUSTER_NODES ? ({ cluster: true, nodes: e.REDIS_CLUSTER_NODES, tls: false } as RedisTarget) : e.REDIS_URL,
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    logDestination: e.LOG_DESTINATION,
    /** LOG_FORMAT as set (null: decided by whether the destination is a terminal). */
    logFormat: e.LOG_FORMAT ?? null,
    logContext: e.LOG_CONTEXT,
    /** OpenTelemetry traces exported (the OTEL_* variables, read by the SDK itself): see tracingWanted. */
    tracing: tracingWanted(env),
    /** The instrumentations of a trace (OTEL_NODE_ENABLED_INSTRUMENTATIONS): see enabledInstrumentations. */
    traceInstrumentations: tracingWanted(env) ? enabledInstrumentations(env.OTEL_NODE_ENABLED_INSTRUMENTATIONS) : [],
    redisPrefix: e.REDIS_PREFIX,
    providers: {
      scrape: scrapeProvider,
      media: e.MEDIA_PROVIDER ?? scrapeProvider,
      transcribe: e.TRANSCRIBE_PROVIDER,
      analysis: e.ANALYSIS_PROVIDER,
      radar: e.RADAR_PROVIDERS,
    } as Providers,
    /** How the scrape provider was chosen: `set` (SCRAPE_PROVIDER), `found` (yt-dlp is installed: kept at start-up only
     *  when recent), `missing` (no yt-dlp); and whether MEDIA_PROVIDER was set or follows it. */
    providerChoice: {
      scrape: (e.SCRAPE_PROVIDER ? "set" : ytdlpFound ? "found" : "missing") as "set" | "found" | "missing",
      mediaSet: e.MEDIA_PROVIDER !== undefined,
      /** Why the scrape provider is what it is, when start-up decided it (null: as configured). */
      reason: null as string | null,
    },
    openai: {
      baseUrl: e.OPENAI_BASE_URL,
      apiKey: e.OPENAI_API_KEY,
      model: e.OPENAI_MODEL,
      transcribeModel: e.OPENAI_TRANSCRIBE_MODEL,
      timeoutMs: e.OPENAI_TIMEOUT_MS,
      vision: e.OPENAI_VISION,
    },
    programs: {
      ytdlp: e.YTDLP_PATH,
      ytdlpTimeoutMs: e.YTDLP_TIMEOUT_MS,
      ytdlpConcurrency: e.YTDLP_CONCURRENCY,
      /** Calls per minute per platform for the whole deployment (0: no budget). */
      ytdlpCallsPerMinute: {
        platformA: e.YTDLP_CALLS_PER_MINUTE_BY_PLATFORM.platformA ?? e.YTDLP_CALLS_PER_MINUTE,
        platformB: e.YTDLP_CALLS_PER_MINUTE_BY_PLATFORM.platformB ?? e.YTDLP_CALLS_PER_MINUTE,
        platformC: e.YTDLP_CALLS_PER_MINUTE_BY_PLATFORM.platformC ?? e.YTDLP_CALLS_PER_MINUTE,
      },
      ytdlpBudgetMaxWaitMs: e.YTDLP_BUDGET_MAX_WAIT_MS,
      /** Whether the scrape or media provider runs yt-dlp (its version is then read at start-up). */
      ytdlpUsed: scrapeProvider === "ytdlp" || (e.MEDIA_PROVIDER ?? scrapeProvider) === "ytdlp",
      ffmpeg: e.FFMPEG_PATH,
      pocketsphinx: e.POCKETSPHINX_PATH,
      espeak: e.ESPEAK_PATH,
      tesseract: e.TESSERACT_PATH,
    },
    media: {
      timeoutMs: e.MEDIA_TIMEOUT_MS,
      maxBytes: e.MEDIA_MAX_BYTES,
      maxSeconds: e.MEDIA_MAX_SECONDS,
      simulatedSpeech: e.SIMULATED_MEDIA_SPEECH,
    },
    visual: {
      enabled: e.VISUAL_ANALYSIS,
      maxKeyframes: e.VISUAL_MAX_KEYFRAMES,
      concurrency: e.VISUAL_CONCURRENCY,
      textConfidenceFloor: e.VISUAL_TEXT_CONFIDENCE_FLOOR,
    },
    speech: { confidenceFloor: e.SPEECH_CONFIDENCE_FLOOR },
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    revocationCheckIntervalMs: e.REVOCATION_CHECK_INTERVAL_MS,
    sessionMemoryMs: e.SESSION_MEMORY_MS,
    idempotency: { leaseMs: e.IDEMPOTENCY_LEASE_MS },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    schedulerCheckIntervalMs: e.SCHEDULER_CHECK_INTERVAL_MS,
    outageLogIntervalMs: e.OUTAGE_LOG_INTERVAL_MS,
    timeouts: {
      redisCommandMs: e.REDIS_COMMAND_TIMEOUT_MS,
      databaseConnectMs: e.DATABASE_CONNECT_TIMEOUT_MS,
      databaseStatementMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
      databaseQueryMs: e.DATABASE_QUERY_TIMEOUT_MS,
    },
    refresh: {
      cadence: e.REFRESH_CADENCE,
      hotViewsPerHour: e.REFRESH_HOT_VIEWS_PER_HOUR,
      hotDailyGrowth: e.REFRESH_HOT_DAILY_GROWTH,
      minIntervalMs: e.REFRESH_MIN_INTERVAL_SECONDS * 1000,
      schedulerEveryMs: e.REFRESH_SCHEDULER_EVERY_SECONDS * 1000,
      batchSize: e.REFRESH_BATCH_SIZE,
      maxPerRun: e.REFRESH_MAX_PER_RUN,
      leaseMs: Math.round(e.REFRESH_LEASE_MINUTES * 60_000),
      backoffBaseMs: Math.round(e.REFRESH_BACKOFF_MINUTES * 60_000),
      backoffMaxMs: Math.round(e.REFRESH_BACKOFF_MAX_HOURS * 3_600_000),
      maxFailures: e.REFRESH_MAX_FAILURES,
    },
    history: { fullResolutionDays: e.HISTORY_FULL_RESOLUTION_DAYS },
    spikeOutlierThreshold: e.SPIKE_OUTLIER_THRESHOLD,
    analysisDeadlineMs: e.ANALYSIS_DEADLINE_SECONDS * 1000,
    analysisJobs: {
      lockMs: e.ANALYSIS_LOCK_MS,
      stalledIntervalMs: e.ANALYSIS_STALLED_INTERVAL_MS,
      sweepIntervalMs: e.ANALYSIS_SWEEP_INTERVAL_MS,
      attempts: e.ANALYSIS_ATTEMPTS,
      retryDelayMs: e.ANALYSIS_RETRY_DELAY_MS,
    },
    scrapeJobs: { lockMs: e.SCRAPE_LOCK_MS, stalledIntervalMs: e.SCRAPE_STALLED_INTERVAL_MS },
    radarJobs: { lockMs: e.RADAR_LOCK_MS, stalledIntervalMs: e.RADAR_STALLED_INTERVAL_MS, retryDelayMs: e.RADAR_RETRY_DELAY_MS },
    exports: {
      dir: resolve(e.EXPORT_DIR ?? join(tmpdir(), "video-service-exports")),
      retentionMs: Math.round(e.EXPORT_RETENTION_HOURS * 3_600_000),
      maxConcurrent: e.EXPORT_MAX_CONCURRENT,
      batchSize: e.EXPORT_BATCH_SIZE,
      progressEvery: e.EXPORT_PROGRESS_EVERY,
      urlTtlMs: Math.round(e.EXPORT_URL_TTL_MINUTES * 60_000),
    },
    concurrency: { scrape: e.SCRAPE_CONCURRENCY, analysis: e.ANALYSIS_CONCURRENCY, radar: e.RADAR_CONCURRENCY },
    graphql: {
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxCost: e.GRAPHQL_MAX_COST,
      persistedOperationsFile: e.GRAPHQL_PERSISTED_OPERATIONS,
      persistedOnly: e.GRAPHQL_PERSISTED_ONLY,
      maxTokens: e.GRAPHQL_MAX_TOKENS,
      maxAliases: e.GRAPHQL_MAX_ALIASES,
      maxDirectives: e.GRAPHQL_MAX_DIRECTIVES,
      maxResponseValues: e.GRAPHQL_MAX_RESPONSE_VALUES,
      maxSocketsPerKey: e.GRAPHQL_MAX_SOCKETS_PER_KEY,
      maxSubscriptionsPerKey: e.GRAPHQL_MAX_SUBSCRIPTIONS_PER_KEY,
      wsAuthTimeoutMs: e.GRAPHQL_WS_AUTH_TIMEOUT_MS,
      subscriptionMaxLifetimeMs: e.GRAPHQL_SUBSCRIPTION_MAX_LIFETIME_SECONDS * 1000,
      directPost: e.GRAPHQL_DIRECT_POST,
    },
    http: { headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS, requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS },
    webhooks: {
      secretKey: e.WEBHOOK_SECRET_KEY,
      previousSecretKey: e.WEBHOOK_SECRET_KEY_PREVIOUS,
      maxInFlightPerEndpoint: e.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT,
      allowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
      retryDelaysMs: e.WEBHOOK_RETRY_SCHEDULE,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      disableAfterMs: Math.round(e.WEBHOOK_DISABLE_AFTER_HOURS * 3_600_000),
      concurrency: e.WEBHOOK_CONCURRENCY,
      sweepIntervalMs: e.WEBHOOK_SWEEP_INTERVAL_MS,
      lockMs: e.WEBHOOK_LOCK_MS,
      stalledIntervalMs: e.WEBHOOK_STALLED_INTERVAL_MS,
      retentionDays: e.WEBHOOK_RETENTION_DAYS,
    },
    creditsLowPercent: e.CREDITS_LOW_PERCENT,
    validateResponses: e.VALIDATE_RESPONSES ?? e.NODE_ENV === "test",
    seedDemo: e.SEED_DEMO,
    operations: { metrics: e.METRICS, metricsToken: e.METRICS_TOKEN, adminToken: e.ADMIN_TOKEN, graphiql: e.GRAPHIQL },
    people: {
      publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ""),
      authSecret: e.AUTH_SECRET,
      trustProxy: e.TRUST_PROXY,
      signIn: {
        maxFailuresPerEmail: e.SIGN_IN_MAX_FAILURES_PER_EMAIL,
        maxFailuresPerAddress: e.SIGN_IN_MAX_FAILURES_PER_ADDRESS,
        windowSeconds: e.SIGN_IN_FAILURE_WINDOW_MINUTES * 60,
        knownAddressSeconds: e.SIGN_IN_KNOWN_ADDRESS_DAYS * 86_400,
      },
    },
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM ?? `Video service <no-reply@${new URL(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).hostname}>`,
      maxPerWorkspacePerHour: e.MAIL_MAX_PER_WORKSPACE_PER_HOUR,
      maxResetsPerAddressPerHour: e.MAIL_MAX_RESETS_PER_ADDRESS_PER_HOUR,
      maxInvitationsPerAddressPerDay: e.MAIL_MAX_INVITATIONS_PER_ADDRESS_PER_DAY,
      maxReportsPerAddressPerDay: e.MAIL_MAX_REPORTS_PER_ADDRESS_PER_DAY,
    },
    dashboardDir: resolve(e.DASHBOARD_DIR ?? fileURLToPath(new URL("../web/dist", import.meta.url))),
  };
}

export interface Providers {
  scrape: "ytdlp" | "simulated";
  media: "ytdlp" | "simulated";
  transcribe: "pocketsphinx" | "openai";
  analysis: "heuristic" | "openai";
  radar: ("catalog" | "ytdlp")[];
}

/** The outside programs the providers run: the setting naming each, and the Debian package that provides it. */
export const PROGRAMS = {
  ytdlp: { program: "yt-dlp", variable: "YTDLP_PATH", debianPackage: "yt-dlp", versionArgs: ["--version"] },
  ffmpeg: { program: "ffmpeg", variable: "FFMPEG_PATH", debianPackage: "ffmpeg", versionArgs: ["-version"] },
  pocketsphinx: {
    program: "pocketsphinx_continuous",
    variable: "POCKETSPHINX_PATH",
    debianPackage: "pocketsphinx pocketsphinx-en-us",
    versionArgs: null,
  },
  espeak: { program: "espeak-ng", variable: "ESPEAK_PATH", debianPackage: "espeak-ng", versionArgs: ["--version"] },
  tesseract: {
    program: "tesseract",
    variable: "TESSERACT_PATH",
    debianPackage: "tesseract-ocr tesseract-ocr-eng",
    versionArgs: ["--version"],
  },
} as const satisfies Record<string, { program: string; variable: string; debianPackage: string; versionArgs: readonly string[] | null }>;

export type ProgramKey = keyof typeof PROGRAMS;

/** How to get a missing program: `sudo apt-get install -y <package>` (yt-dlp: a current release, README "yt-dlp freshness"). */
export function installHint(key: ProgramKey): string {
  const p = PROGRAMS[key];
  const apt = `sudo apt-get install -y ${p.debianPackage}`;
  return key === "ytdlp"
    ? `install a current yt-dlp (README, "yt-dlp freshness": Debian's package is too old) or point ${p.variable} at one`
    : `install it (Debian/Ubuntu: ${apt}) or point ${p.variable} at it`;
}

/** The configured path of the program a path names (the setting's value, or a file of the program's name), if any. */
export function programOf(path: string, programs: Record<ProgramKey, string> = config.programs): ProgramKey | null {
  const base = path.split("/").pop();
  const keys = Object.keys(PROGRAMS) as ProgramKey[];
  return keys.find((k) => programs[k] === path) ?? keys.find((k) => PROGRAMS[k].program === base) ?? null;
}

/** The process-wide configuration, validated on first import. */
export const config = loadConfig();
