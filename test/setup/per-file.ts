/**
 * Runs in each test file's process before the file is imported: gives the file its own database
 * (a clone of this run's migrated template) and its own Redis prefix, then points the
 * configuration at them; when the file ends, drops both.
 */
import { randomBytes } from "node:crypto";
import { afterAll, inject } from "vitest";
import { DB_PREFIX, cloneTemplate, dropDatabase, urlFor } from "./db-admin.js";
import { dropKeysUnder, runKeyPrefix } from "./redis-keys.js";

// The servers the run chose (./services.ts), before anything here connects.
process.env.TEST_ADMIN_DATABASE_URL = inject("services").adminUrl;
process.env.REDIS_URL = inject("services").redisUrl;
const runPid = inject("runPid");
const tag = `${process.pid}_${randomBytes(4).toString("hex")}`;
const database = `${DB_PREFIX}${runPid}_${tag}`;
await cloneTemplate(database, inject("templateDb"));

process.env.NODE_ENV = "test";
process.env.DATABASE_URL = urlFor(database);
// The run's pid first, so that the end of the run can find what its files left (test/setup/redis-keys.ts).
const redisPrefix = `${runKeyPrefix(inject("runId"))}${tag}`;
process.env.REDIS_PREFIX = redisPrefix;
process.env.LOG_LEVEL ??= "silent";
process.env.SCRAPE_PROVIDER ??= "simulated";
process.env.SEED_DEMO = "false";
// The visual stage (ffmpeg, tesseract, a face model: a second or two per analysis) only in the files
// about seeing the video, which turn it on themselves; every other analysis is transcript-only.
process.env.VISUAL_ANALYSIS ??= "false";

afterAll(async () => {
  // Files that start a server or workers close them in their own afterAll, which runs first.
  await dropDatabase(database);
  // Every key the file made (queues, rate limits, events, caches), spawned processes' included.
  await dropKeysUnder(redisPrefix);
});
