/**
 * The layer rule of docs/architecture.md stays true: dependency-cruiser checks every import of
 * src/ and web/src/ (the dashboard) against .dependency-cruiser.cjs. Runs on throw-away trees with
 * one import the wrong way round (a domain module importing a door, a door importing another door's
 * routes, an import circle, an area importing one listed after it in the areas' order, an area with no
 * place in that order, the dashboard and the server importing each other, a dashboard folder importing
 * one above it, two dashboard folders importing each other) prove the rules do catch each (so this test
 * cannot pass by checking nothing).
 */
import { existsSync, readdirSync } from "node:fs";
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
    const result = await cruise(
      ["src", "web/src"].filter((d) => existsSync(join(baseDir, d))),
      { ...config.options, ruleSet: { forbidden: config.forbidden }, validate: true },
    );
    const output = result.output as {
      summary: { totalDependenciesCruised: number; violations: { from: string; to: string; rule: { name: string } }[] };
    };
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

  /** The violations of a throw-away tree of `files` (path → source), cruised with the project's rules. */
  async function violationsOf(files: Record<string, string>): Promise<string[]> {
    const dir = await mkdtemp(join(tmpdir(), "layers-"));
    try {
      await writeFile(
        join(dir, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", jsx: "react-jsx" },
          include: ["src", "web/src"],
        }),
      );
      for (const [path, source] of Object.entries(files)) {
        await mkdir(join(dir, path, ".."), { recursive: true });
        await writeFile(join(dir, path), source);
      }
      return await violations(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  it("the rules catch a domain module that imports a door", async () => {
    expect(
      await violationsOf({
        "src/http/route.ts": "export const route = 1;\n",
        "src/domain/area/service.ts": 'import { route } from "../../http/route.js";\nexport const x = route;\n',
      }),
    ).toEqual(["domain-is-inward: src/domain/area/service.ts → src/http/route.ts"]);
  });

  it("the rules catch an import circle (a type-only import closes one too) and domain/shared importing an area", async () => {
    expect(
      await violationsOf({
        "src/domain/tags/events.ts": 'import type { Item } from "./service.js";\nexport const announce = (i: Item) => i;\n',
        "src/domain/tags/service.ts":
          'import { announce } from "./events.js";\nexport interface Item { id: string }\nexport const save = (i: Item) => announce(i);\n',
        "src/domain/shared/catalog.ts": 'import { save } from "../tags/service.js";\nexport const all = [save];\n',
      }),
    ).toEqual([
      // One violation per circle, named by its first arrow.
      "areas-in-order: src/domain/shared/catalog.ts → src/domain/tags/service.ts",
      "no-circular: src/domain/tags/events.ts → src/domain/tags/service.ts",
    ]);
  });

  /** The areas of the order, lowest first, as .dependency-cruiser.cjs read them from docs/architecture.md. */
  const placed = config.forbidden!.find((r) => r.name === "every-area-in-the-order")!;
  const areas = /\(\?!\(([a-z|-]+)\)\//.exec(String((placed.from as { path: string }).path))![1]!.split("|");

  it("the areas' order is the list of docs/architecture.md, and every folder of src/domain has its place in it", () => {
    expect(areas.slice(0, 3)).toEqual(["shared", "mail", "actors"]);
    const folders = readdirSync(join(ROOT, "src/domain"), { withFileTypes: true }).filter((d) => d.isDirectory());
    expect(folders.map((d) => d.name).sort()).toEqual([...areas].sort());
  });

  it("the rules catch an area with no place in the order", async () => {
    expect(
      await violationsOf({
        "src/domain/shared/errors.ts": "export const fail = 1;\n",
        "src/domain/newcomer/service.ts": 'import { fail } from "../shared/errors.js";\nexport const x = fail;\n',
      }),
    ).toEqual(["every-area-in-the-order: src/domain/newcomer/service.ts → src/domain/shared/errors.ts"]);
  });

  it("the rules catch an area importing one listed after it, a type-only import too, and let it import the ones before it", async () => {
    expect(
      await violationsOf({
        "src/domain/shared/errors.ts": "export const fail = 1;\n",
        "src/domain/reports/attachments.ts": "export const attach = 1;\nexport interface Attachment { name: string }\n",
        "src/domain/mail/compose.ts":
          'import { attach } from "../reports/attachments.js";\nimport { fail } from "../shared/errors.js";\nexport const compose = [attach, fail];\n',
        "src/domain/mail/ports.ts": 'import type { Attachment } from "../reports/attachments.js";\nexport type Port = Attachment;\n',
        "src/domain/reports/produce.ts": 'import { compose } from "../mail/compose.js";\nexport const produce = compose;\n',
      }),
    ).toEqual([
      "areas-in-order: src/domain/mail/compose.ts → src/domain/reports/attachments.ts",
      "areas-in-order: src/domain/mail/ports.ts → src/domain/reports/attachments.ts",
    ]);
  });

  it("the rules catch a door that imports another door's routes, and let a door use src/http's shared records", async () => {
    expect(
      await violationsOf({
        "src/http/records/video.ts": "export const videoItem = 1;\n",
        "src/http/rest/routes/video.ts": 'import { videoItem } from "../../records/video.js";\nexport const routes = [videoItem];\n',
        "src/http/mcp/tools.ts":
          'import { routes } from "../rest/routes/video.js";\nimport { videoItem } from "../records/video.js";\nexport const tools = [routes, videoItem];\n',
      }),
    ).toEqual(["doors-stand-apart: src/http/mcp/tools.ts → src/http/rest/routes/video.ts"]);
  });

  it("the rules catch the dashboard importing the server's code, and the server importing the dashboard's", async () => {
    expect(
      (
        await violationsOf({
          "src/http/route.ts": 'import { Page } from "../../web/src/Page.js";\nexport const route = Page;\n',
          "web/src/Page.tsx": 'import { route } from "../../src/http/route.js";\nexport const Page = () => route;\n',
        })
      ).sort(),
    ).toEqual([
      "no-circular: src/http/route.ts → web/src/Page.tsx",
      "the-dashboard-is-a-client: web/src/Page.tsx → src/http/route.ts",
      "the-server-never-imports-the-dashboard: src/http/route.ts → web/src/Page.tsx",
    ]);
  });

  it("the rules catch a dashboard folder importing one above it (a page importing the app, a component a page)", async () => {
    expect(
      (
        await violationsOf({
          "web/src/app/paths.ts": 'export const paths = { home: () => "/" };\n',
          "web/src/app/routes.tsx": 'import { Page } from "../pages/home/Page.js";\nexport const routes = [Page];\n',
          "web/src/pages/home/Page.tsx": 'import { paths } from "../../app/paths.js";\nexport const Page = () => paths.home();\n',
          "web/src/components/Link.tsx": 'import { Page } from "../pages/home/Page.js";\nexport const Link = Page;\n',
          "web/src/lib/paths.ts": 'export const paths = { home: () => "/" };\n',
          "web/src/pages/home/Other.tsx": 'import { paths } from "../../lib/paths.js";\nexport const Other = () => paths.home();\n',
        })
      ).sort(),
    ).toEqual([
      "dashboard-components-imports-downward: web/src/components/Link.tsx → web/src/pages/home/Page.tsx",
      // app → pages → app: the folders import each other as well.
      "dashboard-folders-no-circle: web/src/app → web/src/pages/home",
      "dashboard-folders-no-circle: web/src/pages/home → web/src/app",
      "dashboard-pages-imports-downward: web/src/pages/home/Page.tsx → web/src/app/paths.ts",
    ]);
  });

  it("the rules catch two dashboard folders importing each other, though no file imports itself back", async () => {
    expect(
      (
        await violationsOf({
          "web/src/pages/folder/AddTo.tsx": 'import { tree } from "../folders/tree.js";\nexport const AddTo = tree;\n',
          "web/src/pages/folder/list.ts": "export const list = 1;\n",
          "web/src/pages/folders/tree.ts": "export const tree = 1;\n",
          "web/src/pages/folders/Page.tsx": 'import { list } from "../folder/list.js";\nexport const Page = list;\n',
        })
      ).sort(),
    ).toEqual([
      "dashboard-folders-no-circle: web/src/pages/folder → web/src/pages/folders",
      "dashboard-folders-no-circle: web/src/pages/folders → web/src/pages/folder",
    ]);
  });
});
