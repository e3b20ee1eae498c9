/**
 * Tests leave no Redis keys behind: each file's keys are removed when it ends (test/setup/per-file.ts),
 * and the end of the run fails, naming the prefixes, when keys of the run's prefixes remain (test/setup/global.ts).
 * Checked with nested runs of the real set-up over a fixture file (test/fixtures/redis-leak).
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { keysUnder } from "../setup/redis-keys.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CONFIG = "test/fixtures/redis-leak/vitest.config.ts";

async function nestedRun(leak: boolean): Promise<{ code: number; output: string }> {
  const vitest = `${ROOT}node_modules/.bin/vitest`;
  const env: NodeJS.ProcessEnv = { ...process.env, LEAK: leak ? "1" : "0", NO_COLOR: "1" };
  delete env.REDIS_PREFIX;
  const r = await promisify(execFile)(vitest, ["run", "--config", CONFIG, "--reporter", "verbose"], {
    cwd: ROOT,
    env,
    timeout: 150_000,
  }).then(
    (ok) => ({ code: 0, out: `${ok.stdout}${ok.stderr}` }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: `${e.stdout}${e.stderr}` }),
  );
  return { code: r.code, output: r.out };
}

describe("Redis keys of a test run", () => {
  it("a file's keys (plain and hash-tagged) are removed when it ends; a key left under the run's prefix fails the run and is removed", {
    timeout: 320_000,
  }, async () => {
    const clean = await nestedRun(false);
    expect(clean.code, clean.output).toBe(0);
    expect(clean.output).toMatch(/makes keys/);
    const leaky = await nestedRun(true);
    expect(leaky.code, leaky.output).toBe(1);
    const m = /Redis keys of this test run were left behind \(1; by prefix: (tr_[0-9a-f]+x[0-9a-f]+_)leaked: 1\)/.exec(leaky.output);
    expect(m, leaky.output).not.toBeNull();
    expect(await keysUnder(m![1]!)).toEqual([]);
  });
});
