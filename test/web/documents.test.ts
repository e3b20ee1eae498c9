/**
 * The dashboard's GraphQL documents (web/src, graphql`…`) are valid against the printed schema
 * (schema.graphql): relay-compiler's validate mode compiles them all, so a schema change that breaks
 * the dashboard fails `npm test`. Also checked: the same command fails when a field the dashboard
 * reads is missing from the schema (the check can fail); and every query the dashboard sends stays
 * within the server's cost limit (GRAPHQL_MAX_COST, src/http/graphql/cost.ts), as the server
 * counts it: a page whose parts spread too much into one query is refused with every request.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { buildSchema, Kind, parse, type FragmentDefinitionNode, type OperationDefinitionNode } from "graphql";
import { operationCost } from "../../src/http/graphql/cost.js";
import { config } from "../../src/config.js";

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

  describe("within the server's cost limit", () => {
    const schema = buildSchema(readFileSync(join(WEB, "../schema.graphql"), "utf8"));
    const GENERATED = join(WEB, "src/__generated__");
    /** The text the dashboard sends for a query artifact (web/src/__generated__, written by relay-compiler). */
    const textOf = (artifact: string) => {
      const text = /"text": ("(?:[^"\\]|\\.)*")/.exec(readFileSync(join(GENERATED, artifact), "utf8"))?.[1];
      return text ? (JSON.parse(text) as string) : null;
    };
    const costOf = (text: string) => {
      const doc = parse(text);
      const fragments = new Map(
        doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
      );
      const operation = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
      return operationCost(schema, (name) => fragments.get(name), operation.selectionSet.selections, schema.getQueryType()!);
    };

    it("every query the dashboard sends", () => {
      const queries = readdirSync(GENERATED).filter((f) => f.endsWith("Query.graphql.ts"));
      expect(queries.length).toBeGreaterThan(40);
      const over = queries.flatMap((f) => {
        const text = textOf(f);
        const cost = text ? costOf(text) : 0;
        return cost > config.graphql.maxCost ? [`${f}: ${Math.round(cost)}`] : [];
      });
      expect(over).toEqual([]);
    });

    it("and a query past it is caught (the videos page with its saved views read a thousand at a time)", () => {
      const text = textOf("VideosPageQuery.graphql.ts")!;
      expect(costOf(text)).toBeLessThanOrEqual(config.graphql.maxCost);
      expect(costOf(text.replace("savedViews(list: VIDEOS, first: 100)", "savedViews(list: VIDEOS, first: 1000)"))).toBeGreaterThan(
        config.graphql.maxCost,
      );
    });
  });
});
