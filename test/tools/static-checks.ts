/**
 * The checks `npm test` runs before vitest, the service's and the dashboard's at once (two cores, two single-threaded
 * compilers): the service's types, and the dashboard's (its Relay artifacts first) then its lint rules. Each group's
 * output is printed when it ends, whole, so the two never interleave; the exit status is the first failure's.
 * Hand-written for two command lines, where a task runner would be one more dependency.
 */
import { spawn } from "node:child_process";

const groups: string[][] = [["npx tsc --noEmit -p ."], ["npm run --silent typecheck -w web", "npm run --silent lint -w web"]];

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
