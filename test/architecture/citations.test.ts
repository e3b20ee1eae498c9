/**
 * Comments and docs cite files in the repository (docs/contract/decisions.md, never the team's
 * shared CONTRACT.md outside it), and every file they name by path exists: a move or a rename that
 * leaves a stale pointer fails here.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

function filesUnder(dir: string, keep: (path: string) => boolean): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = join(dir, name);
    if (name === "generated" || name === "node_modules") continue;
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...filesUnder(path, keep));
    else if (keep(path)) out.push(path);
  }
  return out;
}

/** This directory's tests name made-up files of throw-away trees and the words they look for. */
const sources = [
  ...filesUnder("src", (p) => p.endsWith(".ts")),
  ...filesUnder("test", (p) => p.endsWith(".ts") && !p.startsWith("test/architecture/")),
  ...filesUnder("bench", (p) => p.endsWith(".ts")),
];
const docs = ["README.md", ...filesUnder("docs", (p) => p.endsWith(".md"))];

describe("citations", () => {
  it("nothing cites CONTRACT.md (the repository's copy is docs/contract/decisions.md)", () => {
    const citing = [...sources, ...docs].filter((path) => {
      const text = readFileSync(join(ROOT, path), "utf8");
      const lines = path === "docs/contract/decisions.md" ? text.split("\n").slice(1) : text.split("\n");
      return lines.some((l) => l.includes("CONTRACT.md"));
    });
    expect(citing).toEqual([]);
  });

  it("every src/… (and web/src/…) file named in the code and the docs exists", () => {
    const missing: string[] = [];
    for (const path of [...sources, ...docs]) {
      // A path from the root: `src/…` or `web/src/…`, not the tail of another path (`web/src/…` holds `src/…`).
      for (const [cited] of readFileSync(join(ROOT, path), "utf8").matchAll(/(?<![\w./-])(?:web\/)?src\/[\w./-]+\.tsx?\b/g)) {
        if (!existsSync(join(ROOT, cited))) missing.push(`${relative(ROOT, join(ROOT, path))}: ${cited}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
