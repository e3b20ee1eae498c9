/**
 * Tests and benches signal a process known by its pid only through test/helpers/signals.ts, which refuses the
 * numbers `kill(2)` reads as many processes: `process.kill(0, "SIGKILL")` from a test ends vitest, npm and CI's shell
 * together (a whole CI run ended so, exit 137, with nothing printed). Every `process.kill(…)` call of test/ and
 * bench/ is found in TypeScript's own parse of the file (comments and strings are not calls); the service's own
 * (src/providers/process.ts signals the process group of a child it spawned detached) and bench/ladder's
 * JavaScript, which signals the groups of the children it spawned detached, are outside the rule.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { signalProcess } from "../helpers/signals.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const HELPER = "test/helpers/signals.ts";

function tsFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = `${dir}/${name}`;
    if (name === "node_modules" || name === ".data" || name === "generated") continue;
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...tsFilesUnder(path));
    else if ([".ts", ".mts"].includes(extname(name))) out.push(path);
  }
  return out;
}

/** The `process.kill(…)` calls of one file, as `path:line`. */
function processKills(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === "kill" &&
      node.expression.expression.getText(file) === "process"
    ) {
      found.push(`${path}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("signals to a pid", () => {
  it("every process.kill of test/ and bench/ is the helper's", () => {
    const calls = [...tsFilesUnder("test"), ...tsFilesUnder("bench")].flatMap((p) => processKills(p, readFileSync(join(ROOT, p), "utf8")));
    expect(calls.filter((c) => !c.startsWith(`${HELPER}:`))).toEqual([]);
    expect(calls.length).toBe(1); // the helper's own, found: the search does see calls
  });

  it("finds a call written another way round (so the rule cannot pass by seeing nothing)", () => {
    const text = `const pid = Number(await readFile(f, "utf8"));\n// process.kill(1) in a comment\nprocess.kill(pid, "SIGKILL");\n`;
    expect(processKills("test/x.test.ts", text)).toEqual(["test/x.test.ts:3"]);
  });

  it("the helper refuses what kill(2) reads as more than one process, and this process", () => {
    for (const pid of [Number(""), 0, -1, -process.pid, 1, Number.NaN, 2.5, process.pid]) {
      expect(() => signalProcess(pid, 0)).toThrow(/refusing to signal/);
    }
    expect(signalProcess(process.ppid, 0)).toBe(true);
    expect(signalProcess(2 ** 22 + 1, 0)).toBe(false); // past pid_max: no such process
  });
});
