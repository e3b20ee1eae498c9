/**
 * Tests and benches signal a process known by its pid only through test/helpers/signals.ts, which refuses the
 * numbers `kill(2)` reads as many processes: `process.kill(0, "SIGKILL")` from a test ends vitest, npm and CI's shell
 * together (a whole CI run ended so, exit 137, with nothing printed). Every way of reaching `process.kill` in test/ and
 * bench/, and every shell line in a string that signals a group or 0, is found in TypeScript's own parse of the file
 * (comments are not code); the service's own
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

/** `process`, `globalThis.process`, seen through parentheses, `as`, `satisfies` and `!`. */
function isProcess(node: ts.Expression, file: ts.SourceFile): boolean {
  let e: ts.Expression = node;
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e))
    e = e.expression;
  const text = e.getText(file);
  return text === "process" || text === "globalThis.process";
}

/** A shell line in a string that signals a group, 0 or by name (`kill 0`, `kill -9 -- -123`, `kill -KILL -$pid`, pkill). */
const SHELL_GROUP_KILL = /\b(?:pkill|killall)\b|\bkill\b(?:\s+-[A-Za-z0-9]+)*\s+(?:0\b|--\s|-\$)/;

/**
 * The ways one file reaches `kill(2)`, as `path:line`: `process.kill` read in any form (a call, `process["kill"]`,
 * `(process as any).kill`, passed on as a value), `kill` destructured from the process, the process itself named
 * another way (`const p = process`, an import of node:process), and a shell line in a string that signals a group.
 */
function processKills(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const at = (node: ts.Node) => found.push(`${path}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}`);
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && node.name.text === "kill" && isProcess(node.expression, file)) at(node);
    else if (
      ts.isElementAccessExpression(node) &&
      ts.isStringLiteralLike(node.argumentExpression) &&
      node.argumentExpression.text === "kill" &&
      isProcess(node.expression, file)
    )
      at(node);
    else if (ts.isVariableDeclaration(node) && node.initializer && isProcess(node.initializer, file)) at(node);
    else if (
      ts.isImportDeclaration(node) &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      /^(node:)?process$/.test(node.moduleSpecifier.text)
    )
      at(node);
    else if ((ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) && SHELL_GROUP_KILL.test(node.text)) at(node);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("signals to a pid", () => {
  it("every process.kill of test/ and bench/ is the helper's", () => {
    const calls = [...tsFilesUnder("test"), ...tsFilesUnder("bench")].flatMap((p) => processKills(p, readFileSync(join(ROOT, p), "utf8")));
    // This file's own examples are strings of the rule's cases.
    expect(calls.filter((c) => !c.startsWith(`${HELPER}:`) && !c.startsWith("test/architecture/signals.test.ts:"))).toEqual([]);
    expect(calls.filter((c) => c.startsWith(`${HELPER}:`))).toHaveLength(1); // the helper's own, found: the search does see calls
  });

  it("finds each way of writing it, and not a comment or a child's own kill (so the rule cannot pass by seeing nothing)", () => {
    const ways = [
      `process.kill(pid, "SIGKILL");`,
      `process?.kill(pid, 0);`,
      `globalThis.process.kill(pid);`,
      `process["kill"](pid);`,
      `(process as any).kill(pid);`,
      `process!.kill(pid);`,
      `[1, 2].forEach(process.kill);`,
      `const { kill } = process;`,
      `const p = process;`,
      `import { kill } from "node:process";`,
      `execSync("kill -9 0");`,
      `execSync(\`kill -KILL -- -\${pid}\`);`,
      `execSync("pkill -f worker");`,
    ];
    for (const way of ways)
      expect(processKills("test/x.test.ts", `// process.kill(1) in a comment\n${way}\n`), way).toEqual(["test/x.test.ts:2"]);
    const fine = `child.kill("SIGKILL");\nconst killed = process.pid;\nexecSync("kill -TERM 1234");\n// kill 0\n`;
    expect(processKills("test/x.test.ts", fine)).toEqual([]);
  });

  it("the helper refuses what kill(2) reads as more than one process, and this process", () => {
    for (const pid of [Number(""), 0, -1, -process.pid, 1, Number.NaN, 2.5, process.pid]) {
      expect(() => signalProcess(pid, 0)).toThrow(/refusing to signal/);
    }
    expect(signalProcess(process.ppid, 0)).toBe(true);
    expect(signalProcess(2 ** 22 + 1, 0)).toBe(false); // past pid_max: no such process
  });
});
