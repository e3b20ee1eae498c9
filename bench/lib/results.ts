/**
 * Writes one benchmark's figures into bench/RESULTS.md, replacing only that benchmark's section
 * (between `<!-- section:NAME -->` markers), so each benchmark can be re-run on its own.
 */
import { readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import { fileURLToPath } from "node:url";

const RESULTS = fileURLToPath(new URL("../RESULTS.md", import.meta.url));
const HEADER =
  "# Benchmark results\n\nWritten by `npm run bench` (see bench/README section in the project README). Each section is replaced when its benchmark runs again.\n";

export function machineLine(): string {
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  // The load average when the section is written (1, 5 and 15 minutes): every figure above is only
  // comparable with runs on an equally quiet machine (2 cores shared with whatever else runs).
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ");
  return `Machine: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}, ${new Date().toISOString()}, load average ${load} (1/5/15 min) when written`;
}

export async function writeSection(name: string, markdown: string): Promise<void> {
  let text = await readFile(RESULTS, "utf8").catch(() => HEADER);
  const start = `<!-- section:${name} -->`;
  const end = `<!-- /section:${name} -->`;
  const block = `${start}\n${markdown.trim()}\n\n${machineLine()}\n${end}`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  text = i >= 0 && j > i ? text.slice(0, i) + block + text.slice(j + end.length) : `${text.trimEnd()}\n\n${block}\n`;
  await writeFile(RESULTS, text);
}

/** Percentile of a list of numbers (nearest-rank). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}
