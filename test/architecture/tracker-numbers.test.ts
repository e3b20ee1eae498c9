/**
 * No tracker numbers in code comments: a reader of the code has no tracker, so a comment says why in
 * words and leaves which ticket asked for it to git and docs/ (where history may keep its references).
 * Every comment of src/, test/, bench/ and web/ is read from TypeScript's own parse of the file (CSS
 * and SQL comments by their delimiters); strings are not comments and are left alone. A link to another
 * project's issue is a URL, which this rule lets through.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TREES = ["src", "test", "bench", "web"];
const SKIPPED = new Set(["node_modules", "dist", "generated", "__generated__", "coverage"]);
const EXTENSIONS = new Set([".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".css", ".sql"]);

/** A ticket named by its number: one of the words issue, PR, pull request or ticket before a number, or a number after a bare hash sign. */
const TRACKER_NUMBER = [/\b(?:issues?|tickets?|PRs?|pull requests?)\s*#?\d+/i, /(?:^|[\s(\[,;:])#\d+\b(?!["'])/];

/** Whether a comment names a ticket, also across a line break (the next line's `*` or `//` set aside). */
function namesATicket(comment: string): boolean {
  const words = comment.replace(/\s*\n\s*(?:\*(?!\/)|\/\/)?\s*/g, " ");
  return TRACKER_NUMBER.some((rx) => rx.test(words));
}

const SCRIPT_KINDS: Record<string, ts.ScriptKind> = {
  ".ts": ts.ScriptKind.TS,
  ".mts": ts.ScriptKind.TS,
  ".cts": ts.ScriptKind.TS,
  ".tsx": ts.ScriptKind.TSX,
  ".js": ts.ScriptKind.JS,
  ".mjs": ts.ScriptKind.JS,
  ".cjs": ts.ScriptKind.JS,
  ".jsx": ts.ScriptKind.JSX,
};

/**
 * The comments of a source file, each with the line it starts on: the comments before and after each
 * token of the parsed file (a parse, not a bare scan, so a regular expression or a template literal is
 * never taken for the start of a comment).
 */
function commentsOf(text: string, path: string): { line: number; text: string }[] {
  const at = (offset: number) => text.slice(0, offset).split("\n").length;
  const ext = extname(path);
  if (ext === ".css" || ext === ".sql") {
    const rx = ext === ".css" ? /\/\*[\s\S]*?\*\//g : /--[^\n]*|\/\*[\s\S]*?\*\//g;
    return [...text.matchAll(rx)].map((m) => ({ line: at(m.index), text: m[0] }));
  }
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, SCRIPT_KINDS[ext]);
  const ranges = new Map<number, number>();
  const isJSDoc = (node: ts.Node) => node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode;
  const visit = (node: ts.Node): void => {
    const children = node.getChildren(file).filter((child) => !isJSDoc(child));
    if (children.length > 0) return children.forEach(visit);
    const around = [
      ...(ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []),
      ...(ts.getTrailingCommentRanges(text, node.getEnd()) ?? []),
    ];
    for (const r of around) ranges.set(r.pos, r.end);
  };
  visit(file);
  return [...ranges].map(([pos, end]) => ({ line: at(pos), text: text.slice(pos, end) }));
}

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (SKIPPED.has(name)) return [];
    if (statSync(join(ROOT, path)).isDirectory()) return filesUnder(path);
    return EXTENSIONS.has(extname(name)) ? [path] : [];
  });
}

describe("tracker numbers", () => {
  it("no comment in src/, test/, bench/ or web/ names a ticket by its number (keep the why, drop the number)", () => {
    const files = TREES.flatMap(filesUnder);
    expect(files.length).toBeGreaterThan(500);
    const named = files.flatMap((path) => {
      const text = readFileSync(join(ROOT, path), "utf8");
      // Only a file whose text names a ticket somewhere can have a comment that does: the others need no parse.
      if (!namesATicket(text)) return [];
      return commentsOf(text, path)
        .filter((c) => namesATicket(c.text))
        .map((c) => {
          const lines = c.text.split("\n");
          const i = Math.max(
            lines.findIndex((l) => namesATicket(l)),
            0,
          );
          return `${path}:${c.line + i}: ${lines[i]!.trim()}`;
        });
    });
    expect(named).toEqual([]);
  });

  it("catches the forms a ticket is named in, in comments only", () => {
    const source = [
      "/** Bounded answers (issue 24, items 5 and 7). */",
      "// See #41 for the story.",
      'const title = "issue 22 in a string is not a comment";',
      "const slashes = /\\/\\//g; const t = `${slashes}`; // after a regular expression and a template: issue 5",
      '/* the hashtag "#1" is a number; https://github.com/graphql-hive/graphql-yoga/issues/4583 is a link */',
      "// the issue's targets, in words",
      "/**",
      " * A reset mail (its own budget: issue",
      " * 29, across a line break).",
      " */",
    ].join("\n");
    const flagged = commentsOf(source, "x.ts")
      .filter((c) => namesATicket(c.text))
      .map((c) => c.line);
    expect(flagged).toEqual([1, 2, 4, 7]);
    expect(commentsOf("a { color: #111; } /* PR 7 */", "x.css").filter((c) => namesATicket(c.text))).toHaveLength(1);
    expect(commentsOf("const el = <b>{/* ticket 9 */}</b>;", "x.tsx").filter((c) => namesATicket(c.text))).toHaveLength(1);
  });
});
