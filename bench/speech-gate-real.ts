/**
 * `npx tsx bench/speech-gate-real.ts`: the transcript's gate (src/domain/analysis/speech.ts) on the real clips of
 * bench/analysis-eval/real that have sound: pocketsphinx on each clip's first 60 s, then the gate at the default
 * floor; agreement with the manifest's `speechLanguage` label, read as "used exactly when the speech is English".
 * A clip labelled null may have no speech or unlabelled speech, so the agreement is a rough figure. Prints only
 * (about 2.5 minutes on two busy cores); the figure is quoted in the README ("What a video lacks").
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { recognisedEvidence } from "../src/domain/analysis/speech.js";
import { PocketsphinxTranscriber } from "../src/providers/transcription/pocketsphinx.js";

interface Clip {
  id: string;
  file: string;
  heldOut: boolean;
  encoded: { audio: boolean };
  labels: { speechLanguage: string | null };
}

const dir = join(import.meta.dirname, "analysis-eval/real");
const { clips } = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as { clips: Clip[] };
const work = await mkdtemp(join(tmpdir(), "speech-gate-real-"));
const recogniser = new PocketsphinxTranscriber();
let agree = 0;
let total = 0;
try {
  for (const c of clips.filter((c) => c.encoded.audio)) {
    const wav = join(work, `${c.id}.wav`);
    execFileSync("ffmpeg", ["-loglevel", "error", "-y", "-i", join(dir, c.file), "-vn", "-ar", "16000", "-ac", "1", "-t", "60", wav]);
    const t = await recogniser.transcribe(wav);
    const e = recognisedEvidence(t, "pocketsphinx", 0.5);
    const ok = e.used === (c.labels.speechLanguage === "en");
    total++;
    if (ok) agree++;
    console.log(
      `${c.heldOut ? "held out" : "tuning  "} ${c.id.padEnd(22)} speech ${String(c.labels.speechLanguage).padEnd(4)} confidence ${String(e.confidence).padEnd(5)} used ${String(e.used).padEnd(5)} ${ok ? "agrees" : "DISAGREES"} | ${t.text.slice(0, 50)}`,
    );
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
console.log(`the gate agrees with the label (used exactly when the speech is English) on ${agree} of ${total} clips with sound`);
