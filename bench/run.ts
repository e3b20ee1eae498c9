/**
 * `npm run bench [-- name ...]`: runs the benchmarks one after another, each in its own process
 * (each creates and drops its own database), and each writes its section of bench/RESULTS.md.
 * Benchmarks are never part of `npm test`.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ALL = [
  "ladder",
  "start-time",
  "tracking",
  "folders-analytics",
  "analysis",
  "radar-catalog",
  "radar-search",
  "wer",
  "history",
  "history-partitions",
  "scheduler",
  "metrics-cost",
  "scrape-collectors",
  "traces-cost",
  "abuse-bounds",
  "dashboard",
  "agency",
  "topology",
  "pothos-prisma",
  "analysis-eval",
  "analysis-eval-real",
  "analysis-eval-transcripts",
  "visual-time",
  "exports",
];
// Not in ALL: `webhooks` (the fan-out takes minutes) and `subscribers` (10,000 live connections, minutes) run only when named:
// `npm run bench -- webhooks`, `npm run bench -- subscribers`; `visual-time-ab` compares two checkouts (BENCH_VISUAL_BASE).
const dir = fileURLToPath(new URL(".", import.meta.url));
const wanted = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ALL;

let failed = 0;
for (const name of wanted) {
  const file = `${dir}${name}.ts`;
  if (!existsSync(file)) {
    console.log(`-- ${name}: no benchmark file, skipped`);
    continue;
  }
  console.log(`\n== bench ${name}`);
  const started = Date.now();
  const r = spawnSync(process.execPath, ["--import", "tsx", file], { stdio: "inherit", env: process.env });
  console.log(
    `== ${name}: ${r.status === 0 ? "done" : `FAILED (${r.status ?? r.signal})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  if (r.status !== 0) failed++;
}
console.log(failed ? `\n${failed} benchmark(s) failed` : "\nAll benchmarks done; figures are in bench/RESULTS.md");
process.exit(failed ? 1 : 0);
