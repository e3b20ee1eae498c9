/**
 * The checks `npm test` runs before vitest, two at a time (two cores): the service's types then the dashboard's (its
 * Relay artifacts first), beside the dashboard's lint rules. Types are checked by TypeScript 7, the native compiler
 * (package `typescript-7`, called by its path: both TypeScript packages name their program `tsc`): the service's types
 * in about 10 s beside the lint, where TypeScript 5.9 took 21 s. TypeScript 5.9 stays as `typescript` for typescript-eslint, which needs
 * the JavaScript API TypeScript 7 does not ship. Each group's output is printed when it ends, whole, so the two never
 * interleave; the exit status is the first failure's. Hand-written for two command lines, where a task runner would
 * be one more dependency.
 */
import { spawn } from "node:child_process";

const groups: string[][] = [
  ["node node_modules/typescript-7/bin/tsc --noEmit -p .", "npm run --silent typecheck -w web"],
  ["npm run --silent lint -w web"],
];

function run(command: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

async function runGroup(commands: string[]): Promise<number> {
  for (const command of commands) {
    const started = Date.now();
    const { code, output } = await run(command);
    process.stdout.write(`> ${command} (${((Date.now() - started) / 1000).toFixed(1)} s)\n${output}`);
    if (code !== 0) return code;
  }
  return 0;
}

const codes = await Promise.all(groups.map(runGroup));
process.exitCode = codes.find((c) => c !== 0) ?? 0;
