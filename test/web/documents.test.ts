/**
 * The dashboard's GraphQL documents (web/src, graphql`…`) are valid against the printed schema
 * (schema.graphql): relay-compiler's validate mode compiles them all, so a schema change that breaks
 * the dashboard fails `npm test`. Also checked: the same command fails when a field the dashboard
 * reads is missing from the schema (the check can fail).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const WEB = fileURLToPath(new URL("../../web", import.meta.url));
const COMPILER = join(WEB, "..", "node_modules/.bin/relay-compiler");

function relayValidate(config: string) {
  const run = spawnSync(COMPILER, ["--validate", "--output", "quiet-with-errors", config], { cwd: WEB, encoding: "utf8", timeout: 60_000 });
  return { status: run.status, output: `${run.stdout}\n${run.stderr}` };
}

describe("the dashboard's GraphQL documents", () => {
  it("compile against schema.graphql", () => {
    const run = relayValidate("relay.config.json");
    expect(run.output).not.toMatch(/error/i);
    expect(run.status).toBe(0);
  });

  it("fail to compile when a field they read is renamed in the schema", () => {
    const schema = readFileSync(join(WEB, "../schema.graphql"), "utf8");
    const broken = schema.replace(/\n  views24h: Count\n/, "\n  viewsLast24h: Count\n");
    expect(broken).not.toBe(schema);
    const dir = mkdtempSync(join(tmpdir(), "relay-validate-"));
    writeFileSync(join(dir, "schema.graphql"), broken);
    const config = JSON.parse(readFileSync(join(WEB, "relay.config.json"), "utf8")) as Record<string, unknown>;
    writeFileSync(
      join(dir, "relay.config.json"),
      JSON.stringify({
        ...config,
        src: join(WEB, "src"),
        schema: join(dir, "schema.graphql"),
        artifactDirectory: join(WEB, "src/__generated__"),
      }),
    );
    const run = relayValidate(join(dir, "relay.config.json"));
    expect(run.status).not.toBe(0);
    expect(run.output).toContain("views24h");
  });
});
