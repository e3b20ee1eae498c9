/**
 * The layer rule of docs/architecture.md stays true: dependency-cruiser checks every import of
 * src/ and web/src/ (the dashboard) against .dependency-cruiser.cjs. A second run on a throw-away tree with one import the wrong
 * way round proves the rules do catch one (so this test cannot pass by checking nothing).
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { cruise, type IConfiguration } from "dependency-cruiser";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const config = createRequire(import.meta.url)(join(ROOT, ".dependency-cruiser.cjs")) as IConfiguration;

async function violations(baseDir: string, seen?: { dependencies: number }): Promise<string[]> {
  const previous = process.cwd();
  process.chdir(baseDir); // the rules' paths are relative to the project root
  try {
    const result = await cruise(["src", "web/src"].filter((d) => existsSync(join(baseDir, d))), { ...config.options, ruleSet: { forbidden: config.forbidden }, validate: true });
    const output = result.output as { summary: { totalDependenciesCruised: number; violations: { from: string; to: string; rule: { name: string } }[] } };
    if (seen) seen.dependencies = output.summary.totalDependenciesCruised;
    return output.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
  } finally {
    process.chdir(previous);
  }
}

describe("layers", () => {
  it("no import in src/ crosses the layers the wrong way", async () => {
    const seen = { dependencies: 0 };
    expect(await violations(ROOT, seen)).toEqual([]);
    expect(seen.dependencies).toBeGreaterThan(400); // imports resolved (".js" specifiers onto the .ts sources)
  }, 60_000);

  it("the rules catch a domain module that imports a door", async () => {
    const dir = await mkdtemp(join(tmpdir(), "layers-"));
    try {
      await mkdir(join(dir, "src/domain/area"), { recursive: true });
      await mkdir(join(dir, "src/http"), { recursive: true });
      await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext" }, include: ["src"] }));
      await writeFile(join(dir, "src/http/route.ts"), "export const route = 1;\n");
      await writeFile(join(dir, "src/domain/area/service.ts"), 'import { route } from "../../http/route.js";\nexport const x = route;\n');
      expect(await violations(dir)).toEqual(["domain-is-inward: src/domain/area/service.ts → src/http/route.ts"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("the rules catch the dashboard importing the server's code, and the server importing the dashboard's", async () => {
    const dir = await mkdtemp(join(tmpdir(), "layers-"));
    try {
      await mkdir(join(dir, "src/http"), { recursive: true });
      await mkdir(join(dir, "web/src"), { recursive: true });
      await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", jsx: "react-jsx" }, include: ["src", "web/src"] }));
      await writeFile(join(dir, "src/http/route.ts"), 'import { Page } from "../../web/src/Page.js";\nexport const route = Page;\n');
      await writeFile(join(dir, "web/src/Page.tsx"), 'import { route } from "../../src/http/route.js";\nexport const Page = () => route;\n');
      expect((await violations(dir)).sort()).toEqual([
        "the-dashboard-is-a-client: web/src/Page.tsx → src/http/route.ts",
        "the-server-never-imports-the-dashboard: src/http/route.ts → web/src/Page.tsx",
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
