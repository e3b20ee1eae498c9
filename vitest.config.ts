import { defineConfig } from "vitest/config";

export default defineConfig({
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
