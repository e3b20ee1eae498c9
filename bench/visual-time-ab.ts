/**
 * `BENCH_VISUAL_BASE=<another checkout> npm run bench -- visual-time-ab`: the visual part of the visual-time bench's
 * 60-second video, this checkout against another (say main's worktree), interleaved: two worker processes, one per
 * checkout, each with its models loaded once (as a worker keeps them), asked in turn for one `lookAtVideo` each,
 * BENCH_VISUAL_RUNS rounds (default 5) after a warm-up round that is reported apart. On a shared machine both
 * arms meet the same load, so their ratio means more than either time; the load average is printed with it.
 * Prints a table; writes nothing (the figures go into bench/RESULTS.md by hand, with the load).
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { sixtySecondVideo } from "./lib/sixty-second-video.js";

const RUNS = Number(process.env.BENCH_VISUAL_RUNS ?? 5);
const here = resolve(fileURLToPath(new URL("..", import.meta.url)));
const base = process.env.BENCH_VISUAL_BASE;

interface Answer {
  seconds: number;
  keyframes: number;
  cuts: number;
  lines: string[];
}

/** One arm: a process that loads the checkout's visual stage and runs it once per line read. */
function arm(root: string, video: string, workRoot: string) {
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--worker", root, video, workRoot], {
    cwd: root,
    stdio: ["pipe", "pipe", "inherit"],
  });
  const answers = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  return {
    async once(): Promise<Answer> {
      child.stdin!.write("run\n");
      const { value, done } = await answers.next();
      if (done) throw new Error(`the ${root} arm ended`);
      return JSON.parse(value as string) as Answer;
    },
    stop: () => child.stdin!.end(),
  };
}

async function worker(root: string, video: string, workRoot: string): Promise<void> {
  const { lookAtVideo } = await import(join(root, "src/domain/analysis/visual/look.ts"));
  const { createVisualProviders } = await import(join(root, "src/main/providers.ts"));
  const { closeFaceDetector } = await import(join(root, "src/providers/vision/face-api.ts"));
  for await (const _ of createInterface({ input: process.stdin })) {
    const workDir = await mkdtemp(join(workRoot, "run-"));
    const started = performance.now();
    const evidence = await lookAtVideo(video, createVisualProviders(), { workDir });
    const seconds = (performance.now() - started) / 1000;
    await rm(workDir, { recursive: true, force: true });
    const answer: Answer = {
      seconds,
      keyframes: evidence.keyframes.length,
      cuts: evidence.cutCount,
      lines: evidence.onScreenText.map((l: { text: string }) => l.text),
    };
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  }
  await closeFaceDetector();
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ");

async function main(): Promise<void> {
  if (!base) throw new Error("BENCH_VISUAL_BASE: the checkout to compare this one with (its dependencies installed)");
  const root = await mkdtemp(join(tmpdir(), "visual-time-ab-"));
  try {
    const video = await sixtySecondVideo(root);
    const arms = { base: arm(resolve(base), video, root), this: arm(here, video, root) };
    const times: Record<keyof typeof arms, number[]> = { base: [], this: [] };
    console.log(`load average at the start ${load()}`);
    for (let round = 0; round <= RUNS; round++) {
      // Alternate which arm goes first, so neither always follows the other.
      const order: (keyof typeof arms)[] = round % 2 ? ["this", "base"] : ["base", "this"];
      for (const name of order) {
        const answer = await arms[name].once();
        if (round > 0) times[name].push(answer.seconds);
        console.log(
          `  ${round === 0 ? "warm-up" : `round ${round}`} ${name}: ${answer.seconds.toFixed(1)} s, ${answer.keyframes} keyframes, ${answer.cuts} cuts, ${JSON.stringify(answer.lines)} (load ${load()})`,
        );
      }
    }
    for (const a of Object.values(arms)) a.stop();
    const [b, t] = [median(times.base), median(times.this)];
    console.log(
      [
        "",
        `| arm | runs | median | runs (s) |`,
        `|---|---:|---:|---|`,
        `| ${base} | ${RUNS} | ${b.toFixed(1)} s | ${times.base.map((s) => s.toFixed(1)).join(", ")} |`,
        `| ${here} | ${RUNS} | ${t.toFixed(1)} s | ${times.this.map((s) => s.toFixed(1)).join(", ")} |`,
        "",
        `this / base: ${(t / b).toFixed(2)}; load average at the end ${load()}`,
      ].join("\n"),
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

if (process.argv[2] === "--worker") await worker(process.argv[3]!, process.argv[4]!, process.argv[5]!);
else await main();
