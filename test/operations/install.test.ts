/**
 * A quiet install that says what is true (README, "What `npm ci` prints, and why"): `engines` is the service's
 * Node.js (the pinned 24) and `devEngines` npm's (20.19+); every installed package fits the Node.js that runs it (the
 * check npm makes against the wrong Node.js, made here against the right one: src/main/install-check.ts); every
 * dependency with an install script is approved or denied in package.json, with the README saying why.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import semver from "semver";
import { describe, expect, it } from "vitest";
import { engineMismatches, npmOutside } from "../../src/main/install-check.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  engines: { node: string };
  devEngines: { runtime: { name: string; version: string }; packageManager: { name: string; version: string } };
  dependencies: Record<string, string>;
  allowScripts: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
  packages: Record<string, { hasInstallScript?: boolean; version?: string }>;
};
const pinnedNode = pkg.dependencies.node!;

describe("engines", () => {
  it("say what is true: the service runs on the pinned Node.js 24, npm runs on the system's 20.19+", () => {
    expect(semver.valid(pinnedNode)).toBe(pinnedNode); // one version, not a range
    expect(semver.satisfies(pinnedNode, pkg.engines.node)).toBe(true);
    expect(semver.satisfies("20.19.0", pkg.engines.node)).toBe(false);
    expect(pkg.devEngines.runtime).toMatchObject({ name: "node" });
    expect(semver.satisfies("20.19.0", pkg.devEngines.runtime.version)).toBe(true);
    expect(pkg.devEngines.packageManager).toMatchObject({ name: "npm" });
    expect(process.version).toBe(`v${pinnedNode}`); // the tests run on it too
  });

  it("of every installed package admit the Node.js that runs them (npm's check, made against that Node.js)", () => {
    expect(engineMismatches(`v${pinnedNode}`)).toEqual([]);
    // The same check against the system's Node.js finds what npm would warn about: it is no check of nothing.
    expect(engineMismatches("v20.19.0").map((m) => m.path)).toContain("node_modules/react-router");
  });

  it("npm's version is read from the user agent npm gives its scripts", () => {
    expect(npmOutside(">=11.19", "npm/10.8.2 node/v20.19.0 linux x64 workspaces/false")).toBe("10.8.2");
    expect(npmOutside(">=11.19", "npm/11.19.1 node/v20.20.2 linux x64 workspaces/false")).toBeNull();
    expect(npmOutside(">=11.19", "")).toBeNull();
  });
});

describe("install scripts", () => {
  const decided = (name: string) => Object.keys(pkg.allowScripts).find((key) => key === name || key.startsWith(`${name}@`));

  it("of every dependency that has one are approved or denied in package.json, and a new one fails the install", () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([path, entry]) => path && entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length));
    expect(withScripts.length).toBeGreaterThan(0);
    expect(withScripts.filter((name) => !decided(name))).toEqual([]);
    const npmrc = readFileSync(join(ROOT, ".npmrc"), "utf8");
    expect(npmrc).toMatch(/^strict-allow-scripts=true$/m);
    expect(npmrc).toMatch(/^loglevel=error$/m);
  });

  it("are decided in the README's table, each with its reason: approved exactly where package.json approves", () => {
    const rows = readme()
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => /^\| `[^|]+\| [^|]+\| (\*\*approved\*\*|denied)/.test(line));
    const named = (row: string) => [...row.split("|")[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    const approved = rows.filter((r) => r.includes("**approved**")).flatMap(named);
    const denied = rows.filter((r) => !r.includes("**approved**")).flatMap(named);
    const keyName = (key: string) => key.replace(/(?<=.)@.*$/, "");
    expect(approved.sort()).toEqual(
      Object.keys(pkg.allowScripts)
        .filter((k) => pkg.allowScripts[k])
        .map(keyName)
        .sort(),
    );
    expect(denied.sort()).toEqual(
      Object.keys(pkg.allowScripts)
        .filter((k) => !pkg.allowScripts[k])
        .map(keyName)
        .sort(),
    );
  });
});

const readme = () => readFileSync(join(ROOT, "README.md"), "utf8");
