/**
 * The log format (src/infra/logger.ts, LOG_FORMAT): JSON lines when the output is not a terminal or
 * when asked, pretty lines (pino-pretty) when asked or on a terminal. A real process writes them.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { logFormat } from "../../src/infra/logger.js";

const LOGGER = fileURLToPath(new URL("../../src/infra/logger.ts", import.meta.url));
const SCRIPT = `const { logger } = await import(${JSON.stringify(LOGGER)}); logger.info({ videoId: "v-1" }, "scrape stored"); logger.flush?.();`;

async function logOf(format: string | undefined): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "info" };
  if (format === undefined) delete env.LOG_FORMAT;
  else env.LOG_FORMAT = format;
  const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", SCRIPT], { env, timeout: 20_000 });
  return stdout.trim();
}

describe("log format", () => {
  it("is JSON through a pipe when unset, and when asked", async () => {
    const [unset, json] = await Promise.all([logOf(undefined), logOf("json")]);
    for (const out of [unset, json])
      expect(JSON.parse(out)).toMatchObject({ level: 30, msg: "scrape stored", videoId: "v-1", service: "video-service" });
  });

  it("is readable lines when asked, without colours off a terminal", async () => {
    const out = await logOf("pretty");
    expect(out).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: scrape stored\n\s+videoId: "v-1"$/);
    expect(out).not.toContain("\u001b[");
  });

  it("defaults to pretty on a terminal, JSON elsewhere; LOG_FORMAT wins", () => {
    expect([logFormat(null, true), logFormat(null, false), logFormat("json", true), logFormat("pretty", false)]).toEqual([
      "pretty",
      "json",
      "json",
      "pretty",
    ]);
  });
});
