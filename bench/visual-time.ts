/**
 * `npm run bench -- visual-time`: how long the visual part of an analysis of a 60-second video takes with
 * the defaults (the target: ≤ 20 s), p50 and p95 of 10 runs.
 *
 * The video is rendered here (./lib/sixty-second-video.ts): 15 scenes of 4 s (14 cuts), a face in
 * every third scene, a text hook in the first 3 s and a caption every 10 s, 540×960 at 15 frames a second.
 * `npm run bench -- visual-time-ab` compares two checkouts on it, interleaved.
 * Each run is one `lookAtVideo` with the providers as configured (ffmpeg keyframes, tesseract, face-api) and
 * VISUAL_MAX_KEYFRAMES, in a fresh work directory; the first run also loads the face model (once per
 * process, as in a worker), and is reported on its own too. BENCH_VISUAL_RUNS changes the number of runs:
 * fewer than 10 is a smoke run, printed but not written. Writes the `visual-time` section of bench/RESULTS.md.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { config } from "../src/config.js";
import { lookAtVideo } from "../src/domain/analysis/visual/look.js";
import { createVisualProviders } from "../src/main/providers.js";
import { percentile, writeSection } from "./lib/results.js";
import { sixtySecondVideo } from "./lib/sixty-second-video.js";

const RUNS = Number(process.env.BENCH_VISUAL_RUNS ?? 10);
const TARGET_SECONDS = 20;

const root = await mkdtemp(join(tmpdir(), "visual-time-"));
try {
  const video = await sixtySecondVideo(root);

  const seconds: number[] = [];
  let keyframes = 0;
  for (let i = 0; i < RUNS; i++) {
    const workDir = await mkdtemp(join(root, "run-"));
    const started = performance.now();
    const evidence = await lookAtVideo(video, createVisualProviders(), { workDir });
    seconds.push((performance.now() - started) / 1000);
    keyframes = evidence.keyframes.length;
    if (evidence.skipped.length) throw new Error(`a visual part was skipped: ${evidence.skipped.join("; ")}`);
    await rm(workDir, { recursive: true, force: true });
    console.log(
      `  run ${i + 1}: ${seconds.at(-1)!.toFixed(1)} s, ${keyframes} keyframes, ${evidence.cutCount} cuts, text hook ${JSON.stringify(evidence.textHook)}`,
    );
  }
  const p50 = percentile(seconds, 50);
  const p95 = percentile(seconds, 95);
  const markdown = [
    "## Visual analysis: the visual part of a 60-second video (issue 30)",
    "",
    `\`npm run bench -- visual-time\`: ${RUNS} runs of \`lookAtVideo\` on a rendered 60-s video (540×960, 15 fps, 14 cuts, faces, 6 captions) with the defaults (VISUAL_MAX_KEYFRAMES=${config.visual.maxKeyframes}: ${keyframes} keyframes; ffmpeg, PaddleOCR + tesseract, face-api on WebAssembly). The target is on the median (p50).`,
    "",
    "| runs | p50 | p95 | first run (loads the face model) | target |",
    "|---:|---:|---:|---:|---:|",
    `| ${RUNS} | ${p50.toFixed(1)} s | ${p95.toFixed(1)} s | ${seconds[0]!.toFixed(1)} s | ≤ ${TARGET_SECONDS} s (${p50 <= TARGET_SECONDS ? "met" : "MISSED"} at p50) |`,
  ].join("\n");
  console.log(`\n${markdown}`);
  if (RUNS >= 10) await writeSection("visual-time", markdown);
  else console.log("(a smoke run: not written to bench/RESULTS.md)");
} finally {
  await rm(root, { recursive: true, force: true });
}
