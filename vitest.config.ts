import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";

const require = createRequire(import.meta.url);

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
    maxWorkers: 2,
  },
});
