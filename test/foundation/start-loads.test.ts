/**
 * What the API loads at start: libraries used by one door or one kind of request load on their first use
 * (better-auth on the first sign-in or session, the MCP SDK on the first /mcp request, Bull Board on the first
 * board page, exceljs on the first XLSX, pino-pretty only for a terminal). Each test file and each service process
 * the tests spawn imports the app, so a static import of one of them costs every start again; nothing but this
 * test would notice one coming back.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
// better-auth itself is loaded for its small `better-auth/node` helpers; its core and query builder are not.
const LOADED_ON_FIRST_USE = ["@better-auth/core", "kysely", "@modelcontextprotocol/sdk", "@bull-board/api", "exceljs", "pino-pretty"];

/** The packages of every module a fresh Node process loads when it imports `module` (Node's own load hook). */
async function packagesLoadedBy(module: string): Promise<Set<string>> {
  const script = `
    import { registerHooks } from "node:module";
    const seen = new Set();
    registerHooks({ load(url, context, next) {
      const m = url.match(/node_modules\\/((?:@[^/]+\\/)?[^/]+)/);
      if (m) seen.add(m[1]);
      return next(url, context);
    } });
    await import(${JSON.stringify(new URL(module, `file://${ROOT}`).href)});
    process.stdout.write(JSON.stringify([...seen]));
    process.exit(0);`;
  const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
    cwd: ROOT,
    env: { ...process.env, LOG_FORMAT: "json" },
  });
  return new Set(JSON.parse(stdout) as string[]);
}

describe("the API's start", () => {
  it("loads the libraries of one door or one request kind only when first used", async () => {
    const loaded = await packagesLoadedBy("src/main/server.ts");
    expect(loaded.has("graphql-yoga"), "the probe saw the app's own libraries").toBe(true);
    expect(LOADED_ON_FIRST_USE.filter((p) => loaded.has(p))).toEqual([]);
  });
});
