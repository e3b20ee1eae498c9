/**
 * `npm run bench -- start-time`: how long the API role takes from `node` to "API listening", three ways
 * to run its TypeScript on Node 24, alternated (BENCH_START_RUNS each, default 7):
 * - **strip**: `node src/main/api.ts`, Node's own type stripping: what `npm start:api` runs;
 * - **tsx**: `node --import tsx src/main/api.ts`, the loader the service used before;
 * - **built**: `tsc` once into a temporary directory, then `node dist/src/main/api.js` (a build step at set-up).
 * Same database and Redis, the process killed once it listens. Writes the `start-time` section of bench/RESULTS.md.
 */
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, copyFileSync } from "node:fs";
import { tmpdir, loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { machineLine, writeSection } from "./lib/results.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RUNS = Number(process.env.BENCH_START_RUNS ?? 7);
const env = {
  ...process.env,
  PORT: "0",
  HOST: "127.0.0.1",
  LOG_LEVEL: "info",
  SEED_DEMO: "false",
  NODE_ENV: "production",
  REDIS_PREFIX: "benchstart",
};

function timeToListen(cwd: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const on = (d: Buffer) => {
      out += d.toString();
      if (/API listening/.test(out)) {
        resolve(performance.now() - t0);
        child.kill("SIGKILL");
      }
    };
    child.stdout.on("data", on);
    child.stderr.on("data", on);
    child.once("exit", () => reject(new Error(`exited before listening:\n${out.slice(-2000)}`)));
  });
}

const built = mkdtempSync(join(tmpdir(), "start-built-"));
console.log(`building into ${built} (tsc)…`);
const buildStarted = performance.now();
execFileSync(
  process.execPath,
  [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", ROOT, "--noEmit", "false", "--outDir", built, "--sourceMap", "false"],
  { stdio: "inherit" },
);
const buildSeconds = (performance.now() - buildStarted) / 1000;
symlinkSync(join(ROOT, "node_modules"), join(built, "node_modules"));
copyFileSync(join(ROOT, "package.json"), join(built, "package.json"));
// Files the service reads beside its modules, which tsc does not emit (GraphiQL's page script).
copyFileSync(join(ROOT, "src/http/graphql/graphiql-page.js"), join(built, "src/http/graphql/graphiql-page.js"));

const arms: Record<string, [string, string[]]> = {
  strip: [ROOT, ["src/main/api.ts"]],
  tsx: [ROOT, ["--import", "tsx", "src/main/api.ts"]],
  built: [built, ["src/main/api.js"]],
};
const times: Record<string, number[]> = { strip: [], tsx: [], built: [] };
const loadBefore = loadavg()[0]!;
try {
  for (let i = 0; i < RUNS; i++) {
    const order = i % 2 ? ["built", "tsx", "strip"] : ["strip", "tsx", "built"];
    for (const arm of order) times[arm]!.push(await timeToListen(...arms[arm]!));
  }
} finally {
  rmSync(built, { recursive: true, force: true });
}
const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
const rows = Object.entries(times).map(([arm, t]) => `| ${arm} | ${median(t).toFixed(0)} | ${t.map((x) => x.toFixed(0)).join(" / ")} |`);
const strip = median(times.strip!);
const markdown = `## Start time: the API role, from \`node\` to listening

Command: \`npm run bench -- start-time\` (BENCH_START_RUNS=${RUNS}, alternated). **strip** is what \`npm run start:api\` runs
(\`node src/main/api.ts\`, Node 24's type stripping, no loader); **tsx** the loader used before; **built** a \`tsc\` build made
once (${buildSeconds.toFixed(0)} s here) and run as JavaScript. 1-minute load average ${loadBefore.toFixed(2)} at the start, ${loadavg()[0]!.toFixed(2)} at the end.

| way | median ms | runs (ms) |
|---|---:|---|
${rows.join("\n")}

- Type stripping starts in ${((1 - strip / median(times.tsx!)) * 100).toFixed(0)} % less time than tsx; a build would save ${(strip - median(times.built!)).toFixed(0)} ms more
  per start, at the price of a build step at set-up and after every change: not taken (README "Run it").

${machineLine()}
`;
await writeSection("start-time", markdown);
console.log(markdown);
