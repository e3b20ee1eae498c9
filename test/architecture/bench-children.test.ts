/**
 * Benches measure the service as it runs in production: `npm start` runs `node src/main/*.ts` (Node 24's type
 * stripping), so a bench's API or worker process must not run under tsx, whose keepNames wraps every closure in a
 * `__name` call (bench/lib/load.ts says what that cost). Bench scripts themselves need tsx (their imports name .js).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { childArguments } from "../../bench/lib/load.js";

describe("bench children run the service as npm start does", () => {
  it("a service entry point runs on plain node, flags kept; a bench script under tsx", () => {
    expect(childArguments(["src/main/api.ts"])).toEqual(["src/main/api.ts"]);
    expect(childArguments(["--cpu-prof", "src/main/worker.ts"])).toEqual(["--cpu-prof", "src/main/worker.ts"]);
    expect(childArguments(["bench/subscribers.ts", "probe"])).toEqual(["--import", "tsx", "bench/subscribers.ts", "probe"]);
  });

  it("npm start and the role scripts are plain node on src/main", () => {
    const scripts = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).scripts as Record<string, string>;
    for (const name of ["start", "start:api", "start:worker"]) expect(scripts[name], name).toMatch(/^node src\/main\/[a-z-]+\.ts$/);
  });
});
