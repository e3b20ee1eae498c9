import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const require = createRequire(import.meta.url);

// The test files' processes (forked from this one, so they inherit it) and the service's processes they spawn (about a
// hundred: APIs, workers, the CLI) keep V8's compiled code of the modules they load between runs (Node.js' compile
// cache, type stripping included): a spawned API imports its modules in 0.5 s instead of 0.8 s.
process.env.NODE_COMPILE_CACHE ??= fileURLToPath(new URL("node_modules/.cache/node-compile-cache", import.meta.url));

export default defineConfig({
  resolve: {
    // graphql 16 ships CommonJS (index.js, what Node loads for Pothos and Yoga) and ESM (index.mjs,
    // what Vite would pick for our sources). Two copies mean two "realms" and broken instanceof
    // checks, so the tests load the one Node loads in production.
    alias: [{ find: /^graphql$/, replacement: require.resolve("graphql") }],
  },
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/setup/global.ts"],
    setupFiles: ["test/setup/per-file.ts"],
    // Each test file runs in its own process with its own database (cloned from a migrated
    // template) and its own Redis key prefix, so files run in parallel without sharing state.
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: true,
    // One file per core (at most 4: every file has its own database and spawns services with pools of their own, on one
    // PostgreSQL of 100 connections by default). One file more than cores kept 2 cores 97 % busy instead of about two
    // thirds, and the run took 360 s instead of 418 s, but two of eight such runs failed a test on timing (a browser
    // wait of 15 s, a delivery racing an untrack): CI must not fail on load, so the suite stays at one per core.
    maxWorkers: Math.min(availableParallelism(), 4),
  },
});
