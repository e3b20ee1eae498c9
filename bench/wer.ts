/**
 * Word error rate of the pocketsphinx transcription provider on real human speech: the LibriVox
 * clips shipped in the Debian package pocketsphinx-testdata, against their reference transcription.
 *
 * WER = (S + D + I) / N from a word-level edit distance, after lower-casing and removing
 * punctuation on both sides (nothing else: "mr" does not match "mister"). The corpus figure sums
 * the edits over all clips before dividing, so long clips weigh more, as is usual.
 *
 * Run alone with `npx tsx bench/wer.ts`; writes the `pocketsphinx-wer` section of bench/RESULTS.md.
 */
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readWavInfo } from "../src/providers/media/wav.js";
import { PocketsphinxTranscriber } from "../src/providers/transcription/pocketsphinx.js";
import { writeSection } from "./lib/results.js";

export const LIBRIVOX_DIR = "/usr/share/pocketsphinx/test/data/librivox";

export interface WordEdits {
  substitutions: number;
  deletions: number;
  insertions: number;
  /** Words in the reference. */
  referenceWords: number;
}

/** Lower case, apostrophes kept inside words, every other punctuation mark a word break (a letter's marks are of its word). */
export function normaliseWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[^\p{L}\p{M}\p{N}']+/gu, " ")
    .replace(/(^|\s)'+|'+(?=\s|$)/g, " ")
    .split(/\s+/)
    .filter(Boolean);
}

/** Levenshtein alignment over words; among equal-cost alignments any split of S/D/I is a valid count. */
export function wordEdits(reference: string[], hypothesis: string[]): WordEdits {
  const rows = reference.length + 1;
  const cols = hypothesis.length + 1;
  const cost: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const same = reference[i - 1] === hypothesis[j - 1];
      cost[i]![j] = Math.min(cost[i - 1]![j - 1]! + (same ? 0 : 1), cost[i - 1]![j]! + 1, cost[i]![j - 1]! + 1);
    }
  }
  // Walk back from the corner to count each kind of edit.
  const edits: WordEdits = { substitutions: 0, deletions: 0, insertions: 0, referenceWords: reference.length };
  let i = reference.length;
  let j = hypothesis.length;
  while (i > 0 || j > 0) {
    const here = cost[i]![j]!;
    if (i > 0 && j > 0 && here === cost[i - 1]![j - 1]! + (reference[i - 1] === hypothesis[j - 1] ? 0 : 1)) {
      if (reference[i - 1] !== hypothesis[j - 1]) edits.substitutions++;
      i--;
      j--;
    } else if (i > 0 && here === cost[i - 1]![j]! + 1) {
      edits.deletions++;
      i--;
    } else {
      edits.insertions++;
      j--;
    }
  }
  return edits;
}

export function wordErrorRate(reference: string, hypothesis: string): number {
  const e = wordEdits(normaliseWords(reference), normaliseWords(hypothesis));
  return e.referenceWords === 0 ? (e.insertions > 0 ? Infinity : 0) : (e.substitutions + e.deletions + e.insertions) / e.referenceWords;
}

/** `<s> words </s> (file-id)` per line, the format of CMU Sphinx test sets. */
export function parseReferenceFile(text: string): Map<string, string> {
  const references = new Map<string, string>();
  for (const line of text.split("\n")) {
    const m = /^(.*)\(([^()]+)\)\s*$/.exec(line.trim());
    if (m) references.set(m[2]!.trim(), m[1]!.replace(/<\/?s>/g, " ").trim());
  }
  return references;
}

interface ClipResult extends WordEdits {
  id: string;
  seconds: number;
  decodeSeconds: number;
  reference: string;
  hypothesis: string;
}

export interface WerBenchResult {
  clips: ClipResult[];
  wer: number;
  realTimeFactor: number;
  markdown: string;
}

export async function runWerBench(opts: { dir?: string; write?: boolean } = {}): Promise<WerBenchResult> {
  const dir = opts.dir ?? LIBRIVOX_DIR;
  const references = parseReferenceFile(await readFile(join(dir, "transcription"), "utf8"));
  const transcriber = new PocketsphinxTranscriber();
  const clips: ClipResult[] = [];
  for (const [id, reference] of references) {
    const wav = join(dir, `${id}.wav`);
    const seconds = (await readWavInfo(wav))?.durationSeconds ?? NaN;
    const started = performance.now();
    const { text } = await transcriber.transcribe(wav);
    const decodeSeconds = (performance.now() - started) / 1000;
    const edits = wordEdits(normaliseWords(reference), normaliseWords(text));
    clips.push({ id, seconds, decodeSeconds, reference, hypothesis: text, ...edits });
  }
  const sum = (f: (c: ClipResult) => number) => clips.reduce((t, c) => t + f(c), 0);
  const errors = sum((c) => c.substitutions + c.deletions + c.insertions);
  const wer = errors / sum((c) => c.referenceWords);
  const realTimeFactor = sum((c) => c.decodeSeconds) / sum((c) => c.seconds);
  const markdown = renderMarkdown(clips, wer, realTimeFactor);
  if (opts.write ?? true) await writeSection("pocketsphinx-wer", markdown);
  return { clips, wer, realTimeFactor, markdown };
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

function renderMarkdown(clips: ClipResult[], wer: number, rtf: number): string {
  const rows = clips.map((c) => {
    const clipWer = (c.substitutions + c.deletions + c.insertions) / c.referenceWords;
    return `| ${c.id.replace(/^sense_and_sensibility_01_austen_64kb-/, "")} | ${c.seconds.toFixed(1)} | ${c.referenceWords} | ${c.substitutions} | ${c.deletions} | ${c.insertions} | ${pct(clipWer)} | ${c.decodeSeconds.toFixed(2)} |`;
  });
  const pairs = clips.map((c) => `- ${c.id.slice(-4)}\n  - reference: ${c.reference}\n  - pocketsphinx: ${c.hypothesis || "(nothing)"}`);
  return [
    "## Speech recognition: pocketsphinx word error rate",
    "",
    `\`bench/wer.ts\`: the \`pocketsphinx\` transcription provider (pocketsphinx_continuous, Debian's US English model) on the ${clips.length} LibriVox clips of \`pocketsphinx-testdata\` (${LIBRIVOX_DIR}, read speech, 16 kHz), against the package's reference transcription. WER = (S + D + I) / N over words, lower case, punctuation removed, no other normalisation.`,
    "",
    `**Corpus WER: ${pct(wer)}** (${clips.reduce((t, c) => t + c.substitutions + c.deletions + c.insertions, 0)} errors / ${clips.reduce((t, c) => t + c.referenceWords, 0)} reference words); decoding speed ${rtf.toFixed(2)} × real time (process start and model load included).`,
    "",
    "| clip | seconds | N | S | D | I | WER | decode s |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...rows,
    "",
    "<details><summary>References and hypotheses</summary>",
    "",
    ...pairs,
    "",
    "</details>",
  ].join("\n");
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = await runWerBench();
  console.log(result.markdown);
}
